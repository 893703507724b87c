package pads_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

func TestPadsCreate(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"POST /api/pads": cmdtest.Reply(200, padJSON("NEW1", "[]"))})
	r := cmdtest.Padctl(t, s.Env(), "pads", "create", "--title", "Interview", "--language", "go", "--contents", "package main",
		"--notes", "n", "--private", "--execution=false", "--owner", "o@example.com")
	cmdtest.Ok(t, r)
	if !strings.HasPrefix(r.Stdout, "NEW1\tTwo Sum\t") {
		t.Errorf("stdout %q", r.Stdout)
	}
	want := url.Values{"title": {"Interview"}, "language": {"go"}, "contents": {"package main"}, "notes": {"n"},
		"private": {"true"}, "execution_enabled": {"false"}, "user_email": {"o@example.com"}}
	if diff := cmp.Diff(want, cmdtest.Form(t, s.Requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}
	r = cmdtest.Padctl(t, s.Env(), "pads", "create", "--question", "12")
	cmdtest.Ok(t, r)
	if diff := cmp.Diff(url.Values{"question_id": {"12"}}, cmdtest.Form(t, s.Requests()[1])); diff != "" {
		t.Errorf("--question: form (-want +got):\n%s", diff)
	}

	// Against the fake: the pad it stores is the one printed, and only the
	// flags given are sent.
	srv, env := cmdtest.Fake(t)
	r = cmdtest.Padctl(t, env, "pads", "create", "--title", "Interview")
	cmdtest.Ok(t, r)
	if pads := srv.Pads(); len(pads) != 1 || !strings.HasPrefix(r.Stdout, string(pads[0].ID)+"\tInterview\t") {
		t.Errorf("stdout %q, pads %+v", r.Stdout, pads)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "pads", "create"))
	reqs := srv.Requests()
	if form := reqs[len(reqs)-1].Form; len(form) != 0 {
		t.Errorf("no flags sent %v", form)
	}
}

func TestPadsCreateOverQuota(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	srv.SetQuota(1, 1)
	r := cmdtest.Padctl(t, env, "pads", "create", "--title", "x")
	if r.Code != cmdutil.ExitOverQuota || r.Stdout != "" || len(srv.Pads()) != 0 {
		t.Fatalf("exit %d, stdout %q, %d pads", r.Code, r.Stdout, len(srv.Pads()))
	}
	if l := cmdtest.Lines(r.Stderr); len(l) != 2 || !strings.HasPrefix(l[0], "padctl: POST /api/pads: 429: ") || !strings.Contains(l[1], "'padctl quota' shows the numbers") {
		t.Errorf("stderr:\n%s", r.Stderr)
	}
}

func TestPadsUpdate(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	p := srv.AddPad(padapi.Pad{Title: "Before"})
	r := cmdtest.Padctl(t, env, "pads", "update", string(p.ID), "--title", "After", "--end", "--private=false")
	cmdtest.Ok(t, r)
	if !strings.HasPrefix(r.Stdout, string(p.ID)+"\tAfter\t") || srv.Pads()[0].EndedAt == nil {
		t.Errorf("stdout %q, pad %+v", r.Stdout, srv.Pads()[0])
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
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"PUT /api/pads/ABC": cmdtest.Reply(200, `{"status":"OK"}`)})
	r := cmdtest.Padctl(t, s.Env(), "pads", "delete", "ABC", "--yes")
	if r.Code != 0 || r.Stdout != "" || r.Stderr != "deleted pad ABC\n" {
		t.Errorf("%+v", r)
	}
	r = cmdtest.Padctl(t, s.Env(), "pads", "delete", "ABC", "--json", "-y")
	cmdtest.Ok(t, r)
	if r.Stdout != "{\n  \"status\": \"OK\"\n}\n" {
		t.Errorf("--json: %q", r.Stdout)
	}
	for _, req := range s.Requests() {
		if req.Method != "PUT" || string(req.Body) != "deleted=true" {
			t.Errorf("request %s %s %q, want PUT deleted=true", req.Method, req.Path, req.Body)
		}
	}
}

