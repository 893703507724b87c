package questions_test

import (
	"archive/zip"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/questions"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
	"github.com/padinterview/padapi/internal/lib/safefile"
	"github.com/padinterview/padapi/padapitest"
	"github.com/spf13/cobra"
)

// TestMain makes every write of these tests skip fsync
// (safefile.SkipFsync): no test can observe a power loss, and the fsyncs
// of apply's durable writes were most of these tests' time on a disk.
func TestMain(m *testing.M) {
	safefile.SkipFsync()
	m.Run()
}

// The helpers below are cmdtest's, under the names these tests had in
// package main.

// syncOptions are the flags a test runs pull, diff or apply with.
type syncOptions struct {
	ids          []string
	force, prune bool
	settle       time.Duration
}

const (
	testKey         = cmdtest.TestKey
	exitError       = cmdutil.ExitError
	exitUnknown     = cmdutil.ExitUnknown
	exitInterrupted = cmdutil.ExitInterrupted
	exitLocked      = cmdutil.ExitLocked
)

// result is what one run of padctl gave.
type result struct {
	code           int
	stdout, stderr string
}

// opts describe one in-process run of padctl.
type opts struct {
	env       map[string]string
	ctx       context.Context
	transport http.RoundTripper
}

// invoke runs padctl in-process and fails the test if an API key shows up
// in anything it printed.
func invoke(t *testing.T, o opts, args ...string) result {
	t.Helper()
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: o.env, Ctx: o.ctx, Transport: o.transport}, args...)
	return result{r.Code, r.Stdout, r.Stderr}
}

// padctl runs padctl with its output piped.
func padctl(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	return invoke(t, opts{env: env}, args...)
}

// fake starts a padapitest fake and returns it with the environment that
// points padctl at it.
func fake(t *testing.T) (*padapitest.Server, map[string]string) { return cmdtest.Fake(t) }

// ok fails the test unless r succeeded with nothing on stderr.
func ok(t *testing.T, r result) {
	t.Helper()
	cmdtest.Ok(t, cmdtest.Result{Code: r.code, Stdout: r.stdout, Stderr: r.stderr})
}

// writeFiles writes name and contents pairs below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) { cmdtest.WriteFiles(t, dir, files) }

// exitCode is cmdutil.ExitCode.
func exitCode(err error, ran bool) int { return cmdutil.ExitCode(err, ran) }

// killCounter is a transport that counts requests, and after limit of them
// (when limit >= 0) behaves as a process killed mid-request: the next
// request reaches the service but its answer is lost, and every later one
// fails before it is sent.
type killCounter struct {
	n     atomic.Int64
	limit int64
	base  http.RoundTripper
}

var errKilled = errors.New("killed")

func (c *killCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	n := c.n.Add(1)
	if c.limit >= 0 && n > c.limit+1 {
		return nil, errKilled
	}
	resp, err := c.base.RoundTrip(r)
	if c.limit >= 0 && n == c.limit+1 {
		if err == nil {
			resp.Body.Close()
		}
		return nil, errKilled
	}
	return resp, err
}

// syncEnv is one test's fake service and folder.
type syncEnv struct {
	t      *testing.T
	srv    *padapitest.Server
	dir    string
	counts *killCounter
	// base carries the requests, a new transport without keep-alives when
	// nil (so that a run works inside a synctest bubble).
	base http.RoundTripper
}

func newSyncEnv(t *testing.T, opts ...padapitest.Option) *syncEnv {
	return &syncEnv{t: t, srv: padapitest.NewServer(t, opts...), dir: filepath.Join(t.TempDir(), "questions")}
}

// run runs pull, diff or apply in-process against the fake, through a
// counting transport that fails after limit requests (-1: never), and
// returns padctl's exit code and output.
func (e *syncEnv) run(command string, o syncOptions, limit int64) (code int, stdout, stderr string) {
	e.t.Helper()
	// Generous: inside a synctest bubble this is fake time, and a settle
	// wait of a minute must fit.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e.counts = &killCounter{limit: limit, base: cmp.Or[http.RoundTripper](e.base, &http.Transport{DisableKeepAlives: true})}
	c := e.srv.Client(padapi.WithHTTPClient(&http.Client{Transport: e.counts}))
	ios, _, out, errw := iostreams.Test()
	err := questions.Sync(command, &questions.SyncOptions{
		IO:     ios,
		Client: func() (*padapi.Client, error) { return c, nil },
		Ctx:    ctx,
		Dir:    e.dir,
		IDs:    o.ids,
		Force:  o.force,
		Prune:  o.prune,
		Settle: o.settle,
	})
	if err != nil {
		return exitCode(err, true), out.String(), errw.String() + err.Error()
	}
	return 0, out.String(), errw.String()
}

// must runs a command that must succeed.
func (e *syncEnv) must(command string, o syncOptions) string {
	e.t.Helper()
	code, out, errs := e.run(command, o, -1)
	if code != 0 {
		e.t.Fatalf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", command, code, out, errs)
	}
	return out
}

// write writes files below the folder.
func (e *syncEnv) write(files map[string]string) {
	e.t.Helper()
	writeFiles(e.t, e.dir, files)
}

// converged fails the test unless the service holds exactly the folder's
// questions, each as the folder says, none twice, and diff plans nothing.
func (e *syncEnv) converged(extra int) {
	e.t.Helper()
	lib, err := qfolder.Read(e.dir, false)
	if err != nil {
		e.t.Fatal(err)
	}
	svc := map[string]padapi.Question{}
	titles := map[string]int{}
	for _, q := range e.srv.Questions() {
		svc[string(q.ID)] = q
		titles[q.Title]++
	}
	for title, n := range titles {
		if n > 1 {
			e.t.Errorf("the service holds %d questions titled %q", n, title)
		}
	}
	for _, f := range lib.Folders {
		q, ok := svc[f.Q.ID]
		if f.Q.ID == "" || !ok {
			e.t.Errorf("%s: id %q is not on the service", f.Name, f.Q.ID)
			continue
		}
		if f.Pending != nil {
			e.t.Errorf("%s: still has a pending create", f.Name)
		}
		if ch := qfolder.Compare(f.Q, qfolder.FromService(&q), lib.State.Questions[f.Q.ID].Digests[qfolder.FieldFiles]); len(ch) > 0 {
			e.t.Errorf("%s: differs from #%s in %v", f.Name, f.Q.ID, ch)
		}
		if f.Q.Files != nil {
			got := e.srv.QuestionFiles(padapi.ID(f.Q.ID))
			var gotFiles []padapi.QuestionFile
			for _, g := range got {
				gotFiles = append(gotFiles, padapi.QuestionFile{Path: g.Path, Contents: g.Contents})
			}
			if !slices.Equal(qfolder.NormalizeFiles(gotFiles), qfolder.NormalizeFiles(f.Q.Files)) {
				e.t.Errorf("%s: the service's files %v, want %v", f.Name, gotFiles, f.Q.Files)
			}
		}
	}
	if got, want := len(svc), len(lib.Folders)+extra; got != want {
		e.t.Errorf("the service holds %d questions, want %d (the folder's %d and %d others)", got, want, len(lib.Folders), extra)
	}
	if code, out, errs := e.run("diff", syncOptions{prune: true}, -1); code != 0 {
		e.t.Errorf("diff after convergence: exit %d\n%s\n%s", code, out, errs)
	}
}

