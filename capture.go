// capture.go: the per-call options carried by a context: WithResponse
// (what the service answered) and WithDryRun (what the call would send).

package padapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// Response is what the service answered to the last attempt of a call,
// filled by a call whose context came from WithResponse.
type Response struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Header is the answer's HTTP header.
	Header http.Header
	// Body is the answer's body as the service sent it, byte for byte, up
	// to the client's size cap (WithMaxResponseBytes). Of an error answer
	// it holds as much as the client read: the first 64 KiB or so.
	Body []byte
}

type responseKey struct{}

// WithResponse returns a context under which a call (a typed method or Do)
// fills resp with the status, header and body of its last attempt, as the
// service sent them, whether the call succeeds or not. A call that got no
// answer leaves resp zero. A call without it pays nothing.
//
// Use one resp per call: calls made at once under the same context would
// write to the same Response. A list iterator fills it for every page.
func WithResponse(ctx context.Context, resp *Response) context.Context {
	return context.WithValue(ctx, responseKey{}, resp)
}

// responseFrom is the Response a call's context asks to fill, or nil.
func responseFrom(ctx context.Context) *Response {
	r, _ := ctx.Value(responseKey{}).(*Response)
	return r
}

// record fills the caller's WithResponse, when it asked for one, with the
// answer's status and header, and body as what was read of it.
func (out outcome) record(resp *http.Response, body []byte) {
	if out.capture != nil {
		*out.capture = Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body}
	}
}

// ErrDryRun is the error of every call made under WithDryRun: it was
// validated and encoded, and not sent.
var ErrDryRun = errors.New("dry run: not sent")

// Request is what a call would send, filled by a call whose context came
// from WithDryRun. It never holds the API key: the Authorization header is
// not part of it.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path is the escaped API path below the base URL ("/api/pads/ABC"),
	// or the absolute URL of a request that leaves the base URL (an edit
	// history document, sent without the key).
	Path string
	// Query is the query of a GET or DELETE; nil for none.
	Query url.Values
	// ContentType is the body's media type ("application/x-www-form-urlencoded",
	// multipart/form-data with its boundary, or "application/json" for the
	// routes that take JSON); "" without a body.
	ContentType string
	// Body is the form-encoded, multipart or JSON body; nil for none.
	Body []byte
}

type dryRunKey struct{}

// WithDryRun returns a context under which a call (a typed method or Do)
// validates its arguments and encodes its request as usual, fills req with
// what it would send, and returns an error matching ErrDryRun without
// sending anything. A call whose arguments are refused returns that error
// (ErrInvalidArgument) and leaves req as it was. A method that makes
// several requests (an iterator, Transcript) stops at its first.
func WithDryRun(ctx context.Context, req *Request) context.Context {
	return context.WithValue(ctx, dryRunKey{}, req)
}

// dryRun fills the caller's Request and returns ErrDryRun when ctx asks for
// a dry run; otherwise it returns nil.
func (r *request) dryRun(ctx context.Context) error {
	out, ok := ctx.Value(dryRunKey{}).(*Request)
	if !ok || out == nil {
		return nil
	}
	*out = Request{Method: r.method, Path: r.path}
	if r.link != "" {
		out.Path = r.link
	}
	if len(r.query) > 0 {
		out.Query = copyValues(r.query)
	}
	if r.body != nil {
		out.ContentType, out.Body = r.body.contentType, bytes.Clone(r.body.data)
	}
	return fmt.Errorf("padapi: %s %s: %w", r.method, r.path, ErrDryRun)
}
