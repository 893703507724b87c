// hostile_test.go: the library's promises against a hostile server: never the key, never two creates, never past the deadline.

package padapi_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
)

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

// allocated returns the bytes the process allocated on the heap, on
// average, in each of runs calls of f.
func allocated(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
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

// stall is how long the stalling servers below stay silent before they
// give up on the request: a client that waits for the server rather than
// for its caller's deadline is late by about that much, every time, and the
// test still ends.
const stall = 2 * time.Second

// deadlineAttempts is how many times checkDeadline may measure a call
// against the 50 ms bound. The bound holds when one attempt keeps it: a
// client that waits for the server, or for anything but the deadline, is
// late on every attempt, while a scheduler busy with other test binaries
// (one CI run saw 396 ms) delays one attempt, not three in a row.
const deadlineAttempts = 3

// checkDeadline calls each kind of call against url with a 100 ms
// deadline and wants DeadlineExceeded within 50 ms of it, in the best of up
// to deadlineAttempts attempts; every attempt must end with
// DeadlineExceeded, and a create must also say its outcome is unknown, since
// the request was sent.
func checkDeadline(t *testing.T, url string) {
	t.Helper()
	const deadline, bound = 100 * time.Millisecond, 50 * time.Millisecond
	c := newTestClient(t, url, testKey, padapi.WithRetry(5, time.Millisecond, 5*time.Millisecond))
	for _, kind := range callKinds {
		var lates []time.Duration
		for len(lates) < deadlineAttempts && (len(lates) == 0 || slices.Min(lates) > bound) {
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			at, _ := ctx.Deadline()
			err := kind.call(ctx, c)
			late := time.Since(at)
			cancel()
			lates = append(lates, late)
			attempt := len(lates)
			t.Logf("%s attempt %d returned %v after the deadline: %v", kind.name, attempt, late.Round(time.Microsecond), err)
			if unknown := errors.Is(err, padapi.ErrOutcomeUnknown); unknown != (kind.name == "POST") {
				t.Errorf("%s attempt %d: errors.Is(err, ErrOutcomeUnknown) = %v", kind.name, attempt, unknown)
			}
			if err == nil || !strings.HasPrefix(err.Error(), "padapi: "+kind.name+" /api/") {
				t.Errorf("%s attempt %d: error text %q does not name the call", kind.name, attempt, err)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				// Not the deadline: no scheduler delay explains that.
				t.Errorf("%s attempt %d: error = %v, want context.DeadlineExceeded", kind.name, attempt, err)
				break
			}
		}
		if best := slices.Min(lates); best > bound {
			t.Errorf("%s returned %v after the deadline at best, in %d attempts (%v), want within %v", kind.name, best, len(lates), lates, bound)
		}
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
			release := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tt.header {
					w.Header()[k] = v
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusOK)
				_, _ = io.WriteString(w, tt.body)
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
				case <-release:
				case <-time.After(stall):
				}
			}))
			defer srv.Close()
			defer close(release)
			checkDeadline(t, srv.URL)
		})
	}
}

// TestHostileSilentServer: the server accepts connections and sends
// nothing, not even headers.
func TestHostileSilentServer(t *testing.T) {
	t.Parallel()
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
				select {
				case <-stop:
				case <-time.After(stall):
				}
				conn.Close()
			}()
		}
	}()
	defer func() {
		l.Close()
		close(stop)
		wg.Wait()
	}()
	checkDeadline(t, "http://"+l.Addr().String())
}

// rawServer answers every request on a bare TCP listener with the bytes
// of response, then closes the connection: for answers net/http would not
// write, such as a body shorter than its Content-Length.
func rawServer(t *testing.T, response string) string {
	return rawServerFunc(t, func(*http.Request) string { return response })
}

