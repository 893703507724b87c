package questions_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// tree returns every file below dir with its text.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Issue 37 #15 and issue 38 #10: a folder pulled from one service and
// organization refuses diff, apply and pull against another (exit 2,
// nothing sent that changes anything, nothing written), naming both, one
// problem a line; --force plans anyway, and apply --force records the new
// origin.
func TestQuestionsOriginRefused(t *testing.T) {
	a, envA := fake(t)
	a.AddQuestion(padapi.Question{Title: "Seven", Language: "go", Contents: "package main", OrganizationName: "Acme"})
	dir := filepath.Join(t.TempDir(), "lib")
	cmdtest.Ok(t, cmdtest.Padctl(t, envA, "questions", "pull", dir))
	st := readText(t, filepath.Join(dir, qfolder.StateFile))
	if !strings.Contains(st, `"base_url": "`+strings.ToLower(a.URL)+`"`) || !strings.Contains(st, `"organization": "Acme"`) {
		t.Fatalf("the state file records no origin:\n%s", st)
	}
	before := tree(t, dir)

	b, envB := fake(t)
	b.AddQuestion(padapi.Question{Title: "Seven at Globex", Language: "go", Contents: "package main", OrganizationName: "Globex"})
	for _, args := range [][]string{{"diff"}, {"apply"}, {"pull"}, {"apply", "--dry-run"}} {
		r := cmdtest.Padctl(t, envB, append(append([]string{"questions"}, args...), dir)...)
		lines := cmdtest.Lines(r.Stderr)
		if r.Code != cmdutil.ExitUsage || !strings.Contains(r.Stderr, a.URL) || !strings.Contains(r.Stderr, b.URL) || len(lines) < 4 {
			t.Errorf("%v against another service: exit %d, stderr:\n%s", args, r.Code, r.Stderr)
		}
		for _, l := range lines {
			if len(l) > 200 {
				t.Errorf("%v: a line of %d characters: %q", args, len(l), l)
			}
		}
	}
	for _, req := range b.Requests() {
		if req.Method != http.MethodGet {
			t.Errorf("a refused run sent %s %s", req.Method, req.Path)
		}
	}
	if after := tree(t, dir); len(after) != len(before) || after[filepath.Join(dir, qfolder.StateFile)] != st {
		t.Errorf("a refused run changed the folder")
	}

	if r := cmdtest.Padctl(t, envB, "questions", "diff", "--force", dir); r.Code != 1 {
		t.Errorf("diff --force: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, envB, "questions", "apply", "--force", dir))
	st = readText(t, filepath.Join(dir, qfolder.StateFile))
	if !strings.Contains(st, `"organization": "Globex"`) || !strings.Contains(st, strings.ToLower(b.URL)) {
		t.Errorf("apply --force did not record the new origin:\n%s", st)
	}
}

// Issue 37 #15: diff exits as kubectl diff does: 0 no changes, 1 changes,
// 2 a bad folder, 7 when an API or network error kept it from planning;
// --help says so.
func TestQuestionsDiffExitCodes(t *testing.T) {
	srv, env := fake(t)
	dir := filepath.Join(t.TempDir(), "lib")
	writeFiles(t, dir, map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
	if r := cmdtest.Padctl(t, env, "questions", "diff", dir); r.Code != 1 || !strings.Contains(r.Stderr, "'padctl questions apply "+dir+"'") {
		t.Errorf("diff with a change: exit %d, stderr %q (want the hint to name DIR)", r.Code, r.Stderr)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "apply", dir))
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "diff", dir))
	srv.FailNext("GET /api/questions", 10, http.StatusInternalServerError, "")
	if r := cmdtest.Padctl(t, env, "questions", "diff", dir); r.Code != cmdutil.ExitNoPlan {
		t.Errorf("diff with the service failing: exit %d, want 7\n%s", r.Code, r.Stderr)
	}
	srv.FailNext("GET /api/questions", 0, 0, "")
	env2 := map[string]string{"PAD_BASE_URL": "http://127.0.0.1:1", "PAD_API_KEY": srv.APIKey}
	if r := cmdtest.Padctl(t, env2, "questions", "diff", "--force", dir); r.Code != cmdutil.ExitNoPlan {
		t.Errorf("diff with the service unreachable: exit %d, want 7\n%s", r.Code, r.Stderr)
	}
	writeFiles(t, dir, map[string]string{"b/question.json": `{`, "c/question.json": `{"title": ""}`})
	r := cmdtest.Padctl(t, env, "questions", "diff", dir)
	if r.Code != cmdutil.ExitUsage {
		t.Errorf("diff of a bad folder: exit %d, want 2", r.Code)
	}
	// Several problems: one a line.
	for _, want := range []string{"\n  b/question.json:1:", "\n  c/question.json: title is missing", "\n  c/question.json: language is missing"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("diff of a bad folder: stderr\n%s\nwant the line %q", r.Stderr, want)
		}
	}
	help := cmdtest.Padctl(t, env, "questions", "diff", "--help").Stdout
	for _, want := range []string{"0 when nothing would change", "1 when", "7 when an API or network error", "NO_COLOR", "--force"} {
		if !strings.Contains(help, want) {
			t.Errorf("diff --help lacks %q", want)
		}
	}
}

