// auth_test.go: tests of the API key: it never leaks, through any error, log line or echo.

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
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// TestAPIKeyNeverLeaks drives every error path with a unique key and a debug
// logger, and looks for the key in every error's text and fmt forms, in the
// log, and in fmt of the client. Each path is a subtest with a client, a
// log and a mock transport of its own, inside a synctest bubble (the
// deadlines and the 1 s Retry-After are fake time), so each works alone,
// filtered with -run, and under -failfast.
func TestAPIKeyNeverLeaks(t *testing.T) {
	t.Parallel()
	key := "canary-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	newLeakClient := func(t *testing.T) (*padapi.Client, *httpmock.MockTransport, *bytes.Buffer, []padapi.Option) {
		logs := &bytes.Buffer{}
		logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		mt := httpmock.NewMockTransport()
		opts := []padapi.Option{
			padapi.WithHTTPClient(&http.Client{Transport: mt}),
			padapi.WithLogger(logger),
			// Backoff is 1ms and 2ms, but a Retry-After of 1s fits under
			// the cap, so a call can be caught in a backoff.
			padapi.WithRetry(2, time.Millisecond, time.Second),
			padapi.WithMaxResponseBytes(4096),
			padapi.WithUserAgent("leaktest"),
		}
		return newTestClient(t, testBase, key, opts...), mt, logs, opts
	}

	// withKey counts the requests that carried the key, so the test knows
	// the key was in play on every path.
	var withKey atomic.Int32
	answer := func(status int, body string, header ...string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			if r.Header.Get("Authorization") == `Token token="`+key+`"` {
				withKey.Add(1)
			}
			resp := httpmock.NewStringResponse(status, body)
			for i := 0; i+1 < len(header); i += 2 {
				resp.Header.Set(header[i], header[i+1])
			}
			return resp, nil
		}
	}
	fail := func(err error) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			if r.Header.Get("Authorization") == `Token token="`+key+`"` {
				withKey.Add(1)
			}
			return nil, err
		}
	}
	hang := func(r *http.Request) (*http.Response, error) {
		if r.Header.Get("Authorization") == `Token token="`+key+`"` {
			withKey.Add(1)
		}
		select {
		case <-r.Context().Done():
			return nil, r.Context().Err()
		case <-time.After(time.Second):
			return httpmock.NewStringResponse(200, `{"status":"OK","pads":[]}`), nil
		}
	}
	errBody := func(msg string) string { return `{"status":"ERROR","message":"` + msg + `"}` }
	getQuota := func(ctx context.Context, c *padapi.Client) error { _, err := c.Quota.Get(ctx); return err }
	create := func(ctx context.Context, c *padapi.Client) error {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
		return err
	}
	list := func(ctx context.Context, c *padapi.Client) error {
		_, err := c.Pads.List(ctx, &padapi.PadListOptions{Page: 2, Sort: padapi.SortUpdatedAsc})
		return err
	}

	tests := []struct {
		name      string
		method    string
		url       string
		responder httpmock.Responder
		call      func(context.Context, *padapi.Client) error
		timeout   time.Duration
	}{
		{"GET dial error", "GET", quotaURL, fail(dialError), getQuota, 0},
		{"GET dropped connection", "GET", quotaURL, fail(io.ErrUnexpectedEOF), getQuota, 0},
		{"POST dial error", "POST", padsURL, fail(dialError), create, 0},
		{"POST dropped connection", "POST", padsURL, fail(io.ErrUnexpectedEOF), create, 0},
		{"400", "POST", padsURL, answer(400, errBody("Unsupported language")), create, 0},
		{"401", "GET", quotaURL, answer(401, errBody("Invalid API key")), getQuota, 0},
		{"403", "GET", padsURL, answer(403, errBody("Forbidden")), list, 0},
		{"404", "GET", padsURL, answer(404, errBody("Not found")), list, 0},
		{"429 POST", "POST", padsURL, answer(429, errBody("Over quota"), "Retry-After", "1"), create, 0},
		{"429 GET", "GET", quotaURL, answer(429, errBody("Over quota"), "Retry-After", "86400"), getQuota, 0},
		{"500 POST", "POST", padsURL, answer(500, errBody("boom")), create, 0},
		{"503 exhausted", "GET", padsURL, answer(503, "<html>busy</html>"), list, 0},
		{"decode error", "GET", quotaURL, answer(200, `{"status":"OK","pads_used":"x"}`), getQuota, 0},
		{"bad timestamp", "GET", quotaURL, answer(200, `{"status":"OK","quota_reset_at":"soon","unlimited":true}`), getQuota, 0},
		{"status ERROR", "GET", quotaURL, answer(200, errBody("nope")), getQuota, 0},
		{"too large", "GET", padsURL, answer(200, `{"status":"OK","pads":[],"x":"`+strings.Repeat("x", 5000)+`"}`), list, 0},
		{"redirect", "GET", quotaURL, answer(302, "", "Location", "https://evil.example/collect"), getQuota, 0},
		{"redirect POST", "POST", padsURL, answer(307, "", "Location", "https://evil.example/collect"), create, 0},
		{"deadline in request", "GET", padsURL, hang, list, 20 * time.Millisecond},
		{"deadline in backoff", "GET", quotaURL, answer(503, errBody("busy"), "Retry-After", "1"), getQuota, 30 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, mt, logs, _ := newLeakClient(t)
				evil := httpmock.NewStringResponder(200, okQuota)
				mt.RegisterResponder("GET", "https://evil.example/collect", evil)
				mt.RegisterResponder("POST", "https://evil.example/collect", evil)
				mt.RegisterResponder(tt.method, tt.url, tt.responder)
				ctx := context.Background()
				if tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				before := withKey.Load()
				err := tt.call(ctx, c)
				if err == nil {
					t.Fatal("no error")
				}
				if withKey.Load() == before {
					t.Errorf("no request carried the key")
				}
				checkNoKeyInError(t, key, err)
				if n := mt.GetCallCountInfo()["GET https://evil.example/collect"] + mt.GetCallCountInfo()["POST https://evil.example/collect"]; n != 0 {
					t.Errorf("the redirect target got %d requests", n)
				}
				if logs.Len() == 0 {
					t.Fatal("the debug logger got nothing")
				}
				for _, line := range strings.Split(logs.String(), "\n") {
					for _, bad := range []string{key, "Token", "Authorization", "?", "page="} {
						if strings.Contains(line, bad) {
							t.Errorf("log line holds %q: %s", bad, line)
						}
					}
				}
			})
		})
	}

	t.Run("fmt of the client", func(t *testing.T) {
		c, _, _, opts := newLeakClient(t)
		things := map[string]any{
			"client": c, "*client": *c, "Quota": c.Quota, "Pads": c.Pads,
			"Questions": c.Questions, "Organization": c.Organization, "options": opts,
		}
		for name, v := range things {
			for _, form := range []string{"%v", "%+v", "%#v"} {
				if s := fmt.Sprintf(form, v); strings.Contains(s, key) {
					t.Errorf("fmt %s of the %s holds the key: %s", form, name, s)
				}
			}
		}
	})
}