// rawServerFunc is rawServer with the response made from each request.
func rawServerFunc(t *testing.T, answer func(*http.Request) string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
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
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
				r, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				_, _ = io.WriteString(conn, answer(r))
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	return "http://" + l.Addr().String()
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

// TestHostileBodies sends 2xx bodies of the wrong shape to each kind of
// endpoint. Each is an *APIError with status 200 whose short message names
// the field and the problem, never a panic, never a bare encoding/json error.
func TestHostileBodies(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	digits := strings.Repeat("7", 5000)
	const pad = `"id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"`
	quota := func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err }
	getPad := func(ctx context.Context) error { _, err := c.Pads.Get(ctx, "P1"); return err }
	listPads := func(ctx context.Context) error { _, err := c.Pads.List(ctx, nil); return err }
	question := func(ctx context.Context) error { _, err := c.Questions.Get(ctx, "1"); return err }
	stats := func(ctx context.Context) error { _, err := c.Organization.Stats(ctx, nil); return err }
	org := func(ctx context.Context) error { _, err := c.Organization.Get(ctx); return err }
	tests := []struct {
		name, body string
		call       func(context.Context) error
		want       string // what the message says
		syntax     bool   // the cause is a *jsontext.SyntacticError, else a *json.SemanticError
	}{
		{"HTML", "<html><body>Bad Gateway</body></html>", getPad, "malformed response: not JSON (invalid character '<'", true},
		{"plain text", "Service Unavailable", stats, "malformed response: not JSON", true},
		{"truncated JSON", `{"status":"OK","pads":[{`, listPads, "malformed response: not JSON (unexpected end of JSON input)", true},
		{"array for the top object", `[{"status":"OK",` + pad + `}]`, getPad, `field "(top level)": cannot decode array as object`, false},
		{"array for an object", `{"status":"OK",` + pad + `,"team":[1]}`, getPad, `field "team": cannot decode array as padapi.Team`, false},
		{"object for the list", `{"status":"OK","pads":{` + pad + `}}`, listPads, `field "pads": cannot decode object as []padapi.Pad`, false},
		{"number for a string", `{"status":"OK",` + pad + `,"title":12}`, getPad, `field "title": cannot decode number as string`, false},
		{"number for an event string", `{"status":"OK",` + pad + `,"events":[{"kind":7}]}`, getPad, `field "events.kind": cannot decode number as string`, false},
		{"number for a time", `{"status":"OK","start_time":1709251200,"end_time":"2024-03-08T00:00:00Z"}`, stats, `field "start_time": cannot decode timestamp 1709251200 as time.Time`, false},
		{"number for the status", `{"status":200,"name":"x"}`, org, `field "status": cannot decode number as string`, false},
		{"string for a number", `{"status":"OK","pads":[],"total":"3"}`, listPads, `field "total": cannot decode string as int`, false},
		{"string for a bool", `{"status":"OK","id":1,"shared":"yes"}`, question, `field "shared": cannot decode string as bool`, false},
		{"float for an ID", `{"status":"OK","id":1.5}`, question, `field "id": cannot decode ID 1.5 as padapi.ID`, false},
		{"5000-digit number", `{"status":"OK","pads_used":` + digits + `}`, quota, `field "pads_used": cannot decode number 7777`, false},
		{"nesting past encoding/json's limit", `{"status":"OK","x":` + deep + `}`, listPads, "exceeded max depth", true},
		{"invalid UTF-8 outside a string", "{\"status\":\"OK\",\xff}", org, "malformed response: not JSON (invalid character", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(answering(http.StatusOK, []byte(tt.body)))
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusOK {
				t.Fatalf("error = %#v, want an *APIError 200", err)
			}
			if !strings.Contains(apiErr.Message, tt.want) {
				t.Errorf("message %q does not say %q", apiErr.Message, tt.want)
			}
			var syntaxErr *jsontext.SyntacticError
			var typeErr *json.SemanticError
			if tt.syntax && !errors.As(err, &syntaxErr) || !tt.syntax && !errors.As(err, &typeErr) {
				t.Errorf("error %v does not wrap the decoding error (syntax %v)", err, tt.syntax)
			}
			if n := len(err.Error()); n > 300 {
				t.Errorf("error text is %d bytes: %.300s", n, err)
			}
			if strings.Contains(err.Error(), "Wire") || strings.Contains(err.Error(), "Alias") {
				t.Errorf("error text names an internal type: %s", err)
			}
			if len(matching(err)) != 0 {
				t.Errorf("a 200 answer matches %v", matching(err))
			}
		})
	}
}

// plainEvent mirrors some fields of padapi.PadEvent without its decoder.
type plainEvent struct {
	Message  string `json:"message"`
	Kind     string `json:"kind"`
	UserName string `json:"user_name"`
}

