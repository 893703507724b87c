package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi/padapitest"
	"github.com/padinterview/padapi/padmcp"
)

// The read tools, which padctl mcp lists without a flag.
var (
	mcpReadTools = []string{"get_organization", "get_organization_stats", "get_pad", "get_pad_code", "get_pad_history",
		"get_pad_transcript", "get_question", "get_quota", "list_pad_events", "list_pads", "list_questions", "list_users"}
)

// --timeout bounds each tool call, and the session goes on after one
// runs out.
func TestMCPBinaryTimeoutPerCall(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/quota": hang,
		"GET /api/pads":  reply(http.StatusOK, `{"status":"OK","pads":[],"total":0}`),
	})
	replies, _, _ := runMCPBinary(t, s.env(), []string{"--timeout", "200ms"}, initLine(1), callLine(2, "get_quota", nil), callLine(3, "list_pads", nil))
	if text, isErr := toolText(t, replies["2"]); !isErr || !strings.Contains(text, "--timeout") {
		t.Errorf("get_quota past --timeout: %v %s", isErr, text)
	}
	if _, isErr := toolText(t, replies["3"]); isErr {
		t.Errorf("list_pads after a timeout: %v", replies["3"])
	}
}

func TestRedactor(t *testing.T) {
	const key = "padctl-secret-Qz7Xw9Kp3Lm"
	uesc := func(s string, upper bool) string {
		var b strings.Builder
		for _, c := range s {
			f := "\\u%04x"
			if upper {
				f = "\\u%04X"
			}
			fmt.Fprintf(&b, f, c)
		}
		return b.String()
	}
	pct := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		return b.String()
	}
	html := func(s string) string {
		var b strings.Builder
		for i, c := range s {
			if i%2 == 0 {
				fmt.Fprintf(&b, "&#%d;", c)
			} else {
				fmt.Fprintf(&b, "&#x%x;", c)
			}
		}
		return b.String()
	}
	r := newRedactor(key)
	for _, form := range []string{
		key,
		uesc(key, false),
		uesc(key, true),
		"padctl\\u002dsecret-Qz7Xw9Kp3Lm", // one character escaped
		"padctl\\\\u002dsecret\\\\u002dQz7Xw9Kp3Lm", // JSON inside JSON
		pct(key),
		strings.ReplaceAll(pct(key), "%", "%25"),
		html(key),
		base64.StdEncoding.EncodeToString([]byte(key)),
		base64.RawURLEncoding.EncodeToString([]byte(key)),
	} {
		in := `{"message":"bad key ` + form + `!"}`
		out := r.redact(in)
		if strings.Contains(out, form) || !strings.Contains(out, `bad key [REDACTED]!`) {
			t.Errorf("redact(%q) = %q", in, out)
		}
	}
	for _, s := range []string{"", "plain text", `a\nb %zz &amp; + \u00e9`, "padctl-secret-Qz7Xw9Kp3L", "padctl-secret-Qz7Xw9Kp3Lx"[:24]} {
		if got := r.redact(s); got != s {
			t.Errorf("redact(%q) = %q, want it unchanged", s, got)
		}
	}
	if w := newRedactor("short", key).wire(); len(w.keys) != 1 || w.keys[0] != key {
		t.Errorf("wire redactor keys %q, want only %q", w.keys, key)
	}
	var b bytes.Buffer
	if n, err := r.writer(&b).Write([]byte("k=" + key + "\n")); n != len(key)+3 || err != nil || b.String() != "k=[REDACTED]\n" {
		t.Errorf("writer: %d, %v, %q", n, err, b.String())
	}
}

// hostile is a service that echoes the key wherever it can: in error
// bodies (as is and \u-escaped) and in the data of a success.
func hostile(t *testing.T) *stub {
	escaped := strings.ReplaceAll(fmt.Sprintf("%q", testKey), "-", `\u002d`)
	var allEscaped strings.Builder
	for _, c := range testKey {
		fmt.Fprintf(&allEscaped, "\\u%04x", c)
	}
	return newStub(t, map[string]http.HandlerFunc{
		"GET /api/quota":     reply(http.StatusUnauthorized, `{"status":"ERROR","message":"Invalid API key `+testKey+` or `+escaped[1:len(escaped)-1]+`"}`),
		"GET /api/pads":      reply(http.StatusInternalServerError, `{"status":"ERROR","message":"token=\"`+allEscaped.String()+`\""}`),
		"GET /api/pads/ECHO": reply(http.StatusOK, `{"status":"OK","id":"ECHO","title":"`+testKey+`","notes":"`+allEscaped.String()+`","contents":"Token token=`+testKey+`"}`),
		"GET /api/questions": reply(http.StatusBadRequest, `{"status":"ERROR","message":"bad","echo":"`+testKey+`"}`),
	})
}

