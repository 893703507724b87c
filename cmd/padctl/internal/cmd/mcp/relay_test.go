package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest/rpcline"
	"github.com/padinterview/padapi/padapitest"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padmcp"
)

// watchBuffer is a buffer for concurrent writers that can wait for a text.
type watchBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newWatchBuffer() *watchBuffer { return &watchBuffer{changed: make(chan struct{})} }

func (w *watchBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

// waitFor waits until the buffer holds s, or fails the test at ctx's end.
func (w *watchBuffer) waitFor(ctx context.Context, t *testing.T, s string) {
	t.Helper()
	for {
		w.mu.Lock()
		has, changed := strings.Contains(w.b.String(), s), w.changed
		w.mu.Unlock()
		if has {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("no %s in the output:\n%s", s, w.String())
		}
	}
}

func (w *watchBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// nested is a ping whose params nest to depth in all.
func nested(id, depth int) string {
	inner := depth - 2 // the message and its params
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":%s%s}}`, id, strings.Repeat("[", inner), strings.Repeat("]", inner))
}

// Issue 28 #3: each line that ended the session (or was never answered)
// is answered with a JSON-RPC error, the session goes on, and the answer
// to a call in flight (a create, whose pad exists) still comes.
func TestStdioRelayHostileLines(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	arrived, release := make(chan struct{}), make(chan struct{})
	s := newStub(t, map[string]http.HandlerFunc{
		"POST /api/pads": func(w http.ResponseWriter, r *http.Request) {
			close(arrived)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			reply(http.StatusCreated, `{"status":"OK","id":"NEWPAD","title":"made"}`)(w, r)
		},
	})
	var once sync.Once
	releaseAll := func() { once.Do(func() { close(release) }) }
	t.Cleanup(releaseAll) // before the stub closes: a failed test must not hang on its handler
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{ // line -> the id its error answer carries
		`{"JSONRPC":"2.0","ID":7,"METHOD":"ping"}`:                       "null",
		`{"jsonrpc":"2.0","id":7,"Method":"ping"}`:                       "7",
		`{"jsonrpc":"2.0","result":{}}`:                                  "null",
		`{"jsonrpc":"2.0","id":null,"result":{}}`:                        "null",
		`{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}`:             "null",
		`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}`:   "null",
		`{"jsonrpc":"2.0","id":9,"error":"x"}`:                           "9",
		`{"jsonrpc":"2.0","id":9,"error":{"code":1.5,"message":"x"}}`:    "9",
		`{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":7}}`:        "9",
		`{"jsonrpc":"2.0","id":1e400,"method":"ping"}`:                   "null",
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`:                    "null",
		`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`:                 "null",
		`{"jsonrpc":"2.0","id":10,"method":null}`:                        "10",
		`{"jsonrpc":"2.0","id":11,"method":1}`:                           "11",
		`{"jsonrpc":2,"id":12,"method":"ping"}`:                          "12",
		`"a string"`:                                                     "null",
		`null`:                                                           "null",
		`[]`:                                                             "null",
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`:                       "null", // id 2 is in flight
		nested(13, 1001):                                                 "null", // not read past the depth check
		strings.Repeat("[", 1001) + strings.Repeat("]", 1001):            "null",
		`{"jsonrpc":"2.0","id":14,"method":"ping"} {"jsonrpc":"2.0"}`:    "null",
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`:        "null",
		`{"jsonrpc":"2.0","id":2.5,"method":"ping"}`:                     "null",
		`{"jsonrpc":"2.0","id":15,"method":"ping","params":{"x":[1,2]]}`: "null",
	}
	pr, pw := io.Pipe()
	t.Cleanup(func() { pw.Close() })
	out := newWatchBuffer()
	relay := newStdioRelay(pr, out, time.Hour)
	go relay.pump(ctx)
	done := make(chan error, 1)
	go func() {
		done <- padmcp.NewServer(c, padmcp.Options{AllowWrites: true}).Run(ctx, relay.transport())
	}()
	t.Cleanup(relay.close)
	write := func(line string) {
		t.Helper()
		wrote := make(chan error, 1)
		go func() { _, err := io.WriteString(pw, line+"\n"); wrote <- err }()
		select {
		case err := <-wrote:
			if err != nil {
				t.Fatal(err)
			}
		case <-ctx.Done():
			t.Fatalf("stdin no longer read (the session ended?); output:\n%s", out.String())
		}
	}
	write(rpcline.Init(1))
	write(rpcline.Call(2, "create_pad", map[string]any{"title": "made"}))
	select {
	case <-arrived:
	case <-ctx.Done():
		t.Fatal("the create never reached the service")
	}
	for line := range bad {
		write(line)
	}
	write(nested(3, 1000)) // as deep as the SDK reads: forwarded, answered
	write(rpcline.Line("last", "ping", nil))
	out.waitFor(ctx, t, `"id":"last"`)
	releaseAll()
	out.waitFor(ctx, t, `"id":2,`)
	pw.Close()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("the session did not end at end of input")
	}
	relay.close()

	answers := map[string][]map[string]any{}
	for l := range strings.Lines(out.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		id, _ := json.Marshal(m["id"])
		answers[string(id)] = append(answers[string(id)], m)
	}
	if res, _ := answers["2"][0]["result"].(map[string]any); res == nil || res["isError"] == true || !strings.Contains(fmt.Sprint(res), "NEWPAD") {
		t.Errorf("the create in flight: %v", answers["2"])
	}
	if answers["3"] == nil || answers["3"][0]["result"] == nil {
		t.Errorf("a ping nested 1 000 deep: %v", answers["3"])
	}
	errorsFor := map[string]int{}
	for id, as := range answers {
		for _, a := range as {
			if e, ok := a["error"].(map[string]any); ok && (e["code"] == -32600.0 || e["code"] == -32700.0) {
				errorsFor[id]++
			}
		}
	}
	want := map[string]int{}
	for _, id := range bad {
		want[id]++
	}
	for id, n := range want {
		if errorsFor[id] != n {
			t.Errorf("id %s: %d error answers, want %d\n%s", id, errorsFor[id], n, out.String())
		}
	}
}

// After end of input with nothing in flight, the relay ends the session at
// once, not after its drain time (an hour here), even when a line it
// refused looked like a request.
func TestStdioRelayEndsAtOnce(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in := strings.Join([]string{rpcline.Init(1), `{"jsonrpc":"2.0","id":7,"Method":"ping"}`, rpcline.Line(8, "ping", nil)}, "\n") + "\n"
	out := newWatchBuffer()
	relay := newStdioRelay(strings.NewReader(in), out, time.Hour)
	go relay.pump(ctx)
	if err := padmcp.NewServer(nil, padmcp.Options{}).Run(ctx, relay.transport()); ctx.Err() != nil {
		t.Fatalf("the session outlived end of input: %v", err)
	}
	relay.close()
	if o := out.String(); !strings.Contains(o, `"id":7,"error"`) || !strings.Contains(o, `"id":8,"result"`) {
		t.Errorf("answers:\n%s", o)
	}
}

// The relay in process: end of input waits for the answers; bad lines are
// answered and the session goes on; a request that never gets an answer
// holds end of input for drain at most.
func TestStdioRelay(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	srv := padapitest.NewServer(t)
	srv.Delay("GET /api/quota", 20*time.Millisecond)
	in := strings.Join([]string{
		rpcline.Init(1), "not json", `[` + rpcline.Call(2, "get_quota", nil) + `]`, `{"jsonrpc":"1.0","id":9}`, `{"id":{"x":1},"jsonrpc":"2.0","method":"ping"}`,
		rpcline.Call(3, "get_quota", nil), rpcline.Call(4, "get_quota", nil), rpcline.Line(5, "ping", nil),
	}, "\n")
	var out syncBuffer
	relay := newStdioRelay(strings.NewReader(in), &out, 10*time.Second)
	go relay.pump(ctx)
	start := time.Now()
	if err := padmcp.NewServer(srv.Client(), padmcp.Options{}).Run(ctx, relay.transport()); err != nil && ctx.Err() != nil {
		t.Fatal(err)
	}
	relay.close()
	t.Logf("session of %d lines: %v", 8, time.Since(start))
	var got []string
	for l := range strings.Lines(out.String()) {
		var m struct {
			ID    any
			Error *struct{ Code int }
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%v: %q", err, l)
		}
		s := fmt.Sprint(m.ID)
		if m.Error != nil {
			s += fmt.Sprint(":", m.Error.Code)
		}
		got = append(got, s)
	}
	slices.Sort(got)
	want := []string{"1", "3", "4", "5", "9:-32600", "<nil>:-32600", "<nil>:-32600", "<nil>:-32700"}
	if !slices.Equal(got, want) {
		t.Errorf("replies %v, want %v", got, want)
	}

	// No answer ever comes: end of input is held for drain, not forever.
	pr, pw := io.Pipe()
	relay = newStdioRelay(strings.NewReader(rpcline.Line(1, "ping", nil)+"\n"), &out, 100*time.Millisecond)
	relay.pr, relay.pw = pr, pw
	done := make(chan struct{})
	go func() { relay.pump(ctx); close(done) }()
	go io.Copy(io.Discard, pr) // an SDK that reads and never answers
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the relay held end of input past its drain time")
	}
}

// The relay counts what it waits for: requests, not notifications, and a
// cancelled request no longer.
func TestStdioRelayPending(t *testing.T) {
	relay := newStdioRelay(strings.NewReader(""), io.Discard, time.Second)
	go io.Copy(io.Discard, relay.pr)
	defer relay.close()
	pending := func() int {
		relay.mu.Lock()
		defer relay.mu.Unlock()
		n := 0
		for _, c := range relay.pending {
			n += c
		}
		return n
	}
	for _, step := range []struct {
		line string
		want int
	}{
		{rpcline.Line(1, "tools/list", nil), 1},
		{rpcline.Line(1, "ping", nil), 1}, // the same id again, while in flight: refused
		{rpcline.Line(nil, "notifications/initialized", nil), 1},
		{rpcline.Line("a", "ping", nil), 2},
		{rpcline.Line(nil, "notifications/cancelled", map[string]any{"requestId": "a"}), 1},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 1},   // a response from the client: nothing to wait for
		{`{"jsonrpc":"2.0","id":1.0,"result":{}}`, 1}, // refused: the SDK reads 1.0 as 1
		{rpcline.Line(2.5, "ping", nil), 1},           // refused: the SDK would answer it as id 2
		{rpcline.Line(2.0, "ping", nil), 2},           // the SDK answers it as id 2
	} {
		relay.forward([]byte(step.line))
		if got := pending(); got != step.want {
			t.Errorf("after %s: %d pending, want %d", step.line, got, step.want)
		}
	}
	relayWriter{relay}.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	relayWriter{relay}.Write([]byte(`{"jsonrpc":"2.0","id":2,"result":{}}` + "\n"))
	if got := pending(); got != 0 {
		t.Errorf("after the answers: %d pending", got)
	}
}

// syncBuffer is a bytes.Buffer for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testKey is the key of the stubs' clients.
const testKey = "padctl-secret-Qz7Xw9Kp3Lm"

// newStub is a service answering routes, 404 otherwise.
func newStub(t *testing.T, routes map[string]http.HandlerFunc) *httptest.Server {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := routes[r.Method+" "+r.URL.Path]; h != nil {
			h(w, r)
			return
		}
		reply(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// reply answers with status and a JSON body.
func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}
