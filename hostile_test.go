package padapi_test

import (
	"bufio"
	"bytes"
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"io"
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

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// rlCounter counts the response body bytes a client reads, to prove that it
// stops reading a body it does not want.
type rlCounter struct {
	base *http.Transport
	read atomic.Int64
}

func rlNewCounter(t *testing.T) *rlCounter {
	c := &rlCounter{base: &http.Transport{}}
	t.Cleanup(c.base.CloseIdleConnections)
	return c
}

func (c *rlCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.base.RoundTrip(r)
	if resp != nil {
		resp.Body = &rlCountingBody{ReadCloser: resp.Body, n: &c.read}
	}
	return resp, err
}

type rlCountingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *rlCountingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// rlAllocated returns the bytes the process allocated on the heap, on
// average, in each of runs calls of f.
func rlAllocated(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// rlBigServer answers every request with status and size bytes of body, with
// a Content-Length or chunked.
func rlBigServer(t *testing.T, status int, body []byte, withLength bool) *httptest.Server {
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
			srv := rlBigServer(t, http.StatusBadGateway, body, withLength)
			counter := rlNewCounter(t)
			c := newTestClient(t, srv.URL, noRetry, padapi.WithHTTPClient(&http.Client{Transport: counter}))
			var callErr error
			const runs = 5
			allocated := rlAllocated(runs, func() { _, callErr = c.Quota.Get(context.Background()) })
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
			srv := rlBigServer(t, http.StatusOK, body, tt.withLength)
			counter := rlNewCounter(t)
			c := newTestClient(t, srv.URL, padapi.WithMaxResponseBytes(limit), padapi.WithHTTPClient(&http.Client{Transport: counter}))
			var callErr error
			const runs = 3
			allocated := rlAllocated(runs, func() { _, callErr = c.Pads.List(context.Background(), nil) })
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

// rlCallKinds are a read and a create, the two ways a call can end.
var rlCallKinds = []struct {
	name string
	call func(context.Context, *padapi.Client) error
}{
	{"GET", func(ctx context.Context, c *padapi.Client) error { _, err := c.Quota.Get(ctx); return err }},
	{"POST", func(ctx context.Context, c *padapi.Client) error {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
		return err
	}},
}

// rlStall is how long the stalling servers below stay silent before they
// give up on the request: a client that waits for the server rather than
// for its caller's deadline is late by about that much, every time, and the
// test still ends.
const rlStall = 2 * time.Second

// rlDeadlineAttempts is how many times rlCheckDeadline may measure a call
// against the 50 ms bound. The bound holds when one attempt keeps it: a
// client that waits for the server, or for anything but the deadline, is
// late on every attempt, while a scheduler busy with other test binaries
// (one CI run saw 396 ms) delays one attempt, not three in a row.
const rlDeadlineAttempts = 3

// rlCheckDeadline calls each kind of call against url with a 100 ms
// deadline and wants DeadlineExceeded within 50 ms of it, in the best of up
// to rlDeadlineAttempts attempts; every attempt must end with
// DeadlineExceeded, and a create must also say its outcome is unknown, since
// the request was sent.
func rlCheckDeadline(t *testing.T, url string) {
	t.Helper()
	const deadline, bound = 100 * time.Millisecond, 50 * time.Millisecond
	c := newTestClient(t, url, padapi.WithRetry(5, time.Millisecond, 5*time.Millisecond))
	for _, kind := range rlCallKinds {
		var lates []time.Duration
		for len(lates) < rlDeadlineAttempts && (len(lates) == 0 || slices.Min(lates) > bound) {
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
				case <-time.After(rlStall):
				}
			}))
			defer srv.Close()
			defer close(release)
			rlCheckDeadline(t, srv.URL)
		})
	}
}

// TestHostileSilentServer: the server accepts connections and sends
// nothing, not even headers.
func TestHostileSilentServer(t *testing.T) {
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
				case <-time.After(rlStall):
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
	rlCheckDeadline(t, "http://"+l.Addr().String())
}

// rlRawServer answers every request on a bare TCP listener with the bytes
// of response, then closes the connection: for answers net/http would not
// write, such as a body shorter than its Content-Length.
func rlRawServer(t *testing.T, response string) string {
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
				_, _ = io.WriteString(conn, response)
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
	url := rlRawServer(t, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"+`{"status":"OK","pads_used":1`)
	c := newTestClient(t, url, noRetry)
	for _, kind := range rlCallKinds {
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

// rlPlainEvent mirrors some fields of padapi.PadEvent without its decoder.
type rlPlainEvent struct {
	Message  string `json:"message"`
	Kind     string `json:"kind"`
	UserName string `json:"user_name"`
}

// TestHostileDecodesLikeEncodingJSON covers bodies that are odd but valid:
// nesting under encoding/json's limit in a field the client ignores, and
// invalid UTF-8 inside strings, which encoding/json turns into U+FFFD; the
// hand-written event decoder must do the same.
func TestHostileDecodesLikeEncodingJSON(t *testing.T) {
	c := memoryClient(t)
	const pad = `"id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"`
	// plain mirrors the fields under test with types that encoding/json
	// decodes by itself.
	type plain struct {
		ID     string
		Title  string
		Events []rlPlainEvent
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
				mirror.Events = append(mirror.Events, rlPlainEvent{e.Message, e.Kind, e.UserName})
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
	c := newTestClient(t, srv.URL, padapi.WithRetry(2, time.Millisecond, time.Millisecond))
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
