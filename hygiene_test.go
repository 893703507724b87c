package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// TestKeyHygieneOnLoopback complements TestAPIKeyNeverLeaks (which drives
// the error paths through httpmock) with real sockets: the errors net/http
// and crypto/tls make themselves (connection refused, a dropped or
// truncated answer, TLS failures, a deadline) and real redirects. Each path
// runs with a debug logger writing text and JSON, and the key, or a long
// piece of it, must appear in no error, no log line, and no fmt of the
// client, its options, a Page or an *APIError. The servers check that the
// key was sent on every path that reached them, so the test cannot pass by
// never sending it.
func TestKeyHygieneOnLoopback(t *testing.T) {
	key := fmt.Sprintf("rl-canary-%d-Zq7", time.Now().UnixNano())
	var sawKey, sawOther atomic.Int32
	var redirected atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		redirected.Add(1)
		if strings.Contains(r.Header.Get("Authorization"), key) {
			sawOther.Add(1)
		}
	}))
	defer other.Close()
	const quota = `{"status":"OK","pads_used":1,"quota_reset_at":"2024-03-01T00:00:00Z","unlimited":true}`
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == `Token token="`+key+`"` {
			sawKey.Add(1)
		}
		status, body := http.StatusOK, quota
		switch r.URL.Path {
		case "/api/pads/400", "/api/pads/401", "/api/pads/403", "/api/pads/404", "/api/pads/429", "/api/pads/503":
			fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/api/pads/"), &status)
			body = `{"status":"ERROR","message":"no"}`
		case "/api/pads":
			if r.Method == http.MethodPost {
				status, body = http.StatusInternalServerError, `{"status":"ERROR","message":"boom"}`
				break
			}
			body = `{"status":"OK","pads":[],"total":0,"next_page":"` + other.URL + `/api/pads?page=2"}`
		case "/api/pads/decode":
			body = `{"status":"OK","id":"P1","title":12}`
		case "/api/pads/large":
			body = `{"status":"OK","id":"` + strings.Repeat("x", 8<<10) + `"}`
		case "/api/pads/redirect":
			http.Redirect(w, r, other.URL+"/collect", http.StatusTemporaryRedirect)
			return
		case "/api/pads/drop":
			rlDrop(w)
			return
		case "/api/pads/stall":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	})
	srv := httptest.NewServer(handler)
	defer srv.Close()
	tlsSrv := httptest.NewUnstartedServer(handler)
	// The failed handshakes are the point; the server need not log them.
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0)
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	truncated := rlRawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
	closed := rlClosedPort(t)

	var logs bytes.Buffer
	var logMu sync.Mutex
	logWriter := rlLockedWriter{&logMu, &logs}
	text := slog.NewTextHandler(logWriter, &slog.HandlerOptions{Level: slog.LevelDebug})
	jsonLog := slog.NewJSONHandler(logWriter, &slog.HandlerOptions{Level: slog.LevelDebug})
	// The main client logs text, the others JSON.
	newClient := func(base string, handler slog.Handler) (*padapi.Client, []padapi.Option) {
		opts := []padapi.Option{
			padapi.WithRetry(2, time.Millisecond, 2*time.Millisecond),
			padapi.WithLogger(slog.New(handler)),
			padapi.WithMaxResponseBytes(4 << 10),
			padapi.WithUserAgent("hygiene"),
		}
		c := newKeyClient(t, base, key, opts...)
		return c, opts
	}
	c, opts := newClient(srv.URL, text)
	getPad := func(c *padapi.Client, id string) func(context.Context) (any, error) {
		return func(ctx context.Context) (any, error) { return c.Pads.Get(ctx, padapi.ID(id)) }
	}
	create := func(c *padapi.Client) func(context.Context) (any, error) {
		return func(ctx context.Context) (any, error) {
			return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
		}
	}
	refused, _ := newClient(closed, jsonLog)
	cut, _ := newClient(truncated, jsonLog)
	untrusted, _ := newClient(tlsSrv.URL, jsonLog)
	tlsToPlain, _ := newClient(strings.Replace(srv.URL, "http://", "https://", 1), jsonLog)

	var things []any // everything that will be printed with fmt
	things = append(things, c, *c, c.Quota, c.Pads, c.Questions, c.Organization, opts)
	for _, o := range opts {
		things = append(things, o)
	}
	tests := []struct {
		name     string
		call     func(context.Context) (any, error)
		reaches  bool // whether a request reaches a server that checks the key
		deadline time.Duration
	}{
		{"connection refused", getPad(refused, "x"), false, 0},
		{"POST connection refused", create(refused), false, 0},
		{"dropped connection", getPad(c, "drop"), true, 0},
		{"truncated body", getPad(cut, "x"), false, 0},
		{"TLS to a plain server", getPad(tlsToPlain, "x"), false, 0},
		{"untrusted certificate", getPad(untrusted, "x"), false, 0},
		{"deadline", getPad(c, "stall"), true, 30 * time.Millisecond},
		{"400", getPad(c, "400"), true, 0},
		{"401", getPad(c, "401"), true, 0},
		{"403", getPad(c, "403"), true, 0},
		{"404", getPad(c, "404"), true, 0},
		{"429", getPad(c, "429"), true, 0},
		{"503 exhausted", getPad(c, "503"), true, 0},
		{"POST 500", create(c), true, 0},
		{"decode error", getPad(c, "decode"), true, 0},
		{"too large", getPad(c, "large"), true, 0},
		{"redirect", getPad(c, "redirect"), true, 0},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithCancel(context.Background())
		if tt.deadline > 0 {
			ctx, cancel = context.WithTimeout(context.Background(), tt.deadline)
		}
		before := sawKey.Load()
		_, err := tt.call(ctx)
		cancel()
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		if tt.reaches && sawKey.Load() == before {
			t.Errorf("%s: the server never saw the key", tt.name)
		}
		t.Logf("%s: %v", tt.name, err)
		things = append(things, err)
		var apiErr *padapi.APIError
		if errors.As(err, &apiErr) {
			things = append(things, apiErr, *apiErr)
		}
	}
	// A page is printed too, and the iterator must not follow next_page to
	// the other host.
	page, err := c.Pads.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	things = append(things, page, *page)
	for _, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			things = append(things, err)
		}
	}

	if n := sawOther.Load(); n != 0 || redirected.Load() != 0 {
		t.Errorf("the other host got %d requests, %d with the key", redirected.Load(), n)
	}
	pieces := []string{key, key[:12], key[len(key)-12:], "Token token"}
	for _, v := range things {
		for _, form := range []string{"%v", "%+v", "%#v", "%q", "%s"} {
			s := fmt.Sprintf(form, v)
			for _, p := range pieces {
				if strings.Contains(s, p) {
					t.Errorf("fmt %s of a %T holds %q: %.300s", form, v, p, s)
				}
			}
		}
	}
	logMu.Lock()
	defer logMu.Unlock()
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	if len(lines) < 2*len(tests) {
		t.Fatalf("%d log lines for %d calls: the debug logger was not used", len(lines), len(tests))
	}
	for _, line := range lines {
		for _, p := range pieces {
			if strings.Contains(line, p) {
				t.Errorf("log line holds %q: %s", p, line)
			}
		}
	}
}