// checkNoKeyInError fails the test when key is in any fmt form of err or
// of the *APIError in it.
func checkNoKeyInError(t *testing.T, key string, err error) {
	t.Helper()
	for _, form := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		if s := fmt.Sprintf(form, err); strings.Contains(s, key) {
			t.Errorf("fmt %s of the error holds the key: %s", form, s)
		}
	}
	var apiErr *padapi.APIError
	if errors.As(err, &apiErr) {
		for _, form := range []string{"%v", "%+v", "%#v"} {
			if s := fmt.Sprintf(form, *apiErr); strings.Contains(s, key) {
				t.Errorf("fmt %s of the APIError value holds the key: %s", form, s)
			}
		}
	}
}

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
			drop(w)
			return
		case "/api/pads/stall":
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			waitHangUp(t, r)
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
	truncated := rawServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{")
	closed := closedPort(t)

	var logs bytes.Buffer
	var logMu sync.Mutex
	logWriter := lockedWriter{&logMu, &logs}
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
		c := newTestClient(t, base, key, opts...)
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
		deadline bool // whether the call's deadline passes as the answer begins
	}{
		{"connection refused", getPad(refused, "x"), false, false},
		{"POST connection refused", create(refused), false, false},
		{"dropped connection", getPad(c, "drop"), true, false},
		{"truncated body", getPad(cut, "x"), false, false},
		{"TLS to a plain server", getPad(tlsToPlain, "x"), false, false},
		{"untrusted certificate", getPad(untrusted, "x"), false, false},
		// The deadline passes once the answer has begun, so the key has
		// reached the server however slow the machine (a fixed 30 ms
		// did not suffice under -race on a loaded one).
		{"deadline", getPad(c, "stall"), true, true},
		{"400", getPad(c, "400"), true, false},
		{"401", getPad(c, "401"), true, false},
		{"403", getPad(c, "403"), true, false},
		{"404", getPad(c, "404"), true, false},
		{"429", getPad(c, "429"), true, false},
		{"503 exhausted", getPad(c, "503"), true, false},
		{"POST 500", create(c), true, false},
		{"decode error", getPad(c, "decode"), true, false},
		{"too large", getPad(c, "large"), true, false},
		{"redirect", getPad(c, "redirect"), true, false},
	}
	for _, tt := range tests {
		var ctx context.Context
		var cancel context.CancelFunc
		if tt.deadline {
			ctx, cancel = newPassingDeadline()
		} else {
			ctx, cancel = context.WithCancel(context.Background())
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

// passingDeadline is a context whose deadline passes as the client reads
// the first byte of an answer (httptrace's GotFirstResponseByte), or at
// waitLimit at the latest: from then on Done is closed and Err is
// context.DeadlineExceeded, as for a context.WithTimeout whose time has
// come. A real timeout would have to wait for the request to reach the
// server on a loaded machine: a second and more of real time.
type passingDeadline struct {
	context.Context // the trace, for Value
	at              time.Time
	done            chan struct{}
	once            sync.Once
}

// newPassingDeadline returns a passingDeadline and a func that ends it.
func newPassingDeadline() (*passingDeadline, context.CancelFunc) {
	d := &passingDeadline{at: time.Now().Add(waitLimit), done: make(chan struct{})}
	d.Context = httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{GotFirstResponseByte: d.pass})
	timer := time.AfterFunc(waitLimit, d.pass)
	return d, func() { timer.Stop(); d.pass() }
}

func (d *passingDeadline) pass()                       { d.once.Do(func() { close(d.done) }) }
func (d *passingDeadline) Deadline() (time.Time, bool) { return d.at, true }
func (d *passingDeadline) Done() <-chan struct{}       { return d.done }

func (d *passingDeadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// lockedWriter serializes the writes of two log handlers into one buffer.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// closedPort returns the base URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// drop closes the connection without an answer.
func drop(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// A gateway that echoes the request's headers into its answer must not put
// the API key into an error, its body or a log line, in any spelling.
func TestEchoedKeyScrubbed(t *testing.T) {
	t.Parallel()
	const key = `echo+K3y/<&>`
	for name, echo := range map[string]func(string) string{
		"plain": func(h string) string { return "you sent: " + h },
		"JSON": func(h string) string {
			return `{"status":"ERROR","message":"bad header ` + strings.ReplaceAll(h, `"`, `\"`) + `"}`
		},
		"JSON-HTML":  func(h string) string { return `{"status":"ERROR","message":"` + jsonHTMLEscape(h) + `"}` },
		"URL-quoted": func(string) string { return "key=echo%2BK3y%2F%3C%26%3E" },
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, echo(r.Header.Get("Authorization")))
			}))
			defer srv.Close()
			var logs bytes.Buffer
			c := newTestClient(t, srv.URL, key, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			_, err := c.Quota.Get(context.Background())
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v, want an *APIError", err)
			}
			for what, text := range map[string]string{"error": err.Error(), "body": string(apiErr.Body), "message": apiErr.Message, "log": logs.String()} {
				for _, spelling := range []string{key, "echo+K3y/\\u003c\\u0026\\u003e", "echo%2BK3y%2F%3C%26%3E", "K3y"} {
					if strings.Contains(text, spelling) {
						t.Errorf("%s holds the key as %q: %q", what, spelling, text)
					}
				}
			}
			if !strings.Contains(string(apiErr.Body), "[REDACTED]") {
				t.Errorf("body %q, want the key replaced by [REDACTED]", apiErr.Body)
			}
		})
	}
}

