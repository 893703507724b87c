// client_test.go: tests of NewClient, its options, Do, and the request pipeline.

package padapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// createPad is a create call the tests use to exercise POST.
func createPad(c *padapi.Client) (*padapi.Pad, error) {
	return c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")})
}

func TestHeadersOnEveryAttempt(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, padapi.WithUserAgent("padctl/1.2"))
	var (
		mu   sync.Mutex
		seen []http.Header
	)
	mt.RegisterResponder(http.MethodGet, quotaURL, func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.Header.Clone())
		if len(seen) < 3 {
			return httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`), nil
		}
		return httpmock.NewStringResponse(http.StatusOK, okQuota), nil
	})
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 {
		t.Fatalf("%d attempts, want 3", len(seen))
	}
	wantUA := "padctl/1.2 padapi-go/" + padapi.Version + " go/" + strings.TrimPrefix(runtime.Version(), "go")
	for i, h := range seen {
		want := map[string][]string{
			"Authorization": {`Token token="` + testKey + `"`},
			"Accept":        {"application/json"},
			"User-Agent":    {wantUA},
		}
		got := map[string][]string{}
		for name := range want {
			got[name] = h.Values(name)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("attempt %d headers (-want +got):\n%s", i+1, diff)
		}
	}
}

func TestDefaultUserAgent(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	var ua string
	mt.RegisterResponder(http.MethodGet, quotaURL, func(r *http.Request) (*http.Response, error) {
		ua = r.Header.Get("User-Agent")
		return httpmock.NewStringResponse(http.StatusOK, okQuota), nil
	})
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := "padapi-go/" + padapi.Version + " go/" + strings.TrimPrefix(runtime.Version(), "go"); ua != want {
		t.Errorf("User-Agent = %q, want %q", ua, want)
	}
}

// TestActivateNonDefaultAfterNewClient mocks the caller's http.Client the way
// users do, after the padapi client exists: the client must read
// hc.Transport on every request, retries included.
func TestActivateNonDefaultAfterNewClient(t *testing.T) {
	hc := &http.Client{}
	c := newTestClient(t, testBase, testKey, padapi.WithHTTPClient(hc), fastRetry)
	httpmock.ActivateNonDefault(hc)
	defer httpmock.DeactivateAndReset()
	busy := httpmock.NewStringResponder(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`)
	httpmock.RegisterResponder(http.MethodGet, quotaURL, busy.Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))

	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := httpmock.GetTotalCallCount(); n != 2 {
		t.Errorf("httpmock saw %d calls, want 2 (503 then 200)", n)
	}
	if hc.Transport != httpmock.DefaultTransport {
		t.Errorf("the client changed hc.Transport")
	}
}

// TestReplacedDefaultTransport: an application may replace
// http.DefaultTransport (httpmock.Activate, a tracing wrapper). NewClient
// must not panic on it, and without WithHTTPClient the client sends through
// it, as any net/http code of the application would.
func TestReplacedDefaultTransport(t *testing.T) {
	httpmock.Activate()
	t.Cleanup(httpmock.DeactivateAndReset)
	httpmock.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusOK, okQuota))

	c := newTestClient(t, testBase, testKey)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := httpmock.GetTotalCallCount(); n != 1 {
		t.Errorf("the replaced http.DefaultTransport saw %d calls, want 1", n)
	}
	if _, err := padapi.NewClient(testBase, testKey, padapi.WithHTTPClient(&http.Client{})); err != nil {
		t.Fatal(err)
	}
}

// TestHTTPClientTimeout: the timeout of the caller's http.Client bounds each
// attempt, as it would in the caller's own calls.
func TestHTTPClientTimeout(t *testing.T) {
	t.Parallel()
	stall := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		select {
		case <-r.Context().Done():
			return nil, r.Context().Err()
		case <-time.After(5 * time.Second):
			return nil, errors.New("the timeout did not end the attempt")
		}
	})
	hc := &http.Client{Transport: stall, Timeout: 50 * time.Millisecond}
	c := newTestClient(t, testBase, testKey, padapi.WithHTTPClient(hc), noRetry)
	start := time.Now()
	_, err := c.Quota.Get(context.Background())
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("the call took %v with a 50ms http.Client timeout", elapsed)
	}
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("error %v is not a timeout", err)
	}
}

func TestWithHTTPClientLeavesItUnchanged(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	hc := &http.Client{Transport: mt, Timeout: 7 * time.Second}
	if _, err := padapi.NewClient(testBase, testKey, padapi.WithHTTPClient(hc)); err != nil {
		t.Fatal(err)
	}
	if hc.Transport != mt || hc.Timeout != 7*time.Second || hc.CheckRedirect != nil || hc.Jar != nil {
		t.Errorf("NewClient changed the caller's http.Client: %+v", hc)
	}
}

func TestBaseURLPathPrefix(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"/pad", "/pad/"} {
		t.Run(suffix, func(t *testing.T) {
			var paths []string
			var mu sync.Mutex
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				paths = append(paths, r.URL.Path)
				mu.Unlock()
				if strings.HasPrefix(r.URL.Path, "/pad/api/pads/") {
					_, _ = w.Write([]byte(okPad))
					return
				}
				_, _ = w.Write([]byte(okQuota))
			}))
			defer srv.Close()
			c := newTestClient(t, srv.URL+suffix, testKey)
			if _, err := c.Quota.Get(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Pads.Get(context.Background(), "DM32JWG2"); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"/pad/api/quota", "/pad/api/pads/DM32JWG2"}, paths); diff != "" {
				t.Errorf("request paths (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewClientValidation(t *testing.T) {
	t.Parallel()
	const key = "SECRETk3y-validation"
	tests := []struct {
		name    string
		baseURL string
		key     string
		opts    []padapi.Option
		wantErr bool
	}{
		{"https", "https://app.coderpad.io", key, nil, false},
		{"https with prefix", "https://gateway.example.com/pad", key, nil, false},
		{"http loopback IPv4", "http://127.0.0.1:8080", key, nil, false},
		{"http loopback IPv6", "http://[::1]:8080", key, nil, false},
		{"http localhost", "http://localhost:8080", key, nil, false},
		{"http remote", "http://pad.example.com", key, nil, true},
		{"http remote, insecure allowed", "http://pad.example.com", key, []padapi.Option{padapi.WithInsecureHTTP()}, false},
		{"http remote IP", "http://10.1.2.3", key, nil, true},
		{"unparsable URL", "https://pad example.com/%zz", key, nil, true},
		{"relative URL", "/api", key, nil, true},
		{"no scheme", "app.coderpad.io", key, nil, true},
		{"ftp", "ftp://app.coderpad.io", key, nil, true},
		{"empty URL", "", key, nil, true},
		{"user info", "https://user:SECRETpass@app.coderpad.io", key, nil, true},
		{"user info and bad scheme", "ftp://user:SECRETpass@app.coderpad.io", key, nil, true},
		{"user info, unparsable", "https://user:SECRETpass@pad example.com/%zz", key, nil, true},
		{"user info over http", "http://user:SECRETpass@pad.example.com", key, nil, true},
		{"query", "https://app.coderpad.io/?x=1", key, nil, true},
		{"empty query", "https://app.coderpad.io/pad?", key, nil, true},
		{"empty key", "https://app.coderpad.io", "", nil, true},
		{"key with quote", "https://app.coderpad.io", `SECRETk3y"x`, nil, true},
		{"key with backslash", "https://app.coderpad.io", `SECRETk3y\x`, nil, true},
		{"key with newline", "https://app.coderpad.io", "SECRETk3y\nX-Evil: 1", nil, true},
		{"key with CR", "https://app.coderpad.io", "SECRETk3y\r", nil, true},
		{"key with tab", "https://app.coderpad.io", "SECRETk3y\tx", nil, true},
		{"key with DEL", "https://app.coderpad.io", "SECRETk3y\x7f", nil, true},
		{"non-ASCII key", "https://app.coderpad.io", "SECRETk3yé", nil, true},
		{"bad key and bad URL", "http://pad.example.com", `SECRETk3y"`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := padapi.NewClient(tt.baseURL, tt.key, tt.opts...)
			if (err != nil) != tt.wantErr {
				t.Fatalf("NewClient(%q) error = %v, want error: %v", tt.baseURL, err, tt.wantErr)
			}
			if err == nil {
				if c == nil || c.Quota == nil || c.Pads == nil || c.Questions == nil || c.Organization == nil {
					t.Fatalf("NewClient returned a client without its services: %+v", c)
				}
				return
			}
			if c != nil {
				t.Errorf("NewClient returned a client with an error")
			}
			if !strings.HasPrefix(err.Error(), "padapi: ") {
				t.Errorf("error %q does not start with padapi:", err)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error %q quotes the API key or the URL's password", err)
			}
		})
	}
}

func TestOptionValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opt  padapi.Option
		ok   bool
	}{
		{"WithRetry negative", padapi.WithRetry(-1, time.Millisecond, time.Second), false},
		{"WithRetry negative wait", padapi.WithRetry(1, -time.Millisecond, time.Second), false},
		{"WithRetry max under min", padapi.WithRetry(1, 2*time.Second, time.Second), false},
		{"WithRetry off", noRetry, true},
		{"WithMaxResponseBytes zero", padapi.WithMaxResponseBytes(0), false},
		{"WithMaxResponseBytes negative", padapi.WithMaxResponseBytes(-1), false},
		{"WithMaxResponseBytes one", padapi.WithMaxResponseBytes(1), true},
		{"WithHTTPClient nil", padapi.WithHTTPClient(nil), false},
		{"WithUserAgent newline", padapi.WithUserAgent("tool\r\nX-Evil: 1"), false},
		{"WithLogger", padapi.WithLogger(slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil))), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := padapi.NewClient(testBase, testKey, tt.opt)
			if (err == nil) != tt.ok {
				t.Errorf("NewClient error = %v, want ok: %v", err, tt.ok)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("error %q quotes the API key or the URL's password", err)
			}
		})
	}
}

// TestRedirectNotFollowed checks that a 302 to another server never reaches
// it, whatever the caller's http.Client would do with redirects.
func TestRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	second := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		_, _ = w.Write([]byte(okQuota))
	}))
	defer second.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, second.URL+r.URL.Path, http.StatusFound)
	}))
	defer first.Close()

	for name, opts := range map[string][]padapi.Option{
		"own http.Client":    nil,
		"caller http.Client": {padapi.WithHTTPClient(&http.Client{})},
	} {
		t.Run(name, func(t *testing.T) {
			c := newTestClient(t, first.URL, testKey, opts...)
			for _, call := range []func() error{
				func() error { _, err := c.Quota.Get(context.Background()); return err },
				func() error { _, err := createPad(c); return err },
			} {
				err := call()
				var apiErr *padapi.APIError
				if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusFound {
					t.Fatalf("error = %v, want an *APIError 302", err)
				}
				if apiErr.Attempts != 1 {
					t.Errorf("Attempts = %d, want 1", apiErr.Attempts)
				}
			}
			if n := reached.Load(); n != 0 {
				t.Errorf("the redirect target was reached %d times", n)
			}
		})
	}
}

func TestResponseBodyCap(t *testing.T) {
	t.Parallel()
	body := []byte(okQuota)
	size := int64(len(body))
	for _, chunked := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if chunked {
				// Flushing before the end makes the answer chunked,
				// without a Content-Length.
				_, _ = w.Write(body[:10])
				w.(http.Flusher).Flush()
				_, _ = w.Write(body[10:])
				return
			}
			_, _ = w.Write(body)
		}))
		defer srv.Close()
		for _, limit := range []int64{size, size - 1, 1} {
			c := newTestClient(t, srv.URL, testKey, padapi.WithMaxResponseBytes(limit))
			_, err := c.Quota.Get(context.Background())
			if limit >= size {
				if err != nil {
					t.Errorf("chunked %v, cap %d, body %d bytes: %v", chunked, limit, size, err)
				}
				continue
			}
			if !errors.Is(err, padapi.ErrResponseTooLarge) {
				t.Errorf("chunked %v, cap %d, body %d bytes: error = %v, want ErrResponseTooLarge", chunked, limit, size, err)
			}
		}
	}
}

func TestLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := newMockClient(t, padapi.WithLogger(logger))
	busy := httpmock.NewStringResponder(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`)
	mt.RegisterResponder(http.MethodGet, padsURL, busy.Then(httpmock.NewStringResponder(http.StatusOK, `{"status":"OK","pads":[],"total":0}`)))

	if _, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Page: 2, Sort: padapi.SortUpdatedAsc}); err != nil {
		t.Fatal(err)
	}
	type line struct {
		Level    string
		Method   string
		Path     string
		Attempt  int
		Attempts int
	}
	var attempts []line
	var done int
	for _, raw := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var l line
		if err := json.Unmarshal(raw, &l); err != nil {
			t.Fatalf("log line %s: %v", raw, err)
		}
		if l.Level != "DEBUG" || l.Method != http.MethodGet || l.Path != "/api/pads" {
			t.Errorf("log line %s: want level DEBUG, method GET, path /api/pads", raw)
		}
		switch {
		case l.Attempt > 0:
			attempts = append(attempts, l)
		case l.Attempts > 0:
			done++
			if l.Attempts != 2 {
				t.Errorf("log line %s: attempts %d, want 2", raw, l.Attempts)
			}
		default:
			t.Errorf("log line %s has neither attempt nor attempts", raw)
		}
		for _, bad := range []string{"?", "page=", "Token", "Authorization"} {
			if bytes.Contains(raw, []byte(bad)) {
				t.Errorf("log line %s holds %q", raw, bad)
			}
		}
	}
	if len(attempts) != 2 || attempts[0].Attempt != 1 || attempts[1].Attempt != 2 || done != 1 {
		t.Errorf("got attempt lines %+v and %d result lines, want attempts 1 and 2 and one result:\n%s", attempts, done, buf.String())
	}
}

// TestNoOutputWithoutLogger runs calls that retry and fail in a child
// process and checks that it wrote nothing at all: go-retryablehttp's default
// logger writes straight to the process's stderr, which no in-process hook
// can capture.
func TestNoOutputWithoutLogger(t *testing.T) {
	t.Parallel()
	if os.Getenv("PADAPI_TEST_NO_OUTPUT_CHILD") == "1" {
		noOutputScenario(t)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoOutputWithoutLogger$", "-test.count=1")
	// The race detector sleeps a second before exiting unless told not to.
	cmd.Env = append(os.Environ(), "PADAPI_TEST_NO_OUTPUT_CHILD=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child test failed: %v\n%s", err, out)
	}
	var extra []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "PASS" && !strings.HasPrefix(l, "coverage:") {
			extra = append(extra, l)
		}
	}
	if len(extra) > 0 {
		t.Errorf("the client wrote output without WithLogger:\n%s", strings.Join(extra, "\n"))
	}
}

func noOutputScenario(t *testing.T) {
	c, mt := newMockClient(t)
	busy := httpmock.NewStringResponder(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`)
	mt.RegisterResponder(http.MethodGet, quotaURL, busy.Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	mt.RegisterResponder(http.MethodGet, padsURL, busy)
	if _, err := c.Pads.List(context.Background(), nil); !errors.Is(err, padapi.ErrServer) {
		t.Fatalf("exhausted retries: %v", err)
	}
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewStringResponder(http.StatusInternalServerError, "oops"))
	if _, err := createPad(c); !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Fatalf("POST 500: %v", err)
	}
	mt.RegisterResponder(http.MethodGet, testBase+"/api/organization", httpmock.NewErrorResponder(errors.New("connection reset")))
	if _, err := c.Organization.Get(context.Background()); err == nil {
		t.Fatal("transport error: no error")
	}
}

