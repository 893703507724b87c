// transport.go: the transport the client builds, and the wrapper that reads a caller's.

package padapi

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
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
		TLSHandshakeTimeout:   handshakeTimeout,
		ExpectContinueTimeout: time.Second,
		DialContext:           d.dial,
		Protocols:             new(http.Protocols),
	}
	h1.Protocols.SetHTTP1(true) // HTTP/2 goes through the router's own connections
	h1.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.dialTLS(ctx, network, addr, tlsConfig, "http/1.1")
	}
	h2 := &http.Transport{
		IdleConnTimeout: h1.IdleConnTimeout,
		Protocols:       new(http.Protocols),
		HTTP2:           &http.HTTP2Config{SendPingTimeout: pingAfter, PingTimeout: pingTimeout},
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.dialTLS(ctx, network, addr, tlsConfig, "h2", "http/1.1")
			if err == nil && c.(*tls.Conn).ConnectionState().NegotiatedProtocol != "h2" {
				_ = c.Close()
				return nil, errNoHTTP2
			}
			return c, err
		},
	}
	h2.Protocols.SetHTTP2(true)
	return &router{h1: h1, h2: h2, hosts: map[string]*h2Host{}}
}

// router sends HTTPS requests to a server that offers HTTP/2 over
// connections it shares among calls (net/http's ClientConn), and everything
// else through net/http's Transport over HTTP/1.1.
//
// Why not net/http's own HTTP/2: on Go 1.26 it dials one connection per
// call waiting for one and keeps only the first: 300 calls at once to an
// HTTP/2 server opened 69 connections and closed 59 of them
// (TestPoolHTTP2FewConnections). The router dials one connection per host at
// a time, and another only when those it has are full: 1 or 2 for the same
// 300 calls. Each call waits for a dial within its own context, and is sent
// once: ClientConn retries nothing. Remove it when net/http shares dials.
type router struct {
	h1, h2 *http.Transport
	mu     sync.Mutex
	hosts  map[string]*h2Host
}

// h2Host is what the router knows of one host: its HTTP/2 connections,
// the dial in flight, and whether the host speaks HTTP/1.1 only.
type h2Host struct {
	conns  []*http.ClientConn
	dial   *h2Dial
	h1only bool
}

// h2Dial is a connection being opened; done is closed when err is set.
type h2Dial struct {
	done chan struct{}
	err  error
}

// errNoHTTP2 is a dial for HTTP/2 that the server answered with HTTP/1.1:
// nothing was sent, so the request goes over HTTP/1.1 instead.
var errNoHTTP2 = errors.New("padapi: the server does not offer HTTP/2")

// RoundTrip sends r over HTTP/2 or HTTP/1.1, as the server offers.
func (t *router) RoundTrip(r *http.Request) (*http.Response, error) {
	if p, err := t.h1.Proxy(r); r.URL.Scheme != "https" || err != nil || p != nil {
		return t.h1.RoundTrip(r) // the proxy's CONNECT is net/http's business
	}
	if trace := httptrace.ContextClientTrace(r.Context()); trace != nil && trace.GetConn != nil {
		// As net/http's Transport does: a create that fails before
		// WroteHeaders then certainly was not sent.
		trace.GetConn(r.URL.Host)
	}
	cc, err := t.conn(r.Context(), r.URL.Host)
	if errors.Is(err, errNoHTTP2) {
		return t.h1.RoundTrip(r)
	}
	if err != nil {
		return nil, err
	}
	return cc.RoundTrip(r) // uses the slot conn reserved
}

// conn returns an HTTP/2 connection to host with a slot reserved for one
// request, dialing one when none has room.
func (t *router) conn(ctx context.Context, host string) (*http.ClientConn, error) {
	addr := host
	if _, _, err := net.SplitHostPort(host); err != nil {
		addr = net.JoinHostPort(host, "443")
	}
	for {
		t.mu.Lock()
		h := t.hosts[host]
		if h == nil {
			h = &h2Host{}
			t.hosts[host] = h
		}
		if h.h1only {
			t.mu.Unlock()
			return nil, errNoHTTP2
		}
		for _, cc := range h.conns {
			if cc.Reserve() == nil {
				t.mu.Unlock()
				return cc, nil
			}
		}
		d := h.dial
		if d == nil {
			d = &h2Dial{done: make(chan struct{})}
			h.dial = d
			go t.open(h, d, addr)
		}
		t.mu.Unlock()
		select {
		case <-d.done:
			if d.err != nil {
				return nil, d.err
			}
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// open dials a connection for h, within the TLS handshake's time rather
// than any one caller's context: the callers waiting for it may give up,
// and the connection serves the next ones.
func (t *router) open(h *h2Host, d *h2Dial, addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*handshakeTimeout)
	defer cancel()
	cc, err := t.h2.NewClientConn(ctx, "https", addr)
	t.mu.Lock()
	defer t.mu.Unlock()
	h.dial, d.err = nil, err
	switch {
	case errors.Is(err, errNoHTTP2):
		h.h1only = true
	case err == nil:
		live := h.conns[:0]
		for _, c := range h.conns {
			if c.Err() == nil {
				live = append(live, c)
			}
		}
		h.conns = append(live, cc)
	}
	close(d.done)
}

// CloseIdleConnections closes the idle connections of both protocols.
func (t *router) CloseIdleConnections() {
	t.h1.CloseIdleConnections()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, h := range t.hosts {
		busy := h.conns[:0]
		for _, cc := range h.conns {
			if cc.InFlight() == 0 {
				_ = cc.Close()
			} else {
				busy = append(busy, cc)
			}
		}
		h.conns = busy
	}
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
	// net/http dials with the request's values but not its cancellation:
	// without a bound, a server that never answers the hello holds the
	// dial (and its slot) for good.
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	if err := conn.HandshakeContext(hctx); err != nil {
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
