package padapi

import (
	"context"
	"crypto/tls"
	"errors"
	"math"
	"net"
	"net/http"
	"sync"

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
//     connection it opens idle (until IdleConnTimeout), so no burst opens
//     connections only to close them. Since at most dialsAtOnce are being
//     opened at once, a burst of 1 024 callers ramps up instead of storming.
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
			if err == nil && c.ConnectionState().NegotiatedProtocol != "h2" {
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
	dials map[string]chan struct{}
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
		return p.h1.RoundTrip(r)
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
		return p.h1.RoundTrip(r)
	}
	resp, err := p.h2.RoundTrip(r)
	switch {
	case errors.Is(err, errNoHTTP2):
		// Nothing was sent: the body is still unread.
		p.learn(r.URL.Host, speaksHTTP1)
		return p.h1.RoundTrip(r)
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

// dialBounded opens a connection once fewer than dialsAtOnce are being
// opened to addr.
func (p *pool) dialBounded(ctx context.Context, network, addr string) (net.Conn, error) {
	release, err := p.dialSlot(ctx, addr)
	if err != nil {
		return nil, err
	}
	defer release()
	return p.dial(ctx, network, addr)
}

// dialTLS opens a TLS connection offering protos, as dialBounded does: the
// handshake, the costly part, holds the slot too.
func (p *pool) dialTLS(ctx context.Context, network, addr string, cfg *tls.Config, protos ...string) (*tls.Conn, error) {
	release, err := p.dialSlot(ctx, addr)
	if err != nil {
		return nil, err
	}
	defer release()
	raw, err := p.dial(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg = cfg.Clone()
	cfg.NextProtos = protos
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(addr)
	}
	if d := p.h1.TLSHandshakeTimeout; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		_ = raw.Close()
		return nil, err
	}
	return conn, nil
}

// dialSlot waits until fewer than dialsAtOnce connections are being opened
// to addr, and returns the function that frees the slot it takes.
func (p *pool) dialSlot(ctx context.Context, addr string) (release func(), err error) {
	p.mu.Lock()
	if p.dials == nil {
		p.dials = map[string]chan struct{}{}
	}
	slots := p.dials[addr]
	if slots == nil {
		slots = make(chan struct{}, dialsAtOnce)
		p.dials[addr] = slots
	}
	p.mu.Unlock()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