func TestDoRawKeepsTheBytes(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	body := `{"status":"OK","id":"A1","notes":null,"drawing":"","extra":[1,2]}`
	mux.HandleFunc("GET /gw/api/pads/A1", func(w http.ResponseWriter, r *http.Request) {
		if got := r.URL.Query().Get("x"); got != "1" {
			t.Errorf("query x = %q, want 1", got)
		}
		respond(w, http.StatusOK, []byte(body))
	})
	var raw json.RawMessage
	if err := c.Do(context.Background(), http.MethodGet, "/api/pads/A1", url.Values{"x": {"1"}}, &raw); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(body, string(raw)); diff != "" {
		t.Errorf("raw body (-want +got):\n%s", diff)
	}
}

func TestDoDecodesAndSendsAForm(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("PUT /gw/api/questions/7", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if got, want := string(b), "question%5Btitle%5D=T"; got != want {
			t.Errorf("body = %q, want %q", got, want)
		}
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":7}`))
	})
	var got struct {
		ID padapi.ID `json:"id"`
	}
	if err := c.Do(context.Background(), http.MethodPut, "/api/questions/7", url.Values{"question[title]": {"T"}}, &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != "7" {
		t.Errorf("ID = %q, want 7", got.ID)
	}
}

func TestDoAPIErrorAndRefusals(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("GET /gw/api/nope", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusNotFound, []byte(`{"status":"ERROR","message":"gone"}`))
	})
	var raw json.RawMessage
	err := c.Do(context.Background(), http.MethodGet, "/api/nope", nil, &raw)
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	for _, tc := range []struct{ method, path string }{
		{"PATCH", "/api/quota"}, {"GET", "api/quota"}, {"GET", "/api/../quota"},
		{"GET", "/api/quota?x=1"}, {"GET", "//evil.example/api"}, {"GET", "/api/a b"},
	} {
		err := c.Do(context.Background(), tc.method, tc.path, nil, nil)
		if !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Do(%s %s) = %v, want ErrInvalidArgument", tc.method, tc.path, err)
		}
	}
}

func TestDoStatusNotOK(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, gwPrefix+"/", http.StatusOK, []byte(`{"status":"ERROR","message":"no"}`))
	err := c.Do(context.Background(), http.MethodGet, "/api/quota", nil, nil)
	var ae *padapi.APIError
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "no") {
		t.Errorf("err = %v, want an *APIError with the message", err)
	}
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
			waitHangUp(t, r)
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
	c := newTestClient(t, srv.URL, testKey, padapi.WithRetry(2, time.Millisecond, 2*time.Millisecond), padapi.WithMaxResponseBytes(4<<10))

	paths := []string{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "404", "503", "decode", "large"}
	var stalled, failed atomic.Int32
	spread(t, workers, calls, func(_, i int) {
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
	deadline := time.Now().Add(waitLimit)
	for {
		now = runtime.NumGoroutine()
		if now <= startGoroutines || time.Now().After(deadline) {
			break
		}
		// No event says a goroutine ended: the count is polled, within
		// a bound that only a leak reaches (the goroutines end as the
		// closed server's connections are read to EOF).
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

// A base URL that ends in /api would send every call to /api/api/...
func TestBaseURLEndingInAPIRefused(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"https://app.coderpad.io/api", "https://app.coderpad.io/api/", "https://gw.example.com/pad/api"} {
		_, err := padapi.NewClient(base, testKey)
		if err == nil || !strings.Contains(err.Error(), "drop the trailing /api") {
			t.Errorf("NewClient(%q): error %v, want one saying to drop the trailing /api", base, err)
		}
	}
	// A path that only contains "api" is fine.
	if _, err := padapi.NewClient("https://gw.example.com/api/pad", testKey); err != nil {
		t.Errorf("NewClient with /api/pad: %v", err)
	}
}

// Every call refused before sending is ErrInvalidArgument and sends nothing.
func TestInvalidArgumentsSendNothing(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
	var nilCtx context.Context
	ctx := context.Background()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, call := range map[string]func() error{
		"nil context": func() error { _, err := c.Quota.Get(nilCtx); return err },
		"nil context, list": func() error {
			_, err := c.Pads.List(nilCtx, nil)
			return err
		},
		"empty ID":            func() error { _, err := c.Pads.Get(ctx, ""); return err },
		"dot ID":              func() error { _, err := c.Questions.Get(ctx, "."); return err },
		"dot-dot environment": func() error { _, err := c.Pads.Environment(ctx, ".."); return err },
		"dot-dot events":      func() error { _, err := c.Pads.ListEvents(ctx, "..", nil); return err },
		"contents with a question": func() error {
			_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Contents: padapi.Ptr("x"), QuestionID: padapi.Ptr[padapi.ID]("1")})
			return err
		},
		"one-ended stats window": func() error {
			_, err := c.Organization.Stats(ctx, &padapi.StatsOptions{Start: start})
			return err
		},
		"question without a language": func() error {
			_, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("t")})
			return err
		},
		"question without params": func() error { _, err := c.Questions.Create(ctx, nil); return err },
		"contents and files": func() error {
			_, err := c.Questions.Update(ctx, "1", &padapi.QuestionUpdateParams{Contents: padapi.Ptr("x"), Files: []padapi.QuestionFile{{Path: "a", Contents: "b"}}})
			return err
		},
		"file without a path": func() error {
			_, err := c.Questions.Update(ctx, "1", &padapi.QuestionUpdateParams{Files: []padapi.QuestionFile{{Contents: "b"}}})
			return err
		},
		"history link over plain http": func() error {
			_, err := c.Pads.History(ctx, "http://history.example.com/doc.json")
			return err
		},
	} {
		err := call()
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.HasPrefix(err.Error(), "padapi: invalid argument: ") {
			t.Errorf("%s: error %v, want ErrInvalidArgument", name, err)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

// NewClient's refusals match ErrInvalidArgument and keep their own text.
func TestNewClientRefusalsAreInvalidArgument(t *testing.T) {
	t.Parallel()
	for name, call := range map[string]func() error{
		"base URL":     func() error { _, err := padapi.NewClient("ftp://x", testKey); return err },
		"plain http":   func() error { _, err := padapi.NewClient("http://pads.example.com", testKey); return err },
		"empty key":    func() error { _, err := padapi.NewClient(testBase, ""); return err },
		"retry option": func() error { _, err := padapi.NewClient(testBase, testKey, padapi.WithRetry(-1, 0, 0)); return err },
	} {
		err := call()
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.HasPrefix(err.Error(), "padapi: ") || strings.Contains(err.Error(), "invalid argument") {
			t.Errorf("%s: error %v, want ErrInvalidArgument with the refusal's own text", name, err)
		}
	}
}

// TestWithResponseCapturesLastAttempt checks that WithResponse holds the
// status, header and body bytes of the last attempt, as the service sent
// them, on a success and on an error answer after a retry.
func TestWithResponseCapturesLastAttempt(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, fastRetry)
	var n atomic.Int32
	// Spacing the codec would drop: the capture must keep the bytes.
	okBody := "{ \"status\" : \"OK\", \"pads_used\":1, \"unlimited\":false }\n"
	mux.HandleFunc("GET /gw/api/quota", func(w http.ResponseWriter, _ *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("X-Attempt", "1")
			respond(w, http.StatusServiceUnavailable, []byte(`{"status":"error","message":"busy"}`))
			return
		}
		w.Header().Set("X-Attempt", "2")
		respond(w, http.StatusOK, []byte(okBody))
	})
	var resp padapi.Response
	if _, err := c.Quota.Get(padapi.WithResponse(context.Background(), &resp)); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Attempt") != "2" || string(resp.Body) != okBody {
		t.Errorf("captured %d %q %q, want 200, attempt 2 and %q", resp.StatusCode, resp.Header.Get("X-Attempt"), resp.Body, okBody)
	}

	errBody := `{"status":"error","message":"no such pad"}`
	handle(mux, "GET /gw/api/pads/NOPE", http.StatusNotFound, []byte(errBody))
	var eresp padapi.Response
	_, err := c.Pads.Get(padapi.WithResponse(context.Background(), &eresp), "NOPE")
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if eresp.StatusCode != http.StatusNotFound || string(eresp.Body) != errBody || eresp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("captured %d %q %v, want 404 and %q", eresp.StatusCode, eresp.Body, eresp.Header, errBody)
	}
}

