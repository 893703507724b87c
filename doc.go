// Package padapi is a typed client for the Pad Interview Service HTTP API:
// coding-interview pads, the question library, the organization, and the
// monthly pad quota.
//
// # Getting started
//
// Create one Client and share it; it is safe for concurrent use:
//
//	c, err := padapi.NewClient("https://app.coderpad.io", os.Getenv("PAD_API_KEY"))
//	if err != nil { ... }
//	defer c.Close()
//	q, err := c.Quota.Get(ctx)
//
// FromEnv builds the same client from PAD_BASE_URL (DefaultBaseURL when
// unset) and PAD_API_KEY, and says so when PAD_API_KEY is not set. Close
// releases the idle connections of the transport the client built; a
// caller's *http.Client (WithHTTPClient) is left alone.
//
// Runnable examples of the main flows, with their output, are in the
// module's example_test.go files (go test -run Example . runs them); the
// module's README and docs/ folder cover the rest, from a quickstart to
// what the service sends beyond its documentation (docs/api-notes.md).
//
// The client's fields are the API's resources (c.Quota, c.Pads,
// c.Questions, c.Organization, c.User). Every method takes a context first and
// returns (*T, error): Get reads one, List one page, All every page, ListX
// and AllX where a service lists more than one kind. A base URL may carry a
// gateway's path prefix (https://gateway.example.com/pad).
//
// # Any endpoint: Do
//
// Client.Do sends what the typed methods do not cover yet through the same
// pipeline, into any value or, as the service sent it, a *json.RawMessage:
//
//	var raw json.RawMessage
//	err := c.Do(ctx, http.MethodGet, "/api/pads/"+url.PathEscape(id), nil, &raw)
//
// # JSON
//
// Every decode and encode uses github.com/go-json-experiment/json (Go
// 1.27's encoding/json/v2): field names match exactly, unknown fields are
// ignored, and a timestamp may be any ISO 8601 form the service writes.
// The models are plain tagged structs that encoding/json decodes too.
//
// # Authentication
//
// Every request carries the header Authorization: Token token="<API key>",
// set on the request itself. The key must be printable ASCII without '"' or
// '\'. It is sent only to the base URL's host: the base URL must be https
// (loopback hosts and WithInsecureHTTP aside), redirects are never followed,
// and next_page links are never requested as given. The key never appears in
// an error, a log line or fmt output of the client.
//
// # IDs and params
//
// Every ID has the one type ID, which decodes from a JSON number or string,
// so an ID from one answer passes to the next call as it is
// (c.Pads.Environment(ctx, pad.PadEnvironmentIDs[0])); an empty, "." or ".."
// ID is refused before any request. Each write has its own params type and
// each list its own options type (all paged ones built on ListOptions);
// their fields are pointers or slices, a nil field is not sent, and Ptr
// fills one: &padapi.PadUpdateParams{Ended: padapi.Ptr(true)}.
//
// # Errors
//
// A failure the service reported is an *APIError (status code, message,
// code, method, path, attempts), also for a body that is not the service's
// JSON (a proxy's HTML page). Match kinds with errors.Is: ErrBadRequest,
// ErrUnauthorized, ErrForbidden, ErrNotFound, ErrOverQuota (a pad create
// refused for the quota), ErrRateLimited (any other 429), ErrServer,
// ErrResponseTooLarge, ErrListLimit; ErrInvalidArgument for a call refused
// before anything was sent; context.DeadlineExceeded when the deadline
// ended the call.
//
// # Retries and creates
//
// GET, PUT and DELETE are retried on connection errors and on 500, 502, 503
// and 504, with capped, jittered backoff, and a 429 when its Retry-After
// fits under the cap (WithRetry says how). A create (POST) is retried only
// when its request was certainly never written: the service has no
// idempotency keys, so a create that may have reached it without a definite
// answer fails with ErrOutcomeUnknown ("outcome unknown": the pad may
// exist). One Create call never makes two pads.
//
// # Quota
//
// Checking Quota.Get before a create is advisory: another process can spend
// the last pad in between, and the create's ErrOverQuota is the answer. A
// limited plan whose counts the service leaves out has an unknown limit,
// not a zero one (see Quota.CanCreate).
//
// # Pagination
//
// Lists come 50 items a page as a *Page; Page.Next gives the options of
// the next call. Every All method returns an iter.Seq2 that fetches ahead
// while the loop reads (WithConcurrentPages), follows next_page only below
// the base URL, and ends with an error on a repeated link, past the
// first page's total, or past WithListLimit items:
//
//	for pad, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedDesc}) {
//		if err != nil { ... }
//		fmt.Println(pad.Title)
//	}
//
// # After the interview
//
// Pads.Transcript returns a pad with its whole event log and every
// environment (the final code of each file). Pads.History fetches an
// edit-history link (on another host) without the API key, and
// History.ReplayContext rebuilds the file's text, counting UTF-16 units as
// the service's editor does.
//
// # Connections
//
// Without WithHTTPClient the client builds its own transport (see
// NewClient). There is no default timeout: the caller's context bounds
// every call, dial, TLS, headers, body and decode included.
//
// # Testing code that uses padapi
//
// Package padapitest runs an in-memory fake of the whole service on
// loopback, with real state, quota accounting, paging and fault injection:
//
//	srv := padapitest.NewServer(t)
//	c := srv.Client()
//
// Code that prefers github.com/jarcoal/httpmock passes its *http.Client
// with WithHTTPClient (and WithRetry(0, 0, 0): httpmock answers an
// unregistered route with a connection error, which would be retried).
// Code that calls one method can take a one-method interface, such as
// interface{ Get(context.Context) (*padapi.Quota, error) }, and be given
// c.Quota or a stub.
package padapi