// sampleFolders are new question folders of each shape.
var sampleFolders = map[string]string{
	"fizz/question.json": `{"title": "Fizz Buzz", "language": "python",
  "candidate_instructions": [{"instructions": "Print the numbers.", "default_visible": true}],
  "ai_assist_prompt": "Give hints only."}`,
	"fizz/description.md":         "# Fizz Buzz\r\n\r\nPrint 1 to 100.\r\n",
	"fizz/starter.py":             "def fizz():\n    pass\n",
	"fizz/solution.py":            "def fizz():\n    return 'fizz'\n",
	"bank/question.json":          `{"title": "Bank", "language": "java"}`,
	"bank/description.md":         "Model a bank.",
	"bank/files/src/Main.java":    "class Main {}\n",
	"bank/files/src/Account.java": "class Account {}\n",
	"bank/files/README.md":        "Run with make.\n",
	"bare/question.json":          `{"title": "Bare", "language": "go"}`,
}

func TestQuestionsApplyThenNothing(t *testing.T) {
	e := newSyncEnv(t)
	e.write(sampleFolders)
	out := e.must("apply", syncOptions{})
	for _, want := range []string{"created bank/", "created bare/", "created fizz/", "Applied: 3 created, 0 updated, 0 deleted, 0 unchanged."} {
		if !strings.Contains(out, want) {
			t.Errorf("apply printed\n%s\nwant %q", out, want)
		}
	}
	// Every new id is in its folder.
	b, _ := os.ReadFile(filepath.Join(e.dir, "fizz", "question.json"))
	if !strings.Contains(string(b), `"id": `) {
		t.Errorf("fizz/question.json has no id:\n%s", b)
	}
	e.converged(0)
	if out := e.must("apply", syncOptions{}); !strings.Contains(out, "Applied: 0 created, 0 updated, 0 deleted, 3 unchanged.") {
		t.Errorf("a second apply did something:\n%s", out)
	}
}

func TestQuestionsDiffShowsThePlan(t *testing.T) {
	e := newSyncEnv(t)
	e.write(sampleFolders)
	e.must("apply", syncOptions{})
	e.write(map[string]string{
		"fizz/description.md":      "# Fizz Buzz\n\nPrint 1 to 50.\n",
		"fizz/question.json":       strings.Replace(readText(t, filepath.Join(e.dir, "fizz/question.json")), `"Fizz Buzz"`, `"FizzBuzz"`, 1),
		"bank/files/src/Main.java": "class Main { }\n",
		"new/question.json":        `{"title": "New", "language": "ruby"}`,
	})
	code, out, _ := e.run("diff", syncOptions{}, -1)
	if code != 1 {
		t.Fatalf("diff exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{
		"create  new/  \"New\" (ruby)",
		"update  fizz/  #",
		`    title: "Fizz Buzz" -> "FizzBuzz"`,
		"+++ fizz/description.md",
		"-Print 1 to 100.",
		"+Print 1 to 50.",
		"update  bank/",
		"files: differ from those last applied",
		"1 to create, 2 to update, 0 to delete, 1 unchanged.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff printed\n%s\nwant %q", out, want)
		}
	}
	n := len(e.srv.Questions())
	e.must("apply", syncOptions{})
	if len(e.srv.Questions()) != n+1 {
		t.Errorf("apply made %d questions, want 1", len(e.srv.Questions())-n)
	}
	e.converged(0)
}

func readText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestQuestionsPrune(t *testing.T) {
	e := newSyncEnv(t)
	other := e.srv.AddQuestion(padapi.Question{Title: "Not ours", Language: "python"})
	e.write(sampleFolders)
	e.must("apply", syncOptions{})
	if err := os.RemoveAll(filepath.Join(e.dir, "bare")); err != nil {
		t.Fatal(err)
	}
	// Without --prune nothing is deleted; a pulled-elsewhere question
	// that the folder never recorded is never deleted.
	code, out, errs := e.run("apply", syncOptions{}, -1)
	if code != 0 || !strings.Contains(errs, "--prune deletes it") || len(e.srv.Questions()) != 4 {
		t.Fatalf("apply without --prune: exit %d, %d questions\n%s\n%s", code, len(e.srv.Questions()), out, errs)
	}
	code, out, _ = e.run("diff", syncOptions{prune: true}, -1)
	if code != 1 || !strings.Contains(out, `delete  #`) || !strings.Contains(out, `"Bare"`) {
		t.Errorf("diff --prune: exit %d\n%s", code, out)
	}
	out = e.must("apply", syncOptions{prune: true})
	if !strings.Contains(out, "deleted #") {
		t.Errorf("apply --prune printed\n%s", out)
	}
	e.converged(1)
	if e.srv.Questions()[0].ID != other.ID {
		t.Errorf("apply --prune deleted a question it never recorded")
	}
}

func TestQuestionsPullRoundTrip(t *testing.T) {
	for _, shape := range []padapitest.Shape{padapitest.LiveShape, padapitest.DocumentedShape} {
		t.Run(fmt.Sprint(shape), func(t *testing.T) { testPullRoundTrip(t, shape) })
	}
}

