// router.go: the router that sends HTTPS requests over shared HTTP/2 connections.

// Package h2route is the client's connection code of its own: a router that
// sends HTTPS requests to a server offering HTTP/2 over a few connections it
// shares among calls, and everything else through net/http's HTTP/1.1
// Transport; and a dialer that opens at most a few connections to a host at
// once. NewTransport builds the two *http.Transport values (timeouts,
// proxies, the health ping) with padapi's connection settings and hands
// them to New.
//
// Why it exists: net/http's own HTTP/2 on Go 1.26 dials one connection per
// call waiting for one and keeps only the first: 300 calls at once to an
// HTTP/2 server opened 69 connections and closed 59 of them. The router
// dials one connection per host at a time, and another only when those it
// has are full: 1 or 2 for the same 300 calls (TestPoolHTTP2FewConnections).
// x/net's HTTP/2 pool, tried before, made a call wait out another call's dial
// past its own deadline (2.95 s for a 200 ms deadline) and resent a refused
// stream by itself behind the client's retry policy (4 times in 5 s); here
// each call waits for a dial within its own context
// (TestHTTP2SharedDialKeepsEachDeadline), and is sent once: ClientConn
// retries nothing (TestHTTP2NoHiddenRetries). Remove it when net/http shares
// dials.
package h2route

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// Router sends HTTPS requests to a server that offers HTTP/2 over
// connections it shares among calls (net/http's ClientConn), and everything
// else, proxied requests included, through an HTTP/1.1 Transport.
type Router struct {
	h1, h2      *http.Transport
	dialTimeout time.Duration
	mu          sync.Mutex
	hosts       map[string]*h2Host
}

// New returns a Router over h1, which serves HTTP/1.1 and decides the
// proxy, and h2, whose NewClientConn opens the HTTP/2 connections: its
// DialTLSContext must fail with an error matching the one Dialer.DialHTTP2
// returns when the server does not choose HTTP/2, so that the host is then
// served over h1. dialTimeout bounds each HTTP/2 dial, which runs on behalf
// of every call waiting for it rather than within any one's context.
func New(h1, h2 *http.Transport, dialTimeout time.Duration) *Router {
	return &Router{h1: h1, h2: h2, dialTimeout: dialTimeout, hosts: map[string]*h2Host{}}
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
func (t *Router) RoundTrip(r *http.Request) (*http.Response, error) {
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
func (t *Router) conn(ctx context.Context, host string) (*http.ClientConn, error) {
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

// open dials a connection for h, within dialTimeout rather than any one
// caller's context: the callers waiting for it may give up, and the
// connection serves the next ones.
func (t *Router) open(h *h2Host, d *h2Dial, addr string) {
	ctx, cancel := context.WithTimeout(context.Background(), t.dialTimeout)
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
func (t *Router) CloseIdleConnections() {
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