// TestWithResponseDo checks that Do fills a Response too, with the bytes
// of a body the typed decode would not keep.
func TestWithResponseDo(t *testing.T) {
	t.Parallel()
	body := `{"status":"OK","extra":[1, 2,  3]}`
	c := serve(t, testKey, http.StatusOK, body)
	var resp padapi.Response
	var v struct{}
	if err := c.Do(padapi.WithResponse(context.Background(), &resp), http.MethodGet, "/api/anything", nil, &v); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || string(resp.Body) != body {
		t.Errorf("captured %d %q, want 200 %q", resp.StatusCode, resp.Body, body)
	}
}

// TestWithResponseTooLarge checks that a body over the cap leaves at most
// the cap's worth of bytes in the Response.
func TestWithResponseTooLarge(t *testing.T) {
	t.Parallel()
	body := `{"status":"OK","pads_used":1,"padding":"` + strings.Repeat("x", 4096) + `"}`
	c := serve(t, testKey, http.StatusOK, body, padapi.WithMaxResponseBytes(1024))
	var resp padapi.Response
	_, err := c.Quota.Get(padapi.WithResponse(context.Background(), &resp))
	if !errors.Is(err, padapi.ErrResponseTooLarge) {
		t.Fatalf("err = %v, want ErrResponseTooLarge", err)
	}
	if resp.StatusCode != http.StatusOK || len(resp.Body) > 1024 || !strings.HasPrefix(body, string(resp.Body)) {
		t.Errorf("captured %d and %d bytes, want 200 and a prefix of at most 1024", resp.StatusCode, len(resp.Body))
	}
}

// dialCounter is a transport that counts the requests it is given and
// fails them: a dry run must give it none.
type dialCounter struct{ n atomic.Int32 }

func (d *dialCounter) RoundTrip(*http.Request) (*http.Response, error) {
	d.n.Add(1)
	return nil, errors.New("dialCounter: no request may be sent")
}

// TestWithDryRun checks that a dry run validates and encodes as the call
// would, fills the Request without the key, returns ErrDryRun and sends
// nothing, for typed methods and Do.
func TestWithDryRun(t *testing.T) {
	t.Parallel()
	var dc dialCounter
	c := newTestClient(t, testBase, testKey, padapi.WithHTTPClient(&http.Client{Transport: &dc}))
	for _, tt := range []struct {
		name string
		call func(context.Context) error
		want padapi.Request
	}{
		{"quota", func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err },
			padapi.Request{Method: "GET", Path: "/api/quota"}},
		{"list", func(ctx context.Context) error {
			_, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortCreatedAsc, Page: 3})
			return err
		}, padapi.Request{Method: "GET", Path: "/api/pads", Query: url.Values{"sort": {"created_at,asc"}, "page": {"3"}}}},
		{"create", func(ctx context.Context) error {
			_, _ = createPad(c) // sent, to show the transport counts
			_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("x")})
			return err
		},
			padapi.Request{Method: "POST", Path: "/api/pads", ContentType: "application/x-www-form-urlencoded", Body: []byte("title=x")}},
		{"do put", func(ctx context.Context) error {
			return c.Do(ctx, http.MethodPut, "/api/pads/AB", url.Values{"b": {"2"}, "a": {"1"}}, nil)
		}, padapi.Request{Method: "PUT", Path: "/api/pads/AB", ContentType: "application/x-www-form-urlencoded", Body: []byte("a=1&b=2")}},
		{"do delete", func(ctx context.Context) error { return c.Do(ctx, http.MethodDelete, "/api/questions/7", nil, nil) },
			padapi.Request{Method: "DELETE", Path: "/api/questions/7"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var req padapi.Request
			err := tt.call(padapi.WithDryRun(context.Background(), &req))
			if !errors.Is(err, padapi.ErrDryRun) {
				t.Fatalf("err = %v, want ErrDryRun", err)
			}
			if diff := cmp.Diff(tt.want, req); diff != "" {
				t.Errorf("Request (-want +got):\n%s", diff)
			}
			if strings.Contains(fmt.Sprint(req), testKey) {
				t.Error("the dry run's Request holds the key")
			}
		})
	}
	// createPad above sent one real request, through dialCounter, which
	// failed it; every dry run sent none.
	if got := dc.n.Load(); got != 1 {
		t.Errorf("%d requests reached the transport, want 1 (the one real create)", got)
	}
}