// mcpBinary is padctl built once for the tests that run it.
var mcpBinary = binary

// rpcLine is one JSON-RPC message.
func rpcLine(id any, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// initLine is an initialize request.
func initLine(id any) string {
	return rpcLine(id, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "0"}})
}

// callLine is a tools/call request.
func callLine(id any, tool string, args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	return rpcLine(id, "tools/call", map[string]any{"name": tool, "arguments": args})
}

// runMCPBinary pipes lines into padctl mcp, closes stdin at once, and
// returns its replies by id ("<nil>" for id null), stdout and stderr.
func runMCPBinary(t *testing.T, env map[string]string, args []string, lines ...string) (map[string]map[string]any, string, string) {
	t.Helper()
	bin, err := mcpBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"mcp"}, args...)...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("padctl mcp: %v\nstderr:\n%s", err, stderr.String())
	}
	replies := map[string]map[string]any{}
	sc := bufio.NewScanner(bytes.NewReader(stdout.Bytes()))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %v: %q", err, sc.Text())
		}
		replies[fmt.Sprint(m["id"])] = m
	}
	return replies, stdout.String(), stderr.String()
}

// toolText is the text of a tools/call reply, and whether it is an error.
func toolText(t *testing.T, reply map[string]any) (string, bool) {
	t.Helper()
	res, ok := reply["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result: %v", reply)
	}
	content := res["content"].([]any)
	return content[0].(map[string]any)["text"].(string), res["isError"] == true
}

func TestMCPBinary(t *testing.T) {
	srv, env := fake(t)
	srv.SetQuota(50, 12)
	srv.Seed(1)
	padID := string(srv.Pads()[0].ID)
	srv.FailNext("GET /api/pads/{id}", 10, http.StatusInternalServerError, "")
	replies, _, stderr := runMCPBinary(t, env, nil,
		initLine(1),
		rpcLine(nil, "notifications/initialized", nil),
		rpcLine(2, "tools/list", nil),
		`{"jsonrpc":"2.0","id":3,"method":"tools/call",`, // cut short
		callLine(4, "get_quota", nil),
		callLine(5, "get_pad", map[string]any{"id": padID}),
		callLine(6, "delete_pad", map[string]any{"id": padID}),
		callLine("seven", "list_pads", nil),
	)
	if stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	for _, id := range []string{"1", "2", "<nil>", "4", "5", "6", "seven"} {
		if replies[id] == nil {
			t.Errorf("no reply to %s; replies %v", id, replies)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	init := replies["1"]["result"].(map[string]any)
	if init["protocolVersion"] != "2025-06-18" || init["capabilities"].(map[string]any)["tools"] == nil {
		t.Errorf("initialize: %v", init)
	}
	for _, tool := range replies["2"]["result"].(map[string]any)["tools"].([]any) {
		tool := tool.(map[string]any)
		name := tool["name"].(string)
		a, _ := tool["annotations"].(map[string]any)
		if _, explicit := a["readOnlyHint"]; !explicit || tool["inputSchema"].(map[string]any)["type"] != "object" {
			t.Errorf("%s: annotations %v, schema %v", name, a, tool["inputSchema"])
		}
		if !slices.Contains(mcpReadTools, name) {
			t.Errorf("%s listed without its flag", name)
		}
	}
	if e := replies["<nil>"]["error"].(map[string]any); e["code"] != -32700.0 {
		t.Errorf("malformed line: %v", replies["<nil>"])
	}
	if text, isErr := toolText(t, replies["4"]); isErr || !strings.Contains(text, `"pads_used":12`) || !strings.Contains(text, `"monthly_pad_limit":50`) {
		t.Errorf("get_quota: %s", text)
	}
	if text, isErr := toolText(t, replies["5"]); !isErr || !strings.Contains(text, "500") {
		t.Errorf("get_pad on a 500: %v %s", isErr, text)
	}
	if text, isErr := toolText(t, replies["6"]); !isErr || !strings.Contains(text, "--allow-deletes") {
		t.Errorf("delete_pad: %v %s", isErr, text)
	}
	for _, r := range srv.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("a refused delete sent %s %s", r.Method, r.Path)
		}
	}
}