// TestHostileDecodesLikeEncodingJSON covers bodies that are odd but valid:
// nesting under encoding/json's limit in a field the client ignores, and
// invalid UTF-8 inside strings, which encoding/json turns into U+FFFD; the
// hand-written event decoder must do the same.
func TestHostileDecodesLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	const pad = `"id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"`
	// plain mirrors the fields under test with types that encoding/json
	// decodes by itself.
	type plain struct {
		ID     string
		Title  string
		Events []plainEvent
	}
	for name, body := range map[string]string{
		"deep unknown field": `{"status":"OK",` + pad + `,"title":"t","x":` + strings.Repeat(`{"a":[`, 4000) + strings.Repeat(`]}`, 4000) + `}`,
		"invalid UTF-8": "{\"status\":\"OK\"," + pad + ",\"title\":\"a\xffb\xc3\x28\"," +
			"\"events\":[{\"message\":\"\xed\xa0\x80x\",\"kind\":\"ran\\u00e9\xf0\x9f\",\"user_name\":\"\xc0\xaf\"}]}",
	} {
		t.Run(name, func(t *testing.T) {
			got, err := c.Pads.Get(answering(http.StatusOK, []byte(body)), "P1")
			if err != nil {
				t.Fatal(err)
			}
			var want plain
			if err := stdjson.Unmarshal([]byte(body), &want); err != nil {
				t.Fatal(err)
			}
			mirror := plain{ID: string(got.ID), Title: got.Title}
			for _, e := range got.Events {
				mirror.Events = append(mirror.Events, plainEvent{e.Message, e.Kind, e.UserName})
			}
			if diff := cmp.Diff(want, mirror); diff != "" {
				t.Errorf("pipeline and encoding/json differ (-encoding/json +pipeline):\n%s", diff)
			}
		})
	}
}

// TestHostileHugeMessageInSuccess: a 2xx answer whose status is not OK
// carries its message into the error, cut to the same 64 KiB as an error
// body; a huge status is cut short in the message.
func TestHostileHugeMessageInSuccess(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	huge := strings.Repeat("é", 512<<10) // 1 MiB of two-byte runes
	for _, tt := range []struct{ name, body string }{
		{"message", `{"status":"ERROR","message":"` + huge + `"}`},
		{"status", `{"status":"` + huge + `"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Quota.Get(answering(http.StatusOK, []byte(tt.body)))
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error = %v, want an *APIError", err)
			}
			if len(apiErr.Message) > 64<<10 || len(apiErr.Status) > 64<<10 || len(apiErr.Body) > 64<<10 {
				t.Errorf("Message, Status and Body have %d, %d and %d bytes, want at most 64 KiB each", len(apiErr.Message), len(apiErr.Status), len(apiErr.Body))
			}
			if !strings.HasPrefix(huge, apiErr.Message) && !strings.HasPrefix(apiErr.Message, `response status "éé`) {
				t.Errorf("message %.80q... is neither the start of the service's message nor about the status", apiErr.Message)
			}
			if tt.name == "status" && len(err.Error()) > 300 {
				t.Errorf("error text is %d bytes: %.300s", len(err.Error()), err)
			}
		})
	}
}

// TestHostileTruncatedBodyRetried: the first answer's body is cut off
// halfway. A GET reads its body inside the retry loop, so it is retried and
// succeeds; a create is not retried, and its outcome is unknown.
func TestHostileTruncatedBodyRetried(t *testing.T) {
	t.Parallel()
	const quota = `{"status":"OK","pads_used":1,"quota_reset_at":"2024-01-01T00:00:00Z","unlimited":true}`
	const pad = `{"status":"OK","id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.Method]++
		first := calls[r.Method] == 1
		mu.Unlock()
		body := quota
		if r.Method == http.MethodPost {
			body = pad
		}
		if !first {
			_, _ = io.WriteString(w, body)
			return
		}
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2])
		_ = buf.Flush()
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, testKey, padapi.WithRetry(2, time.Millisecond, time.Millisecond))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("GET with a cut-off first body: %v, want success after a retry", err)
	}
	_, err := c.Pads.Create(context.Background(), nil)
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("POST with a cut-off body: %v, want ErrOutcomeUnknown and io.ErrUnexpectedEOF", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls[http.MethodGet] != 2 || calls[http.MethodPost] != 1 {
		t.Errorf("requests %v, want 2 GETs and 1 POST", calls)
	}
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

// A server that answers 101 Switching Protocols and then says nothing
// cannot hold a call: it fails at once, well within its deadline.
func TestSwitchingProtocolsThenSilence(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
		_ = buf.Flush()
		time.Sleep(3 * time.Second)
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, testKey, fastRetry)
	for name, call := range map[string]func(context.Context) error{
		"read":   func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err },
		"create": func(ctx context.Context) error { _, err := c.Pads.Create(ctx, nil); return err },
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- call(ctx) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(2 * time.Second):
			cancel()
			t.Fatalf("%s: still running 2s after a 300ms deadline", name)
		}
		took := time.Since(start)
		cancel()
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols {
			t.Errorf("%s: err = %v, want an *APIError with the 101", name, err)
		}
		if took > 400*time.Millisecond {
			t.Errorf("%s: took %v, want well under the 300ms deadline's end", name, took)
		}
		if name == "create" && !errors.Is(err, padapi.ErrOutcomeUnknown) {
			t.Errorf("create: err = %v, want ErrOutcomeUnknown", err)
		}
	}
}

// A call whose body drips for seconds does not delay an unrelated call on
// the same client.
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/pads/SLOW" {
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"status":"OK",`)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-time.After(3 * time.Second):
			}
			return
		}
		respond(w, http.StatusOK, []byte(okQuota))
	}))
	t.Cleanup(srv.Close)
	// Registered after srv.Close, so it runs first: the dripping
	// handlers return and Close does not wait out their 3 s.
	t.Cleanup(func() { close(release) })
	c := newTestClient(t, srv.URL, testKey, noRetry)
	for range 4 {
		go func() { _, _ = c.Pads.Get(context.Background(), "SLOW") }()
	}
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("Quota.Get took %v behind four dripping bodies, want no wait", took)
	}
}