// TestWithDryRunValidates checks that a dry run still refuses bad
// arguments with ErrInvalidArgument, not ErrDryRun.
func TestWithDryRunValidates(t *testing.T) {
	t.Parallel()
	var dc dialCounter
	c := newTestClient(t, testBase, testKey, padapi.WithHTTPClient(&http.Client{Transport: &dc}))
	var req padapi.Request
	ctx := padapi.WithDryRun(context.Background(), &req)
	if _, err := c.Pads.Get(ctx, ".."); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("Get(..) = %v, want ErrInvalidArgument", err)
	}
	if err := c.Do(ctx, http.MethodGet, "/api/../quota", nil, nil); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("Do(/api/../quota) = %v, want ErrInvalidArgument", err)
	}
	if req.Method != "" || dc.n.Load() != 0 {
		t.Errorf("a refused call filled %+v and sent %d requests", req, dc.n.Load())
	}
}

// TestDoRefusesHostilePaths checks that Do refuses, as ErrInvalidArgument
// and without sending anything, every path a server could read as another
// one once it undoes escapes any number of times: dot segments, NUL and
// control characters, ';' parameters, escaped slashes and backslashes,
// overlong UTF-8, in every form.
func TestDoRefusesHostilePaths(t *testing.T) {
	t.Parallel()
	var dc dialCounter
	c := newTestClient(t, testBase, testKey, noRetry, padapi.WithHTTPClient(&http.Client{Transport: &dc}))
	for _, p := range []string{
		"/api/../quota",
		"/api/./quota",
		"/api/%2e%2e/quota",
		"/api/%2E%2E/quota",
		"/api/.%2e/quota",
		"/api/%252e%252e/quota",
		"/api/%25252e%25252e/quota",
		"/api/%2525252e%2525252e/quota",
		"/api/..;/quota",
		"/api/pads;x=1/AB",
		"/api/%3b/quota",
		"/api/%253b/quota",
		"/api/%c0%ae%c0%ae/quota",
		"/api/%25c0%25ae%25c0%25ae/quota",
		"/api/%e0%80%ae%e0%80%ae/quota",
		"/api/%c0%af/quota",
		"/api/pads/AB%00",
		"/api/pads/AB%2500",
		"/api/pads/AB%0a",
		"/api/pads/AB%250d%250a",
		"/api/pads/AB%7f",
		"/api/..%2fquota",
		"/api/..%252fquota",
		"/api/..%5cquota",
		"/api/..%255cquota",
		"/api/...",
		"/api/%2e%2e%20/quota",
		"/api/pads/%ff",
		"/api/pads/\x00",
		"/api/%u002e%u002e/quota",
		"/api/%252",
		"api/quota",
	} {
		if err := c.Do(context.Background(), http.MethodGet, p, nil, nil); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Do(%q) = %v, want ErrInvalidArgument", p, err)
		}
	}
	if n := dc.n.Load(); n != 0 {
		t.Errorf("%d hostile paths reached the transport", n)
	}
}

// TestDoAcceptsPlainPaths checks that the path check lets ordinary API
// paths through, escapes included.
func TestDoAcceptsPlainPaths(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterNoResponder(httpmock.NewStringResponder(http.StatusOK, `{"status":"OK","id":"x"}`))
	for _, p := range []string{"/api/quota", "/api/pads/AB12", "/api/pads/a%20b", "/api/questions/42/", "/api/pads/a.b", "/api/pads/caf%C3%A9"} {
		if err := c.Do(context.Background(), http.MethodGet, p, nil, nil); err != nil {
			t.Errorf("Do(%q) = %v", p, err)
		}
	}
}

// endlessBody is a success body without end: its first Read waits for the
// call's deadline to pass, and every Read after it returns more of an
// endless list at once. It never looks at the context itself, so a call
// that returns on time noticed the deadline while reading or decoding.
type endlessBody struct {
	ctx    context.Context
	head   string
	item   string
	waited bool
	off    int
}

func (b *endlessBody) Read(p []byte) (int, error) {
	if !b.waited {
		<-b.ctx.Done()
		b.waited = true
		return copy(p, b.head), nil
	}
	n := 0
	for n < len(p) {
		c := copy(p[n:], b.item[b.off:])
		n += c
		b.off = (b.off + c) % len(b.item)
	}
	return n, nil
}

func (*endlessBody) Close() error { return nil }

// TestDeadlineWhileDecoding checks that a call whose deadline passes while
// its answer is still being read and decoded returns within a second of
// the deadline with context.DeadlineExceeded, for a list page, a resource
// and Do's raw bytes (issue 28 #12).
func TestDeadlineWhileDecoding(t *testing.T) {
	t.Parallel()
	item := `{"id":"AB","title":"` + strings.Repeat("x", 200) + `","created_at":"2014-11-14T03:02:45Z"},`
	for _, tt := range []struct {
		name, head string
		call       func(context.Context, *padapi.Client) error
	}{
		{"list", `{"status":"OK","total":1,"pads":[`, func(ctx context.Context, c *padapi.Client) error {
			_, err := c.Pads.List(ctx, nil)
			return err
		}},
		{"pad", `{"status":"OK","id":"AB","events":[`, func(ctx context.Context, c *padapi.Client) error {
			_, err := c.Pads.Get(ctx, "AB")
			return err
		}},
		{"do raw", `{"status":"OK","pads":[`, func(ctx context.Context, c *padapi.Client) error {
			var raw json.RawMessage
			return c.Do(ctx, http.MethodGet, "/api/pads", nil, &raw)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
					Body: &endlessBody{ctx: r.Context(), head: tt.head, item: item}, ContentLength: -1, Request: r}, nil
			})
			// A cap far above what a second of reading gives: the
			// deadline, not the cap, must end the call.
			c := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(1<<40),
				padapi.WithHTTPClient(&http.Client{Transport: rt}))
			deadline := time.Now().Add(50 * time.Millisecond)
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- tt.call(ctx, c) }()
			select {
			case err := <-done:
				if late := time.Since(deadline); late > time.Second {
					t.Errorf("returned %v after the deadline", late)
				}
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("err = %v, want context.DeadlineExceeded", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the call did not return within 10s of its deadline")
			}
		})
	}
}

// counter counts the response body bytes a client reads, to prove that it
// stops reading a body it does not want.
type counter struct {
	base *http.Transport
	read atomic.Int64
}

