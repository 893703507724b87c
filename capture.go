// capture.go: the per-call options carried by a context: WithResponse
// (what the service answered) and WithDryRun (what the call would send).

package padapi

import (
	"context"
	"net/http"
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

// capture records the answer's status and header, and body as what was
// read of it, when the call asked for them.
func (st *call) capture(resp *http.Response, body []byte) {
	if st.response == nil {
		return
	}
	*st.response = Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: body}
}
