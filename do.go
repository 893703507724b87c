package padapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// DefaultBaseURL is the public Pad Interview Service, the base URL FromEnv
// uses when PAD_BASE_URL is not set.
const DefaultBaseURL = "https://app.coderpad.io"

// FromEnv returns a client for the service that PAD_BASE_URL names
// (DefaultBaseURL when it is unset or empty) with the key in PAD_API_KEY,
// as the Python client's from_env does. A missing key is an error matching
// ErrInvalidArgument.
func FromEnv(opts ...Option) (*Client, error) {
	base := os.Getenv("PAD_BASE_URL")
	if base == "" {
		base = DefaultBaseURL
	}
	return NewClient(base, os.Getenv("PAD_API_KEY"), opts...)
}

// Do sends one request to the service through the same pipeline as the
// typed methods (auth, retries, the size cap, the key scrub, POST safety)
// and decodes a successful answer into v. It reaches an endpoint or a field
// the typed methods do not cover yet.
//
// path is the escaped API path below the base URL ("/api/pads/ABC"); it
// must start with "/" and carry no query, fragment, "." or ".." segment.
// params go in the query of a GET or DELETE and form-encoded in the body
// of a POST or PUT (nil: none). v is a pointer to decode the body into, a
// *json.RawMessage to receive the service's bytes as they came, or nil.
//
// A body whose "status" is not "OK" is an *APIError, as for the typed
// methods. A PUT or DELETE answered with an empty body succeeds and leaves v
// as it was.
func (c *Client) Do(ctx context.Context, method, path string, params url.Values, v any) error {
	r := request{method: method, path: path, gone: method == http.MethodDelete}
	switch method {
	case http.MethodGet, http.MethodDelete:
		r.query = params
	case http.MethodPost, http.MethodPut:
		if len(params) > 0 {
			r.body = &body{contentType: "application/x-www-form-urlencoded", data: []byte(params.Encode())}
		}
		r.quota = method == http.MethodPost && strings.TrimSuffix(path, "/") == "/api/pads"
	default:
		return argError("Do: method " + quoteShort([]byte(method)) + ": need GET, POST, PUT or DELETE")
	}
	if err := checkPath(path); err != nil {
		return err
	}
	_, err := c.do(ctx, r, &anyResponse{v: v})
	return err
}

// checkPath refuses a Do path that would leave the base URL or hide a
// query: the pipeline appends it to the base URL as it is.
func checkPath(p string) error {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#\\") || strings.Contains(p, "//") {
		return argError("Do: path " + quoteShort([]byte(p)) + ": need an escaped path starting with / and without a query")
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return argError("Do: path " + quoteShort([]byte(p)) + ": has a . or .. segment")
		}
		for _, r := range seg {
			if r < 0x21 || r == 0x7f {
				return argError("Do: path has a space or control character")
			}
		}
	}
	return nil
}

// anyResponse decodes a Do answer: its envelope for the pipeline's status
// check, and the whole body into the caller's v.
type anyResponse struct {
	wireStatus
	v any
}

// UnmarshalJSON reads the envelope, then hands the body to v as it is.
func (r *anyResponse) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.wireStatus); err != nil {
		return err
	}
	switch v := r.v.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*v = append((*v)[:0], b...)
		return nil
	default:
		return json.Unmarshal(b, v)
	}
}

// Close releases the idle connections of the transport the client built
// for itself. It does nothing to a caller's *http.Client (WithHTTPClient).
// The client stays usable: a later call opens new connections.
func (c *Client) Close() {
	if t, ok := c.rc.HTTPClient.Transport.(*transport); ok && t.caller == nil {
		if ci, ok := t.own.(interface{ CloseIdleConnections() }); ok {
			ci.CloseIdleConnections()
		}
	}
}
