package archive_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/archive"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/padapitest"
	"github.com/spf13/cobra"
)

// fake is a fake service with n sample pads, and the environment that
// points padctl at it.
func fake(t *testing.T, n int) (*padapitest.Server, map[string]string) {
	t.Helper()
	srv, env := cmdtest.Fake(t)
	srv.Seed(n)
	return srv, env
}

// summaryLine matches the summary printed piped: added, updated,
// unchanged, deleted, failed, requests, seconds.
var summaryLine = regexp.MustCompile(`^(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t(\d+)\t\d+\.\d$`)

func TestFirstRunWritesEveryPadAndTheSummary(t *testing.T) {
	srv, env := fake(t, 3)
	dir := filepath.Join(t.TempDir(), "interviews")
	r := cmdtest.Padctl(t, env, "archive", dir)
	cmdtest.Ok(t, r)
	l := cmdtest.Lines(r.Stdout)
	if len(l) != 1 {
		t.Fatalf("want one summary line, got:\n%s", r.Stdout)
	}
	m := summaryLine.FindStringSubmatch(l[0])
	if m == nil || m[1] != "3" || m[2] != "0" || m[3] != "0" || m[5] != "0" || m[6] == "0" {
		t.Fatalf("summary %q: want 3 added, none failed, some requests", l[0])
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(cmdtest.Lines(string(index))); got != 3 {
		t.Errorf("index.jsonl has %d lines, want 3:\n%s", got, index)
	}
	for _, p := range srv.Pads() {
		var pad map[string]any
		b, err := padJSON(t, dir, p.ID)
		if err != nil || json.Unmarshal(b, &pad) != nil || pad["id"] != string(p.ID) {
			t.Errorf("pad %s: pad.json %q, %v", p.ID, b, err)
		}
	}
}

// padJSON reads the pad.json of pad id, through the folder the index names.
func padJSON(t *testing.T, dir string, id padapi.ID) ([]byte, error) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, line := range cmdtest.Lines(string(b)) {
		var e struct{ ID, Dir string }
		if json.Unmarshal([]byte(line), &e) == nil && e.ID == string(id) {
			return os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Dir), "pad.json"))
		}
	}
	return nil, os.ErrNotExist
}

// summary runs padctl archive --json and decodes the summary, checking
// that it holds exactly the keys the README names.
func summary(t *testing.T, env map[string]string, args ...string) map[string]float64 {
	t.Helper()
	r := cmdtest.Padctl(t, env, append([]string{"archive", "--json"}, args...)...)
	cmdtest.Ok(t, r)
	var got map[string]float64
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil || strings.Count(r.Stdout, "\n") != 1 {
		t.Fatalf("--json: not one JSON object on one line: %v\n%s", err, r.Stdout)
	}
	want := []string{"added", "updated", "unchanged", "deleted", "failed", "requests", "seconds"}
	if len(got) != len(want) {
		t.Errorf("--json keys %v, want %v", got, want)
	}
	for _, k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("--json has no %q: %s", k, r.Stdout)
		}
	}
	return got
}

func TestJSONSummaryAndReRunUnchanged(t *testing.T) {
	_, env := fake(t, 4)
	dir := t.TempDir() // empty: taken as a new archive
	first := summary(t, env, dir)
	if first["added"] != 4 || first["requests"] < 4 || first["failed"] != 0 {
		t.Errorf("first run: %v", first)
	}
	again := summary(t, env, dir)
	if again["added"] != 0 || again["updated"] != 0 || again["unchanged"] != 4 || again["requests"] > 2 || again["requests"] < 1 {
		t.Errorf("re-run with nothing changed: %v; want 4 unchanged in at most 2 requests", again)
	}
}

