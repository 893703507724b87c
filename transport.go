// transport.go: the dial check of the client's own transport (built by
// internal/lib/h2route), and the wrapper that reads a caller's.

package padapi

import (
	"context"
	"net/http"
)

// unwanted reports whether the dial with this context was started for an
// attempt that has its answer already. net/http dials for every request
// that finds no idle connection and keeps dialing when another connection
// frees up first (the dial's context keeps the request's values, not its
// cancellation); such a dial waiting for a slot is skipped rather than
// opening a connection nobody waits for. Measured with
// TestPoolNoChurn (64 goroutines, 3 200 calls on loopback): 249 connections
// without the check.
func unwanted(ctx context.Context) bool {
	st, ok := ctx.Value(callKey{}).(*call)
	return ok && st.answered.Load() == st.current.Load()
}

// callerTransport sends each request through the caller's http.Client
// transport, read at every request (http.DefaultTransport when nil), so
// that httpmock.ActivateNonDefault after NewClient still intercepts. It
// does not offer CloseIdleConnections, so go-retryablehttp's habit of
// closing idle connections after a failed call cannot empty the caller's
// pool.
type callerTransport struct{ hc *http.Client }

// RoundTrip sends r through the caller's transport.
func (t callerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if rt := t.hc.Transport; rt != nil {
		return rt.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// roundTripFunc is a RoundTripper that offers nothing else.
type roundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
