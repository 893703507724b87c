// dial_test.go: tests of the dial gate: the bound on dials at once, the skipped dial.

package h2route

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// handshakeListener counts the connections accepted whose TLS handshake
// the server has not answered yet, and delays each one's answer, so that
// the client's dials overlap as much as they can.
type handshakeListener struct {
	net.Listener
	pending, peak atomic.Int64
}

func (l *handshakeListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	n := l.pending.Add(1)
	for p := l.peak.Load(); n > p && !l.peak.CompareAndSwap(p, n); p = l.peak.Load() {
	}
	return &handshakeConn{Conn: c, l: l}, nil
}

type handshakeConn struct {
	net.Conn
	l    *handshakeListener
	once sync.Once
}

func (c *handshakeConn) Write(b []byte) (int, error) {
	c.once.Do(func() { // the ServerHello
		// Held so the dials overlap. The test asserts an upper bound
		// (at most 8 at once), which a slow machine can only make easier
		// to keep, never fail; no event marks "all dials started", since
		// the bound is what keeps the rest from starting.
		time.Sleep(10 * time.Millisecond)
		c.l.pending.Add(-1)
	})
	return c.Conn.Write(b)
}

// TestPoolBoundsDials: 100 calls at once against an HTTP/1.1 server never
// have more than 8 connections in their TLS handshake together. The server
// holds every call until all 100 are in, so each needs a connection of
// its own: 100 dials wanted at once, against a bound of 8.
func TestPoolBoundsDials(t *testing.T) {
	t.Parallel()
	s := &testServer{}
	s.Server = httptest.NewUnstartedServer(holdUntil(100, func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("ok"))
	}))
	l := &handshakeListener{Listener: s.Listener}
	s.Listener = l
	s.StartTLS()
	t.Cleanup(s.Close)
	callAtOnce(t, s.router(t), s.URL, 100, 1)
	t.Logf("at most %d handshakes at once", l.peak.Load())
	if p := l.peak.Load(); p > 8 {
		t.Errorf("%d handshakes at once, want at most 8", p)
	}
}

// A dial whose request has its answer when its slot comes opens no
// connection; a wanted one does, and a dial waiting for a slot gives up
// when its context ends.
func TestDialerSkipsUnwanted(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	r := NewTransport(nil)
	answered := &waiting{Context: context.Background()}
	answered.answered.Store(true)
	if c, err := r.dial(answered, "tcp", ln.Addr().String(), nil); !errors.Is(err, errUnwanted) || c != nil {
		t.Errorf("unwanted dial: %v, %v; want errUnwanted and no connection", c, err)
	}
	c, err := r.dial(&waiting{Context: context.Background()}, "tcp", ln.Addr().String(), nil)
	if err != nil {
		t.Fatalf("wanted dial: %v", err)
	}
	defer func() { _ = c.Close() }()
	// Every slot is free again after each dial: a dial waits only for
	// dials in progress, and an ended context stops the wait.
	for range cap(r.slots) {
		r.slots <- struct{}{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.dial(ctx, "tcp", ln.Addr().String(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("dial waiting for a slot, context canceled: %v", err)
	}
}