func newCounter(t *testing.T) *counter {
	c := &counter{base: &http.Transport{}}
	t.Cleanup(c.base.CloseIdleConnections)
	return c
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if resp != nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &c.read}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// bigServer answers every request with status and size bytes of body, with
// a Content-Length or chunked.
func bigServer(t *testing.T, status int, body []byte, withLength bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if withLength {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(status)
		_, _ = w.Write(body) // fails once the client hangs up
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHostileHugeErrorBody sends a 10 MiB error body: the client keeps the
// first 64 KiB, drains a little more so the connection might be reused, and
// hangs up, reading and allocating far less than the body.
func TestHostileHugeErrorBody(t *testing.T) {
	body := append([]byte("<html>"), bytes.Repeat([]byte("x"), 10<<20)...)
	for _, withLength := range []bool{true, false} {
		t.Run("Content-Length "+strconv.FormatBool(withLength), func(t *testing.T) {
			srv := bigServer(t, http.StatusBadGateway, body, withLength)
			counter := newCounter(t)
			c := newTestClient(t, srv.URL, testKey, noRetry, padapi.WithHTTPClient(&http.Client{Transport: counter}))
			var callErr error
			const runs = 5
			allocated := allocated(runs, func() { _, callErr = c.Quota.Get(context.Background()) })
			read := counter.read.Load() / runs
			t.Logf("10 MiB error body: %d bytes read and %d bytes allocated per call", read, allocated)

			var apiErr *padapi.APIError
			if !errors.As(callErr, &apiErr) || apiErr.StatusCode != http.StatusBadGateway || !errors.Is(callErr, padapi.ErrServer) {
				t.Fatalf("error = %v, want an *APIError 502 matching ErrServer", callErr)
			}
			if len(apiErr.Body) != 64<<10 || !bytes.Equal(apiErr.Body, body[:64<<10]) {
				t.Errorf("Body holds %d bytes, want the first 64 KiB", len(apiErr.Body))
			}
			if want := "padapi: GET /api/quota: 502: Bad Gateway"; callErr.Error() != want {
				t.Errorf("error text %q, want %q", callErr, want)
			}
			// 64 KiB kept plus at most 256 KiB drained, plus what the
			// transport had buffered.
			if read > 512<<10 {
				t.Errorf("read %d bytes of a 10 MiB body, want at most 512 KiB", read)
			}
			if allocated > 1<<20 {
				t.Errorf("allocated %d bytes per call, want under 1 MiB", allocated)
			}
		})
	}
}

// TestHostileSuccessOverCap sends a 10 MiB success body to a client capped at
// 256 KiB: ErrResponseTooLarge, without reading the body when its
// Content-Length says it is too large, and reading no more than the cap
// (plus the bounded drain) when it does not.
func TestHostileSuccessOverCap(t *testing.T) {
	const limit = 256 << 10
	body := append([]byte(`{"status":"OK","pads":[],"x":"`), bytes.Repeat([]byte("x"), 10<<20)...)
	for _, tt := range []struct {
		withLength        bool
		maxRead, maxAlloc int64
	}{
		// Refused on its Content-Length: only the bounded drain is read.
		{true, 512 << 10, 1 << 20},
		// Read up to the cap. The buffer grows by doubling, which costs
		// 4 times the cap, 8 under the race detector.
		{false, limit + 512<<10, 10 * limit},
	} {
		t.Run("Content-Length "+strconv.FormatBool(tt.withLength), func(t *testing.T) {
			srv := bigServer(t, http.StatusOK, body, tt.withLength)
			counter := newCounter(t)
			c := newTestClient(t, srv.URL, testKey, padapi.WithMaxResponseBytes(limit), padapi.WithHTTPClient(&http.Client{Transport: counter}))
			var callErr error
			const runs = 3
			allocated := allocated(runs, func() { _, callErr = c.Pads.List(context.Background(), nil) })
			read := counter.read.Load() / runs
			t.Logf("10 MiB success body, cap 256 KiB: %d bytes read and %d bytes allocated per call", read, allocated)

			var apiErr *padapi.APIError
			if !errors.Is(callErr, padapi.ErrResponseTooLarge) || !errors.As(callErr, &apiErr) || apiErr.StatusCode != http.StatusOK {
				t.Fatalf("error = %v, want an *APIError 200 matching ErrResponseTooLarge", callErr)
			}
			if want := "response body over 262144 bytes"; !strings.Contains(callErr.Error(), want) {
				t.Errorf("error text %q does not say %q", callErr, want)
			}
			if read > tt.maxRead {
				t.Errorf("read %d bytes of a 10 MiB body, want at most %d", read, tt.maxRead)
			}
			if int64(allocated) > tt.maxAlloc {
				t.Errorf("allocated %d bytes per call, want at most %d", allocated, tt.maxAlloc)
			}
		})
	}
}

// callKinds are a read and a create, the two ways a call can end.
var callKinds = []struct {
	name string
	call func(context.Context, *padapi.Client) error
}{
	{"GET", func(ctx context.Context, c *padapi.Client) error { _, err := c.Quota.Get(ctx); return err }},
	{"POST", func(ctx context.Context, c *padapi.Client) error {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
		return err
	}},
}

// checkDeadline calls each kind of call on c, inside a synctest bubble, with
// a 100 ms deadline, and wants it to end with DeadlineExceeded exactly at
// the deadline in the bubble's fake time: a client that waited for the
// server, or for anything but the deadline, would return later or never
// (the bubble then reports a deadlock). See checkDeadlineErr for the error.
func checkDeadline(t *testing.T, c *padapi.Client) {
	t.Helper()
	for _, kind := range callKinds {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		at, _ := ctx.Deadline()
		err := kind.call(ctx, c)
		late := time.Since(at)
		cancel()
		checkDeadlineErr(t, kind.name, err)
		if late != 0 {
			t.Errorf("%s returned %v after the deadline, want exactly at it", kind.name, late)
		}
	}
}

// checkDeadlineErr checks the error of a call of kind name that its
// deadline ended: DeadlineExceeded, the call named, and for a create, since
// the request was sent, ErrOutcomeUnknown.
func checkDeadlineErr(t *testing.T, name string, err error) {
	t.Helper()
	checkDeadlineNamed(t, name, err)
	if unknown := errors.Is(err, padapi.ErrOutcomeUnknown); unknown != (name == "POST") {
		t.Errorf("%s: errors.Is(err, ErrOutcomeUnknown) = %v", name, unknown)
	}
}

// checkDeadlineNamed is checkDeadlineErr without the outcome: on a real
// socket a busy machine may reach the deadline before the request is
// written, and then the outcome is known (nothing was sent).
func checkDeadlineNamed(t *testing.T, name string, err error) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), "padapi: "+name+" /api/") {
		t.Errorf("%s: error text %q does not name the call", name, err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%s: error = %v, want context.DeadlineExceeded", name, err)
	}
}

// TestHostileStalledBody: the server sends the headers, and perhaps the
// start of the body, then nothing. The caller's deadline ends the call.
func TestHostileStalledBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		header http.Header
		body   string
	}{
		{"headers, no body", nil, ""},
		{"headers with a Content-Length, no body", http.Header{"Content-Length": {"100"}}, ""},
		{"headers and part of the body", nil, `{"status":"OK",`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c := inMemory(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					for k, v := range tt.header {
						w.Header()[k] = v
					}
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusOK)
					_, _ = io.WriteString(w, tt.body)
					w.(http.Flusher).Flush()
					<-r.Context().Done()
				}), padapi.WithRetry(5, time.Millisecond, 5*time.Millisecond))
				checkDeadline(t, c)
			})
		})
	}
}

