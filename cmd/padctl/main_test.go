package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// testKey is distinctive so that a leak into any output cannot be missed.
const testKey = "padctl-secret-Qz7Xw9Kp3Lm"

// result is what one run of padctl gave.
type result struct {
	code           int
	stdout, stderr string
}

func newServer(t *testing.T) *padapitest.Server {
	t.Helper()
	return padapitest.NewServer(t, padapitest.WithAPIKey(testKey))
}

// envFor is the environment pointing padctl at srv.
func envFor(srv *padapitest.Server) map[string]string {
	return map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": testKey}
}

// padctl runs the command in-process against srv and fails the test if any
// API key shows up in its output.
func padctl(t *testing.T, srv *padapitest.Server, args ...string) result {
	t.Helper()
	return runWith(t, context.Background(), envFor(srv), args...)
}

func runWith(t *testing.T, ctx context.Context, env map[string]string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, &stdout, &stderr, func(k string) string { return env[k] })
	r := result{code, stdout.String(), stderr.String()}
	for _, key := range []string{testKey, wrongKey, padapitest.DefaultAPIKey} {
		if strings.Contains(r.stdout, key) || strings.Contains(r.stderr, key) {
			t.Errorf("padctl %q printed an API key:\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
		}
	}
	return r
}

// ok checks that r succeeded with nothing on stderr.
func ok(t *testing.T, r result) {
	t.Helper()
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func decode[T any](t *testing.T, r result) T {
	t.Helper()
	ok(t, r)
	var v T
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
		t.Fatalf("--json output does not decode into %T: %v\n%s", v, err, r.stdout)
	}
	return v
}

// equateEmpty: JSON cannot tell a nil slice from an empty one the fake
// stored, and neither can a caller.
var equateEmpty = cmpopts.EquateEmpty()

var (
	t0 = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	// addPads stores three pads with fixed IDs and times, one ended.
	testPads = []padapi.Pad{
		{ID: "AAAA1111", Title: "Backend screen", Language: "go", OwnerEmail: "owner@example.com",
			Participants: []string{"Ada"}, Contents: "package main\n", Notes: "good\nhire",
			CreatedAt: t0, UpdatedAt: t0.Add(3 * time.Hour), EndedAt: padapi.Ptr(t0.Add(time.Hour))},
		{ID: "BBBB2222", Title: "Frontend\tscreen\x1b[2J", Language: "javascript", OwnerEmail: "interviewer@example.com",
			CreatedAt: t0.Add(time.Hour), UpdatedAt: t0.Add(time.Hour)},
		{ID: "CCCC3333", Title: "Untitled", Language: "python", CreatedAt: t0.Add(2 * time.Hour), UpdatedAt: t0.Add(2 * time.Hour)},
	}
)

func addPads(srv *padapitest.Server) {
	for _, p := range testPads {
		srv.AddPad(p)
	}
}

