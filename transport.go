//lint:file-ignore SA1019 x/net v0.62 deprecates http2.Transport for net/http's, but net/http (Go 1.26) does not coalesce HTTP/2 dials: see newTransport.

package padapi

import (
	"context"
	"crypto/tls"
	"errors"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/net/http2"
)

// dialsAtOnce bounds the connections being opened to one host at the same
// time, TLS handshake included: a burst of callers opens connections a few
// at a time, never in a storm of handshakes.
const dialsAtOnce = 8

// newTransport is the client's own connection pool, for callers that bring
// none (WithHTTPClient brings another). Its policy, measured behind 20 ms of
// service time in bench_latency_test.go:
//
//   - HTTPS to a server that offers HTTP/2 goes over golang.org/x/net/http2,
//     which dials one connection to a host at a time and shares it among
//     all callers, opening another only when the server's stream limit is
//     reached. net/http's own HTTP/2 dials once for every request that
//     finds no connection, then throws all but one away (63 of 64 at 64
//     goroutines), and with a bound on connections it bounds HTTP/1.1 too.
//   - Everything else (plain http, an HTTP/1.1-only server, a proxy from the
//     environment) goes over net/http with no ceiling on connections, so
//     throughput grows with the callers' concurrency, and room to keep every
//     connection it opens idle (until IdleConnTimeout). A connection is
//     opened only when more calls are in flight than connections are open
//     (dialWhenNeeded), so no burst opens connections only to close them,
//     and at most dialsAtOnce are being opened at once, so 1 024 callers
//     ramp up instead of storming.
//
// x/net v0.62 marks http2.Transport deprecated in favour of http.Transport,
// whose HTTP/2 it wraps from Go 1.27 on, keeping its dial coalescing; on
// Go 1.26 it runs its own client. Until net/http coalesces dials itself,
// it is the only maintained HTTP/2 client that does.
//
// A server's first HTTPS connection offers both protocols; when the server
// picks HTTP/1.1 that connection is closed and the host goes over HTTP/1.1
// from then on.
//
// An application that replaced http.DefaultTransport (a tracing wrapper,
// httpmock.Activate) gets that transport as it is, as its other net/http
// calls do. tlsConfig, when not nil, replaces DefaultTransport's (tests use
// it to trust their own servers).
func newTransport(tlsConfig *tls.Config) http.RoundTripper {
	def, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	p := &pool{h1: def.Clone(), dial: def.DialContext, hosts: map[string]protocol{}}
	if p.dial == nil {
		p.dial = (&net.Dialer{}).DialContext
	}
	if tlsConfig != nil {
		p.h1.TLSClientConfig = tlsConfig.Clone()
	}
	if p.h1.TLSClientConfig == nil {
		p.h1.TLSClientConfig = &tls.Config{}
	}
	p.h1.MaxConnsPerHost = 0
	p.h1.MaxIdleConns = 0 // no limit across hosts
	p.h1.MaxIdleConnsPerHost = math.MaxInt
	// HTTP/1.1 only: HTTP/2 goes through p.h2.
	p.h1.ForceAttemptHTTP2 = false
	p.h1.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	p.h1.DialContext = p.dialBounded
	p.h1.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return p.dialTLS(ctx, network, addr, p.h1.TLSClientConfig, "http/1.1")
	}
	p.h2 = &http2.Transport{
		TLSClientConfig: p.h1.TLSClientConfig,
		IdleConnTimeout: p.h1.IdleConnTimeout,
		DialTLSContext: func(ctx context.Context, network, addr string, cfg *tls.Config) (net.Conn, error) {
			c, err := p.dialTLS(ctx, network, addr, cfg, "h2", "http/1.1")
			if err == nil && c.(*tls.Conn).ConnectionState().NegotiatedProtocol != "h2" {
				_ = c.Close()
				return nil, errNoHTTP2
			}
			return c, err
		},
	}
	return p
}