// TestHostileSilentServer: the server accepts connections and sends
// nothing, not even headers. In memory, the call ends exactly at its
// deadline; on a real socket (net/http's own transport, which no bubble
// can wait on) it ends with DeadlineExceeded although the server never
// lets go, which is all that can be said without timing the machine.
func TestHostileSilentServer(t *testing.T) {
	t.Parallel()
	t.Run("in memory", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			c := inMemory(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				<-r.Context().Done()
			}), padapi.WithRetry(5, time.Millisecond, 5*time.Millisecond))
			checkDeadline(t, c)
		})
	})
	t.Run("socket", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		stop := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				conn, err := l.Accept()
				if err != nil {
					return
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-stop
					conn.Close()
				}()
			}
		}()
		defer func() {
			l.Close()
			close(stop)
			wg.Wait()
		}()
		c := newTestClient(t, "http://"+l.Addr().String(), testKey, padapi.WithRetry(5, time.Millisecond, 5*time.Millisecond))
		// The kinds of call wait out their deadlines side by side.
		var calls sync.WaitGroup
		for _, kind := range callKinds {
			calls.Go(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
				defer cancel()
				done := make(chan error, 1)
				go func() { done <- kind.call(ctx, c) }()
				select {
				case err := <-done:
					checkDeadlineNamed(t, kind.name, err)
				case <-time.After(waitLimit):
					t.Errorf("%s: still running %v after a 100ms deadline", kind.name, waitLimit)
				}
			})
		}
		calls.Wait()
	})
}

// TestHostileTruncatedBody: the body ends (the connection closes) before its
// Content-Length. The error says so; a create's outcome is unknown.
func TestHostileTruncatedBody(t *testing.T) {
	t.Parallel()
	url := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"+`{"status":"OK","pads_used":1`)
	c := newTestClient(t, url, testKey, noRetry)
	for _, kind := range callKinds {
		err := kind.call(context.Background(), c)
		if !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "unexpected EOF") {
			t.Errorf("%s: error = %v, want io.ErrUnexpectedEOF", kind.name, err)
		}
		if unknown := errors.Is(err, padapi.ErrOutcomeUnknown); unknown != (kind.name == "POST") {
			t.Errorf("%s: errors.Is(err, ErrOutcomeUnknown) = %v", kind.name, unknown)
		}
	}
}

// The client hands a caller's transport creates without GetBody and with a
// real body on every attempt, so no transport can replay one: net/http's
// HTTP/2 resends a request after a stream reset whenever it can get the
// body again.
func TestCreateNeverReplayable(t *testing.T) {
	t.Parallel()
	var seen []string
	spy := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, fmt.Sprintf("GetBody=%v NoBody=%v", r.GetBody != nil, r.Body == nil || r.Body == http.NoBody))
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("refused")}
	})
	c := newTestClient(t, testBase, testKey, fastRetry, padapi.WithHTTPClient(&http.Client{Transport: spy}))
	for _, params := range []*padapi.PadCreateParams{nil, {Title: padapi.Ptr("t")}} {
		seen = nil
		_, _ = c.Pads.Create(context.Background(), params)
		if len(seen) != 4 {
			t.Fatalf("%d attempts, want 4 (a refused dial is retried)", len(seen))
		}
		for i, s := range seen {
			if s != "GetBody=false NoBody=false" {
				t.Errorf("attempt %d: %s, want GetBody=false NoBody=false", i+1, s)
			}
		}
	}
}

// A server that answers 101 Switching Protocols and then says nothing
// cannot hold a call: it fails at once with the 101, well within its
// deadline. In memory the bubble's clock shows no wait at all; on a real
// socket (net/http hands the connection over as the body) the error must
// be the 101, not the deadline, while the server still holds on.
func TestSwitchingProtocolsThenSilence(t *testing.T) {
	t.Parallel()
	calls := map[string]func(context.Context, *padapi.Client) error{
		"read":   func(ctx context.Context, c *padapi.Client) error { _, err := c.Quota.Get(ctx); return err },
		"create": func(ctx context.Context, c *padapi.Client) error { _, err := c.Pads.Create(ctx, nil); return err },
	}
	check := func(t *testing.T, name string, err error) {
		t.Helper()
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols || errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: err = %v, want an *APIError with the 101, not the deadline", name, err)
		}
		if name == "create" && !errors.Is(err, padapi.ErrOutcomeUnknown) {
			t.Errorf("create: err = %v, want ErrOutcomeUnknown", err)
		}
	}
	t.Run("in memory", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			c := inMemory(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Upgrade", "x")
				w.Header().Set("Connection", "Upgrade")
				w.WriteHeader(http.StatusSwitchingProtocols)
				<-r.Context().Done()
			}), fastRetry)
			for name, call := range calls {
				ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
				start := time.Now()
				err := call(ctx, c)
				if took := time.Since(start); took != 0 {
					t.Errorf("%s: took %v, want no wait", name, took)
				}
				cancel()
				check(t, name, err)
			}
		})
	})
	t.Run("socket", func(t *testing.T) {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
			_ = buf.Flush()
			<-release
			_ = conn.Close()
		}))
		t.Cleanup(srv.Close)
		t.Cleanup(func() { close(release) }) // runs first: the handlers let go
		c := newTestClient(t, srv.URL, testKey, fastRetry)
		for name, call := range calls {
			// The deadline only bounds a wrong client; a right one
			// returns the 101 long before it, however slow the machine.
			ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
			err := call(ctx, c)
			cancel()
			check(t, name, err)
		}
	})
}