// Issue 38 #9: diff --json and apply --json print the plan (and apply's
// results) as JSON.
func TestQuestionsPlanJSON(t *testing.T) {
	_, env := fake(t)
	dir := filepath.Join(t.TempDir(), "lib")
	writeFiles(t, dir, map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
	var plan struct {
		Dir     string
		Changes bool
		Steps   []struct {
			Action, Folder, ID, Title string
			Changes                   []struct{ Field, File, Folder string }
		}
		Summary map[string]int
		Results []struct{ Action, Folder, ID string }
		Applied map[string]int
	}
	decode := func(r cmdtest.Result) {
		t.Helper()
		plan.Steps, plan.Results = nil, nil
		if err := json.Unmarshal([]byte(r.Stdout), &plan); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, r.Stdout)
		}
	}
	r := cmdtest.Padctl(t, env, "questions", "diff", "--json", dir)
	decode(r)
	if r.Code != 1 || !plan.Changes || plan.Dir != dir || len(plan.Steps) != 1 || plan.Steps[0].Action != "create" || plan.Summary["create"] != 1 {
		t.Errorf("diff --json: exit %d, %+v", r.Code, plan)
	}
	r = cmdtest.Padctl(t, env, "questions", "apply", "--json", dir)
	decode(r)
	if r.Code != 0 || len(plan.Results) != 1 || plan.Results[0].Action != "create" || plan.Results[0].ID == "" || plan.Applied["create"] != 1 {
		t.Errorf("apply --json: exit %d, %+v\n%s", r.Code, plan, r.Stdout)
	}
	writeFiles(t, dir, map[string]string{"a/question.json": `{"id": ` + plan.Results[0].ID + `, "title": "B", "language": "go"}`})
	r = cmdtest.Padctl(t, env, "questions", "diff", "--json", dir)
	decode(r)
	if len(plan.Steps) != 1 || plan.Steps[0].Action != "update" || len(plan.Steps[0].Changes) != 1 || plan.Steps[0].Changes[0].Folder != "B" || plan.Steps[0].Changes[0].File != "question.json" {
		t.Errorf("diff --json of an update: %+v", plan)
	}
}

