// transport.go: the transport the client builds, and the wrapper that reads a caller's.

package padapi

//lint:file-ignore SA1019 x/net deprecates http2.Transport for net/http's, but net/http (Go 1.26) does not share one HTTP/2 dial among waiting requests: see router.

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/net/http2"
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
)

// newTransport returns the client's own transport: HTTP/1.1 over net/http,
// and HTTP/2 where an HTTPS server offers it (see router), with proxies
// from the environment as http.DefaultTransport has them.
func newTransport(tlsConfig *tls.Config) *router {
	d := &dialer{slots: make(chan struct{}, dialsAtOnce)}
	h1 := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		TLSClientConfig:       tlsConfig,
		MaxIdleConns:          0, // no limit across hosts
		MaxIdleConnsPerHost:   idlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DialContext:           d.dial,
		// HTTP/2 goes through the router's h2; an empty map keeps
		// net/http from starting its own.
		TLSNextProto: map[string]func(string, *tls.Conn) http.RoundTripper{},
	}
	h1.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.dialTLS(ctx, network, addr, tlsConfig, "http/1.1")
	}
	r := &router{h1: h1, h1only: map[string]bool{}}
	r.h2 = &http2.Transport{
		ReadIdleTimeout: pingAfter,
		PingTimeout:     pingTimeout,
		IdleConnTimeout: h1.IdleConnTimeout,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			c, err := d.dialTLS(ctx, network, addr, tlsConfig, "h2", "http/1.1")
			if err == nil && c.(*tls.Conn).ConnectionState().NegotiatedProtocol != "h2" {
				_ = c.Close()
				return nil, errNoHTTP2
			}
			return c, err
		},
	}
	return r
}

// router sends HTTPS requests to a server that offers HTTP/2 through
// x/net/http2, and everything else through net/http's HTTP/1.1.
//
// Why not net/http's own HTTP/2: on Go 1.26 it dials one connection per
// request waiting for one, and keeps only the first; 300 calls at once to an
// HTTP/2 server opened 69 connections and closed 59 of them
// (TestPoolHTTP2FewConnections). x/net/http2's pool shares one dial per host
// among the waiting requests, and opens another connection only when the
// server's stream limit is reached: 1 connection for the same 300 calls.
// Remove the router when net/http shares HTTP/2 dials.
type router struct {
	h1     *http.Transport
	h2     *http2.Transport
	mu     sync.Mutex
	h1only map[string]bool // hosts whose TLS answer did not pick HTTP/2
}

// errNoHTTP2 is a dial for HTTP/2 that the server answered with HTTP/1.1:
// nothing was sent, so the request goes over HTTP/1.1 instead.
var errNoHTTP2 = errors.New("padapi: the server does not offer HTTP/2")

// RoundTrip sends r over HTTP/2 or HTTP/1.1, as the server offers.
func (t *router) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != "https" || t.isH1(r.URL.Host) {
		return t.h1.RoundTrip(r)
	}
	if p, err := t.h1.Proxy(r); err != nil || p != nil {
		return t.h1.RoundTrip(r) // x/net/http2 does not speak to proxies
	}
	resp, err := t.h2.RoundTrip(r)
	if errors.Is(err, errNoHTTP2) {
		t.mu.Lock()
		t.h1only[r.URL.Host] = true
		t.mu.Unlock()
		return t.h1.RoundTrip(r)
	}
	return resp, err
}

func (t *router) isH1(host string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.h1only[host]
}

// CloseIdleConnections closes the idle connections of both protocols.
func (t *router) CloseIdleConnections() {
	t.h1.CloseIdleConnections()
	t.h2.CloseIdleConnections()
}

// dialer opens connections, at most dialsAtOnce at a time, each within the
// request's context.
type dialer struct {
	net.Dialer
	slots chan struct{}
}

func (d *dialer) acquire(ctx context.Context) error {
	select {
	case d.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (d *dialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := d.acquire(ctx); err != nil {
		return nil, err
	}
	defer func() { <-d.slots }()
	if unwanted(ctx) {
		return nil, errUnwanted
	}
	return d.DialContext(ctx, network, addr)
}

// dialTLS dials and completes the TLS handshake inside one slot, offering
// the protocols protos.
func (d *dialer) dialTLS(ctx context.Context, network, addr string, base *tls.Config, protos ...string) (net.Conn, error) {
	if err := d.acquire(ctx); err != nil {
		return nil, err
	}
	defer func() { <-d.slots }()
	if unwanted(ctx) {
		return nil, errUnwanted
	}
	raw, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{}
	if base != nil {
		cfg = base.Clone()
	}
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	cfg.NextProtos = protos
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		_ = raw.Close()
		return nil, err
	}
	return conn, nil
}

// errUnwanted is a dial skipped because its request was answered meanwhile.
var errUnwanted = errors.New("padapi: dial no longer needed")

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