// A call whose body drips for ever does not hold up an unrelated call on
// the same client: the quota call completes while the four dripping calls
// are all still in flight (their handlers hold on until the test ends).
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/pads/SLOW" {
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"status":"OK",`)
			w.(http.Flusher).Flush()
			started.Done()
			<-release
			return
		}
		respond(w, http.StatusOK, []byte(okQuota))
	}))
	t.Cleanup(srv.Close)
	// Registered after srv.Close, so it runs first: the dripping
	// handlers return and Close does not wait for them.
	t.Cleanup(func() { close(release) })
	c := newTestClient(t, srv.URL, testKey, noRetry)
	var finished atomic.Int32
	for range 4 {
		go func() {
			_, _ = c.Pads.Get(context.Background(), "SLOW")
			finished.Add(1)
		}()
	}
	waitAll(t, &started)
	// The deadline only bounds a client that queues the call behind the
	// dripping ones: it would then fail here, however fast the machine.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if n := finished.Load(); n != 0 {
		t.Errorf("%d dripping calls ended before the test let them go", n)
	}
}

// NewClient's refusal quotes no part of a base URL that may hold a secret:
// its query, fragment or user information.
func TestNewClientErrorHidesSecrets(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-T0KEN"
	for _, base := range []string{
		"https://u:" + secret + "@pad.example.com",
		"https://" + secret + "@pad.example.com",
		"https://pad.example.com/?key=" + secret,
		"https://pad.example.com/api?key=" + secret,
		"http://pad.example.com/?token=" + secret,
		"ftp://pad.example.com/?k=" + secret,
		"https://pad.example.com/#" + secret,
		"pad.example.com/?k=" + secret,
		"https://pad.example.com/%zz?k=" + secret,
		"http://u:" + secret + "@pad.example.com/api",
	} {
		_, err := padapi.NewClient(base, "k")
		if err == nil {
			t.Errorf("NewClient(%q) accepted it", base)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("NewClient(%q) error quotes the secret: %v", base, err)
		}
		if !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("NewClient(%q) error %v does not match ErrInvalidArgument", base, err)
		}
	}
}

// A cap near the largest int64, and a Content-Length far over what comes,
// neither panic nor allocate what the header announces.
func TestHugeCapsAndLengths(t *testing.T) {
	// Not parallel: it reads the process's allocations.
	c := serve(t, testKey, http.StatusOK, okQuota, noRetry, padapi.WithMaxResponseBytes(math.MaxInt64))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("cap MaxInt64: %v", err)
	}
	for _, announced := range []int64{1 << 50, 32 << 20} {
		base := rawServer(t, fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n{}", announced))
		c := newTestClient(t, base, testKey, noRetry, padapi.WithMaxResponseBytes(1<<60))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := c.Quota.Get(context.Background())
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("Content-Length %d with 2 bytes: no error", announced)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
			t.Errorf("Content-Length %d with 2 bytes: %d bytes allocated", announced, got)
		}
	}
}

// A Do path whose escapes spell a . or .. segment or a slash is refused:
// a server that undoes them would resolve the path above the base URL's
// prefix.
func TestDoRefusesEscapedDotSegments(t *testing.T) {
	t.Parallel()
	c, _ := setup(t, noRetry) // any request fails the test
	for _, p := range []string{"/api/%2e%2e/%2e%2e/admin", "/api/pads/..%2f..%2fadmin", "/api/%2E/x", "/api/a%5cb", "/api/%zz"} {
		if err := c.Do(context.Background(), http.MethodGet, p, nil, nil); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Do(%q) = %v, want ErrInvalidArgument", p, err)
		}
	}
}

// A user agent with a control character is refused by NewClient, not by
// every call after it.
func TestWithUserAgentControlCharacters(t *testing.T) {
	t.Parallel()
	for _, ua := range []string{"tool\x00v1", "tool\x7f", "a\rb", "a\nb"} {
		if _, err := padapi.NewClient(testBase, testKey, padapi.WithUserAgent(ua)); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("WithUserAgent(%q): %v, want ErrInvalidArgument", ua, err)
		}
	}
}

// A create answered 2xx without a status (null, {}, an id that is not one)
// may have happened: outcome unknown. A status other than OK is the
// service saying no: nothing was created.
func TestCreateAnsweredWithoutStatus(t *testing.T) {
	t.Parallel()
	for body, unknown := range map[string]bool{
		`null`:                              true,
		`{}`:                                true,
		`{"id":{}}`:                         true,
		`{"status":"ERROR","message":"no"}`: false,
	} {
		c := serve(t, testKey, http.StatusOK, body, noRetry)
		_, err := c.Pads.Create(context.Background(), nil)
		if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) != unknown {
			t.Errorf("create answered %s: err = %v, want outcome unknown %v", body, err, unknown)
		}
	}
}

// TestConcurrentCalls shares one client among 64 goroutines for 1000 calls,
// reads and creates mixed, against the fake with an unlimited quota. Run
// under -race it checks the client's shared state; then every call must have
// succeeded with one request each, and the fake must hold exactly the pads
// that the creates returned. (docs/reliability.md's v3 run had 5000 calls; 1000, over
// 15 a goroutine, race the same state and fit a loaded runner's -race run.)
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	const calls, workers, seeded = 1000, 64, 10
	fake := padapitest.NewServer(t)
	fake.SetUnlimited()
	fake.Seed(seeded)
	c := fake.Client()
	seededPads, questions := fake.Pads(), fake.Questions()
	ctx := context.Background()

	var failed atomic.Int32
	created := make([][]string, workers) // pad IDs, per worker
	start := time.Now()
	spread(t, workers, calls, func(w, i int) {
		var err error
		switch i % 8 {
		case 0, 4:
			var pad *padapi.Pad
			pad, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr(fmt.Sprintf("concurrent %d", i))})
			if err == nil {
				created[w] = append(created[w], string(pad.ID))
			}
		case 1:
			_, err = c.Quota.Get(ctx)
		case 2:
			_, err = c.Pads.Get(ctx, seededPads[i%seeded].ID)
		case 3:
			_, err = c.Questions.Get(ctx, questions[i%seeded].ID)
		case 5:
			_, err = c.Organization.Get(ctx)
		case 6:
			_, err = c.Questions.List(ctx, nil)
		case 7:
			_, err = c.Organization.Stats(ctx, nil)
		}
		if err != nil {
			failed.Add(1)
			t.Errorf("call %d: %v", i, err)
		}
	})
	elapsed := time.Since(start)

	ids := map[string]bool{}
	for _, list := range created {
		for _, id := range list {
			if ids[id] {
				t.Errorf("two creates returned pad %s", id)
			}
			ids[id] = true
		}
	}
	pads := fake.Pads()
	t.Logf("%d calls from %d goroutines in %v: %d failed, %d creates succeeded, the fake holds %d pads (%d seeded)",
		calls, workers, elapsed.Round(time.Millisecond), failed.Load(), len(ids), len(pads), seeded)
	if want := calls / 4; len(ids) != want {
		t.Errorf("%d creates succeeded, want %d", len(ids), want)
	}
	if len(pads) != seeded+len(ids) {
		t.Errorf("the fake holds %d pads, want %d seeded + %d created", len(pads), seeded, len(ids))
	}
	for _, p := range pads[seeded:] {
		if !ids[string(p.ID)] {
			t.Errorf("the fake holds pad %s, which no create returned", p.ID)
		}
	}
	if n := len(fake.Requests()); n != calls {
		t.Errorf("the fake got %d requests, want one per call (%d)", n, calls)
	}
}

// TestFromEnvNamesTheVariable: FromEnv without a key says which variable to
// set, as an ErrInvalidArgument, and with one builds a client for the base
// URL the environment names.
func TestFromEnvNamesTheVariable(t *testing.T) {
	t.Setenv("PAD_API_KEY", "")
	t.Setenv("PAD_BASE_URL", "")
	_, err := padapi.FromEnv()
	if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.Contains(fmt.Sprint(err), "PAD_API_KEY") {
		t.Fatalf("FromEnv without a key: %v, want ErrInvalidArgument naming PAD_API_KEY", err)
	}

	srv := padapitest.NewServer(t)
	t.Setenv("PAD_API_KEY", srv.APIKey)
	t.Setenv("PAD_BASE_URL", srv.URL)
	c, err := padapi.FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Quota.Get(t.Context()); err != nil {
		t.Fatalf("a client from the environment cannot read the fake's quota: %v", err)
	}
}
