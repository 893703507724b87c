// transport.go: the wrapper that reads a caller's transport at every
// request (the client's own is built by internal/lib/h2route).

package padapi

import "net/http"

// callerTransport sends each request through the caller's http.Client
// transport, read at every request (http.DefaultTransport when nil), so
// that httpmock.ActivateNonDefault after NewClient still intercepts. It
// does not offer CloseIdleConnections, so nothing the client does can
// empty the caller's pool.
type callerTransport struct{ hc *http.Client }

// RoundTrip sends r through the caller's transport.
func (t callerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if rt := t.hc.Transport; rt != nil {
		return rt.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}