// padctl mcp answers initialize soon after it starts (the target is
// 50 ms; the bound here leaves room for a loaded machine and -race).
func TestMCPBinaryStartup(t *testing.T) {
	bin, err := mcpBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--fake", "mcp")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(stdin, initLine(1)+"\n")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	d := time.Since(start)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if err != nil || !strings.Contains(line, `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize: %v, %q", err, line)
	}
	t.Logf("started and answered initialize in %v", d)
	if d > 2*time.Second {
		t.Errorf("initialize answered after %v", d)
	}
}

// Requests piped in with stdin closed right after them are all answered
// (go-sdk #1061), however many.
func TestMCPBinaryPipedRequests(t *testing.T) {
	srv, env := fake(t)
	srv.Delay("GET /api/quota", 50*time.Millisecond) // answers come after end of input
	lines := []string{initLine(0)}
	for i := 1; i <= 5; i++ {
		lines = append(lines, callLine(i, "get_quota", nil))
	}
	replies, _, _ := runMCPBinary(t, env, []string{"--timeout", "10s"}, lines...)
	for i := range 6 {
		if replies[fmt.Sprint(i)] == nil {
			t.Errorf("no reply to request %d of 6", i)
		}
	}
}

func TestMCPBinaryNeverTheKey(t *testing.T) {
	s := hostile(t)
	_, stdout, stderr := runMCPBinary(t, s.env(), []string{"--debug", "--allow-writes"},
		initLine(1),
		callLine(2, "get_quota", nil),
		callLine(3, "list_pads", nil),
		callLine(4, "get_pad", map[string]any{"id": "ECHO"}),
		callLine(5, "list_questions", nil),
		callLine(6, "get_pad_transcript", map[string]any{"id": "ECHO"}),
		callLine(7, "create_pad", map[string]any{"title": testKey, "dry_run": true}),
	)
	out := stdout + stderr
	lower := strings.ToLower(out)
	var escaped strings.Builder
	for _, c := range testKey[:6] {
		fmt.Fprintf(&escaped, "\\u%04x", c)
	}
	if strings.Contains(out, testKey) || strings.Contains(lower, escaped.String()) || strings.Contains(out, "Qz7Xw9Kp3Lm") {
		t.Errorf("the key in padctl mcp's output:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if !strings.Contains(stdout, mcpRedacted) || !strings.Contains(stderr, "time=") {
		t.Errorf("the hostile answers did not come through (redacted):\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
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
		initLine(1), "not json", `[` + callLine(2, "get_quota", nil) + `]`, `{"jsonrpc":"1.0","id":9}`, `{"id":{"x":1},"jsonrpc":"2.0","method":"ping"}`,
		callLine(3, "get_quota", nil), callLine(4, "get_quota", nil), rpcLine(5, "ping", nil),
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
	relay = newStdioRelay(strings.NewReader(rpcLine(1, "ping", nil)+"\n"), &out, 100*time.Millisecond)
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
		{rpcLine(1, "tools/list", nil), 1},
		{rpcLine(1, "ping", nil), 1}, // the same id again, while in flight: refused
		{rpcLine(nil, "notifications/initialized", nil), 1},
		{rpcLine("a", "ping", nil), 2},
		{rpcLine(nil, "notifications/cancelled", map[string]any{"requestId": "a"}), 1},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 1},   // a response from the client: nothing to wait for
		{`{"jsonrpc":"2.0","id":1.0,"result":{}}`, 1}, // refused: the SDK reads 1.0 as 1
		{rpcLine(2.5, "ping", nil), 1},                // refused: the SDK would answer it as id 2
		{rpcLine(2.0, "ping", nil), 2},                // the SDK answers it as id 2
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

// Issue 30 #17: without a key padctl mcp starts all the same, and each
// tool call says what to set, rather than the assistant showing only
// "disconnected".
func TestMCPBinaryNoKey(t *testing.T) {
	replies, _, stderr := runMCPBinary(t, nil, nil, initLine(1), rpcLine(2, "tools/list", nil), callLine(3, "get_quota", nil))
	if replies["1"]["result"] == nil || replies["2"]["result"] == nil {
		t.Fatalf("initialize and tools/list without a key: %v (stderr %s)", replies, stderr)
	}
	if text, isErr := toolText(t, replies["3"]); !isErr || !strings.Contains(text, "PAD_API_KEY") {
		t.Errorf("get_quota without a key: %v %s", isErr, text)
	}
}
