package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/padapitest"
)

// The tests of package main are those of the built binary. The helpers
// below are cmdtest's, under the names those tests use.

// testKey is distinctive, so that a leak into any output cannot be missed.
const testKey = cmdtest.TestKey

// Exit codes, as the tests name them.
const (
	exitError       = cmdutil.ExitError
	exitUsage       = cmdutil.ExitUsage
	exitOverQuota   = cmdutil.ExitOverQuota
	exitUnknown     = cmdutil.ExitUnknown
	exitInterrupted = cmdutil.ExitInterrupted
	exitTerminated  = cmdutil.ExitTerminated
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
	tty       bool // stdout and stderr are terminals
	ctx       context.Context
	transport http.RoundTripper
}

// invoke runs padctl in-process, main's commands included, and fails the
// test if an API key shows up in anything it printed.
func invoke(t *testing.T, o opts, args ...string) result {
	t.Helper()
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: o.env, TTY: o.tty, Ctx: o.ctx, Transport: o.transport}, args...)
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

// lines splits output into its lines, without the last newline.
func lines(s string) []string { return cmdtest.Lines(s) }

// oneLine is padctl's escaping of a line of text from the service.
func oneLine(s string) string { return iostreams.Escape(s, iostreams.Line) }

// writeFiles writes name and contents pairs below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) { cmdtest.WriteFiles(t, dir, files) }

// stub is cmdtest's Stub under the names main's tests use.
type stub struct{ *cmdtest.Stub }

// stubRequest is one request a stub received.
type stubRequest struct {
	method, path, auth, contentType string
	query                           map[string][]string
	body                            []byte
}

func newStub(t *testing.T, routes map[string]http.HandlerFunc) *stub {
	t.Helper()
	return &stub{cmdtest.NewStub(t, routes)}
}

// env is the environment that points padctl at the stub.
func (s *stub) env() map[string]string { return s.Env() }

func (s *stub) requests() []stubRequest {
	var reqs []stubRequest
	for _, r := range s.Requests() {
		reqs = append(reqs, stubRequest{r.Method, r.Path, r.Auth, r.ContentType, r.Query, r.Body})
	}
	return reqs
}

// reply answers with status and a JSON body.
func reply(status int, body string) http.HandlerFunc { return cmdtest.Reply(status, body) }

// hang never answers: it waits for the client to give up.
func hang(w http.ResponseWriter, r *http.Request) { cmdtest.Hang(w, r) }

// roundTrip is a func that is an http.RoundTripper.
type roundTrip = cmdtest.RoundTrip

// binDir holds the padctl binary the tests build, at most once per run;
// TestMain removes it.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// binary builds padctl once for the tests that run it, and returns its
// path.
func binary() (string, error) {
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "padctl-test-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "padctl")
		if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return binPath, binErr
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// exitCode is cmdutil.ExitCode, as the sync tests name it.
func exitCode(err error, ran bool) int { return cmdutil.ExitCode(err, ran) }