func TestVerify(t *testing.T) {
	_, env := fake(t, 2)
	dir := filepath.Join(t.TempDir(), "a")
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "archive", dir))

	r := cmdtest.Padctl(t, nil, "archive", "verify", dir)
	cmdtest.Ok(t, r)
	if r.Stdout != "" {
		t.Errorf("verify of a clean archive printed %q", r.Stdout)
	}

	b, err := os.ReadFile(filepath.Join(dir, "index.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var e struct{ Dir string }
	if err := json.Unmarshal([]byte(cmdtest.Lines(string(b))[0]), &e); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, filepath.FromSlash(e.Dir), "notes.md")
	if err := os.WriteFile(notes, []byte("tampered\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = cmdtest.Padctl(t, nil, "archive", "verify", dir)
	want := e.Dir + "/notes.md: "
	if r.Code != cmdutil.ExitError || len(cmdtest.Lines(r.Stdout)) != 1 || !strings.HasPrefix(r.Stdout, want) {
		t.Errorf("verify after tampering: exit %d, stdout %q; want exit 1 and one line starting %q", r.Code, r.Stdout, want)
	}
	if !strings.Contains(r.Stderr, "1 differences") {
		t.Errorf("stderr %q", r.Stderr)
	}
	r = cmdtest.Padctl(t, nil, "archive", "verify", "--json", dir)
	var diffs []struct{ Path, Problem string }
	if r.Code != 1 || json.Unmarshal([]byte(r.Stdout), &diffs) != nil || len(diffs) != 1 || diffs[0].Path != e.Dir+"/notes.md" {
		t.Errorf("verify --json: exit %d, %q", r.Code, r.Stdout)
	}
}

// A folder that is neither empty nor an archive is refused, for a run and
// for verify, and left as it was.
func TestNotAnArchiveIsAUsageError(t *testing.T) {
	_, env := fake(t, 1)
	dir := t.TempDir()
	mine := filepath.Join(dir, "thesis.tex")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"archive", dir}, {"archive", "verify", dir}} {
		r := cmdtest.Padctl(t, env, args...)
		cmdtest.CheckUsageError(t, args, r, "not an archive")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the folder now holds %d entries", len(ents))
	}
}

func TestConcurrencyFlag(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *archive.ArchiveOptions
	cmd := archive.NewCmdArchive(f, func(o *archive.ArchiveOptions) error { got = o; return nil }, nil)
	cmd.SetArgs([]string{"d", "--mine", "--no-history", "--full"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Concurrency != 0 || !got.Mine || !got.Full || !got.NoHistory || got.Dir != "d" || got.Timeout != 0 || got.Gate == nil || got.Redact == nil {
		t.Errorf("options %+v", got)
	}
	for _, n := range []string{"0", "17", "-1"} {
		args := []string{"archive", "d", "--concurrency", n}
		cmdtest.CheckUsageError(t, args, cmdtest.Padctl(t, nil, args...), "--concurrency "+n)
	}
	for _, n := range []string{"1", "16"} {
		cmd := archive.NewCmdArchive(f, func(o *archive.ArchiveOptions) error { got = o; return nil }, nil)
		cmd.SetArgs([]string{"d", "--concurrency", n})
		if err := cmd.Execute(); err != nil || strconv.Itoa(got.Concurrency) != n {
			t.Errorf("--concurrency %s: %v, %d", n, err, got.Concurrency)
		}
	}
}

// The progress line is drawn on stderr on a terminal, redrawn in place,
// and blanked before the summary; piped, stderr stays empty.
func TestProgressOnlyOnATerminal(t *testing.T) {
	_, env := fake(t, 3)
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "archive", filepath.Join(t.TempDir(), "a"))
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	if !strings.HasPrefix(r.Stderr, "\rarchiving: listing the pads... \r") || !strings.Contains(r.Stderr, "\rarchiving: ") || !strings.Contains(r.Stderr, " of 3 pads") || strings.Contains(r.Stderr, "\n") {
		t.Errorf("stderr on a terminal: %q; want a progress line redrawn with \\r, no new line", r.Stderr)
	}
	if !strings.HasSuffix(r.Stderr, "\r") {
		t.Errorf("the progress line is not blanked at the end: %q", r.Stderr)
	}
	words := regexp.MustCompile(`^.*/a: 3 added, 0 updated, 0 unchanged, 0 deleted, 0 failed; \d+ requests in \d+\.\ds\n$`)
	if !words.MatchString(r.Stdout) {
		t.Errorf("summary on a terminal: %q", r.Stdout)
	}
	r = cmdtest.Padctl(t, env, "archive", filepath.Join(t.TempDir(), "b"))
	cmdtest.Ok(t, r)
}

// The API key, sent back by the service in a pad's notes, is written to
// no file, and the file it was taken from is named on stderr.
func TestKeyRedactedAndNamed(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	srv.AddPad(padapi.Pad{Title: "echo", Notes: "the key is " + srv.APIKey})
	dir := filepath.Join(t.TempDir(), "a")
	r := cmdtest.Padctl(t, env, "archive", dir)
	if r.Code != 0 || !regexp.MustCompile(`(?m)^padctl: the API key was found in pads/[^ ]+/(notes\.md|pad\.json) and written redacted$`).MatchString(r.Stderr) {
		t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), srv.APIKey) {
				t.Errorf("%s holds the key", p)
			}
		}
		return nil
	})
}