// Issue 38 #16: the diff is coloured on a terminal, not when piped nor
// with NO_COLOR set.
func TestQuestionsDiffColour(t *testing.T) {
	srv, env := fake(t)
	srv.AddQuestion(padapi.Question{Title: "A", Language: "go", Contents: "package main", Description: "one\n"})
	dir := filepath.Join(t.TempDir(), "lib")
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "pull", dir))
	name := filepath.Join(dir, "a", "description.md")
	if err := os.WriteFile(name, []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tty := cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "questions", "diff", dir)
	if !strings.Contains(tty.Stdout, "\x1b[31m-one\x1b[0m") || !strings.Contains(tty.Stdout, "\x1b[32m+two\x1b[0m") {
		t.Errorf("on a terminal, no colour:\n%q", tty.Stdout)
	}
	noColor := map[string]string{"NO_COLOR": "1"}
	for k, v := range env {
		noColor[k] = v
	}
	for name, r := range map[string]cmdtest.Result{
		"piped":    cmdtest.Invoke(t, cmdtest.Opts{Env: env}, "questions", "diff", dir),
		"NO_COLOR": cmdtest.Invoke(t, cmdtest.Opts{Env: noColor, TTY: true}, "questions", "diff", dir),
	} {
		if strings.Contains(r.Stdout, "\x1b[") || !strings.Contains(r.Stdout, "-one") {
			t.Errorf("%s: %q", name, r.Stdout)
		}
	}
}

// redirectCreate forwards a create to the service, which makes it, and
// answers 303 See Other, as a gateway may.
type redirectCreate struct{ base http.RoundTripper }

func (g redirectCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := g.base.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost {
		return resp, err
	}
	resp.Body.Close()
	return &http.Response{StatusCode: http.StatusSeeOther, Status: "303 See Other", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Location": {"/api/questions"}}, Body: http.NoBody, Request: r}, nil
}

// Issue 37 #9: a create answered 303 exits 4 and keeps its pending
// record; the next apply adopts the question: 1 folder, 1 question.
func TestQuestionsCreateAnswered303NotTwice(t *testing.T) {
	e := newSyncEnv(t)
	e.write(map[string]string{"bare/question.json": `{"title": "Bare", "language": "go"}`})
	e.base = redirectCreate{&http.Transport{DisableKeepAlives: true}}
	if code, out, errs := e.run("apply", syncOptions{}, -1); code != exitUnknown || !strings.Contains(readText(t, filepath.Join(e.dir, "bare/question.json")), "pending_create") {
		t.Fatalf("apply answered 303: exit %d\n%s%s", code, out, errs)
	}
	e.base = nil
	e.must("apply", syncOptions{})
	if n := len(e.srv.Questions()); n != 1 {
		t.Errorf("1 folder, a 303 and two applies: %d questions", n)
	}
	e.converged(0)
}

// ageTree sets the time of everything below dir to an hour ago.
func ageTree(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Issue 40 #4: pull and diff keep a read cache outside the folder (below
// $XDG_CACHE_HOME); an edit is seen whether it comes right after a pull
// (within the file system's time granularity) or later, whatever the
// size of the file.
func TestQuestionsReadCache(t *testing.T) {
	srv, env := fake(t)
	cacheHome := t.TempDir()
	env["XDG_CACHE_HOME"] = cacheHome
	srv.AddQuestion(padapi.Question{Title: "A", Language: "go", Contents: "package a"})
	dir := filepath.Join(t.TempDir(), "lib")
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "pull", dir))
	starter := filepath.Join(dir, "a", "starter.go")
	edit := func(text string) {
		t.Helper()
		if err := os.WriteFile(starter, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("package b") // the same size, right after the pull
	if r := cmdtest.Padctl(t, env, "questions", "diff", dir); r.Code != 1 || !strings.Contains(r.Stdout, "+package b") {
		t.Errorf("an edit right after a pull: exit %d\n%s", r.Code, r.Stdout)
	}
	edit("package a")
	ageTree(t, dir)
	for range 2 { // the first records the folder, the second takes it from the cache
		cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "diff", dir))
	}
	caches, _ := filepath.Glob(filepath.Join(cacheHome, "padctl", "questions", "*.json"))
	if len(caches) != 1 {
		t.Fatalf("read caches %v, want 1", caches)
	}
	edit("package c") // the same size, a new time
	if r := cmdtest.Padctl(t, env, "questions", "diff", dir); r.Code != 1 || !strings.Contains(r.Stdout, "+package c") {
		t.Errorf("an edit of a cached folder: exit %d\n%s", r.Code, r.Stdout)
	}
}