func testPullRoundTrip(t *testing.T, shape padapitest.Shape) {
	e := newSyncEnv(t, padapitest.WithShape(shape))
	e.srv.Seed(5)
	c := e.srv.Client()
	ctx := t.Context()
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
		Title: padapi.Ptr("Everything"), Language: padapi.Ptr("python3"),
		Description: padapi.Ptr("Line one\r\nline two\r\n"), Contents: padapi.Ptr("print(1)"),
		Solution: padapi.Ptr("print(2)\n"), AIAssistPrompt: padapi.Ptr("Be terse."),
		CandidateInstructions: []padapi.CandidateInstruction{{Instructions: "Read it all."}, {Instructions: "Then code.", DefaultVisible: padapi.Ptr(false)}},
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
		Title: padapi.Ptr("Multi"), Language: padapi.Ptr("go"),
		Files: []padapi.QuestionFile{{Path: "main.go", Contents: "package main\n"}, {Path: "lib/a.go", Contents: "package lib\n"}},
	}); err != nil {
		t.Fatal(err)
	}
	zipped := zipArchive(t, map[string]string{"app.py": "print(3)\n"})
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("Zipped"), Language: padapi.Ptr("python"), Zip: zipped}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := e.run("pull", syncOptions{}, -1)
	if code != 0 {
		t.Fatalf("pull: exit %d\n%s\n%s", code, out, errs)
	}
	for _, title := range []string{"multi", "zipped"} {
		if !strings.Contains(errs, title+"/ #") || !strings.Contains(errs, "cannot be represented here") {
			t.Errorf("pull said nothing of %s's files:\n%s", title, errs)
		}
	}
	everything := filepath.Join(e.dir, "everything")
	for name, want := range map[string]string{"description.md": "Line one\r\nline two\r\n", "starter.py": "print(1)", "solution.py": "print(2)\n"} {
		if got := readText(t, filepath.Join(everything, name)); got != want {
			t.Errorf("everything/%s = %q, want %q", name, got, want)
		}
	}
	if code, out, errs := e.run("diff", syncOptions{}, -1); code != 0 || !strings.Contains(out, "0 to create, 0 to update, 0 to delete, 8 unchanged.") {
		t.Errorf("diff after pull: exit %d\n%s\n%s", code, out, errs)
	}
	// A second pull writes nothing.
	if out := e.must("pull", syncOptions{}); !strings.Contains(out, "Pulled: 0 written, 8 unchanged") {
		t.Errorf("second pull:\n%s", out)
	}
	// Apply leaves the zip question's files alone.
	e.must("apply", syncOptions{})
	for _, q := range e.srv.Questions() {
		if q.Title == "Zipped" && len(e.srv.QuestionFiles(q.ID)) != 1 {
			t.Errorf("apply lost the zip question's files")
		}
	}
}

// A multi-file question the folder created round-trips through pull into
// the same folder: the state file records what was sent.
func TestQuestionsMultiFileRoundTrip(t *testing.T) {
	e := newSyncEnv(t)
	e.write(sampleFolders)
	e.must("apply", syncOptions{})
	if out := e.must("pull", syncOptions{}); !strings.Contains(out, "0 written, 3 unchanged") {
		t.Errorf("pull after apply:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(e.dir, "bank/files/src/Main.java")); err != nil {
		t.Errorf("pull lost bank's files: %v", err)
	}
	e.converged(0)
	// Removing files/ and adding starter code turns it single-file.
	if err := os.RemoveAll(filepath.Join(e.dir, "bank/files")); err != nil {
		t.Fatal(err)
	}
	e.write(map[string]string{"bank/starter.java": "class Bank {}\n"})
	e.must("apply", syncOptions{})
	e.converged(0)
}

func TestQuestionsPullKeepsLocalChanges(t *testing.T) {
	e := newSyncEnv(t)
	q := e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Description: "old", Contents: "pass"})
	e.must("pull", syncOptions{})
	desc := filepath.Join(e.dir, "two-sum", "description.md")
	starter := filepath.Join(e.dir, "two-sum", "starter.py")

	// A change on the service alone is pulled.
	c := e.srv.Client()
	if _, err := c.Questions.Update(t.Context(), q.ID, &padapi.QuestionUpdateParams{Description: padapi.Ptr("new")}); err != nil {
		t.Fatal(err)
	}
	e.must("pull", syncOptions{})
	if got := readText(t, desc); got != "new\n" {
		t.Errorf("description.md = %q after pull, want the service's, ending with a newline", got)
	}
	// A change here and another there: not overwritten, and named.
	e.write(map[string]string{"two-sum/starter.py": "mine"})
	if _, err := c.Questions.Update(t.Context(), q.ID, &padapi.QuestionUpdateParams{Contents: padapi.Ptr("theirs")}); err != nil {
		t.Fatal(err)
	}
	code, _, errs := e.run("pull", syncOptions{}, -1)
	if code != 1 || !strings.Contains(errs, "two-sum/starter.py") || !strings.Contains(errs, "--force") {
		t.Errorf("pull over a local change: exit %d\n%s", code, errs)
	}
	if got := readText(t, starter); got != "mine" {
		t.Errorf("pull overwrote a local change: %q", got)
	}
	e.must("pull", syncOptions{force: true})
	if got := readText(t, starter); got != "theirs" {
		t.Errorf("pull --force: starter.py = %q", got)
	}
}

func TestQuestionsPullSafeNames(t *testing.T) {
	e := newSyncEnv(t)
	for _, title := range []string{"../../etc/passwd", "..", "", "Two Sum", "two sum", "/abs/path", "CON", strings.Repeat("x", 300)} {
		e.srv.AddQuestion(padapi.Question{Title: title, Language: "python"})
	}
	e.srv.AddQuestion(padapi.Question{Title: "NUL", Language: "python", Contents: "a\x00b"})
	parent := filepath.Dir(e.dir)
	// A symlink where pull would write: refused, nothing written through it.
	outside := t.TempDir()
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	e.must("pull", syncOptions{})
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("pull wrote beside its folder: %v", entries)
	}
	lib, err := qfolder.Read(e.dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Folders) != 7 {
		t.Errorf("%d folders, want 7 (the untitled one and the one with a NUL cannot be represented)", len(lib.Folders))
	}
	for _, f := range lib.Folders {
		if strings.ContainsAny(f.Name, "/.\\") || len(f.Name) > 80 {
			t.Errorf("folder name %q", f.Name)
		}
	}
	// Replace a folder's file with a symlink out: the folder is refused
	// whole, before any request, and nothing is written through it.
	target := filepath.Join(outside, "target")
	writeFiles(t, outside, map[string]string{"target": "keep"})
	desc := filepath.Join(e.dir, lib.Folders[0].Name, "description.md")
	if err := os.Symlink(target, desc); err != nil {
		t.Fatal(err)
	}
	code, _, errs := e.run("pull", syncOptions{force: true}, -1)
	if code != 2 || !strings.Contains(errs, "symlink") || e.counts.n.Load() != 0 {
		t.Errorf("pull with a symlink: exit %d, %d requests\n%s", code, e.counts.n.Load(), errs)
	}
	if readText(t, target) != "keep" {
		t.Errorf("pull wrote through a symlink")
	}
}

