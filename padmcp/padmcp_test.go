// padmcp_test.go: the tools end to end over go-sdk's in-memory transport against padapitest: listing, reads, paging, errors, writes, bounds (tools.go, server.go and each tool's file).

package padmcp

import (
	"context"
	"encoding/base64"
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

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// testKey is the key the stubs' clients use; no output may show it.
const testKey = "padmcp-secret-Qz7Xw9Kp3Lm"

// The tools as each option enables them.
var (
	mcpReadTools = []string{"count_pads", "count_questions", "get_organization", "get_organization_stats", "get_pad", "get_pad_code", "get_pad_history",
		"get_pad_transcript", "get_question", "get_question_variant", "get_quota", "list_accounts", "list_pad_events", "list_pads", "list_question_variants",
		"list_questions", "list_users", "whoami"}
	mcpWriteTools  = []string{"create_pad", "create_question", "create_question_variant", "end_pad", "update_pad", "update_question", "update_question_variant"}
	mcpDeleteTools = []string{"delete_pad", "delete_question", "delete_question_variant"}
)

// mcpTest is an MCP client session with a padmcp server, in memory.
type mcpTest struct {
	t   testing.TB
	ctx context.Context
	cs  *mcp.ClientSession
	out map[string]map[string]any // each listed tool's output schema's properties
}

// stub is an HTTP server with fixed answers per "METHOD /path", which
// counts the requests it gets.
type stub struct {
	*httptest.Server
	mu   sync.Mutex
	reqs map[string]int
}

// newStub returns a stub answering routes (404 otherwise), closed when the
// test ends.
func newStub(t testing.TB, routes map[string]http.HandlerFunc) *stub {
	t.Helper()
	s := &stub{reqs: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route := r.Method + " " + r.URL.Path
		s.mu.Lock()
		s.reqs[route]++
		s.mu.Unlock()
		if h := routes[route]; h != nil {
			h(w, r)
			return
		}
		reply(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// requests is how many requests route got.
func (s *stub) requests(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[route]
}

// client is a client of the stub with testKey and no retries.
func (s *stub) client(t testing.TB) *padapi.Client {
	t.Helper()
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reply answers with status and a JSON body.
func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// hang never answers: it waits for the client to give up.
func hang(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// newMCPTest connects a client to a server over c with cfg, for the test's
// life, with a deadline of its own.
func newMCPTest(t testing.TB, c *padapi.Client, cfg Options) *mcpTest {
	t.Helper()
	// Generous: -race on a loaded 2-core machine is many times slower.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := NewServer(c, cfg).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	m := &mcpTest{t, ctx, cs, map[string]map[string]any{}}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if schema, ok := tool.OutputSchema.(map[string]any); ok {
			m.out[tool.Name], _ = schema["properties"].(map[string]any)
		}
	}
	return m
}

// call calls a tool and returns its text and whether it is a tool error.
// A protocol error fails the test.
func (m *mcpTest) call(name string, args any) (string, bool) {
	m.t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	res, err := m.cs.CallTool(m.ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: protocol error: %v", name, err)
	}
	if len(res.Content) != 1 {
		m.t.Fatalf("%s: %d contents, want 1", name, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	// A read tool's success carries its result as structured content too,
	// every member of it declared in the tool's output schema.
	if props, read := m.out[name]; read && !res.IsError {
		sc, ok := res.StructuredContent.(map[string]any)
		if !ok {
			m.t.Errorf("%s: structured content %T, want an object", name, res.StructuredContent)
		}
		for k := range sc {
			if _, declared := props[k]; !declared {
				m.t.Errorf("%s: structured content member %q is not in the output schema", name, k)
			}
		}
	}
	return text, res.IsError
}

// ok calls a tool that must succeed, and decodes its JSON.
func (m *mcpTest) ok(name string, args any) map[string]any {
	m.t.Helper()
	text, isErr := m.call(name, args)
	if isErr {
		m.t.Fatalf("%s(%v): tool error: %s", name, args, text)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		m.t.Fatalf("%s: %v in %.300s", name, err, text)
	}
	return v
}

// fails calls a tool that must answer a tool error containing each of want.
func (m *mcpTest) fails(name string, args any, want ...string) string {
	m.t.Helper()
	text, isErr := m.call(name, args)
	if !isErr {
		m.t.Fatalf("%s(%v): no tool error: %.300s", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			m.t.Errorf("%s(%v): error %q has no %q", name, args, text, w)
		}
	}
	return text
}

func TestMCPToolsList(t *testing.T) {
	srv := padapitest.NewServer(t)
	for _, tc := range []struct {
		cfg  Options
		want []string
	}{
		{Options{}, mcpReadTools},
		{Options{AllowWrites: true}, append(slices.Clone(mcpReadTools), mcpWriteTools...)},
		{Options{AllowDeletes: true}, append(slices.Clone(mcpReadTools), mcpDeleteTools...)},
		{Options{AllowWrites: true, AllowDeletes: true}, slices.Concat(mcpReadTools, mcpWriteTools, mcpDeleteTools)},
	} {
		m := newMCPTest(t, srv.Client(), tc.cfg)
		res, err := m.cs.ListTools(m.ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
			schema, _ := tool.InputSchema.(map[string]any)
			if schema["type"] != "object" || schema["additionalProperties"] != false {
				t.Errorf("%s: input schema %v, want a closed object", tool.Name, tool.InputSchema)
			}
			a := tool.Annotations
			if a == nil || tool.Description == "" {
				t.Errorf("%s: no annotations or description", tool.Name)
				continue
			}
			read := slices.Contains(mcpReadTools, tool.Name)
			del := slices.Contains(mcpDeleteTools, tool.Name)
			if a.ReadOnlyHint != read || (del && (a.DestructiveHint == nil || !*a.DestructiveHint)) {
				t.Errorf("%s: readOnlyHint %v, destructiveHint %v", tool.Name, a.ReadOnlyHint, a.DestructiveHint)
			}
			if props, _ := schema["properties"].(map[string]any); props != nil {
				for name, p := range props {
					if d, _ := p.(map[string]any)["description"].(string); d == "" {
						t.Errorf("%s: argument %s has no description", tool.Name, name)
					}
					if strings.Contains(name, "key") || strings.Contains(name, "token") {
						t.Errorf("%s: argument %s", tool.Name, name)
					}
				}
			}
		}
		slices.Sort(names)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(names, want) {
			t.Errorf("writes %v deletes %v: tools %v, want %v", tc.cfg.AllowWrites, tc.cfg.AllowDeletes, names, want)
		}
	}
}

func TestMCPDisabledToolsSendNothing(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.Seed(2)
	pad := srv.Pads()[0]
	m := newMCPTest(t, srv.Client(), Options{AllowWrites: true})
	before := len(srv.Requests())
	m.fails("delete_pad", map[string]any{"id": string(pad.ID)}, "delete_pad", "--allow-deletes", "Nothing was sent")
	m.fails("delete_question", map[string]any{"id": "1"}, "--allow-deletes")
	m = newMCPTest(t, srv.Client(), Options{AllowDeletes: true})
	m.fails("create_pad", map[string]any{"title": "x"}, "create_pad", "--allow-writes")
	m.fails("end_pad", map[string]any{"id": string(pad.ID)}, "--allow-writes")
	if reqs := srv.Requests(); len(reqs) != before || len(srv.Pads()) != 2 {
		t.Errorf("refused calls sent %d requests; %d pads", len(reqs)-before, len(srv.Pads()))
	}
}

func TestMCPReads(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.SetQuota(50, 12)
	srv.Seed(3)
	m := newMCPTest(t, srv.Client(), Options{CallTimeout: 10 * time.Second, AllowLoopbackHistory: true})

	q := m.ok("get_quota", nil)
	if q["pads_used"] != 12.0 || q["monthly_pad_limit"] != 50.0 || q["pads_remaining"] != 38.0 || q["can_create_one"] != true {
		t.Errorf("get_quota = %v", q)
	}

	pads := m.ok("list_pads", map[string]any{"sort": "created_at,asc"})
	rows := pads["pads"].([]any)
	if pads["total"] != 3.0 || len(rows) != 3 || pads["next_page"] != nil {
		t.Fatalf("list_pads = %v", pads)
	}
	for i := 1; i < len(rows); i++ {
		if a, b := rows[i-1].(map[string]any)["created_at"].(string), rows[i].(map[string]any)["created_at"].(string); a > b {
			t.Errorf("list_pads sorted ascending: %s before %s", a, b)
		}
	}
	id := rows[0].(map[string]any)["id"].(string)
	i := slices.IndexFunc(srv.Pads(), func(p padapi.Pad) bool { return string(p.ID) == id })
	if i < 0 {
		t.Fatalf("list_pads gave %s, which the fake does not hold", id)
	}
	p := m.ok("get_pad", map[string]any{"id": id})
	if p["id"] != id || p["notice"] != dataNotice || p["contents"] != srv.Pads()[i].Contents {
		t.Errorf("get_pad = %v", p)
	}

	ev := m.ok("list_pad_events", map[string]any{"id": id})
	if events := ev["events"].([]any); len(events) == 0 || !strings.Contains(events[0].(string), "created") {
		t.Errorf("list_pad_events = %v", ev)
	}

	env := srv.Environments(padapi.ID(id))[0]
	code := m.ok("get_pad_code", map[string]any{"id": id})
	files := code["environments"].([]any)[0].(map[string]any)["files"].([]any)
	if f := files[0].(map[string]any); f["contents"] != env.Files[0].Contents || f["path"] != env.Files[0].Path {
		t.Errorf("get_pad_code = %v, want %v", code, env.Files)
	}

	h := m.ok("get_pad_history", map[string]any{"id": id})
	if h["text"] != env.Files[0].Contents || h["source"] != "edit history" {
		t.Errorf("get_pad_history = %v", h)
	}
	h = m.ok("get_pad_history", map[string]any{"id": id, "at": "2000-01-01T00:00:00Z"})
	if h["text"] != "" {
		t.Errorf("get_pad_history before the pad = %v", h)
	}

	tr := m.ok("get_pad_transcript", map[string]any{"id": id})
	if tr["events_total"] != float64(len(srv.Events(padapi.ID(id)))) || tr["notice"] != dataNotice {
		t.Errorf("get_pad_transcript = %v", tr)
	}

	qs := m.ok("list_questions", nil)
	if qs["total"] != 3.0 || len(qs["questions"].([]any)) != 3 {
		t.Errorf("list_questions = %v", qs)
	}
	title := srv.Questions()[1].Title
	qs = m.ok("list_questions", map[string]any{"search": strings.ToUpper(title)})
	if found := qs["questions"].([]any); len(found) != 1 || found[0].(map[string]any)["title"] != title {
		t.Errorf("list_questions search %q = %v", title, qs)
	}
	qid := string(srv.Questions()[0].ID)
	if q := m.ok("get_question", map[string]any{"id": qid}); q["title"] != srv.Questions()[0].Title {
		t.Errorf("get_question = %v", q)
	}

	if o := m.ok("get_organization", nil); o["name"] == "" || len(o["users"].([]any)) == 0 {
		t.Errorf("get_organization = %v", o)
	}
	st := m.ok("get_organization_stats", map[string]any{"start": "2000-01-01T00:00:00Z", "end": "2100-01-01T00:00:00Z"})
	if st["pads_created"] != 3.0 {
		t.Errorf("get_organization_stats = %v", st)
	}
	users := m.ok("list_users", nil)["users"].([]any)
	email := users[0].(map[string]any)["email"].(string)
	if one := m.ok("list_users", map[string]any{"email": email})["users"].([]any); len(one) != 1 {
		t.Errorf("list_users email %s = %v", email, one)
	}
}

func TestMCPListPaging(t *testing.T) {
	srv := padapitest.NewServer(t)
	for i := range 60 {
		srv.AddPad(padapi.Pad{Title: fmt.Sprint("pad ", i)})
		srv.AddQuestion(padapi.Question{Title: fmt.Sprint("question ", i), Language: "go"})
	}
	m := newMCPTest(t, srv.Client(), Options{AllowLoopbackHistory: true})
	first := m.ok("list_pads", nil)
	next, _ := first["next_page"].(map[string]any)
	if len(first["pads"].([]any)) != 50 || next["page"] != 2.0 {
		t.Fatalf("list_pads: %d rows, next_page %v", len(first["pads"].([]any)), first["next_page"])
	}
	second := m.ok("list_pads", next)
	if len(second["pads"].([]any)) != 10 || second["next_page"] != nil {
		t.Errorf("list_pads page 2: %d rows, next_page %v", len(second["pads"].([]any)), second["next_page"])
	}
	// search reads on past the first page, and says where to go on.
	qs := m.ok("list_questions", map[string]any{"search": "question 5"})
	if n := len(qs["questions"].([]any)); n != 11 {
		t.Errorf("list_questions search: %d found, want 11 (5, 50 to 59)", n)
	}
}

func TestMCPServiceErrors(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.Seed(1)
	m := newMCPTest(t, srv.Client(), Options{AllowWrites: true})

	srv.FailNext("GET /api/quota", 10, http.StatusInternalServerError, "")
	m.fails("get_quota", nil, "500", "try again later")
	srv.FailNext("GET /api/quota", 0, 0, "")

	m.fails("get_pad", map[string]any{"id": "NOSUCHPAD"}, "404", "No such pad", "list_pads")
	m.fails("get_question", map[string]any{"id": "999"}, "No such question", "list_questions")

	srv.FailNext("GET /api/pads", 1, http.StatusTooManyRequests, "")
	m.fails("list_pads", nil, "429", "throttling")

	srv.SetQuota(1, 1)
	m.fails("create_pad", map[string]any{"title": "x"}, "Over quota", "get_quota")
	srv.SetQuota(10, 1)

	srv.DropNext("POST /api/pads", 1)
	text := m.fails("create_pad", map[string]any{"title": "maybe"}, "outcome unknown", "list_pads")
	if !strings.Contains(text, "Do not call create_pad again") {
		t.Errorf("outcome unknown: %q does not say to look before a retry", text)
	}
	srv.DropNext("POST /api/questions", 1)
	m.fails("create_question", map[string]any{"title": "q", "language": "go"}, "outcome unknown", "list_questions")

	// Refused before any request.
	m.fails("get_pad", map[string]any{"id": ".."}, "invalid argument")
}

func TestMCPBadArguments(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.Seed(1)
	id := string(srv.Pads()[0].ID)
	m := newMCPTest(t, srv.Client(), Options{AllowWrites: true})
	before := len(srv.Requests())
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"list_pads", map[string]any{"page": 0}, "argument page"},
		{"list_pads", map[string]any{"sort": "newest"}, "argument sort"},
		{"list_pads", map[string]any{"api_key": "x"}, `"api_key"`},
		{"get_pad", map[string]any{}, "id"},
		{"get_pad", map[string]any{"id": 7}, "argument id"},
		{"get_pad_transcript", map[string]any{"id": id, "max_bytes": 1 << 30}, "argument max_bytes"},
		{"get_organization_stats", map[string]any{"start": "2026-01-01T00:00:00Z"}, "argument end"},
		{"get_organization_stats", map[string]any{"start": "yesterday", "end": "2026-01-01T00:00:00Z"}, "argument start"},
		{"get_pad_history", map[string]any{"id": id, "at": "noon"}, "argument at"},
		{"create_pad", map[string]any{"contents": "x", "question_id": "1"}, "Contents and QuestionID cannot be combined"},
		{"create_question", map[string]any{"title": "x"}, "language"},
		{"update_pad", map[string]any{"id": id}, "nothing to change"},
	} {
		m.fails(tc.tool, tc.args, tc.want)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Errorf("bad arguments sent %d requests", n)
	}
	m.fails("get_pad_history", map[string]any{"id": id, "path": "nope.py"}, "argument path", "main")
	m.fails("get_pad_history", map[string]any{"id": id, "environment_id": "424242"}, "argument environment_id")
}

func TestMCPWrites(t *testing.T) {
	srv := padapitest.NewServer(t)
	m := newMCPTest(t, srv.Client(), Options{AllowWrites: true, AllowDeletes: true})

	dry := m.ok("create_pad", map[string]any{"title": "Dry", "language": "go", "dry_run": true})
	if dry["sent"] != false || dry["would_send"] != "POST /api/pads" || dry["fields"].(map[string]any)["title"] != "Dry" {
		t.Errorf("dry run = %v", dry)
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Fatalf("a dry run sent %d requests", len(reqs))
	}

	created := m.ok("create_pad", map[string]any{"title": "Real", "language": "go", "notes": "n"})["created"].(map[string]any)
	id := created["id"].(string)
	if pads := srv.Pads(); len(pads) != 1 || pads[0].Title != "Real" || pads[0].Notes != "n" {
		t.Fatalf("create_pad: fake holds %+v", pads)
	}
	m.ok("update_pad", map[string]any{"id": id, "title": "Renamed", "dry_run": true})
	m.ok("update_pad", map[string]any{"id": id, "title": "Renamed"})
	m.ok("end_pad", map[string]any{"id": id})
	if p := srv.Pads()[0]; p.Title != "Renamed" || p.EndedAt == nil {
		t.Errorf("after update and end: %+v", p)
	}

	q := m.ok("create_question", map[string]any{"title": "Q", "language": "python3", "contents": "pass"})["created"].(map[string]any)
	qid := fmt.Sprint(q["id"])
	m.ok("update_question", map[string]any{"id": qid, "solution": "done"})
	if qs := srv.Questions(); len(qs) != 1 || qs[0].Solution != "done" {
		t.Errorf("questions: %+v", qs)
	}
	m.ok("delete_question", map[string]any{"id": qid})
	m.ok("delete_pad", map[string]any{"id": id})
	if len(srv.Pads()) != 0 || len(srv.Questions()) != 0 {
		t.Errorf("after deletes: %d pads, %d questions", len(srv.Pads()), len(srv.Questions()))
	}
}

// A long file, a long transcript: every answer within its cap, with a
// marker that says how to read on, and the rest readable.
func TestMCPBounded(t *testing.T) {
	srv := padapitest.NewServer(t)
	line := "print('candidate code \"quoted\"')\t# ünïcödé\n"
	long := strings.Repeat(line, 130<<10/len(line)) // three reads of history
	pad := srv.AddPad(padapi.Pad{Title: "long", Language: "python", Contents: long, Notes: strings.Repeat("note ", 10000)})
	id := string(pad.ID)
	m := newMCPTest(t, srv.Client(), Options{AllowLoopbackHistory: true})
	check := func(name string, args map[string]any, limit int, marker string) string {
		t.Helper()
		text, isErr := m.call(name, args)
		if isErr || len(text) > limit || !strings.Contains(text, marker) || !json.Valid([]byte(text)) {
			t.Errorf("%s: error %v, %d bytes (cap %d), marker %q found: %v", name, isErr, len(text), limit, marker, strings.Contains(text, marker))
		}
		return text
	}
	check("get_pad", map[string]any{"id": id}, defaultResultBytes, "get_pad_history")
	check("get_pad_code", map[string]any{"id": id}, defaultResultBytes, "offset: N")

	// get_pad_history reads the whole file, a cap at a time.
	var got strings.Builder
	offset := 0
	for range 20 {
		text := check("get_pad_history", map[string]any{"id": id, "offset": offset}, defaultResultBytes, `"text"`)
		var h struct {
			Text  string
			Bytes int
		}
		json.Unmarshal([]byte(text), &h)
		chunk := unclip(h.Text)
		got.WriteString(chunk)
		offset += len(chunk)
		if chunk == h.Text {
			break
		}
		if !strings.Contains(h.Text, fmt.Sprintf("offset: %d", offset)) {
			t.Fatalf("marker %q does not say offset %d", h.Text[len(chunk):], offset)
		}
	}
	if got.String() != long {
		t.Errorf("read back %d bytes, want the %d of the file", got.Len(), len(long))
	}

	// A long event log: 450 events of about 400 bytes (the 10 000 of the
	// target are BenchmarkMCPTranscript10k's, which times them) are more
	// than either cap holds. 3 000 short ones were about as many bytes in 60
	// pages, most of this test's time.
	output := strings.Repeat("output ", 50)
	for i := range 450 {
		srv.AddEvent(pad.ID, padapi.PadEvent{Kind: "ran", UserName: "Ada", Message: fmt.Sprint("ran the code, time ", i, ": ", output)})
	}
	for _, maxBytes := range []int{0, maxTranscriptBytes} {
		args := map[string]any{"id": id}
		if maxBytes > 0 {
			args["max_bytes"] = maxBytes
		}
		text := check("get_pad_transcript", args, max(maxBytes, defaultResultBytes), "list_pad_events")
		if maxBytes > 0 && len(text) < maxTranscriptBytes*3/4 {
			t.Errorf("transcript with max_bytes %d: only %d bytes", maxBytes, len(text))
		}
	}
}

// A tool that panics answers a tool error; the session goes on.
func TestMCPToolPanic(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	ts := newToolset(nil, Options{})
	ts.c = &padapi.Client{} // any client: the handler never uses it
	newTool(ts, spec[noArgs]{kind: read, tool: &mcp.Tool{Name: "boom"}}, func(context.Context, noArgs) (any, error) {
		panic("boom")
	}).add(s)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
		if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "a bug in padmcp") {
			t.Fatalf("boom: %v, %+v", err, res)
		}
	}
}

func TestMCPRender(t *testing.T) {
	big := map[string]string{"x": strings.Repeat("é", 40000)}
	ts := newToolset(nil, Options{})
	s, whole := ts.render(big, false, 1000)
	if whole {
		t.Error("render: a cut result reported whole")
	}
	if len(s) > 1000 || !strings.Contains(s, "[result truncated at 1000 bytes") {
		t.Errorf("render: %d bytes: %.80q", len(s), s[max(0, len(s)-120):])
	}
	if c := ts.clip("ab\"\"cd", 4, "more"); !strings.HasPrefix(c, "ab\"\n[truncated: 3 of 6 bytes shown; more]") {
		t.Errorf("clip counts escapes: %q", c)
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

func TestMCPNeverTheKey(t *testing.T) {
	s := hostile(t)
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := newMCPTest(t, c, Options{Secrets: []string{testKey}})
	var all strings.Builder
	for _, call := range []struct {
		tool string
		args map[string]any
	}{{"get_quota", nil}, {"list_pads", nil}, {"get_pad", map[string]any{"id": "ECHO"}}, {"list_questions", nil}, {"get_pad_code", map[string]any{"id": "ECHO"}}} {
		text, _ := m.call(call.tool, call.args)
		all.WriteString(text)
	}
	if out := all.String(); strings.Contains(out, testKey) || strings.Contains(strings.ToLower(out), `\u0070\u0061`) || !strings.Contains(out, redacted) {
		t.Errorf("the key, or its escaped form, in:\n%s", out)
	}
}

// The cost of MCP over the call it makes: compare with BenchmarkGetQuotaDirect.
func BenchmarkMCPGetQuota(b *testing.B) {
	srv := padapitest.NewServer(b)
	m := newMCPTest(b, srv.Client(), Options{Secrets: []string{srv.APIKey}})
	for b.Loop() {
		if _, isErr := m.call("get_quota", nil); isErr {
			b.Fatal("tool error")
		}
	}
}

// The target: a transcript of a pad with 10 000 events within the size
// cap in under a second against the fake. BenchmarkTranscriptDirect10k is
// the library's call alone.
func BenchmarkMCPTranscript10k(b *testing.B) {
	srv, id := transcriptFake(b, 10000)
	m := newMCPTest(b, srv.Client(), Options{Secrets: []string{srv.APIKey}})
	for b.Loop() {
		if text, isErr := m.call("get_pad_transcript", map[string]any{"id": string(id)}); isErr || len(text) > defaultResultBytes {
			b.Fatalf("tool error %v, %d bytes", isErr, len(text))
		}
	}
}

func BenchmarkTranscriptDirect10k(b *testing.B) {
	srv, id := transcriptFake(b, 10000)
	c := srv.Client()
	for b.Loop() {
		if _, err := c.Pads.Transcript(context.Background(), id); err != nil {
			b.Fatal(err)
		}
	}
}

// transcriptFake is a fake holding one pad with n events.
func transcriptFake(b *testing.B, n int) (*padapitest.Server, padapi.ID) {
	srv := padapitest.NewServer(b)
	pad := srv.AddPad(padapi.Pad{Title: "long", Language: "python", Contents: "print(1)\n"})
	for i := range n - 1 {
		srv.AddEvent(pad.ID, padapi.PadEvent{Kind: "ran", UserName: "Ada", Message: fmt.Sprint("ran the code, time ", i)})
	}
	return srv, pad.ID
}

func BenchmarkGetQuotaDirect(b *testing.B) {
	srv := padapitest.NewServer(b)
	c := srv.Client()
	ctx := context.Background()
	for b.Loop() {
		if _, err := c.Quota.Get(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// A tool error built from what the service sent is cut like a result.
func TestMCPErrorOverCap(t *testing.T) {
	var ids, files []string
	for i := range 20000 {
		ids = append(ids, fmt.Sprintf(`"ENV%06d"`, i))
		files = append(files, fmt.Sprintf(`{"path":"dir/file%06d.py","contents":"x"}`, i))
	}
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/BIG":                   reply(http.StatusOK, `{"status":"OK","id":"BIG","title":"t","pad_environment_ids":[`+strings.Join(ids, ",")+`],"active_environment_id":"ENV000000"}`),
		"GET /api/pad_environments/ENV000000": reply(http.StatusOK, `{"status":"OK","id":"ENV000000","files":[`+strings.Join(files, ",")+`]}`),
	})
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := newMCPTest(t, c, Options{Secrets: []string{testKey}})
	for _, args := range []map[string]any{
		{"id": "BIG", "environment_id": "NOPE"},
		{"id": "BIG", "path": "nope.py"},
	} {
		text, isErr := m.call("get_pad_history", args)
		if len(text) > defaultResultBytes {
			t.Errorf("get_pad_history(%v): isError=%v, %d bytes, over the %d cap: %.200s...", args, isErr, len(text), defaultResultBytes, text)
		}
	}
}

// The key inside a base64 blob the service echoes (Basic auth "user:KEY",
// "Bearer KEY") must not reach the model.
func TestMCPBase64Misaligned(t *testing.T) {
	var blobs []string
	for _, prefix := range []string{"", "u:", "x", "Bearer "} {
		blobs = append(blobs, base64.StdEncoding.EncodeToString([]byte(prefix+testKey)))
	}
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/ECHO": reply(http.StatusOK, `{"status":"OK","id":"ECHO","title":"t","notes":"`+strings.Join(blobs, " ")+`"}`),
	})
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := newMCPTest(t, c, Options{Secrets: []string{testKey}})
	text, _ := m.call("get_pad", map[string]any{"id": "ECHO"})
	for _, word := range strings.Fields(text) {
		for _, tok := range strings.FieldsFunc(word, func(r rune) bool { return r == '"' || r == ',' || r == ':' }) {
			if b, err := base64.StdEncoding.DecodeString(tok); err == nil && strings.Contains(string(b), testKey) {
				t.Errorf("the key leaks as base64 %q (decodes to %q)", tok, b)
			}
		}
	}
}

// A service error's message goes into the tool error uncut.
func TestMCPServiceErrorOverCap(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/quota": reply(http.StatusBadRequest, `{"status":"ERROR","message":"`+strings.Repeat("\\u0001", 70<<10)+`"}`),
	})
	c, err := padapi.NewClient(s.URL, testKey, padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := newMCPTest(t, c, Options{Secrets: []string{testKey}})
	text, isErr := m.call("get_quota", nil)
	enc, _ := json.Marshal(text)
	if len(text) > defaultResultBytes || len(enc) > defaultResultBytes+100 {
		t.Errorf("isError=%v: text %d bytes, %d as JSON, over the %d cap", isErr, len(text), len(enc), defaultResultBytes)
	}
}