// pool sends HTTPS requests over HTTP/2 where the server offers it, and
// everything else over HTTP/1.1 (newTransport).
type pool struct {
	h1   *http.Transport
	h2   *http2.Transport
	dial func(ctx context.Context, network, addr string) (net.Conn, error)

	mu    sync.RWMutex
	hosts map[string]protocol // by URL host, what an HTTPS host speaks
	// The HTTP/1.1 connections of each host, by URL host (busy) and by
	// dial address (the rest).
	byHost, byAddr map[string]*hostConns
}

// hostConns is what the pool needs and has of one host's connections.
// Guarded by pool.mu.
type hostConns struct {
	busy    int // HTTP/1.1 requests between the start and end of RoundTrip
	open    int // HTTP/1.1 connections open
	dialing int // connections being opened, over either protocol
	waiting int // dials waiting to be needed (dialWhenNeeded)
	// tracked is set when requests count as busy here: when a request's
	// host and port are the dial's address. A dial to a proxy is not.
	tracked bool
	// wake is closed, and cleared, when a waiting dial should look again.
	wake chan struct{}
}

// signal wakes the dials that wait for a change. p.mu must be held.
func (h *hostConns) signal() {
	if h.wake != nil {
		close(h.wake)
		h.wake = nil
	}
}

// protocol is what the pool knows of an HTTPS host.
type protocol uint8

const (
	unknown protocol = iota
	speaksHTTP2
	speaksHTTP1 // or reached through a proxy
)

// errNoHTTP2 is the HTTP/2 dial's error when the server chose HTTP/1.1.
var errNoHTTP2 = errors.New("padapi: the server does not speak HTTP/2")

func (p *pool) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Scheme != "https" {
		return p.roundTripH1(r)
	}
	p.mu.RLock()
	proto := p.hosts[r.URL.Host]
	p.mu.RUnlock()
	if proto == unknown && p.h1.Proxy != nil {
		// x/net/http2 knows no proxies: a proxied host goes through
		// net/http, which does.
		if proxy, err := p.h1.Proxy(r); err != nil || proxy != nil {
			proto = p.learn(r.URL.Host, speaksHTTP1)
		}
	}
	if proto == speaksHTTP1 {
		return p.roundTripH1(r)
	}
	resp, err := p.h2.RoundTrip(r)
	switch {
	case errors.Is(err, errNoHTTP2):
		// Nothing was sent: the body is still unread.
		p.learn(r.URL.Host, speaksHTTP1)
		return p.roundTripH1(r)
	case err == nil && proto == unknown:
		p.learn(r.URL.Host, speaksHTTP2)
	}
	return resp, err
}

func (p *pool) learn(host string, proto protocol) protocol {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hosts[host] = proto
	return proto
}

// roundTripH1 sends r over HTTP/1.1, counting it busy for dialWhenNeeded
// and marking its call in flight.
func (p *pool) roundTripH1(r *http.Request) (*http.Response, error) {
	st, _ := r.Context().Value(callKey{}).(*call)
	p.mu.Lock()
	h := p.byHost[r.URL.Host]
	if h == nil {
		h = p.hostConnsLocked(r.URL.Host, canonicalAddr(r.URL))
	}
	h.busy++
	if st != nil {
		st.inFlight.Store(true)
	}
	if h.waiting > 0 {
		h.signal()
	}
	p.mu.Unlock()

	resp, err := p.h1.RoundTrip(r)

	p.mu.Lock()
	h.busy--
	if st != nil {
		st.inFlight.Store(false)
	}
	if h.waiting > 0 {
		h.signal()
	}
	p.mu.Unlock()
	return resp, err
}

// hostConnsLocked returns the record of the host at addr, making it when
// there is none. p.mu must be held.
func (p *pool) hostConnsLocked(host, addr string) *hostConns {
	h := p.byAddr[addr]
	if h == nil {
		if p.byAddr == nil {
			p.byHost, p.byAddr = map[string]*hostConns{}, map[string]*hostConns{}
		}
		h = &hostConns{}
		p.byAddr[addr] = h
	}
	if host != "" {
		p.byHost[host] = h
		h.tracked = true
	}
	return h
}