func TestHelpListsEveryCommand(t *testing.T) {
	want := []string{
		"quota", "pads list", "pads get", "pads create", "pads update",
		"questions list", "questions get", "questions create", "questions update", "questions delete",
		"org", "org stats", "org pads", "org questions", "help", "version",
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"--help"}} {
		r := runWith(t, context.Background(), nil, args...)
		ok(t, r)
		for _, name := range want {
			if !regexp.MustCompile(`(?m)^  ` + name + `  `).MatchString(r.stdout) {
				t.Errorf("padctl %s does not list %q:\n%s", args[0], name, r.stdout)
			}
		}
		for _, s := range []string{"--base-url", "--api-key", "--fake", "--json", "PAD_API_KEY", "PAD_BASE_URL", "3 over quota", "4 outcome unknown"} {
			if !strings.Contains(r.stdout, s) {
				t.Errorf("padctl %s does not mention %q", args[0], s)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	r := runWith(t, context.Background(), nil, "version")
	ok(t, r)
	if !strings.HasPrefix(r.stdout, "padctl "+padapi.Version+" ") {
		t.Errorf("version = %q, want it to start with padctl %s", r.stdout, padapi.Version)
	}
}

func TestQuota(t *testing.T) {
	future := time.Now().UTC().AddDate(0, 1, 0).Truncate(24 * time.Hour)
	past := time.Now().UTC().AddDate(0, -1, 0).Truncate(24 * time.Hour)
	tests := []struct {
		name  string
		setup func(*padapitest.Server)
		want  string
	}{
		{"limited, reset ahead", func(s *padapitest.Server) { s.SetQuota(50, 12); s.SetQuotaResetAt(future) },
			fmt.Sprintf("12 of 50 pads used, 38 left, resets %s\n", future.Format(time.DateOnly))},
		{"limited, last reset", func(s *padapitest.Server) { s.SetQuota(50, 50); s.SetQuotaResetAt(past) },
			fmt.Sprintf("50 of 50 pads used, 0 left, last reset %s\n", past.Format(time.DateOnly))},
		{"unlimited", func(s *padapitest.Server) { s.SetQuota(50, 12); s.SetUnlimited(); s.SetQuotaResetAt(past) },
			fmt.Sprintf("unlimited plan, 12 pads used, last reset %s\n", past.Format(time.DateOnly))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			tt.setup(srv)
			r := padctl(t, srv, "quota")
			ok(t, r)
			if r.stdout != tt.want {
				t.Errorf("stdout = %q, want %q", r.stdout, tt.want)
			}
			got := decode[padapi.Quota](t, padctl(t, srv, "--json", "quota"))
			if diff := cmp.Diff(srv.Quota(), got); diff != "" {
				t.Errorf("--json quota differs from the fake's (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPadsList(t *testing.T) {
	srv := newServer(t)
	addPads(srv)

	r := padctl(t, srv, "pads", "list", "--sort", "created,asc")
	ok(t, r)
	// The tab and the escape sequence in a title become spaces: they must
	// neither break the columns nor reach the terminal.
	want := `ID        TITLE                LANGUAGE    OWNER                    UPDATED (UTC)     STATE
AAAA1111  Backend screen       go          owner@example.com        2026-05-01 12:00  ended
BBBB2222  Frontend screen [2J  javascript  interviewer@example.com  2026-05-01 10:00  open
CCCC3333  Untitled             python                               2026-05-01 11:00  open
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}

	got := decode[[]padapi.Pad](t, padctl(t, srv, "--json", "pads", "list", "--sort", "created,asc"))
	if diff := cmp.Diff(srv.Pads(), got, equateEmpty); diff != "" {
		t.Errorf("--json pads list differs from the fake's pads (-want +got):\n%s", diff)
	}

	empty := newServer(t)
	if r := padctl(t, empty, "pads", "list"); r.stdout != "no pads\n" {
		t.Errorf("empty list printed %q", r.stdout)
	}
	if r := padctl(t, empty, "--json", "pads", "list"); r.stdout != "[]\n" {
		t.Errorf("empty --json list printed %q, want []", r.stdout)
	}
}

func TestPadsListSort(t *testing.T) {
	srv := newServer(t)
	for arg, want := range map[string]padapi.Sort{
		"created": padapi.SortCreatedDesc, "created,asc": padapi.SortCreatedAsc, "created,desc": padapi.SortCreatedDesc,
		"updated": padapi.SortUpdatedDesc, "updated,asc": padapi.SortUpdatedAsc, "updated_at,desc": padapi.SortUpdatedDesc,
	} {
		ok(t, padctl(t, srv, "pads", "list", "--sort", arg))
		reqs := srv.Requests()
		if got := reqs[len(reqs)-1].Query.Get("sort"); got != string(want) {
			t.Errorf("--sort %s sent sort=%q, want %q", arg, got, want)
		}
	}
}

func TestPadsListPaging(t *testing.T) {
	srv := newServer(t)
	for i := range 120 {
		srv.AddPad(padapi.Pad{Title: fmt.Sprintf("pad %d", i), CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	all := srv.Pads()
	count := func() int {
		n := 0
		for _, r := range srv.Requests() {
			if r.Method == "GET" && r.Path == "/api/pads" {
				n++
			}
		}
		return n
	}

	r := padctl(t, srv, "pads", "list")
	ok(t, r)
	if !strings.HasSuffix(r.stdout, "showing 50 of 120 pads; --all, --limit N or --page N for more\n") {
		t.Errorf("first page does not say there is more:\n%s", r.stdout)
	}
	if n := strings.Count(r.stdout, "\n"); n != 52 { // header, 50 pads, footer
		t.Errorf("first page has %d lines, want 52", n)
	}

	const more = "showing 50 of 120 pads; --all, --limit N or --page N for more\n"
	tests := []struct {
		args     []string
		want     []padapi.Pad
		requests int
		stderr   string
	}{
		{[]string{"--sort", "created,asc"}, all[:50], 1, more},
		{[]string{"--sort", "created,asc", "--page", "3"}, all[100:], 1, ""},
		{[]string{"--sort", "created,asc", "--all"}, all, 3, ""},
		{[]string{"--sort", "created,asc", "--limit", "60"}, all[:60], 2, ""},
		{[]string{"--sort", "created,asc", "--all", "--limit", "10"}, all[:10], 1, ""},
	}
	for _, tt := range tests {
		before := count()
		r := padctl(t, srv, append([]string{"--json", "pads", "list"}, tt.args...)...)
		// Only the note that a page is not all; no progress off a terminal.
		if r.stderr != tt.stderr {
			t.Errorf("pads list %q: stderr %q, want %q", tt.args, r.stderr, tt.stderr)
		}
		r.stderr = "" // checked above
		got := decode[[]padapi.Pad](t, r)
		if diff := cmp.Diff(tt.want, got, equateEmpty); diff != "" {
			t.Errorf("pads list %q (-want +got):\n%s", tt.args, diff)
		}
		if n := count() - before; n != tt.requests {
			t.Errorf("pads list %q fetched %d pages, want %d", tt.args, n, tt.requests)
		}
	}
}

func TestPadsGet(t *testing.T) {
	srv := newServer(t)
	addPads(srv)

	r := padctl(t, srv, "pads", "get", "AAAA1111")
	ok(t, r)
	for _, line := range []string{
		"ID:            AAAA1111\n",
		"Title:         Backend screen\n",
		"State:         ended at 2026-05-01 10:00:00 UTC\n",
		"Participants:  Ada\n",
		"\nNotes:\n    good\n    hire\n",
		"\nContents:\n    package main\n",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("pads get lacks %q:\n%s", line, r.stdout)
		}
	}

	got := decode[padapi.Pad](t, padctl(t, srv, "--json", "pads", "get", "BBBB2222"))
	if diff := cmp.Diff(srv.Pads()[1], got, equateEmpty); diff != "" {
		t.Errorf("--json pads get (-want +got):\n%s", diff)
	}
}

func TestPadsGetNotFound(t *testing.T) {
	srv := newServer(t)
	r := padctl(t, srv, "pads", "get", "NOPE")
	want := result{code: 1, stderr: "padctl: GET /api/pads/NOPE: 404 Not Found: Pad not found\n"}
	if diff := cmp.Diff(want, r, cmp.AllowUnexported(result{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPadsCreate(t *testing.T) {
	srv := newServer(t)
	r := padctl(t, srv, "pads", "create", "--title", "Screen", "--language", "go", "--private")
	ok(t, r)
	pads := srv.Pads()
	if len(pads) != 1 {
		t.Fatalf("the fake holds %d pads, want 1", len(pads))
	}
	p := pads[0]
	if p.Title != "Screen" || p.Language != "go" || !p.Private {
		t.Errorf("created pad = %+v", p)
	}
	if !strings.Contains(r.stdout, "ID:         "+p.ID+"\n") || !strings.Contains(r.stdout, "Private:    yes\n") {
		t.Errorf("pads create printed:\n%s", r.stdout)
	}
	// Only the flags given are sent: the service's defaults stay in charge
	// of the rest.
	reqs := srv.Requests()
	wantForm := url.Values{"title": {"Screen"}, "language": {"go"}, "private": {"true"}}
	if diff := cmp.Diff(wantForm, reqs[len(reqs)-1].Form); diff != "" {
		t.Errorf("form sent (-want +got):\n%s", diff)
	}

	q := srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Contents: "def f(): pass"})
	got := decode[padapi.Pad](t, padctl(t, srv, "--json", "pads", "create", "--question", string(q.ID), "--owner", "interviewer@example.com"))
	if diff := cmp.Diff(srv.Pads()[1], got, equateEmpty); diff != "" {
		t.Errorf("--json pads create (-want +got):\n%s", diff)
	}
	if got.Contents != q.Contents || got.OwnerEmail != "interviewer@example.com" {
		t.Errorf("pad from question = %+v", got)
	}
}

func TestPadsCreateOverQuota(t *testing.T) {
	srv := newServer(t)
	srv.SetQuota(1, 1)
	r := padctl(t, srv, "pads", "create", "--title", "one too many")
	if r.code != 3 || r.stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 3 and nothing", r.code, r.stdout)
	}
	for _, s := range []string{"over quota", "nothing was created", "429 Too Many Requests: Over quota", "padctl quota"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
		}
	}
	if n := len(srv.Pads()); n != 0 {
		t.Errorf("the fake holds %d pads, want 0", n)
	}
}

func TestCreateOutcomeUnknown(t *testing.T) {
	tests := []struct {
		name        string
		fault       func(*padapitest.Server)
		args        []string
		list        string
		wantCreated int
	}{
		{"dropped pad", func(s *padapitest.Server) { s.DropNext("POST /api/pads", 1) },
			[]string{"pads", "create", "--title", "x"}, "padctl pads list", 1},
		{"pad 502", func(s *padapitest.Server) { s.FailNext("POST /api/pads", 1, 502, "<html>Bad Gateway</html>") },
			[]string{"pads", "create", "--title", "x"}, "padctl pads list", 0},
		{"dropped question", func(s *padapitest.Server) { s.DropNext("POST /api/questions", 1) },
			[]string{"questions", "create", "--title", "x"}, "padctl questions list", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t)
			tt.fault(srv)
			r := padctl(t, srv, tt.args...)
			if r.code != 4 || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q; want 4 and nothing\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			noun := strings.TrimSuffix(tt.args[0], "s")
			for _, s := range []string{"no definite answer", "the " + noun + " may or may not have been created", `"` + tt.list + `" before retrying`} {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			// Why the message matters: after a drop the create did happen.
			if n := len(srv.Pads()) + len(srv.Questions()); n != tt.wantCreated {
				t.Errorf("the fake holds %d created items, want %d", n, tt.wantCreated)
			}
		})
	}
}

func TestPadsUpdate(t *testing.T) {
	srv := newServer(t)
	addPads(srv)
	// Flags may come after the ID or before it.
	for _, args := range [][]string{
		{"pads", "update", "BBBB2222", "--notes", "strong", "--end"},
		{"pads", "update", "--notes", "strong", "--end", "BBBB2222"},
	} {
		r := padctl(t, srv, args...)
		ok(t, r)
		if !strings.Contains(r.stdout, "\nNotes:\n    strong\n") || !regexp.MustCompile(`(?m)^State: +ended at `).MatchString(r.stdout) {
			t.Errorf("padctl %q printed:\n%s", args, r.stdout)
		}
		reqs := srv.Requests()
		last := reqs[len(reqs)-1]
		if last.Method != "PUT" || last.Path != "/api/pads/BBBB2222" {
			t.Errorf("sent %s %s", last.Method, last.Path)
		}
		if diff := cmp.Diff(url.Values{"notes": {"strong"}, "ended": {"true"}}, last.Form); diff != "" {
			t.Errorf("form sent (-want +got):\n%s", diff)
		}
	}
	p := srv.Pads()[1]
	if p.Notes != "strong" || p.EndedAt == nil || p.Title != testPads[1].Title {
		t.Errorf("updated pad = %+v", p)
	}

	got := decode[padapi.Pad](t, padctl(t, srv, "--json", "pads", "update", "CCCC3333", "--title", "Renamed", "--private=false"))
	if diff := cmp.Diff(srv.Pads()[2], got, equateEmpty); diff != "" {
		t.Errorf("--json pads update (-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	if diff := cmp.Diff(url.Values{"title": {"Renamed"}, "private": {"false"}}, reqs[len(reqs)-1].Form); diff != "" {
		t.Errorf("form sent (-want +got):\n%s", diff)
	}
}

func TestQuestions(t *testing.T) {
	srv := newServer(t)
	srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", AuthorName: "Olivia", Used: 3,
		Description: "Find two numbers.", CreatedAt: t0, UpdatedAt: t0})
	srv.AddQuestion(padapi.Question{Title: "LRU Cache", Language: "java", CreatedAt: t0.Add(time.Hour), UpdatedAt: t0.Add(time.Hour)})

	r := padctl(t, srv, "questions", "list")
	ok(t, r)
	want := `ID  TITLE      LANGUAGE  AUTHOR  USED  UPDATED (UTC)
2   LRU Cache  java              0     2026-05-01 10:00
1   Two Sum    python    Olivia  3     2026-05-01 09:00
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("questions list (-want +got):\n%s", diff)
	}
	list := decode[[]padapi.Question](t, padctl(t, srv, "--json", "questions", "list", "--sort", "created,asc"))
	if diff := cmp.Diff(srv.Questions(), list, equateEmpty); diff != "" {
		t.Errorf("--json questions list (-want +got):\n%s", diff)
	}

	r = padctl(t, srv, "questions", "get", "1")
	ok(t, r)
	for _, s := range []string{"ID:        1\n", "Title:     Two Sum\n", "Author:    Olivia\n", "\nDescription:\n    Find two numbers.\n"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("questions get lacks %q:\n%s", s, r.stdout)
		}
	}
	one := decode[padapi.Question](t, padctl(t, srv, "--json", "questions", "get", "2"))
	if diff := cmp.Diff(srv.Questions()[1], one, equateEmpty); diff != "" {
		t.Errorf("--json questions get (-want +got):\n%s", diff)
	}

	created := decode[padapi.Question](t, padctl(t, srv, "--json", "questions", "create", "--title", "Graphs", "--language", "go", "--shared"))
	if diff := cmp.Diff(srv.Questions()[2], created, equateEmpty); diff != "" {
		t.Errorf("--json questions create (-want +got):\n%s", diff)
	}
	if created.Title != "Graphs" || created.Language != "go" || !created.Shared {
		t.Errorf("created question = %+v", created)
	}

	r = padctl(t, srv, "questions", "update", string(created.ID), "--solution", "BFS")
	ok(t, r)
	if !strings.Contains(r.stdout, "\nSolution:\n    BFS\n") {
		t.Errorf("questions update printed:\n%s", r.stdout)
	}
	reqs := srv.Requests()
	if diff := cmp.Diff(url.Values{"solution": {"BFS"}}, reqs[len(reqs)-1].Form); diff != "" {
		t.Errorf("update form (-want +got):\n%s", diff)
	}
	if q := srv.Questions()[2]; q.Solution != "BFS" || q.Title != "Graphs" {
		t.Errorf("updated question = %+v", q)
	}

	r = padctl(t, srv, "questions", "delete", "1")
	ok(t, r)
	if r.stdout != "deleted question 1\n" {
		t.Errorf("delete printed %q", r.stdout)
	}
	r = padctl(t, srv, "--json", "questions", "delete", "2")
	if got := decode[map[string]string](t, r); got["status"] != "OK" {
		t.Errorf("--json delete printed %q", r.stdout)
	}
	if qs := srv.Questions(); len(qs) != 1 || qs[0].ID != created.ID {
		t.Errorf("after deletes the fake holds %+v", qs)
	}
	if r := padctl(t, srv, "questions", "delete", "1"); r.code != 1 || !strings.Contains(r.stderr, "404 Not Found") {
		t.Errorf("deleting again: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestOrg(t *testing.T) {
	srv := newServer(t)
	org := padapi.Organization{
		ID: "7", Name: "Acme", UserCount: 2, DefaultLanguage: "go",
		Users: []padapi.OrganizationUser{
			{Email: "a@acme.test", Name: "Ann", Teams: []string{"core"}},
			{Email: "b@acme.test", Name: "Bob"},
		},
		SingleSignOnSupported: true, SingleSignInURL: "https://sso.acme.test/",
	}
	srv.SetOrganization(org)

	r := padctl(t, srv, "org")
	ok(t, r)
	want := `Name:              Acme
Users:             2
Default language:  go
Single sign-on:    yes (https://sso.acme.test/)

EMAIL        NAME  TEAMS
a@acme.test  Ann   core
b@acme.test  Bob   
`
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("org (-want +got):\n%s", diff)
	}
	got := decode[padapi.Organization](t, padctl(t, srv, "--json", "org"))
	if diff := cmp.Diff(org, got, equateEmpty); diff != "" {
		t.Errorf("--json org (-want +got):\n%s", diff)
	}
}

func TestOrgStats(t *testing.T) {
	srv := newServer(t)
	addPads(srv) // created at t0, t0+1h, t0+2h
	start, end := t0.Add(30*time.Minute), t0.Add(3*time.Hour)

	r := padctl(t, srv, "org", "stats", "--start", start.Format(time.RFC3339), "--end", end.Format(time.RFC3339))
	ok(t, r)
	want := `2 pads created from 2026-05-01 09:30:00 UTC to 2026-05-01 12:00:00 UTC

EMAIL                    NAME             PADS
interviewer@example.com  Ian Interviewer  1
`
	// The window holds BBBB2222 (Ian's) and CCCC3333, which has no owner
	// and so counts in the total only.
	if diff := cmp.Diff(want, r.stdout); diff != "" {
		t.Errorf("org stats (-want +got):\n%s", diff)
	}

	got := decode[padapi.OrganizationStats](t, padctl(t, srv, "--json", "org", "stats",
		"--start", start.Format(time.RFC3339), "--end", end.Format(time.RFC3339)))
	wantStats, err := srv.Client().Organization.Stats(context.Background(), &padapi.StatsOptions{Start: start, End: end})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(*wantStats, got, equateEmpty); diff != "" {
		t.Errorf("--json org stats (-want +got):\n%s", diff)
	}
	if got.PadsCreated != 2 {
		t.Errorf("pads created = %d, want 2", got.PadsCreated)
	}

	// Without a window: the service's default, no query sent.
	ok(t, padctl(t, srv, "org", "stats"))
	reqs := srv.Requests()
	if q := reqs[len(reqs)-1].Query; q != nil {
		t.Errorf("org stats without flags sent query %v", q)
	}
}

func TestOrgLists(t *testing.T) {
	srv := newServer(t)
	srv.Seed(4)
	pads := decode[[]padapi.Pad](t, padctl(t, srv, "--json", "org", "pads", "--sort", "created,asc", "--all"))
	if diff := cmp.Diff(srv.Pads(), pads, equateEmpty); diff != "" {
		t.Errorf("--json org pads (-want +got):\n%s", diff)
	}
	qs := decode[[]padapi.Question](t, padctl(t, srv, "--json", "org", "questions", "--sort", "created,asc"))
	if diff := cmp.Diff(srv.Questions(), qs, equateEmpty); diff != "" {
		t.Errorf("--json org questions (-want +got):\n%s", diff)
	}
	for _, args := range [][]string{{"org", "pads"}, {"org", "questions"}} {
		r := padctl(t, srv, args...)
		ok(t, r)
		if n := strings.Count(r.stdout, "\n"); n != 5 {
			t.Errorf("padctl %q printed %d lines, want a header and 4 rows:\n%s", args, n, r.stdout)
		}
	}
	paths := map[string]bool{}
	for _, r := range srv.Requests() {
		paths[r.Path] = true
	}
	if !paths["/api/organization/pads"] || !paths["/api/organization/questions"] || paths["/api/pads"] {
		t.Errorf("org lists requested %v", paths)
	}
}

func TestUsageErrors(t *testing.T) {
	srv := newServer(t)
	for _, args := range [][]string{
		{},
		{"--nope", "quota"},
		{"frobnicate"},
		{"pads"},
		{"pads", "frobnicate"},
		{"pads", "get"},
		{"pads", "get", "A", "B"},
		{"pads", "update", "AAAA1111"},
		{"pads", "update", "--title", "x"},
		{"pads", "list", "--sort", "title"},
		{"pads", "list", "--sort", "created,up"},
		{"pads", "list", "--limit", "-1"},
		{"pads", "list", "--limit", "ten"},
		{"pads", "create", "--contents", "x", "--question", "1"},
		{"pads", "create", "--bogus"},
		{"questions", "get"},
		{"questions", "update", "1"},
		{"questions", "delete"},
		{"org", "stats", "--start", "2026-05-01T00:00:00Z"},
		{"org", "stats", "--start", "yesterday", "--end", "2026-05-01T00:00:00Z"},
		{"org", "stats", "--start", "2026-05-02T00:00:00Z", "--end", "2026-05-01T00:00:00Z"},
		{"org", "extra"},
		{"quota", "extra"},
		{"quota", "--json"}, // global flags go before the command
		{"--base-url", "ftp://example.com", "quota"},
	} {
		r := padctl(t, srv, args...)
		if r.code != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, "padctl: ") {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 2, nothing, a message", args, r.code, r.stdout, r.stderr)
		}
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("usage errors sent %d requests, want none", len(reqs))
	}

	// A command's usage line comes with its errors.
	r := padctl(t, srv, "pads", "get")
	if want := "padctl: pads get needs an ID\nusage: padctl pads get ID\n"; r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
	// -h on a command is help, not an error.
	r = padctl(t, srv, "pads", "list", "-h")
	ok(t, r)
	if !strings.Contains(r.stdout, "usage: padctl pads list") || !strings.Contains(r.stdout, "-limit N") {
		t.Errorf("pads list -h printed:\n%s", r.stdout)
	}
}

func TestConfiguration(t *testing.T) {
	srv := newServer(t)
	srv.SetQuota(10, 1)

	// No key anywhere: a usage error that says where a key comes from.
	r := runWith(t, context.Background(), map[string]string{"PAD_BASE_URL": srv.URL}, "quota")
	if r.code != 2 || !strings.Contains(r.stderr, "PAD_API_KEY") {
		t.Errorf("without a key: exit %d, stderr %q", r.code, r.stderr)
	}

	// Flags override the environment.
	env := map[string]string{"PAD_BASE_URL": "http://127.0.0.1:1", "PAD_API_KEY": wrongKey}
	r = runWith(t, context.Background(), env, "--base-url", srv.URL, "--api-key", testKey, "quota")
	ok(t, r)
	if !strings.HasPrefix(r.stdout, "1 of 10 pads used") {
		t.Errorf("stdout = %q", r.stdout)
	}
}

// wrongKey is a key the fake refuses; it must not be printed either.
const wrongKey = "padctl-wrong-Hj4Rt8Vn2Bq"

func TestUnauthorized(t *testing.T) {
	srv := newServer(t)
	for _, args := range [][]string{
		{"--api-key", wrongKey, "quota"},
		{"--api-key", wrongKey, "pads", "create", "--title", "x"},
	} {
		r := padctl(t, srv, args...)
		if r.code != 1 || r.stdout != "" {
			t.Errorf("padctl %q: exit %d, stdout %q; want 1, nothing", args, r.code, r.stdout)
		}
		for _, s := range []string{"401 Unauthorized: Invalid API key", "check PAD_API_KEY"} {
			if !strings.Contains(r.stderr, s) {
				t.Errorf("padctl %q: stderr lacks %q:\n%s", args, s, r.stderr)
			}
		}
	}
	// The fake's own record of the requests holds no key either.
	for _, req := range srv.Requests() {
		if got := req.Header.Get("Authorization"); strings.Contains(got, wrongKey) {
			t.Errorf("recorded Authorization %q", got)
		}
	}
}

func TestInterrupt(t *testing.T) {
	srv := newServer(t)
	// A request in flight is cancelled: the fake would answer in a minute.
	srv.Delay("GET /api/quota", time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	r := runWith(t, ctx, envFor(srv), "quota")
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("cancelled run took %v", elapsed)
	}
	if r.code != exitInterrupted || r.stderr != "padctl: interrupted\n" || r.stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and interrupted", r.code, r.stdout, r.stderr, exitInterrupted)
	}

	// A create cancelled in flight may have happened: that is the news.
	srv.Delay("POST /api/pads", time.Minute)
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	r = runWith(t, ctx, envFor(srv), "pads", "create")
	if r.code != exitUnknown || !strings.Contains(r.stderr, "padctl pads list") {
		t.Errorf("cancelled create: exit %d, stderr %q; want %d", r.code, r.stderr, exitUnknown)
	}
}

func TestFake(t *testing.T) {
	r := runWith(t, context.Background(), nil, "--fake", "quota")
	ok(t, r)
	if !regexp.MustCompile(`^12 of 50 pads used, 38 left, (resets|last reset) \d{4}-\d\d-\d\d\n$`).MatchString(r.stdout) {
		t.Errorf("--fake quota = %q", r.stdout)
	}
	// --fake ignores the configured service and key.
	env := map[string]string{"PAD_BASE_URL": "http://127.0.0.1:1", "PAD_API_KEY": testKey}
	pads := decode[[]padapi.Pad](t, runWith(t, context.Background(), env, "--fake", "--json", "pads", "list"))
	if len(pads) == 0 {
		t.Error("--fake pads list is empty")
	}
	for _, args := range [][]string{{"pads", "get", pads[0].ID}, {"questions", "list"}, {"org"}, {"org", "stats"}} {
		r := runWith(t, context.Background(), nil, append([]string{"--fake"}, args...)...)
		ok(t, r)
		if r.stdout == "" {
			t.Errorf("--fake %q printed nothing", args)
		}
	}
}

func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, noun: "pads"}
	for n := 1; n <= 120; n++ {
		p.update(n)
	}
	p.done()
	want := "\rfetched 50 pads...\rfetched 100 pads...\r" + strings.Repeat(" ", len("fetched 100 pads...")) + "\r"
	if buf.String() != want {
		t.Errorf("progress wrote %q, want %q", buf.String(), want)
	}

	buf.Reset()
	quiet := newProgress(&buf, "pads") // not a terminal
	quiet.update(50)
	quiet.done()
	if buf.Len() != 0 {
		t.Errorf("progress off a terminal wrote %q", buf.String())
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file counts as a terminal")
	}
	if isTerminal(&bytes.Buffer{}) {
		t.Error("a buffer counts as a terminal")
	}
	dev, err := os.Open(os.DevNull) // a character device, like a terminal
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if !isTerminal(dev) {
		t.Errorf("%s does not count as a character device", os.DevNull)
	}
}

func TestListJSONNotesMoreOnStderr(t *testing.T) {
	srv := newServer(t)
	for i := range 120 {
		srv.AddPad(padapi.Pad{Title: fmt.Sprintf("pad %d", i), CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	for i := range 60 {
		srv.AddQuestion(padapi.Question{Title: fmt.Sprintf("question %d", i), CreatedAt: t0.Add(time.Duration(i) * time.Minute)})
	}
	const pads = "showing 50 of 120 pads; --all, --limit N or --page N for more\n"
	const questions = "showing 50 of 60 questions; --all, --limit N or --page N for more\n"
	tests := []struct {
		args []string
		n    int
		note string
	}{
		{[]string{"pads", "list"}, 50, pads},
		{[]string{"pads", "list", "--page", "2"}, 50, pads},
		{[]string{"pads", "list", "--page", "3"}, 20, ""},
		{[]string{"pads", "list", "--all"}, 120, ""},
		{[]string{"pads", "list", "--limit", "60"}, 60, ""},
		{[]string{"questions", "list"}, 50, questions},
		{[]string{"org", "pads"}, 50, pads},
		{[]string{"org", "questions"}, 50, questions},
	}
	for _, tt := range tests {
		r := padctl(t, srv, append([]string{"--json"}, tt.args...)...)
		// stdout stays a bare array; the note is for the person or the log.
		if r.code != 0 || r.stderr != tt.note {
			t.Errorf("padctl --json %q: exit %d, stderr %q; want 0, %q", tt.args, r.code, r.stderr, tt.note)
		}
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != tt.n {
			t.Errorf("padctl --json %q: %d items (%v), want an array of %d", tt.args, len(items), err, tt.n)
		}
	}
}

func TestEmptyIDIsUsageError(t *testing.T) {
	srv := newServer(t)
	for _, args := range [][]string{
		{"pads", "get", ""},
		{"pads", "update", "", "--title", "x"},
		{"questions", "get", ""},
		{"questions", "update", "--title", "x", ""},
		{"questions", "delete", ""},
	} {
		r := padctl(t, srv, args...)
		name := args[0] + " " + args[1]
		want := "padctl: " + name + " needs an ID, not an empty one\nusage: padctl " + name + " " + lookup(name).args + "\n"
		if r.code != 2 || r.stdout != "" || r.stderr != want {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 2, nothing, %q", args, r.code, r.stdout, r.stderr, want)
		}
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("empty IDs sent %d requests, want none", len(reqs))
	}
}

func TestGroupHelp(t *testing.T) {
	groups := map[string][]string{
		"pads":      {"pads list", "pads get", "pads create", "pads update"},
		"questions": {"questions list", "questions get", "questions create", "questions update", "questions delete"},
		"org":       {"org", "org stats", "org pads", "org questions"},
	}
	for group, names := range groups {
		for _, args := range [][]string{{group, "-h"}, {group, "--help"}, {"help", group}} {
			r := runWith(t, context.Background(), nil, args...)
			ok(t, r)
			for _, name := range names {
				if !regexp.MustCompile(`(?m)^  ` + name + `  `).MatchString(r.stdout) {
					t.Errorf("padctl %q does not list %q:\n%s", args, name, r.stdout)
				}
			}
			if n := len(regexp.MustCompile(`(?m)^  \S`).FindAllString(r.stdout, -1)); n != len(names) {
				t.Errorf("padctl %q lists %d commands, want %d:\n%s", args, n, len(names), r.stdout)
			}
		}
	}

	// help with a command is that command's -h.
	r := runWith(t, context.Background(), nil, "help", "pads", "get")
	ok(t, r)
	if !strings.HasPrefix(r.stdout, "usage: padctl pads get ID\nshow one pad.\n") {
		t.Errorf("help pads get printed:\n%s", r.stdout)
	}
	for _, args := range [][]string{{"help", "frobnicate"}, {"help", "pads", "frobnicate"}, {"help", "--bogus"}} {
		r := runWith(t, context.Background(), nil, args...)
		if r.code != 2 || r.stdout != "" || !strings.HasPrefix(r.stderr, "padctl: ") {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 2, nothing, a message", args, r.code, r.stdout, r.stderr)
		}
	}
}

func TestGlobalFlagAfterCommand(t *testing.T) {
	srv := newServer(t)
	addPads(srv)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "get", "AAAA1111", "--json"},
			"padctl: --json is a global flag: put it before the command (padctl --json pads get ...)\nusage: padctl pads get ID\n"},
		{[]string{"quota", "-fake"},
			"padctl: --fake is a global flag: put it before the command (padctl --fake quota ...)\nusage: padctl quota\n"},
		{[]string{"org", "--base-url=http://example.com"},
			"padctl: --base-url is a global flag: put it before the command (padctl --base-url URL org ...)\nusage: padctl org\n"},
		// The hint names the flag, never its value: here, a key.
		{[]string{"pads", "list", "--api-key", testKey},
			"padctl: --api-key is a global flag: put it before the command (padctl --api-key KEY pads list ...)\nusage: padctl pads list " + listArgs + "\n"},
		// A flag that is not global is just unknown.
		{[]string{"pads", "get", "AAAA1111", "--bogus"},
			"padctl: flag provided but not defined: -bogus\nusage: padctl pads get ID\n"},
	} {
		r := padctl(t, srv, tt.args...)
		if r.code != 2 || r.stdout != "" || r.stderr != tt.want {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 2, nothing, %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
}

func TestUsageLineHasNoTrailingSpace(t *testing.T) {
	srv := newServer(t)
	r := padctl(t, srv, "quota", "extra")
	if want := "padctl: unexpected argument \"extra\"\nusage: padctl quota\n"; r.stderr != want {
		t.Errorf("stderr = %q, want %q", r.stderr, want)
	}
	r = padctl(t, srv, "quota", "-h")
	ok(t, r)
	if want := "usage: padctl quota\nshow the monthly pad quota.\n"; r.stdout != want {
		t.Errorf("quota -h printed %q, want %q", r.stdout, want)
	}
}

func TestOrgForbidden(t *testing.T) {
	const hint = "padctl: organization commands need an organization owner's key\n"
	for _, tt := range []struct {
		route string
		args  []string
		hint  bool
	}{
		{"GET /api/organization", []string{"org"}, true},
		{"GET /api/organization/pads", []string{"org", "pads"}, true},
		{"GET /api/pads", []string{"pads", "list"}, false}, // not an org command: no hint
	} {
		srv := newServer(t)
		srv.FailNext(tt.route, 1, 403, "")
		r := padctl(t, srv, tt.args...)
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "403 Forbidden") {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 1, nothing, the status", tt.args, r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stderr, hint) != tt.hint {
			t.Errorf("padctl %q: stderr %q; want the owner's key hint: %v", tt.args, r.stderr, tt.hint)
		}
	}
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	env := map[string]string{"PAD_BASE_URL": "http://" + addr}
	for _, args := range [][]string{
		{"--api-key", testKey, "quota"},
		{"--api-key", testKey, "pads", "list"},
	} {
		r := runWith(t, context.Background(), env, args...) // also checks no key is printed
		if r.code != 1 || r.stdout != "" || !strings.HasPrefix(r.stderr, "padctl: ") || !strings.Contains(r.stderr, addr) {
			t.Errorf("padctl %q: exit %d, stdout %q, stderr %q; want 1, nothing, a message naming %s", args, r.code, r.stdout, r.stderr, addr)
		}
	}
}
