package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

func TestQuota(t *testing.T) {
	srv, env := fake(t)
	srv.SetQuota(50, 12)
	r := padctl(t, env, "quota")
	ok(t, r)
	f := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\t")
	if len(f) != 7 || f[0] != "12" || f[1] != "50" || f[2] != "38" || f[3] != "false" {
		t.Errorf("piped: %q", r.stdout)
	}
	r = invoke(t, opts{env: env, tty: true}, "quota")
	ok(t, r)
	for _, f := range [][2]string{{"Used", "12"}, {"Limit", "50"}, {"Remaining", "38"}, {"Unlimited", "no"}} {
		if !hasField(r.stdout, f[0], f[1]) {
			t.Errorf("on a terminal, no %s: %s in:\n%s", f[0], f[1], r.stdout)
		}
	}
	// Unlimited: no limit and nothing remaining to show, not zeros.
	srv.SetUnlimited()
	r = padctl(t, env, "quota")
	ok(t, r)
	if f := strings.Split(r.stdout, "\t"); len(f) != 7 || f[1] != "" || f[2] != "" || f[3] != "true" {
		t.Errorf("unlimited, piped: %q", r.stdout)
	}
}

func TestPadsCreate(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"POST /api/pads": reply(200, padJSON("NEW1", "[]"))})
	r := padctl(t, s.env(), "pads", "create", "--title", "Interview", "--language", "go", "--contents", "package main",
		"--notes", "n", "--private", "--execution=false", "--owner", "o@example.com")
	ok(t, r)
	if !strings.HasPrefix(r.stdout, "NEW1\tTwo Sum\t") {
		t.Errorf("stdout %q", r.stdout)
	}
	want := url.Values{"title": {"Interview"}, "language": {"go"}, "contents": {"package main"}, "notes": {"n"},
		"private": {"true"}, "execution_enabled": {"false"}, "user_email": {"o@example.com"}}
	if diff := cmp.Diff(want, form(t, s.requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}
	r = padctl(t, s.env(), "pads", "create", "--question", "12")
	ok(t, r)
	if diff := cmp.Diff(url.Values{"question_id": {"12"}}, form(t, s.requests()[1])); diff != "" {
		t.Errorf("--question: form (-want +got):\n%s", diff)
	}

	// Against the fake: the pad it stores is the one printed, and only the
	// flags given are sent.
	srv, env := fake(t)
	r = padctl(t, env, "pads", "create", "--title", "Interview")
	ok(t, r)
	if pads := srv.Pads(); len(pads) != 1 || !strings.HasPrefix(r.stdout, string(pads[0].ID)+"\tInterview\t") {
		t.Errorf("stdout %q, pads %+v", r.stdout, pads)
	}
	ok(t, padctl(t, env, "pads", "create"))
	reqs := srv.Requests()
	if form := reqs[len(reqs)-1].Form; len(form) != 0 {
		t.Errorf("no flags sent %v", form)
	}
}

func TestPadsCreateOverQuota(t *testing.T) {
	srv, env := fake(t)
	srv.SetQuota(1, 1)
	r := padctl(t, env, "pads", "create", "--title", "x")
	if r.code != exitOverQuota || r.stdout != "" || len(srv.Pads()) != 0 {
		t.Fatalf("exit %d, stdout %q, %d pads", r.code, r.stdout, len(srv.Pads()))
	}
	if l := lines(r.stderr); len(l) != 2 || !strings.HasPrefix(l[0], "padctl: POST /api/pads: 429: ") || !strings.Contains(l[1], "'padctl quota' shows the numbers") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

func TestPadsUpdate(t *testing.T) {
	srv, env := fake(t)
	p := srv.AddPad(padapi.Pad{Title: "Before"})
	r := padctl(t, env, "pads", "update", string(p.ID), "--title", "After", "--end", "--private=false")
	ok(t, r)
	if !strings.HasPrefix(r.stdout, string(p.ID)+"\tAfter\t") || srv.Pads()[0].EndedAt == nil {
		t.Errorf("stdout %q, pad %+v", r.stdout, srv.Pads()[0])
	}
	// The live PUT answers the status alone, so the library reads the pad
	// back: the PUT is the request before last.
	reqs := srv.Requests()
	put := reqs[len(reqs)-2]
	want := url.Values{"title": {"After"}, "ended": {"true"}, "private": {"false"}}
	if diff := cmp.Diff(want, put.Form); put.Method != "PUT" || diff != "" {
		t.Errorf("%s form (-want +got):\n%s", put.Method, diff)
	}
}

func TestPadsDelete(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"PUT /api/pads/ABC": reply(200, `{"status":"OK"}`)})
	r := padctl(t, s.env(), "pads", "delete", "ABC")
	if r.code != 0 || r.stdout != "" || r.stderr != "deleted pad ABC\n" {
		t.Errorf("%+v", r)
	}
	r = padctl(t, s.env(), "pads", "delete", "ABC", "--json")
	ok(t, r)
	if r.stdout != "{\n  \"status\": \"OK\"\n}\n" {
		t.Errorf("--json: %q", r.stdout)
	}
	for _, req := range s.requests() {
		if req.method != "PUT" || string(req.body) != "deleted=true" {
			t.Errorf("request %s %s %q, want PUT deleted=true", req.method, req.path, req.body)
		}
	}
}