// A server whose every page claims total 120 and links a new page cannot
// make All page forever: it stops after ⌈120 ÷ 50⌉ + 1 pages.
func TestAllBoundedByTotal(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		var pads []string
		for i := range 50 {
			pads = append(pads, fmt.Sprintf(`{"id":"P%d-%d"}`, page, i))
		}
		respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","pads":[%s],"total":120,"next_page":"https://x.example/api/pads?page=%d"}`, strings.Join(pads, ","), max(page, 1)+1)))
		if n > 100 {
			t.Error("over 100 requests")
		}
	}))
	t.Cleanup(srv.Close)
	for _, window := range []int{1, 4} {
		requests.Store(0)
		c := newTestClient(t, srv.URL, testKey, noRetry, padapi.WithConcurrentPages(window))
		items, last, over := drain(c.Pads.All(context.Background(), nil), 1000)
		if over {
			t.Fatalf("window %d: still paging after 1000 items", window)
		}
		if last == nil || !strings.Contains(last.Error(), "more than a total of 120 allows") {
			t.Errorf("window %d: error %v, want one about the total", window, last)
		}
		// 3 pages hold 120 items; one page more is allowed for a list
		// that grew while it was read.
		if items != 200 {
			t.Errorf("window %d: %d items, want the 200 of the 4 pages the total allows", window, items)
		}
		if n := requests.Load(); n > 4 {
			t.Errorf("window %d: %d requests, want at most 4", window, n)
		}
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
	start := time.Now()
	if _, err := c.Quota.Get(ctx); err == nil {
		t.Fatal("a reset stream gave no error")
	}
	if n, took := gets.Load(), time.Since(start); n != 1 || took > time.Second {
		t.Errorf("retries off: the server saw %d requests in %v, want 1 at once", n, took)
	}
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

// The timestamp fallback decodes into the caller's value without wiping
// what the body does not carry.
func TestTimestampFallbackKeepsTheCallersValue(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "GET /gw/api/pads/X", http.StatusOK, []byte(`{"status":"OK","id":"X","created_at":"2024-01-02 03:04:05+0000"}`))
	type withExtra struct {
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
		Extra     string    `json:"-"`
		Keep      string    `json:"keep"`
	}
	v := withExtra{Extra: "mine", Keep: "preset"}
	if err := c.Do(context.Background(), http.MethodGet, "/api/pads/X", nil, &v); err != nil {
		t.Fatal(err)
	}
	if v.Extra != "mine" || v.Keep != "preset" || v.ID != "X" || v.CreatedAt.Year() != 2024 {
		t.Errorf("got %+v, want the body's fields and the caller's own kept", v)
	}
}

// A body that gives its status twice is malformed, whichever way it is
// read: no reading may take the first and another the last.
func TestRepeatedStatusRefused(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "GET /gw/api/pads/X", http.StatusOK, []byte(`{"status":"OK","id":"X","status":"ERROR","message":"pad is locked"}`))
	_, errGet := c.Pads.Get(context.Background(), "X")
	errDo := c.Do(context.Background(), http.MethodGet, "/api/pads/X", nil, nil)
	for name, err := range map[string]error{"Pads.Get": errGet, "Do": errDo} {
		if err == nil || !strings.Contains(err.Error(), `gives "status" twice`) {
			t.Errorf("%s: err = %v, want a malformed answer", name, err)
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