// jsonHTMLEscape escapes s as encoding/json does by default, < > & as \u00xx.
func jsonHTMLEscape(s string) string {
	return strings.NewReplacer(`"`, `\"`, `<`, `\u003c`, `&`, `\u0026`, `>`, `\u003e`).Replace(s)
}

// escapeAll spells every character of s as a JSON \u escape.
func escapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// A gateway that echoes the key in an error body with JSON escapes gets it
// into no error text, no APIError field and no log line.
func TestKeyNeverLeaksThroughJSONEscapes(t *testing.T) {
	t.Parallel()
	const key = "sk_live/Abc<123>&xyz"
	spellings := map[string]string{
		"first letter":     `\u0073k_live\/Abc<123>&xyz`,
		"every character":  escapeAll(key),
		"upper-case hex":   strings.ToUpper(escapeAll(key)[:12]) + key[2:],
		"solidus escaped":  `sk_live\/Abc<123>&xyz`,
		"html escapes":     `sk_live/Abc\u003c123\u003e\u0026xyz`,
		"mixed":            `s\u006b_live\/Abc\u003c123>&x\u0079z`,
		"plain, in a code": key,
	}
	for name, spelled := range spellings {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := `{"status":"ERROR","message":"bad token ` + spelled + `","code":"` + spelled + `"}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				respond(w, http.StatusUnauthorized, []byte(body))
			}))
			t.Cleanup(srv.Close)
			var logs bytes.Buffer
			for _, h := range []slog.Handler{slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}), slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})} {
				c := newTestClient(t, srv.URL, key, noRetry, padapi.WithLogger(slog.New(h)))
				_, err := c.Quota.Get(context.Background())
				var apiErr *padapi.APIError
				if !errors.As(err, &apiErr) {
					t.Fatalf("err = %v, want an *APIError", err)
				}
				for what, text := range map[string]string{
					"Error()": err.Error(), "Message": apiErr.Message, "Code": apiErr.Code,
					"Status": apiErr.Status, "Body": string(apiErr.Body), "%+v": fmt.Sprintf("%+v", *apiErr),
				} {
					if strings.Contains(text, key) || strings.Contains(unescapeJSON(text), key) {
						t.Errorf("%s holds the key: %s", what, text)
					}
				}
			}
			if strings.Contains(logs.String(), key) || strings.Contains(unescapeJSON(logs.String()), key) {
				t.Errorf("the log holds the key:\n%s", logs.String())
			}
		})
	}
}

// unescapeJSON undoes JSON string escapes as a reader of the text would.
func unescapeJSON(s string) string {
	var out string
	if json.Unmarshal([]byte(`"`+strings.NewReplacer(`"`, `\"`, "\n", `\n`).Replace(s)+`"`), &out) != nil {
		return s
	}
	return out
}

// reviewKey is the key of the tests below, which a hostile server echoes.
const reviewKey = "sk_live_0123456789abcdefghijKLMNOP"

// holdsKey reports whether s holds the key or its first half.
func holdsKey(s string) bool {
	return strings.Contains(s, reviewKey) || strings.Contains(s, reviewKey[:len(reviewKey)/2])
}

// A decoding error quotes a few bytes of the body: when they are the key,
// it is scrubbed from the message, the error, its cause and the log.
func TestKeyNeverInDecodeErrors(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"timestamp": `{"status":"OK","id":"X","created_at":"` + reviewKey + `"}`,
		"id":        `{"status":"OK","id":{"echo":"` + reviewKey + `"}}`,
		"events":    `{"status":"OK","id":"X","events":{"echo":"` + reviewKey + `"}}`,
		"a number":  `{"status":"OK","id":"X","title":` + strings.Repeat("7", 10) + `,"x":"` + reviewKey + `"}`,
	} {
		var logs bytes.Buffer
		c := serve(t, reviewKey, http.StatusOK, body, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		_, err := c.Pads.Get(context.Background(), "X")
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v, want an *APIError", name, err)
		}
		for what, text := range map[string]string{"Error()": err.Error(), "Message": ae.Message, "log": logs.String()} {
			if holdsKey(text) {
				t.Errorf("%s: %s holds the key: %.200s", name, what, text)
			}
		}
		if u := errors.Unwrap(ae); u != nil && holdsKey(u.Error()) {
			t.Errorf("%s: the cause holds the key: %.200s", name, u)
		}
	}
}

// A server that echoes the Authorization header in a malformed status line
// gets it into no transport error and no log line.
func TestKeyNeverInTransportErrors(t *testing.T) {
	t.Parallel()
	base := rawServerFunc(t, func(r *http.Request) string {
		return "BAD" + strings.ReplaceAll(r.Header.Get("Authorization"), " ", "_") + "\r\n\r\n"
	})
	var logs bytes.Buffer
	c := newTestClient(t, base, reviewKey, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, err := c.Quota.Get(context.Background())
	if err == nil || holdsKey(err.Error()) || holdsKey(logs.String()) {
		t.Errorf("err = %v\nlog:\n%s\nwant an error, and the key in neither", err, logs.String())
	}
}

// A key that crosses the 64 KiB cut of a message or of the body snippet,
// as it is or \u-escaped, leaves no part of itself behind.
func TestKeyCutAtTheCap(t *testing.T) {
	t.Parallel()
	var esc strings.Builder
	for _, r := range reviewKey {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	for name, body := range map[string]string{
		"message": `{"status":"ERROR","message":"` + strings.Repeat("a", 64<<10-len(reviewKey)/2) + reviewKey + ` tail"}`,
		"escaped": `{"message":"` + strings.Repeat("a", 64<<10-4*len(reviewKey)-len(`{"message":"`)) + esc.String() + `"}`,
	} {
		c := serve(t, reviewKey, http.StatusUnauthorized, body, noRetry)
		_, err := c.Quota.Get(context.Background())
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v", name, err)
		}
		if holdsKey(ae.Message) || holdsKey(err.Error()) {
			t.Errorf("%s: the message keeps part of the key: ...%s", name, ae.Message[max(0, len(ae.Message)-60):])
		}
		if tail := string(ae.Body[max(0, len(ae.Body)-300):]); holdsKey(unescapeJSON(tail)) || holdsKey(tail) {
			t.Errorf("%s: the body keeps part of the key: ...%s", name, tail)
		}
	}
}

// The key echoed percent-escaped (either case, or in part), or JSON-escaped
// twice, is scrubbed as well.
func TestKeyInOtherEscapes(t *testing.T) {
	t.Parallel()
	const key = "sk/live+key=abc0123456789"
	var twice strings.Builder
	for _, r := range key {
		fmt.Fprintf(&twice, `\\u%04x`, r)
	}
	for _, echo := range []string{"sk%2flive%2bkey%3dabc0123456789", "sk/live+key%3Dabc0123456789", "%73%6b/live+key=abc0123456789", twice.String()} {
		c := serve(t, key, http.StatusForbidden, `{"status":"ERROR","message":"denied for /x?key=`+echo+`"}`, noRetry)
		_, err := c.Quota.Get(context.Background())
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v", echo, err)
		}
		for _, view := range []string{ae.Message, unescapeJSON(ae.Message), strings.ToLower(ae.Message)} {
			if strings.Contains(view, echo) || strings.Contains(view, key) {
				t.Errorf("echo %q: the message keeps the key: %q", echo, ae.Message)
			}
		}
	}
}