// eventsPage is a page of the event log of pad ABC.
func eventsPage(next string, events ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := `{"status":"OK","total":3,"events":[` + strings.Join(events, ",") + `]`
		if next != "" && r.URL.Query().Get("page") == "" {
			body += `,"next_page":"http://` + r.Host + `/api/pads/ABC/events?page=` + next + `"`
		}
		reply(200, body+"}")(w, r)
	}
}

const (
	eventJoined = `{"message":"Ada joined","kind":"joined","metadata":null,"user_name":"Ada","user_email":"ada@example.com","created_at":"2026-05-01T09:00:00Z"}`
	eventRan    = `{"message":"Ada ran the code","kind":"ran","metadata":"python","user_name":"Ada","user_email":null,"created_at":"2026-05-01T09:05:00.5+02:00"}`
	eventLeft   = `{"message":"Ada left","kind":"left","metadata":null,"user_name":"Ada","user_email":"ada@example.com","created_at":"2026-05-01T10:00:00Z"}`
)

func TestPadsEvents(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/pads/ABC/events": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			eventsPage("", eventLeft)(w, r)
			return
		}
		eventsPage("2", eventJoined, eventRan)(w, r)
	}})
	r := padctl(t, s.env(), "pads", "events", "ABC")
	want := "2026-05-01T09:00:00Z\tjoined\tAda\tada@example.com\tAda joined\t\n" +
		"2026-05-01T07:05:00Z\tran\tAda\t\tAda ran the code\tpython\n"
	if r.code != 0 || r.stdout != want || r.stderr != "showing 2 of 3 events; --all, --limit N or --page N for more\n" {
		t.Errorf("one page: %+v", r)
	}
	r = padctl(t, s.env(), "pads", "events", "ABC", "--all", "--json")
	ok(t, r)
	var events []padapi.PadEvent
	if err := json.Unmarshal([]byte(r.stdout), &events); err != nil || len(events) != 3 || events[2].Kind != "left" {
		t.Errorf("--all --json: %v %+v", err, events)
	}
}

const environment7 = `{"status":"OK","id":7,"pad_id":"ABC","question_id":null,"example_question_id":null,"language":"python",
	"file_contents":[{"path":"main.py","contents":"print(1)\n","history":null},{"path":"logo.png","contents":null,"history":null,"binary":true}],
	"created_at":"2026-05-01T09:00:00Z","updated_at":"2026-05-01T10:00:00Z"}`

func TestPadsEnv(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/pad_environments/7": reply(200, environment7)})
	r := padctl(t, s.env(), "pads", "env", "7")
	ok(t, r)
	if want := "7\tABC\tpython\t2\t2026-05-01T10:00:00Z\n"; r.stdout != want {
		t.Errorf("piped: %q, want %q", r.stdout, want)
	}
	r = invoke(t, opts{env: s.env(), tty: true}, "pads", "env", "7")
	ok(t, r)
	for _, want := range []string{"Language:  python\n", "Files:     2\n", "\nmain.py:\n    print(1)\n", "\nlogo.png:\n    (binary: not shown)\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("on a terminal, no %q in:\n%s", want, r.stdout)
		}
	}
	r = padctl(t, s.env(), "pads", "env", "7", "--json")
	ok(t, r)
	var env padapi.PadEnvironment
	if err := json.Unmarshal([]byte(r.stdout), &env); err != nil || env.ID != "7" || len(env.Files) != 2 || !strings.Contains(r.stdout, `"file_contents"`) {
		t.Errorf("--json: %v %+v\n%s", err, env, r.stdout)
	}
}