// rlLockedWriter serializes the writes of two log handlers into one buffer.
type rlLockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w rlLockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// rlClosedPort returns the base URL of a loopback port nothing listens on.
func rlClosedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// TestResourceHygiene makes 500 calls from 8 goroutines, a fifth of them
// failing in every way that still gets an answer (4xx, 5xx until the
// retries run out, undecodable, too large) and some ended by a deadline.
// The server must see connections reused, and once the server has closed
// its connections no goroutine may be left over.
//
// The goroutines are counted after srv.Close: a kept-alive idle connection
// holds a read and a write goroutine in the client's pool (and one in the
// server) on purpose. The client offers no way to close its own pool, so
// closing the server ends them; that they then all go proves nothing else
// (a timer, a retry, a body reader) was left running.
func TestResourceHygiene(t *testing.T) {
	const calls, workers = 500, 8
	startGoroutines := runtime.NumGoroutine()

	var newConns, requests atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		status, body := http.StatusOK, `{"status":"OK","pads_used":1,"quota_reset_at":"2024-03-01T00:00:00Z","unlimited":true}`
		switch r.URL.Path {
		case "/api/pads/404":
			status, body = http.StatusNotFound, `{"status":"ERROR","message":"Pad not found"}`
		case "/api/pads/503":
			status, body = http.StatusServiceUnavailable, `<html>busy</html>`
		case "/api/pads/decode":
			body = `{"status":"OK","id":["x"]}`
		case "/api/pads/large":
			body = `{"status":"OK","id":"` + strings.Repeat("x", 8<<10) + `"}`
		case "/api/pads/stall":
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			newConns.Add(1)
		}
	}
	srv.Start()
	c := newTestClient(t, srv.URL, padapi.WithRetry(2, time.Millisecond, 2*time.Millisecond), padapi.WithMaxResponseBytes(4<<10))

	paths := []string{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "404", "503", "decode", "large"}
	var stalled, failed atomic.Int32
	spread(workers, calls, func(_, i int) {
		ctx, cancel := context.Background(), context.CancelFunc(func() {})
		id := paths[i%len(paths)]
		if i%50 == 49 {
			id = "stall"
			stalled.Add(1)
			ctx, cancel = context.WithTimeout(ctx, 5*time.Millisecond)
		}
		var err error
		if id == "ok" {
			_, err = c.Quota.Get(ctx)
		} else {
			_, err = c.Pads.Get(ctx, padapi.ID(id))
		}
		cancel()
		if (err == nil) != (id == "ok") {
			t.Errorf("call %d (%s): error %v", i, id, err)
		}
		if err != nil {
			failed.Add(1)
		}
	})
	conns := newConns.Load()
	srv.Close()

	var now int
	deadline := time.Now().Add(2 * time.Second)
	for {
		now = runtime.NumGoroutine()
		if now <= startGoroutines || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("%d calls (%d failed, %d by deadline) made %d requests over %d new connections; goroutines: %d before, %d after",
		calls, failed.Load(), stalled.Load(), requests.Load(), conns, startGoroutines, now)
	if now > startGoroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left, %d before the calls:\n%s", now, startGoroutines, buf[:runtime.Stack(buf, true)])
	}
	// Each worker needs one connection, and each call ended by its
	// deadline loses one; anything more means connections are not reused.
	if max := int32(2*workers) + stalled.Load(); conns > max {
		t.Errorf("%d new connections for %d requests, want at most %d", conns, requests.Load(), max)
	}
}

// rlDrop closes the connection without an answer.
func rlDrop(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}