// canonicalAddr is the address net/http dials for u: its host and port,
// the scheme's port when it has none.
func canonicalAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// errDialNotNeeded ends a dial whose request was served without it.
var errDialNotNeeded = errors.New("padapi: connection not needed")

// dialBounded opens an HTTP/1.1 connection to addr when dialWhenNeeded
// says so.
func (p *pool) dialBounded(ctx context.Context, network, addr string) (net.Conn, error) {
	return p.dialWhenNeeded(ctx, addr, true, func() (net.Conn, error) { return p.dial(ctx, network, addr) })
}

// dialWhenNeeded runs dial once fewer than dialsAtOnce connections are being
// opened to addr and, for an HTTP/1.1 connection (h1), once it is needed:
// fewer connections are open or being opened than requests are busy.
//
// net/http dials for every request that finds no idle connection, and
// gives the request whichever connection is ready first: the one it
// dialed, or one that another request has just freed. Under a cap on
// connections a dial beyond the cap waits, and is dropped when its request
// has been served; without one, every such dial went through, and 64
// goroutines opened some 300 connections over 6 400 loopback calls. So an
// HTTP/1.1 dial that is not needed waits for its request: it dials when
// the request still needs a connection, and ends with errDialNotNeeded
// (which net/http drops) when the request got one and returned.
func (p *pool) dialWhenNeeded(ctx context.Context, addr string, h1 bool, dial func() (net.Conn, error)) (net.Conn, error) {
	st, _ := ctx.Value(callKey{}).(*call)
	p.mu.Lock()
	h := p.hostConnsLocked("", addr)
	wait := h1 && st != nil && h.tracked
	for h.dialing >= dialsAtOnce || (wait && h.open+h.dialing >= h.busy) {
		if wait && !st.inFlight.Load() {
			p.mu.Unlock()
			return nil, errDialNotNeeded
		}
		if h.wake == nil {
			h.wake = make(chan struct{})
		}
		wake := h.wake
		h.waiting++
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
		}
		p.mu.Lock()
		h.waiting--
		if err := ctx.Err(); err != nil {
			p.mu.Unlock()
			return nil, err
		}
	}
	h.dialing++
	p.mu.Unlock()

	conn, err := dial()

	p.mu.Lock()
	defer p.mu.Unlock()
	h.dialing--
	h.signal()
	if err != nil || !h1 {
		return conn, err
	}
	h.open++
	return &countedConn{Conn: conn, p: p, h: h}, nil
}

// countedConn is an HTTP/1.1 connection that counts itself out of its
// host's open connections when it closes.
type countedConn struct {
	net.Conn
	p      *pool
	h      *hostConns
	closed atomic.Bool
}

func (c *countedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.p.mu.Lock()
		c.h.open--
		c.h.signal()
		c.p.mu.Unlock()
	}
	return c.Conn.Close()
}

// dialTLS opens a TLS connection offering protos, as dialWhenNeeded allows:
// the handshake, the costly part, counts as dialing too.
func (p *pool) dialTLS(ctx context.Context, network, addr string, cfg *tls.Config, protos ...string) (net.Conn, error) {
	h1 := !slices.Contains(protos, "h2")
	return p.dialWhenNeeded(ctx, addr, h1, func() (net.Conn, error) {
		raw, err := p.dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		cfg = cfg.Clone()
		cfg.NextProtos = protos
		if cfg.ServerName == "" {
			cfg.ServerName, _, _ = net.SplitHostPort(addr)
		}
		hctx := ctx
		if d := p.h1.TLSHandshakeTimeout; d > 0 {
			var cancel context.CancelFunc
			hctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		conn := tls.Client(raw, cfg)
		if err := conn.HandshakeContext(hctx); err != nil {
			_ = raw.Close()
			return nil, err
		}
		return conn, nil
	})
}