// pads delete asks on a terminal, as gh does: only the ID typed back
// deletes; --yes skips the question; without a terminal to ask on, --yes
// is required (exit 2) and nothing is sent.
func TestPadsDeleteConfirms(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"PUT /api/pads/ABC": cmdtest.Reply(200, `{"status":"OK"}`)})
	args := []string{"pads", "delete", "ABC"}
	cmdtest.CheckUsageError(t, args, cmdtest.Padctl(t, s.Env(), args...), "--yes is required")
	for _, answer := range []string{"", "y\n", "ABCD\n", "abc\n"} {
		r := cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true, Stdin: answer}, args...)
		if r.Code != cmdutil.ExitUsage || r.Stdout != "" || r.Stderr != "Delete pad ABC? Type its ID to confirm: padctl: cancelled: pad ABC not deleted\n" {
			t.Errorf("answer %q: %+v", answer, r)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Fatalf("%d requests before a confirmation", n)
	}
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true, Stdin: " ABC \nmore"}, args...)
	if r.Code != 0 || r.Stderr != "Delete pad ABC? Type its ID to confirm: deleted pad ABC\n" || len(s.Requests()) != 1 {
		t.Errorf("confirmed: %+v", r)
	}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true}, "pads", "delete", "ABC", "--yes")
	if r.Code != 0 || r.Stderr != "deleted pad ABC\n" || len(s.Requests()) != 2 {
		t.Errorf("--yes on a terminal: %+v", r)
	}
}

// eventsPage is a page of the event log of pad ABC.
func eventsPage(next string, events ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body := `{"status":"OK","total":3,"events":[` + strings.Join(events, ",") + `]`
		if next != "" && r.URL.Query().Get("page") == "" {
			body += `,"next_page":"http://` + r.Host + `/api/pads/ABC/events?page=` + next + `"`
		}
		cmdtest.Reply(200, body+"}")(w, r)
	}
}

const (
	eventJoined = `{"message":"Ada joined","kind":"joined","metadata":null,"user_name":"Ada","user_email":"ada@example.com","created_at":"2026-05-01T09:00:00Z"}`
	eventRan    = `{"message":"Ada ran the code","kind":"ran","metadata":"python","user_name":"Ada","user_email":null,"created_at":"2026-05-01T09:05:00.5+02:00"}`
	eventLeft   = `{"message":"Ada left","kind":"left","metadata":null,"user_name":"Ada","user_email":"ada@example.com","created_at":"2026-05-01T10:00:00Z"}`
)

func TestPadsEvents(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/pads/ABC/events": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			eventsPage("", eventLeft)(w, r)
			return
		}
		eventsPage("2", eventJoined, eventRan)(w, r)
	}})
	r := cmdtest.Padctl(t, s.Env(), "pads", "events", "ABC")
	want := "2026-05-01T09:00:00Z\tjoined\tAda\tada@example.com\tAda joined\t\n" +
		"2026-05-01T07:05:00Z\tran\tAda\t\tAda ran the code\tpython\n"
	if r.Code != 0 || r.Stdout != want || r.Stderr != "showing 2 of 3 events; --all, --limit N or --page N for more\n" {
		t.Errorf("one page: %+v", r)
	}
	r = cmdtest.Padctl(t, s.Env(), "pads", "events", "ABC", "--all", "--json")
	cmdtest.Ok(t, r)
	var events []padapi.PadEvent
	if err := json.Unmarshal([]byte(r.Stdout), &events); err != nil || len(events) != 3 || events[2].Kind != "left" {
		t.Errorf("--all --json: %v %+v", err, events)
	}
}

const environment7 = `{"status":"OK","id":7,"pad_id":"ABC","question_id":null,"example_question_id":null,"language":"python",
	"file_contents":[{"path":"main.py","contents":"print(1)\n","history":null},{"path":"logo.png","contents":null,"history":null,"binary":true}],
	"created_at":"2026-05-01T09:00:00Z","updated_at":"2026-05-01T10:00:00Z"}`