// A pad the service refuses is named, the summary printed, and the run
// exits 1; the next run fetches it.
func TestFailedPadExitsOneAfterTheSummary(t *testing.T) {
	srv, env := fake(t, 2)
	srv.FailNext("GET /api/pads/{id}", 1, 400, `{"status":"ERROR","message":"boom"}`)
	dir := filepath.Join(t.TempDir(), "a")
	r := cmdtest.Padctl(t, env, "archive", dir, "--json")
	if r.Code != cmdutil.ExitError || !strings.Contains(r.Stdout, `"failed":1`) ||
		!regexp.MustCompile(`(?m)^padctl: pad \w+ could not be archived: .*boom`).MatchString(r.Stderr) || !strings.Contains(r.Stderr, "the next run tries them again") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	got := summary(t, env, dir)
	if got["added"] != 1 || got["failed"] != 0 {
		t.Errorf("the run after: %v", got)
	}
}

// A run cut by the user's --timeout exits 1 and says the next run resumes;
// without --timeout or PAD_TIMEOUT the run has no limit (the 30 s default
// is not for an archive).
func TestTimeoutCutResumes(t *testing.T) {
	srv, env := fake(t, 2)
	srv.Delay("GET /api/organization/pads", time.Minute)
	srv.Delay("GET /api/pads", time.Minute)
	dir := filepath.Join(t.TempDir(), "a")
	r := cmdtest.Padctl(t, env, "archive", dir, "--timeout", "20ms")
	if r.Code != cmdutil.ExitError || !strings.Contains(r.Stderr, "--timeout limit (20ms)") || !strings.Contains(r.Stderr, "the next run resumes") {
		t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	var f *cmdutil.Factory
	var got *archive.ArchiveOptions
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want time.Duration
	}{
		{nil, nil, 0},
		{map[string]string{"PAD_TIMEOUT": "2h"}, nil, 2 * time.Hour},
		{nil, []string{"--timeout", "5m"}, 5 * time.Minute},
	} {
		ios, _, _, _ := iostreams.Test()
		f = &cmdutil.Factory{IOStreams: ios, Getenv: func(k string) string { return tc.env[k] }}
		root := &cobra.Command{Use: "padctl", PersistentPreRun: func(cmd *cobra.Command, _ []string) { f.StartClock(cmd) }}
		root.PersistentFlags().DurationVar(&f.Flags.Timeout, "timeout", cmdutil.DefaultTimeout, "")
		f.Persistent = root.PersistentFlags()
		root.AddCommand(archive.NewCmdArchive(f, func(o *archive.ArchiveOptions) error {
			got = o
			if _, ok := o.Ctx.Deadline(); ok {
				t.Errorf("%v %q: the command's context has a deadline", tc.env, tc.args)
			}
			return nil
		}, nil))
		root.SetArgs(append([]string{"archive", "d"}, tc.args...))
		if err := root.Execute(); err != nil || got.Timeout != tc.want {
			t.Errorf("%v %q: %v, timeout %s, want %s", tc.env, tc.args, err, got.Timeout, tc.want)
		}
	}
}

