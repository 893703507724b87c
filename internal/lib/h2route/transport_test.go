// transport_test.go: tests of the router: shared HTTP/2 connections, the fallback to HTTP/1.1, deadlines.

package h2route

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testServer answers every request with "ok", over TLS with HTTP/2
// offered (h2) or HTTP/1.1 only. It counts the connections it accepts and
// closes, and the HTTP versions of the requests it serves.
type testServer struct {
	*httptest.Server
	opened, closed, h1, h2 atomic.Int64
}

// holdUntil returns a handler that holds the first n requests until n are
// in flight together (or a request's context ends), then answers each
// with h; later requests are not held. It keeps the calls of a test open
// together on any machine, where a fixed wait may not on a slow one.
func holdUntil(n int64, h http.HandlerFunc) http.HandlerFunc {
	var (
		arrived atomic.Int64
		once    sync.Once
	)
	all := make(chan struct{})
	return func(w http.ResponseWriter, r *http.Request) {
		if arrived.Add(1) >= n {
			once.Do(func() { close(all) })
		}
		select {
		case <-all:
		case <-r.Context().Done():
		}
		h(w, r)
	}
}

// newTestServer starts a testServer; hold > 0 holds the first hold
// requests until they are in flight together (holdUntil).
func newTestServer(t *testing.T, h2 bool, hold int64) *testServer {
	s := &testServer{}
	s.Server = httptest.NewUnstartedServer(holdUntil(hold, func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor == 2 {
			s.h2.Add(1)
		} else {
			s.h1.Add(1)
		}
		_, _ = w.Write([]byte("ok"))
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			s.opened.Add(1)
		case http.StateClosed, http.StateHijacked:
			s.closed.Add(1)
		}
	}
	s.EnableHTTP2 = h2
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// router returns a Router trusting s, closed at the test's end.
func (s *testServer) router(t *testing.T) *Router {
	r := NewTransport(s.Client().Transport.(*http.Transport).TLSClientConfig)
	t.Cleanup(r.CloseIdleConnections)
	return r
}

// get sends a GET of url through rt and reads the answer.
func get(ctx context.Context, rt http.RoundTripper, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// callAtOnce makes calls GETs from calls goroutines, rounds times each.
func callAtOnce(t *testing.T, rt http.RoundTripper, url string, calls, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			for range rounds {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				err := get(ctx, rt, url)
				cancel()
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait() // each call has its own deadline
}

// TestPoolHTTP2FewConnections: against a server that offers HTTP/2, 300
// calls at once share a few connections (the server allows 250 streams on
// one, and a new connection takes 100 until the server says so: three at
// most), and no connection is dialed to be thrown away. The server holds
// the first round until all 300 streams are open together.
func TestPoolHTTP2FewConnections(t *testing.T) {
	s := newTestServer(t, true, 300)
	callAtOnce(t, s.router(t), s.URL, 300, 2)
	t.Logf("HTTP/2: %d connections, %d closed", s.opened.Load(), s.closed.Load())
	if s.h1.Load() != 0 || s.h2.Load() != 600 {
		t.Errorf("%d requests over HTTP/1.1, %d over HTTP/2; want all 600 over HTTP/2", s.h1.Load(), s.h2.Load())
	}
	if n := s.opened.Load(); n > 3 {
		t.Errorf("%d connections for 300 calls at once, want at most 3", n)
	}
	if n := s.closed.Load(); n != 0 {
		t.Errorf("%d connections closed, want none", n)
	}
}

// A server that does not offer HTTP/2 is served over HTTP/1.1: the first
// connection, which offered HTTP/2, is closed, and the host is not asked
// for HTTP/2 again.
func TestRouterFallsBackToHTTP1(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, false, 0)
	r := s.router(t)
	callAtOnce(t, r, s.URL, 1, 3)
	if s.h2.Load() != 0 || s.h1.Load() != 3 {
		t.Errorf("%d requests over HTTP/1.1, %d over HTTP/2; want all 3 over HTTP/1.1", s.h1.Load(), s.h2.Load())
	}
	if n := s.opened.Load(); n != 2 {
		t.Errorf("%d connections, want 2: the HTTP/2 offer and one HTTP/1.1", n)
	}
}

// CloseIdleConnections closes the idle HTTP/2 connections; the next call
// opens a new one.
func TestRouterCloseIdleConnections(t *testing.T) {
	t.Parallel()
	s := newTestServer(t, true, 0)
	r := s.router(t)
	callAtOnce(t, r, s.URL, 1, 1)
	r.CloseIdleConnections()
	callAtOnce(t, r, s.URL, 1, 1)
	if n := s.opened.Load(); n != 2 || s.h2.Load() != 2 {
		t.Errorf("%d connections for %d HTTP/2 calls around CloseIdleConnections, want 2 for 2", n, s.h2.Load())
	}
}

// A call waiting for an HTTP/2 connection that another call is opening
// waits within its own deadline, not the other call's: here the server
// never answers the TLS hello.
func TestHTTP2SharedDialKeepsEachDeadline(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	accepted := make(chan struct{}, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // held, never answered
			mu.Unlock()
			select {
			case accepted <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	})
	r := NewTransport(&tls.Config{})
	url := "https://" + ln.Addr().String()
	first := make(chan struct{})
	firstCtx, cancelFirst := context.WithCancel(context.Background())
	t.Cleanup(func() { cancelFirst(); <-first })
	go func() {
		defer close(first)
		_ = get(firstCtx, r, url) // no deadline: ends at the test's end
	}()
	select { // the first call's dial is under way
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("no dial within 5s")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	start := time.Now()
	go func() { done <- get(ctx, r, url) }()
	// A call that waited on anything but its own deadline would wait for
	// the dial's 10 s timeout or the first call's end (never): 2 s tells
	// those from its 200 ms with room for a busy machine, where -race saw
	// the return 508 ms after the start.
	select {
	case err := <-done:
		if took := time.Since(start); took > 2*time.Second || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("a call with a 200ms deadline returned after %v: %v", took, err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a call with a 200ms deadline is still running after 5s")
	}
}