func TestPadsEnv(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/pad_environments/7": cmdtest.Reply(200, environment7)})
	r := cmdtest.Padctl(t, s.Env(), "pads", "env", "7")
	cmdtest.Ok(t, r)
	if want := "7\tABC\tpython\t2\t2026-05-01T10:00:00Z\n"; r.Stdout != want {
		t.Errorf("piped: %q, want %q", r.Stdout, want)
	}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true}, "pads", "env", "7")
	cmdtest.Ok(t, r)
	if !cmdtest.HasField(r.Stdout, "Pad (internal no.)", "ABC") {
		t.Errorf("on a terminal, pad_id is not labelled as the internal number:\n%s", r.Stdout)
	}
	if !cmdtest.HasField(r.Stdout, "Language", "python") || !cmdtest.HasField(r.Stdout, "Files", "2") {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}
	for _, want := range []string{"\nmain.py:\n    print(1)\n", "\nlogo.png:\n    (binary: not shown)\n"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("on a terminal, no %q in:\n%s", want, r.Stdout)
		}
	}
	r = cmdtest.Padctl(t, s.Env(), "pads", "env", "7", "--json")
	cmdtest.Ok(t, r)
	var env padapi.PadEnvironment
	if err := json.Unmarshal([]byte(r.Stdout), &env); err != nil || env.ID != "7" || len(env.Files) != 2 || !strings.Contains(r.Stdout, `"file_contents"`) {
		t.Errorf("--json: %v %+v\n%s", err, env, r.Stdout)
	}
	// A pad ID where an environment ID belongs: the 404 says what to give.
	r = cmdtest.Padctl(t, s.Env(), "pads", "env", "ABC")
	if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.Contains(l[1], "takes an environment ID, not a pad ID: 'padctl pads get PAD_ID' lists") {
		t.Errorf("a pad ID: %+v", r)
	}
}

// An ID the service does not know: the 404, then where to find the IDs
// there are (pads get, update, delete, events; questions get alike).
func TestNotFoundSaysWhereTheIDsAre(t *testing.T) {
	_, env := cmdtest.Fake(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "get", "NOPE1234"}, "Check the ID: 'padctl pads list' shows your pads."},
		{[]string{"pads", "update", "NOPE1234", "--title", "x"}, "Check the ID: 'padctl pads list' shows your pads."},
		{[]string{"pads", "delete", "NOPE1234", "--yes"}, "Check the ID: 'padctl pads list' shows your pads."},
		{[]string{"pads", "events", "NOPE1234"}, "Check the ID: 'padctl pads list' shows your pads."},
		{[]string{"questions", "get", "999999"}, "Check the ID: 'padctl questions list' shows your questions."},
		// An environment ID: its own advice, not the list's.
		{[]string{"pads", "env", "999999"}, "pads env takes an environment ID, not a pad ID"},
	} {
		r := cmdtest.Padctl(t, env, tc.args...)
		if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.Contains(l[0], "404") || !strings.HasPrefix(l[1], tc.want) {
			t.Errorf("padctl %q: exit %d, stderr:\n%s\nwant a 404, then %q", tc.args, r.Code, r.Stderr, tc.want)
		}
	}
}

// Against the fake: a restricted pad's access list goes as JSON, lands on
// the pad, and --clear-interviewers empties it; a time limit of 0 is
// refused before anything is sent, in padctl's words.
func TestPadsControls(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	r := cmdtest.Padctl(t, env, "pads", "create", "--title", "R", "--interviewer", "ian@example.com", "--restrict-interviewers", "--execution=false")
	cmdtest.Ok(t, r)
	p := srv.Pads()[0]
	reqs := srv.Requests()
	post := reqs[len(reqs)-1]
	if !cmp.Equal(p.AllowedInterviewerEmails, []string{"ian@example.com"}) || !*p.RestrictInterviewerAccess || p.ExecutionEnabled ||
		string(post.JSON) != `{"pad":{"title":"R","execution_enabled":"false","restrict_interviewer_access":true,"allowed_interviewer_emails":["ian@example.com"]}}` {
		t.Errorf("pad %+v after %s", p, post.JSON)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "pads", "update", string(p.ID), "--clear-interviewers", "--owner", "interviewer@example.com"))
	if p := srv.Pads()[0]; p.AllowedInterviewerEmails == nil || len(p.AllowedInterviewerEmails) != 0 || p.OwnerEmail != "interviewer@example.com" {
		t.Errorf("after --clear-interviewers: %+v", p)
	}
	n := len(srv.Requests())
	r = cmdtest.Padctl(t, env, "pads", "create", "--take-home-minutes", "0")
	if r.Code == 0 || !strings.Contains(r.Stderr, "--take-home-minutes must be more than 0") || len(srv.Requests()) != n {
		t.Errorf("--take-home-minutes 0: exit %d, stderr %q, %d requests sent", r.Code, r.Stderr, len(srv.Requests())-n)
	}
}
