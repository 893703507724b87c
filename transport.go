// transport.go: the transport the client builds, and the wrapper that reads a caller's.

package padapi

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"

	"github.com/padinterview/padapi/internal/h2route"
)

// Connection settings of the client's own transport.
const (
	// idlePerHost keeps an HTTP/1.1 connection for every caller of the
	// concurrency the client is tested at (256 goroutines), so a burst
	// does not close connections only to open them again.
	idlePerHost = 512
	// dialsAtOnce bounds the connections being opened (TCP and TLS) to a
	// host at once, so 1 024 callers arriving together ramp up instead of
	// starting 1 024 handshakes.
	dialsAtOnce = 8
	// pingAfter and pingTimeout are the HTTP/2 health check: after 15 s
	// without a frame the client pings, and closes the connection when no
	// answer comes within 15 s more, so a connection that stops answering
	// is dropped within 30 s and later calls open a new one.
	pingAfter   = 15 * time.Second
	pingTimeout = 15 * time.Second
	// handshakeTimeout bounds a TLS handshake, as net/http's
	// TLSHandshakeTimeout does for the dials it makes itself.
	handshakeTimeout = 10 * time.Second
)

// newTransport returns the client's own transport: HTTP/1.1 over net/http,
// and HTTP/2 where an HTTPS server offers it (see internal/h2route), with
// proxies from the environment as http.DefaultTransport has them.
func newTransport(tlsConfig *tls.Config) *h2route.Router {
	h1, h2 := transports(tlsConfig)
	return h2route.New(h1, h2, 2*handshakeTimeout)
}

// transports returns the two transports of the client's own: h1 for
// HTTP/1.1 (and proxies), h2 for the router's HTTP/2 connections, both
// dialing through one dialer.
func transports(tlsConfig *tls.Config) (h1, h2 *http.Transport) {
	d := h2route.NewDialer(dialsAtOnce, handshakeTimeout, unwanted)
	h1 = &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		TLSClientConfig:       tlsConfig,
		MaxIdleConns:          0, // no limit across hosts
		MaxIdleConnsPerHost:   idlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   handshakeTimeout,
		ExpectContinueTimeout: time.Second,
		DialContext:           d.Dial,
		Protocols:             new(http.Protocols),
	}
	h1.Protocols.SetHTTP1(true) // HTTP/2 goes through the router's own connections
	h1.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialTLS(ctx, network, addr, tlsConfig, "http/1.1")
	}
	h2 = &http.Transport{
		IdleConnTimeout: h1.IdleConnTimeout,
		Protocols:       new(http.Protocols),
		HTTP2:           &http.HTTP2Config{SendPingTimeout: pingAfter, PingTimeout: pingTimeout},
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialHTTP2(ctx, network, addr, tlsConfig)
		},
	}
	h2.Protocols.SetHTTP2(true)
	return h1, h2
}

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
