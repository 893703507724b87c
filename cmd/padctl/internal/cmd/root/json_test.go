// json_test.go: --json prints the service's bytes as they came, for lists, single resources and writes (root.go's JSON output).

package root_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

// Two pads as a live page sends them: notes null on one and "" on the
// other, drawing and active_environment_id null, a field padapi does not
// know, and escapes padapi would not write.
const (
	rawPadA = `{"id":"AAAA1111","title":"A \u003c B","notes":null,"drawing":null,"active_environment_id":null,"pad_environment_ids":[7],"language":null,"x_future":{"k":[1,"}"]}}`
	rawPadB = `{"id":"BBBB2222","title":"B","notes":"","drawing":null,"active_environment_id":null,"pad_environment_ids":[],"language":"go"}`
	rawPadC = `{"id":"CCCC3333","title":"C","notes":"n","drawing":"https://app.coderpad.io/CCCC3333/drawing","active_environment_id":9}`
)

// compactJSON is b compacted, for comparing JSON as it came.
func compactJSON(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return buf.String()
}

// rawItems parses padctl's --json list output: one array.
func rawItems(t *testing.T, out string) []string {
	t.Helper()
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(out), &items); err != nil {
		t.Fatalf("not one JSON array: %v\n%s", err, out)
	}
	got := make([]string, len(items))
	for i, it := range items {
		got[i] = compactJSON(t, it)
	}
	return got
}

func TestJSONListAsItCame(t *testing.T) {
	srv := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/pads": func(w http.ResponseWriter, r *http.Request) {
			// The second page is asked for with the link's parameters,
			// at the base URL, though the link names another host.
			if r.URL.Query().Get("page") == "2" {
				if r.URL.Query().Get("cursor") != "c2" {
					cmdtest.Reply(400, `{"status":"ERROR","message":"the cursor is missing"}`)(w, r)
					return
				}
				cmdtest.Reply(200, `{"status":"OK","pads":[`+rawPadC+`],"total":3,"prev_page":"https://elsewhere.example/api/pads?page=1"}`)(w, r)
				return
			}
			cmdtest.Reply(200, `{"status":"OK","pads":[`+rawPadA+`,`+rawPadB+`],"total":3,"next_page":"https://elsewhere.example/api/pads?page=2&cursor=c2"}`)(w, r)
		},
	})
	r := cmdtest.Padctl(t, srv.Env(), "pads", "list", "--json")
	if r.Code != 0 {
		t.Fatalf("exit %d\n%s", r.Code, r.Stderr)
	}
	want := []string{compactJSON(t, []byte(rawPadA)), compactJSON(t, []byte(rawPadB))}
	if got := rawItems(t, r.Stdout); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("one page:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(r.Stdout, `\u003c`) || !strings.Contains(r.Stdout, `"notes": null`) || !strings.Contains(r.Stdout, `"notes": ""`) {
		t.Errorf("the output changed what came:\n%s", r.Stdout)
	}
	if !strings.Contains(r.Stderr, "showing 2 of 3 pads") {
		t.Errorf("stderr: %q", r.Stderr)
	}

	r = cmdtest.Padctl(t, srv.Env(), "pads", "list", "--json", "--all")
	want = append(want, compactJSON(t, []byte(rawPadC)))
	if got := rawItems(t, r.Stdout); r.Code != 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("--all: exit %d\n%s\nwant:\n%s\nstderr: %s", r.Code, strings.Join(got, "\n"), strings.Join(want, "\n"), r.Stderr)
	}
	for _, req := range srv.Requests() {
		if req.Path != "/api/pads" {
			t.Errorf("a request to %s", req.Path)
		}
	}
	r = cmdtest.Padctl(t, srv.Env(), "pads", "list", "--json", "--limit", "1")
	if got := rawItems(t, r.Stdout); r.Code != 0 || len(got) != 1 || got[0] != want[0] {
		t.Errorf("--limit 1: exit %d, %v", r.Code, got)
	}
}

func TestJSONOneAsItCame(t *testing.T) {
	body := `{"status":"OK",` + strings.TrimPrefix(rawPadA, "{")
	srv := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/AAAA1111":      cmdtest.Reply(200, body),
		"GET /api/quota":              cmdtest.Reply(200, `{"status":"OK","pads_used":3,"quota_reset_at":"2026-01-01T00:00:00Z","unlimited":false,"trial_expires_at":null,"overages_enabled":false}`),
		"GET /api/organization/users": cmdtest.Reply(200, `{"status":"OK","users":[{"email":"a@example.com","name":"","teams":null}]}`),
	})
	r := cmdtest.Padctl(t, srv.Env(), "pads", "get", "AAAA1111", "--json")
	if r.Code != 0 || compactJSON(t, []byte(r.Stdout)) != compactJSON(t, []byte(body)) {
		t.Errorf("pads get: exit %d\n%s", r.Code, r.Stdout)
	}
	r = cmdtest.Padctl(t, srv.Env(), "quota", "--json")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"trial_expires_at": null`) || strings.Contains(r.Stdout, "monthly_pad_limit") {
		t.Errorf("quota: exit %d\n%s", r.Code, r.Stdout)
	}
	r = cmdtest.Padctl(t, srv.Env(), "org", "users", "--json")
	if got := rawItems(t, r.Stdout); r.Code != 0 || len(got) != 1 || got[0] != `{"email":"a@example.com","name":"","teams":null}` {
		t.Errorf("org users: exit %d, %v", r.Code, got)
	}
}

// TestJSONWrites: a create prints its answer as it came; an update, which
// live answers with the status alone, prints the pad a GET then sends.
func TestJSONWrites(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	r := cmdtest.Padctl(t, env, "pads", "create", "--title", "T", "--language", "go", "--json")
	var created map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &created); r.Code != 0 || err != nil {
		t.Fatalf("create: exit %d, %v\n%s\n%s", r.Code, err, r.Stdout, r.Stderr)
	}
	if v, ok := created["active_environment_id"]; !ok || v != nil || created["notes"] != nil || created["status"] != "OK" {
		t.Errorf("create, as the fake answered it: %v", created)
	}
	id := created["id"].(string)
	r = cmdtest.Padctl(t, env, "pads", "update", id, "--notes", "", "--json")
	var updated map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &updated); r.Code != 0 || err != nil || updated["notes"] != "" || updated["title"] != "T" {
		t.Errorf("update: exit %d, %v\n%s", r.Code, err, r.Stdout)
	}
	if reqs := srv.Requests(); reqs[len(reqs)-1].Method != "GET" {
		t.Errorf("the update was not read back: %+v", reqs[len(reqs)-1])
	}
}