// Ctrl-C exits 130 as every command does, keeping what is done, and says
// how to resume.
func TestInterrupted(t *testing.T) {
	_, env := fake(t, 2)
	ctx, cancel := context.WithCancelCause(t.Context())
	// The signal comes as the first request leaves.
	signal := roundTripper(func(r *http.Request) (*http.Response, error) {
		cancel(&cmdutil.SignalError{Code: cmdutil.ExitInterrupted, What: "interrupted"})
		return http.DefaultTransport.RoundTrip(r)
	})
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Ctx: ctx, Transport: signal}, "archive", filepath.Join(t.TempDir(), "a"))
	if r.Code != cmdutil.ExitInterrupted || !strings.Contains(r.Stderr, "padctl: interrupted") || !strings.Contains(r.Stderr, "run it again to resume") {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The README's "Archive every interview" sample runs as written: each of
// its padctl lines, against a fake seeded as its padfake line seeds one, in
// a folder of its own, prints what the line's comment says.
func TestReadmeSampleRunsAsWritten(t *testing.T) {
	readme, err := os.ReadFile("../../../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n### Archive every interview\n")
	_, block, _ := strings.Cut(section, "\n```sh\n")
	block, _, _ = strings.Cut(block, "\n```\n")
	seed := regexp.MustCompile(`padfake .*-seed (\d+)`).FindStringSubmatch(block)
	if seed == nil {
		t.Fatalf("no padfake -seed line in the README's archive sample:\n%s", block)
	}
	n, _ := strconv.Atoi(seed[1])
	_, env := fake(t, n)
	t.Chdir(t.TempDir())
	ran := 0
	for _, line := range strings.Split(block, "\n") {
		cmdline, comment, _ := strings.Cut(line, "#")
		cmdline, echoExit := strings.CutSuffix(strings.TrimSpace(cmdline), `; echo "exit $?"`)
		args, ok := strings.CutPrefix(cmdline, "./padctl ")
		if !ok {
			continue
		}
		ran++
		r := cmdtest.Padctl(t, env, strings.Fields(args)...)
		comment = strings.TrimSpace(comment)
		switch {
		case echoExit:
			if got := fmt.Sprintf("exit %d", r.Code); got != comment {
				t.Errorf("%s: %s, the README says %s; stdout %q", line, got, comment, r.Stdout)
			}
		case strings.HasPrefix(comment, "{"):
			cmdtest.Ok(t, r)
			// Each "key":value the comment shows is in the output.
			for _, kv := range regexp.MustCompile(`"\w+":\w+`).FindAllString(comment, -1) {
				if !strings.Contains(r.Stdout, kv) {
					t.Errorf("%s: output %q lacks %s", line, r.Stdout, kv)
				}
			}
		default:
			cmdtest.Ok(t, r)
			// "(piped: 6  0  0 ...)": every count but the seconds.
			_, piped, _ := strings.Cut(comment, "(piped: ")
			want := strings.Fields(strings.TrimSuffix(piped, ")"))
			got := strings.Fields(r.Stdout)
			if len(want) == 0 || len(got) != len(want) || !slices.Equal(got[:len(got)-1], want[:len(want)-1]) {
				t.Errorf("%s: piped output %q, the README says %q", line, r.Stdout, piped)
			}
		}
	}
	if ran != 3 {
		t.Errorf("ran %d padctl lines of the README's archive sample, want 3:\n%s", ran, block)
	}
	if b, err := os.ReadFile("interviews/index.jsonl"); err != nil || len(cmdtest.Lines(string(b))) != n {
		t.Errorf("interviews/index.jsonl: %d lines, %v; want %d", len(cmdtest.Lines(string(b))), err, n)
	}
}

// The archive reads the list several pages at once (the library's walker,
// as padctl's list commands read theirs): the transport holds each page
// from the third on until 4 are in flight together, which a walk one page
// after another never reaches.
func TestTheListIsReadSeveralPagesAtOnce(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithPageSize(2))
	srv.Seed(40)
	env := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
	const want = 4
	var mu sync.Mutex
	inFlight, most := 0, 0
	release := make(chan struct{})
	var once sync.Once
	hold := roundTripper(func(r *http.Request) (*http.Response, error) {
		// The engine reads page 1 alone, and the walker page 2 (it
		// guesses the pages after from its link): the pages from 3 on.
		if page, _ := strconv.Atoi(r.URL.Query().Get("page")); strings.HasSuffix(r.URL.Path, "/pads") && page >= 3 {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			if inFlight >= want {
				once.Do(func() { close(release) })
			}
			mu.Unlock()
			select {
			case <-release:
			case <-time.After(5 * time.Second): // a walk one page at a time
				once.Do(func() { close(release) })
			}
			defer func() { mu.Lock(); inFlight--; mu.Unlock() }()
		}
		return http.DefaultTransport.RoundTrip(r)
	})
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: hold}, "archive", filepath.Join(t.TempDir(), "a"), "--no-history", "--json")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"added":40`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.Code, r.Stdout, r.Stderr)
	}
	if most < want {
		t.Errorf("at most %d pages of the list in flight at once, want %d", most, want)
	}
}