func TestQuestionsBadFolder(t *testing.T) {
	// A file written as oversize is then made one byte over
	// qfolder.MaxQuestionBytes, sparse: a write of 16 MiB cost more than
	// the rest of the test.
	const oversize = "(one byte over the limit)"
	tests := []struct {
		name  string
		files map[string]string
		link  [2]string // a symlink: name, target
		want  string
	}{
		{"malformed JSON", map[string]string{"a/question.json": "{\n  \"title\": \"A\",\n  \"language\": python\n}"}, [2]string{}, "a/question.json:3:"},
		{"no title", map[string]string{"a/question.json": `{"language": "go"}`}, [2]string{}, "a/question.json: title is missing"},
		{"no language", map[string]string{"a/question.json": `{"title": "A"}`}, [2]string{}, "a/question.json: language is missing"},
		{"unknown field", map[string]string{"a/question.json": `{"title": "A", "language": "go", "titel": "x"}`}, [2]string{}, `unknown field "titel"`},
		{"no question.json", map[string]string{"a/description.md": "x"}, [2]string{}, "a/question.json: missing"},
		{"same id twice", map[string]string{"a/question.json": `{"id": 7, "title": "A", "language": "go"}`, "b/question.json": `{"id": "7", "title": "B", "language": "go"}`}, [2]string{}, "both have id 7"},
		{"bad id", map[string]string{"a/question.json": `{"id": "../x", "title": "A", "language": "go"}`}, [2]string{}, "is not a question id"},
		{"symlink", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`}, [2]string{"a/description.md", "/etc/passwd"}, "a/description.md: a symlink"},
		{"symlinked folder", nil, [2]string{"a", "/etc"}, "a: a symlink"},
		{"too big", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`, "a/starter.go": oversize}, [2]string{}, "a/starter.go: 16777217 bytes, over the service's"},
		{"binary", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`, "a/files/x.bin": "\x00\x01\xff"}, [2]string{}, "not UTF-8 text"},
		{"starter and files", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`, "a/starter.go": "x", "a/files/b.go": "y"}, [2]string{}, "not both"},
		{"stray file", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`, "a/notes.txt": "x"}, [2]string{}, "a/notes.txt: unexpected"},
		{"two starters", map[string]string{"a/question.json": `{"title": "A", "language": "go"}`, "a/starter.go": "x", "a/starter.py": "y"}, [2]string{}, "a second starter"},
	}
	// One temporary folder holds each case's library: a t.TempDir of its
	// own was two more folders a case to make and remove.
	root := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &syncEnv{t: t, srv: padapitest.NewServer(t), dir: filepath.Join(root, fmt.Sprint(i))}
			e.write(map[string]string{"ok/question.json": `{"title": "OK", "language": "go"}`})
			e.write(tt.files)
			for name, text := range tt.files {
				if text == oversize {
					if err := os.Truncate(filepath.Join(e.dir, filepath.FromSlash(name)), qfolder.MaxQuestionBytes+1); err != nil {
						t.Fatal(err)
					}
				}
			}
			if tt.link[0] != "" {
				if err := os.Symlink(tt.link[1], filepath.Join(e.dir, tt.link[0])); err != nil {
					t.Fatal(err)
				}
			}
			for _, command := range []string{"diff", "apply"} {
				code, out, errs := e.run(command, syncOptions{}, -1)
				if code != 2 || !strings.Contains(errs, tt.want) {
					t.Errorf("%s: exit %d, want 2 and %q\nstdout:\n%s\nstderr:\n%s", command, code, tt.want, out, errs)
				}
				if n := e.counts.n.Load(); n != 0 {
					t.Errorf("%s sent %d requests for a bad folder", command, n)
				}
			}
			if len(e.srv.Questions()) != 0 {
				t.Errorf("a bad folder changed the service")
			}
		})
	}
}

func TestQuestionsUnknownIDIsAnError(t *testing.T) {
	e := newSyncEnv(t)
	e.write(map[string]string{
		"gone/question.json": `{"id": 99, "title": "Gone", "language": "go"}`,
		"new/question.json":  `{"title": "New", "language": "go"}`,
	})
	// diff cannot make its plan: exit 7, since its 1 means changes.
	for command, want := range map[string]int{"diff": cmdutil.ExitNoPlan, "apply": exitError} {
		code, _, errs := e.run(command, syncOptions{}, -1)
		if code != want || !strings.Contains(errs, "id 99 is not on the service") {
			t.Errorf("%s: exit %d\n%s", command, code, errs)
		}
	}
	if len(e.srv.Questions()) != 0 {
		t.Errorf("apply changed the service despite an unknown id")
	}
}

// A create with no answer is never made twice: the re-run adopts the
// question the service made.
func TestQuestionsApplyOutcomeUnknownAdopts(t *testing.T) {
	e := newSyncEnv(t)
	e.write(sampleFolders)
	e.srv.DropNext("POST /api/questions", 1)
	code, out, errs := e.run("apply", syncOptions{}, -1)
	if code != exitUnknown || !strings.Contains(errs, "run the same apply again") {
		t.Fatalf("apply: exit %d, want %d\n%s\n%s", code, exitUnknown, out, errs)
	}
	pendingJSON := readText(t, filepath.Join(e.dir, "bank/question.json"))
	if !strings.Contains(pendingJSON, "pending_create") {
		t.Fatalf("bank/question.json records no pending create:\n%s", pendingJSON)
	}
	if len(e.srv.Questions()) != 1 {
		t.Fatalf("the dropped create did not happen in the fake")
	}
	code, out, _ = e.run("diff", syncOptions{}, -1)
	if code != 1 || !strings.Contains(out, "adopt   bank/  #") || !strings.Contains(out, "1 to adopt, 2 to create") {
		t.Errorf("diff: exit %d\n%s", code, out)
	}
	out = e.must("apply", syncOptions{})
	if !strings.Contains(out, "adopted bank/") || !strings.Contains(out, "Applied: 1 adopted, 2 created") {
		t.Errorf("re-run:\n%s", out)
	}
	e.converged(0)
}

// A create refused before it ran (a 500 from a proxy) is made again once
// the settle time has passed, waiting for it when it has not (fake time).
func TestQuestionsApplyOutcomeUnknownSettles(t *testing.T) {
	e := newSyncEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		e.write(map[string]string{"bare/question.json": `{"title": "Bare", "language": "go"}`})
		e.srv.FailNext("POST /api/questions", 1, http.StatusInternalServerError, "")
		if code, _, errs := e.run("apply", syncOptions{settle: time.Minute}, -1); code != exitUnknown {
			t.Fatalf("apply: exit %d\n%s", code, errs)
		}
		advance(20 * time.Second)
		code, out, _ := e.run("diff", syncOptions{settle: time.Minute}, -1)
		if code != 1 || !strings.Contains(out, "looks for it again in 40s") {
			t.Errorf("diff of a young pending create: exit %d\n%s", code, out)
		}
		start := time.Now()
		code, out, errs := e.run("apply", syncOptions{settle: time.Minute}, -1)
		if code != 0 || time.Since(start) != 40*time.Second || strings.Count(errs, "Waiting 40s") != 1 || !strings.Contains(out, "created bare/") {
			t.Errorf("apply: exit %d after %v\n%s\n%s", code, time.Since(start), out, errs)
		}
		e.converged(0)
	})
}

// advance moves a synctest bubble's clock on by d.
func advance(d time.Duration) {
	<-time.NewTimer(d).C
}

// The fault test: a fake failing about one request in five (500s, and
// connections dropped after the request ran, creates included); apply is
// re-run until it succeeds, and ends with exactly the folder's questions.
func TestQuestionsApplyUnderFaults(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel() // each seed has its own fake and folder
			e := newSyncEnv(t)
			syncScenario(t, e)
			// 6 more creates to fault (20 were 140 more files a seed):
			// with no pending create recorded, or none adopted, every
			// seed still ends with a question made twice.
			for i := range 6 {
				e.write(map[string]string{
					fmt.Sprintf("more-%d/question.json", i): fmt.Sprintf(`{"title": "More %d", "language": "python"}`, i),
					fmt.Sprintf("more-%d/starter.py", i):    fmt.Sprint("print(", i, ")\n"),
				})
			}
			var mu sync.Mutex
			rng := rand.New(rand.NewPCG(seed, 24))
			e.srv.SetFaults(func(route string, r padapitest.Request) padapitest.Fault {
				mu.Lock()
				defer mu.Unlock()
				switch x := rng.Float64(); {
				case x < 0.1:
					return padapitest.Fault{Status: http.StatusInternalServerError}
				case x < 0.2:
					return padapitest.Fault{Drop: true}
				}
				return padapitest.Fault{}
			})
			runs, codes := 0, map[int]int{}
			for ; runs < 200; runs++ {
				code, out, errs := e.run("apply", syncOptions{prune: true}, -1)
				codes[code]++
				if code == 0 {
					break
				}
				if code != exitError && code != exitUnknown {
					t.Fatalf("run %d: exit %d\n%s\n%s", runs, code, out, errs)
				}
			}
			e.srv.SetFaults(nil)
			t.Logf("%d runs, exit codes %v", runs+1, codes)
			if runs == 200 {
				t.Fatal("apply never succeeded")
			}
			e.converged(1)
		})
	}
}

// syncScenario sets up a folder pulled from the fake and then changed: one
// question edited, one folder removed (pruned), one left as pulled, and
// new folders of every shape (one of each: each more folder was a dozen
// more files in each of the 13 runs of TestQuestionsApplyKilledAfterK).
func syncScenario(t *testing.T, e *syncEnv) {
	t.Helper()
	e.srv.AddQuestion(padapi.Question{Title: "Elsewhere", Language: "ruby"}) // never pulled here
	// Only the one edited has more than a title and a language to write.
	e.srv.AddQuestion(padapi.Question{Title: "Pulled 0", Language: "python", Description: "d", Contents: "c"})
	for i := 1; i < 3; i++ {
		e.srv.AddQuestion(padapi.Question{Title: fmt.Sprint("Pulled ", i), Language: "python"})
	}
	e.must("pull", syncOptions{})
	if err := os.RemoveAll(filepath.Join(e.dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	// Forget it was pulled, as if it had never been: prune must not touch it.
	st := readText(t, filepath.Join(e.dir, qfolder.StateFile))
	lib, _ := qfolder.Read(e.dir, false)
	delete(lib.State.Questions, "1")
	w, _ := qfolder.NewWriter(e.dir)
	if err := w.Save(lib.State); err != nil || st == "" {
		t.Fatal(err)
	}
	w.Close()
	e.write(map[string]string{"pulled-0/description.md": "edited"})
	if err := os.RemoveAll(filepath.Join(e.dir, "pulled-1")); err != nil {
		t.Fatal(err)
	}
	e.write(sampleFolders)
	e.write(map[string]string{"new-0/question.json": `{"title": "New 0", "language": "go"}`})
}

// An apply killed after k requests, for every k, converges when run again.
func TestQuestionsApplyKilledAfterK(t *testing.T) {
	// How many requests a whole apply takes.
	e := newSyncEnv(t)
	syncScenario(t, e)
	e.must("apply", syncOptions{prune: true})
	total := e.counts.n.Load()
	t.Logf("a whole apply of the scenario is %d requests; killing it after each k of 0..%d", total, total)
	e.converged(1)
	for k := range total + 1 {
		t.Run(fmt.Sprint("k", k), func(t *testing.T) {
			t.Parallel() // each k has its own fake and folder
			e := newSyncEnv(t)
			syncScenario(t, e)
			code, _, errs := e.run("apply", syncOptions{prune: true}, k)
			if code == 0 && k < total {
				t.Fatalf("apply killed after %d of %d requests succeeded:\n%s", k, total, errs)
			}
			e.must("apply", syncOptions{prune: true})
			e.converged(1)
		})
	}
}

// The target: diff on an unchanged folder of 200 questions lists (one
// request a page), fetches nothing else, and takes under 2 s behind 20 ms
// of latency. Each question has a title and a language only: a question
// is fetched on its own when the list does not show it as fresh, whatever
// its fields, and a description, starter and solution were 600 files more
// to write and remove (the round trips of every field are tested above).
func TestQuestionsDiff200(t *testing.T) {
	e := newSyncEnv(t)
	for i := range 200 {
		e.srv.AddQuestion(padapi.Question{Title: fmt.Sprint("Question ", i), Language: "python"})
	}
	start := time.Now()
	e.must("pull", syncOptions{})
	t.Logf("pull of 200 questions: %d requests, %s", e.counts.n.Load(), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	e.must("apply", syncOptions{})
	t.Logf("apply of 200 unchanged questions: %d requests, %s", e.counts.n.Load(), time.Since(start).Round(time.Millisecond))
	// The latency goes on for the diff only, whose time is the target:
	// the pull and the apply above are its set-up.
	for _, route := range []string{"GET /api/questions", "GET /api/questions/{id}"} {
		e.srv.Delay(route, 20*time.Millisecond)
	}
	start = time.Now()
	code, out, errs := e.run("diff", syncOptions{}, -1)
	took := time.Since(start)
	pages := int64(4)
	t.Logf("diff of 200 unchanged questions: %d requests (%d pages), %s", e.counts.n.Load(), pages, took.Round(time.Millisecond))
	if code != 0 || !strings.Contains(out, "200 unchanged") {
		t.Fatalf("diff: exit %d\n%s\n%s", code, out, errs)
	}
	if n := e.counts.n.Load(); n > 5+pages {
		t.Errorf("diff made %d requests, want at most %d", n, 5+pages)
	}
	// The time target holds without the race detector, which makes the
	// diff's own work (reading 200 folders) several times slower: under it,
	// on a busy machine, it took 3.3 s. The request count above is what
	// keeps the diff from fetching each question, under -race too.
	if took > 2*time.Second && !raceDetector() {
		t.Errorf("diff took %s, want < 2s", took)
	}
}

// raceDetector reports whether the test binary was built with -race.
func raceDetector() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && slices.ContainsFunc(bi.Settings, func(s debug.BuildSetting) bool { return s.Key == "-race" && s.Value == "true" })
}

// The commands through padctl itself: exit codes, and PAD_SETTLE.
func TestQuestionsSyncCommands(t *testing.T) {
	srv, env := fake(t)
	env["PAD_TIMEOUT"] = "10s"
	dir := filepath.Join(t.TempDir(), "q")
	writeFiles(t, dir, map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
	if r := padctl(t, env, "questions", "diff", dir); r.code != 1 || !strings.Contains(r.stdout, "create  a/") {
		t.Errorf("diff: %+v", r)
	}
	if r := padctl(t, env, "questions", "apply", "--dry-run", dir); r.code != 1 || len(srv.Questions()) != 0 {
		t.Errorf("apply --dry-run: %+v", r)
	}
	env["PAD_SETTLE"] = "soon"
	if r := padctl(t, env, "questions", "apply", dir); r.code != 2 || !strings.Contains(r.stderr, "PAD_SETTLE") {
		t.Errorf("bad PAD_SETTLE: %+v", r)
	}
	env["PAD_SETTLE"] = "0s"
	ok(t, padctl(t, env, "questions", "apply", dir))
	ok(t, padctl(t, env, "questions", "diff", dir))
	writeFiles(t, dir, map[string]string{"b/question.json": `{"title": "B"`})
	if r := padctl(t, env, "questions", "diff", dir); r.code != 2 || !strings.Contains(r.stderr, "b/question.json:1:") {
		t.Errorf("diff of a bad folder: %+v", r)
	}
	if r := padctl(t, env, "questions", "pull"); r.code != 2 {
		t.Errorf("pull without DIR: %+v", r)
	}
}

// zipArchive returns a zip archive of files.
func zipArchive(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, text := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(text)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A re-run adopts only a question created since the pending create was
// sent and held by no folder: an identical older question, or one another
// folder holds, is never taken for it.
func TestQuestionsAdoptsOnlyItsOwn(t *testing.T) {
	e := newSyncEnv(t)
	e.srv.AddQuestion(padapi.Question{Title: "Bare", Language: "go", CreatedAt: time.Now().Add(-time.Hour)})
	e.write(map[string]string{
		"bare/question.json": `{"title": "Bare", "language": "go"}`,
		"twin/question.json": `{"title": "Twin", "language": "go"}`,
	})
	e.must("apply", syncOptions{})
	// twin/ becomes a second Bare: identical to bare/'s question.
	e.write(map[string]string{"twin/question.json": strings.Replace(readText(t, filepath.Join(e.dir, "twin/question.json")), "Twin", "Bare", 1)})
	e.must("apply", syncOptions{})
	e.write(map[string]string{"third/question.json": `{"title": "Bare", "language": "go"}`})
	e.srv.FailNext("POST /api/questions", 1, http.StatusBadGateway, "")
	if code, _, errs := e.run("apply", syncOptions{}, -1); code != exitUnknown {
		t.Fatalf("apply: exit %d\n%s", code, errs)
	}
	out := e.must("apply", syncOptions{})
	if !strings.Contains(out, "created third/") {
		t.Errorf("the re-run adopted a question that was not its own:\n%s", out)
	}
	if n := len(e.srv.Questions()); n != 4 {
		t.Errorf("%d questions, want 4", n)
	}
}

// The README's example library is valid, applies, and round-trips.
func TestQuestionsExampleFolder(t *testing.T) {
	e := newSyncEnv(t)
	if err := os.CopyFS(e.dir, os.DirFS(filepath.Join("..", "..", "..", "..", "..", "examples", "questions"))); err != nil {
		t.Fatal(err)
	}
	out := e.must("apply", syncOptions{})
	if !strings.Contains(out, "Applied: 2 created") {
		t.Errorf("apply of the example:\n%s", out)
	}
	e.converged(0)
	if out := e.must("pull", syncOptions{}); !strings.Contains(out, "0 written, 2 unchanged") {
		t.Errorf("pull after apply:\n%s", out)
	}
}

// Ctrl-C at any point of an apply, through padctl itself: exit 130 (or 4
// when a create was in flight), and the re-run finishes the job with no
// question made twice.
func TestQuestionsApplyInterrupted(t *testing.T) {
	// An apply of sampleFolders to an empty fake is 4 requests: a list, 3 creates.
	for k := int64(1); k <= 4; k++ {
		t.Run(fmt.Sprint("k", k), func(t *testing.T) {
			srv, env := fake(t)
			env["PAD_SETTLE"], env["PAD_TIMEOUT"] = "0s", "10s"
			dir := filepath.Join(t.TempDir(), "q")
			writeFiles(t, dir, sampleFolders)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			defer cancel()
			var n atomic.Int64
			tr := cmdtest.RoundTrip(func(r *http.Request) (*http.Response, error) {
				if n.Add(1) == k {
					cancel() // as SIGINT does, with request k on its way
				}
				return http.DefaultTransport.RoundTrip(r)
			})
			r := invoke(t, opts{env: env, ctx: ctx, transport: tr}, "questions", "apply", dir)
			if r.code != exitInterrupted && r.code != exitUnknown {
				t.Fatalf("interrupted apply: %+v", r)
			}
			ok(t, padctl(t, env, "questions", "apply", dir))
			ok(t, padctl(t, env, "questions", "diff", dir))
			titles := map[string]bool{}
			for _, q := range srv.Questions() {
				if titles[q.Title] {
					t.Errorf("%q made twice", q.Title)
				}
				titles[q.Title] = true
			}
			if len(titles) != 3 {
				t.Errorf("%d questions, want 3", len(titles))
			}
		})
	}
}

// A control character from the service never reaches the terminal raw.
func TestQuestionsDiffEscapesControls(t *testing.T) {
	e := newSyncEnv(t)
	e.srv.AddQuestion(padapi.Question{Title: "T\x1b[2J", Language: "go", Description: "line\x1b]0;pwned\x07\r\nnext\u009b"})
	e.must("pull", syncOptions{})
	e.write(map[string]string{"t-2j/description.md": "changed"})
	code, out, _ := e.run("diff", syncOptions{}, -1)
	if code != 1 || strings.ContainsAny(out, "\x1b\x07\u009b") || !strings.Contains(out, `-line\x1b]0;pwned\a`) {
		t.Errorf("diff: exit %d\n%q", code, out)
	}
}

// A pull after a create with no answer puts the question in the folder
// that asked for it, not in a new one (which would make the next apply
// create it again).
func TestQuestionsPullAdoptsPending(t *testing.T) {
	e := newSyncEnv(t)
	e.write(map[string]string{"mine/question.json": `{"title": "Mine", "language": "go"}`, "mine/starter.go": "package main\n"})
	e.srv.DropNext("POST /api/questions", 1)
	if code, _, errs := e.run("apply", syncOptions{}, -1); code != exitUnknown {
		t.Fatalf("apply: exit %d\n%s", code, errs)
	}
	out := e.must("pull", syncOptions{})
	if !strings.Contains(out, "adopted mine/") {
		t.Errorf("pull:\n%s", out)
	}
	e.must("apply", syncOptions{})
	e.converged(0)
}

// laggingList is a transport that, while on, answers the question list with
// the pages it saw before it was turned on: the service's lists lag
// behind its writes.
type laggingList struct {
	mu   sync.Mutex
	on   bool
	snap map[string][]byte
	// until, when set, turns the lag off at that time.
	until time.Time
	rt    http.RoundTripper
}

func (l *laggingList) set(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on = on
}

func (l *laggingList) RoundTrip(r *http.Request) (*http.Response, error) {
	rt := cmp.Or[http.RoundTripper](l.rt, http.DefaultTransport)
	if r.Method != http.MethodGet || r.URL.Path != "/api/questions" {
		return rt.RoundTrip(r)
	}
	l.mu.Lock()
	on, old := l.on && (l.until.IsZero() || time.Now().Before(l.until)), l.snap[r.URL.RawQuery]
	l.mu.Unlock()
	if on && old != nil {
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(bytes.NewReader(old)), ContentLength: int64(len(old)), Request: r}, nil
	}
	resp, err := rt.RoundTrip(r)
	if err != nil || on {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.snap == nil {
		l.snap = map[string][]byte{}
	}
	l.snap[r.URL.RawQuery] = b
	l.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}

// A list older than padctl's own last write does not make apply send the
// same change again: the question is fetched on its own.
func TestQuestionsStaleList(t *testing.T) {
	e := newSyncEnv(t)
	lag := &laggingList{}
	e.base = lag
	e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Description: "old", CreatedAt: time.Now().Add(-time.Hour)})
	e.must("pull", syncOptions{})
	lag.set(true) // from now on the list shows the question as it was
	e.write(map[string]string{"two-sum/description.md": "new"})
	if out := e.must("apply", syncOptions{}); !strings.Contains(out, "1 updated") {
		t.Fatalf("apply:\n%s", out)
	}
	code, out, errs := e.run("diff", syncOptions{}, -1)
	if code != 0 {
		t.Errorf("diff behind a stale list: exit %d\n%s\n%s", code, out, errs)
	}
}

// A create with no answer whose question the lagging list does not show
// yet is waited for, found on the second look, and adopted (fake time).
func TestQuestionsSettleFindsLateQuestion(t *testing.T) {
	e := newSyncEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		lag := &laggingList{rt: &http.Transport{DisableKeepAlives: true}}
		e.base = lag
		e.write(map[string]string{"late/question.json": `{"title": "Late", "language": "go"}`})
		e.run("diff", syncOptions{}, -1) // the list, as it was before the create
		lag.set(true)
		e.srv.DropNext("POST /api/questions", 1)
		if code, _, errs := e.run("apply", syncOptions{settle: time.Minute}, -1); code != exitUnknown {
			t.Fatalf("apply: exit %d\n%s", code, errs)
		}
		lag.until = time.Now().Add(30 * time.Second) // within the settle wait
		code, out, errs := e.run("apply", syncOptions{settle: time.Minute}, -1)
		if code != 0 || strings.Count(errs, "Waiting") != 1 || !strings.Contains(out, "adopted late/") {
			t.Errorf("apply: exit %d\n%s\n%s", code, out, errs)
		}
		e.base = nil
		e.converged(0)
	})
}

// --timeout bounds apply plus its --settle wait: a re-run right after a
// create with no answer waits the settle time out and finishes, rather than
// running out of a --timeout shorter than that wait.
func TestQuestionsApplySettleBeyondTimeout(t *testing.T) {
	srv, env := fake(t)
	dir := filepath.Join(t.TempDir(), "q")
	synctest.Test(t, func(t *testing.T) {
		// Fake time: the settle wait takes none. No connection is kept,
		// so that every goroutine of a run is in the bubble's time.
		o := opts{env: env, transport: &http.Transport{DisableKeepAlives: true}}
		env["PAD_SETTLE"] = "800ms"
		env["PAD_TIMEOUT"] = "5s"
		writeFiles(t, dir, map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
		srv.FailNext("POST /api/questions", 1, http.StatusInternalServerError, "")
		if r := invoke(t, o, "questions", "apply", dir); r.code != exitUnknown {
			t.Fatalf("first apply: %+v", r)
		}
		env["PAD_TIMEOUT"] = "300ms"
		start := time.Now()
		if r := invoke(t, o, "questions", "apply", dir); r.code != 0 || !strings.Contains(r.stdout, "created a/") {
			t.Errorf("apply after the settle wait: %+v", r)
		}
		if took := time.Since(start); took != 800*time.Millisecond {
			t.Errorf("apply took %v, want it to wait out the 800ms settle time", took)
		}
		if n := len(srv.Questions()); n != 1 {
			t.Errorf("%d questions, want 1", n)
		}
	})
}

type garbledCreate struct {
	base http.RoundTripper
	body string
	n    int
}

func (m *garbledCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.base.RoundTrip(r)
	if err == nil && r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/questions") && m.n > 0 {
		m.n--
		resp.Body.Close()
		resp.Body = io.NopCloser(strings.NewReader(m.body))
		resp.ContentLength = int64(len(m.body))
		if m.body == "HUGE" {
			resp.ContentLength = 1 << 40
		}
	}
	return resp, err
}

// A create the service made, whose 201 body cannot be decoded, must not be
// made a second time by the re-run.
func TestQuestionsCreateAnsweredGarbageNotTwice(t *testing.T) {
	for _, body := range []string{`{"question":`, `null`, `{"id": {}}`, `<html>ok</html>`, `HUGE`, `{"status":"OK"}`, `{"status":"OK","id":null}`} {
		t.Run(body, func(t *testing.T) {
			e := newSyncEnv(t)
			e.write(map[string]string{"bare/question.json": `{"title": "Bare", "language": "go"}`})
			e.base = &garbledCreate{base: http.DefaultTransport, body: body, n: 1}
			code, out, errs := e.run("apply", syncOptions{}, -1)
			t.Logf("first apply: exit %d\n%s\n%s", code, out, errs)
			t.Logf("question.json after first apply:\n%s", readText(t, e.dir+"/bare/question.json"))
			e.base = nil
			code, out, errs = e.run("apply", syncOptions{}, -1)
			t.Logf("second apply: exit %d\n%s\n%s", code, out, errs)
			if n := len(e.srv.Questions()); n != 1 {
				t.Errorf("the service holds %d questions for one folder", n)
			}
		})
	}
}

// diff prints the service's text; a bidi override from the service must not
// reach the terminal raw (oneLine escapes it; the diff lines do not).
func TestQuestionsDiffEscapesBidi(t *testing.T) {
	e := newSyncEnv(t)
	e.write(map[string]string{"q/question.json": `{"title": "Q", "language": "go"}`, "q/description.md": "line one\n"})
	e.must("apply", syncOptions{})
	qs := e.srv.Questions()
	_, err := e.srv.Client().Questions.Update(context.Background(), qs[0].ID, &padapi.QuestionUpdateParams{Description: padapi.Ptr("evil \u202eexe.txt\x1b[2J\n")})
	if err != nil {
		t.Fatal(err)
	}
	_, out, _ := e.run("diff", syncOptions{}, -1)
	if strings.ContainsRune(out, '\u202e') {
		t.Errorf("diff printed U+202E raw:\n%q", out)
	}
}

// A second apply on a folder whose lock another run holds waits within
// --timeout, then exits 6 saying why.
func TestQuestionsApplyLocked(t *testing.T) {
	srv, env := fake(t)
	// apply's deadline is --timeout plus --settle: with the default settle
	// (a minute) this test waited 60 s for the lock. Fake time: the wait
	// takes none.
	env["PAD_TIMEOUT"], env["PAD_SETTLE"] = "300ms", "0s"
	dir := filepath.Join(t.TempDir(), "q")
	writeFiles(t, dir, map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
	synctest.Test(t, func(t *testing.T) {
		holder := qsync.New(srv.Client(), dir, qsync.Options{})
		if err := holder.Lock(t.Context(), false); err != nil {
			t.Fatal(err)
		}
		defer holder.Unlock()
		for _, command := range []string{"apply", "pull"} {
			start := time.Now()
			r := invoke(t, opts{env: env, transport: &http.Transport{DisableKeepAlives: true}}, "questions", command, dir)
			if r.code != exitLocked || !strings.Contains(r.stderr, "another padctl questions apply or pull is running on this folder") ||
				!strings.Contains(r.stderr, "Waiting for another") || time.Since(start) != 300*time.Millisecond {
				t.Errorf("%s on a locked folder, after %v: %+v", command, time.Since(start), r)
			}
		}
	})
	if n := len(srv.Questions()); n != 0 {
		t.Errorf("%d questions created under another run's lock", n)
	}
}

// Pull writes no file that holds the key, and names each file it redacted.
func TestQuestionsPullRedactsTheKey(t *testing.T) {
	srv, env := fake(t)
	key := env["PAD_API_KEY"]
	srv.AddQuestion(padapi.Question{Title: "Leak", Language: "python", Description: "key: " + key, Contents: "k = '" + key + "'"})
	dir := filepath.Join(t.TempDir(), "q")
	r := padctl(t, env, "questions", "pull", dir)
	if r.code != 0 {
		t.Fatalf("pull: %+v", r)
	}
	for _, file := range []string{"leak/description.md", "leak/starter.py"} {
		if got := readText(t, filepath.Join(dir, file)); strings.Contains(got, key) || !strings.Contains(r.stderr, "note: "+file+": the API key was taken out") {
			t.Errorf("%s: %q\nstderr:\n%s", file, got, r.stderr)
		}
	}
}

// Issue 28 #13: a title that a folder name turns into the key (no run of
// 8 bytes of it in the title itself) names no folder: pull writes the
// other questions, names the refused folder with the key masked, and
// exits 1.
func TestQuestionsPullNoKeyInAName(t *testing.T) {
	const key = "abcd-efgh-ijkl-mnop-qrst"
	srv := padapitest.NewServer(t, padapitest.WithAPIKey(key))
	env := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": key}
	srv.AddQuestion(padapi.Question{Title: "Abcd Efgh. Ijkl, Mnop! Qrst", Language: "python", Contents: "x = 1"})
	srv.AddQuestion(padapi.Question{Title: "Clean", Language: "python", Contents: "x = 2"})
	dir := filepath.Join(t.TempDir(), "q")
	r := padctl(t, env, "questions", "pull", dir)
	var names []string
	_ = filepath.WalkDir(dir, func(p string, _ fs.DirEntry, _ error) error {
		if strings.Contains(strings.ToLower(p), key) {
			t.Errorf("a folder or file named with the key: %s", p)
		}
		names = append(names, p)
		return nil
	})
	if r.code != cmdutil.ExitError || !strings.Contains(r.stderr, "[REDACTED]/") || !strings.Contains(r.stderr, "the name would hold the API key") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	t.Logf("files: %q; stderr %q", names, r.stderr)
}

// Each sync command parses its flags (and PAD_SETTLE) into SyncOptions
// and hands them to runF: flag parsing tested without a service.
func TestSyncCommandsParseFlags(t *testing.T) {
	const key = "sync-flags-key-0123456789"
	env := map[string]string{"PAD_SETTLE": "5s", "PAD_API_KEY": key}
	type newCmd func(*cmdutil.Factory, func(*questions.SyncOptions) error) *cobra.Command
	for _, tc := range []struct {
		name string
		new  newCmd
		args []string
		want questions.SyncOptions
	}{
		{"pull", questions.NewCmdPull, []string{"--id", "1", "--id", "2", "--force", "--dry-run", "lib"},
			questions.SyncOptions{Dir: "lib", IDs: []string{"1", "2"}, Force: true, DryRun: true, Settle: questions.DefaultSettle}},
		{"diff", questions.NewCmdDiff, []string{"--prune", "lib"}, questions.SyncOptions{Dir: "lib", Prune: true, Settle: 5 * time.Second}},
		{"apply", questions.NewCmdApply, []string{"--prune", "--dry-run", "--settle", "0s", "lib"},
			questions.SyncOptions{Dir: "lib", Prune: true, DryRun: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, _, _ := iostreams.Test()
			f := &cmdutil.Factory{IOStreams: ios, Getenv: func(k string) string { return env[k] }}
			var got *questions.SyncOptions
			cmd := tc.new(f, func(o *questions.SyncOptions) error { got = o; return nil })
			cmd.SetArgs(tc.args)
			if err := cmd.Execute(); err != nil || got == nil {
				t.Fatalf("%v, runF ran: %v", err, got != nil)
			}
			if got.Dir != tc.want.Dir || !slices.Equal(got.IDs, tc.want.IDs) || got.Force != tc.want.Force || got.Prune != tc.want.Prune ||
				got.DryRun != tc.want.DryRun || got.Settle != tc.want.Settle {
				t.Errorf("options %+v, want %+v", *got, tc.want)
			}
			if got.Redact == nil || strings.Contains(got.Redact("x "+key+" y"), key) {
				t.Errorf("the options' Redact does not take the key out")
			}
			if !strings.Contains(cmd.Example, "padctl questions "+tc.name) {
				t.Errorf("Example: %q", cmd.Example)
			}
		})
	}
}
