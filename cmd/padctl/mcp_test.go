// mcp_test.go: the built binary as an MCP server over stdio (main.go and the mcp command): startup, piped requests, never the key. Per-call timeouts are tested in fake time, in process (internal/cmd/mcp).

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest/rpcline"
)

// The read tools, which padctl mcp lists without a flag.
var (
	mcpReadTools = []string{"get_organization", "get_organization_stats", "get_pad", "get_pad_code", "get_pad_history",
		"get_pad_transcript", "get_question", "get_quota", "list_pad_events", "list_pads", "list_questions", "list_users",
		"count_pads", "count_questions", "get_question_variant", "list_accounts", "list_question_variants", "whoami"}
)

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

// runMCPBinary pipes lines into padctl mcp, closes stdin at once, and
// returns its replies by id ("<nil>" for id null), stdout and stderr.
func runMCPBinary(t *testing.T, env map[string]string, args []string, lines ...string) (map[string]map[string]any, string, string) {
	t.Helper()
	stdout, stderr, ps := runBounded(t, env, strings.Join(lines, "\n")+"\n", append([]string{"mcp"}, args...)...)
	if ps.ExitCode() != 0 { // -1 (ps nil) when it did not start
		t.Fatalf("padctl mcp: exit %d\nstderr:\n%s", ps.ExitCode(), stderr)
	}
	replies := map[string]map[string]any{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m["jsonrpc"] != "2.0" {
			t.Fatalf("stdout line is not JSON-RPC: %v: %q", err, sc.Text())
		}
		replies[fmt.Sprint(m["id"])] = m
	}
	return replies, stdout, stderr
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
	t.Parallel() // a process of its own against a server of its own
	srv, env := fake(t)
	srv.SetQuota(50, 12)
	srv.Seed(1)
	padID := string(srv.Pads()[0].ID)
	srv.FailNext("GET /api/pads/{id}", 10, http.StatusInternalServerError, "")
	replies, _, stderr := runMCPBinary(t, env, nil,
		rpcline.Init(1),
		rpcline.Line(nil, "notifications/initialized", nil),
		rpcline.Line(2, "tools/list", nil),
		`{"jsonrpc":"2.0","id":3,"method":"tools/call",`, // cut short
		rpcline.Call(4, "get_quota", nil),
		rpcline.Call(5, "get_pad", map[string]any{"id": padID}),
		rpcline.Call(6, "delete_pad", map[string]any{"id": padID}),
		rpcline.Call("seven", "list_pads", nil),
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
	bin, err := binary()
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
	io.WriteString(stdin, rpcline.Init(1)+"\n")
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
	t.Parallel() // a process of its own against a server of its own
	srv, env := fake(t)
	srv.Delay("GET /api/quota", 50*time.Millisecond) // answers come after end of input
	lines := []string{rpcline.Init(0)}
	for i := 1; i <= 5; i++ {
		lines = append(lines, rpcline.Call(i, "get_quota", nil))
	}
	replies, _, _ := runMCPBinary(t, env, []string{"--timeout", "10s"}, lines...)
	for i := range 6 {
		if replies[fmt.Sprint(i)] == nil {
			t.Errorf("no reply to request %d of 6", i)
		}
	}
}

func TestMCPBinaryNeverTheKey(t *testing.T) {
	t.Parallel() // a process of its own against a server of its own
	s := hostile(t)
	_, stdout, stderr := runMCPBinary(t, s.env(), []string{"--debug", "--allow-writes"},
		rpcline.Init(1),
		rpcline.Call(2, "get_quota", nil),
		rpcline.Call(3, "list_pads", nil),
		rpcline.Call(4, "get_pad", map[string]any{"id": "ECHO"}),
		rpcline.Call(5, "list_questions", nil),
		rpcline.Call(6, "get_pad_transcript", map[string]any{"id": "ECHO"}),
		rpcline.Call(7, "create_pad", map[string]any{"title": testKey, "dry_run": true}),
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
	if !strings.Contains(stdout, "[REDACTED]") || !strings.Contains(stderr, "time=") {
		t.Errorf("the hostile answers did not come through (redacted):\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// Issue 30 #17: without a key padctl mcp starts all the same, and each
// tool call says what to set, rather than the assistant showing only
// "disconnected".
func TestMCPBinaryNoKey(t *testing.T) {
	t.Parallel() // a process of its own against a server of its own
	replies, _, stderr := runMCPBinary(t, nil, nil, rpcline.Init(1), rpcline.Line(2, "tools/list", nil), rpcline.Call(3, "get_quota", nil))
	if replies["1"]["result"] == nil || replies["2"]["result"] == nil {
		t.Fatalf("initialize and tools/list without a key: %v (stderr %s)", replies, stderr)
	}
	if text, isErr := toolText(t, replies["3"]); !isErr || !strings.Contains(text, "PAD_API_KEY") {
		t.Errorf("get_quota without a key: %v %s", isErr, text)
	}
}
