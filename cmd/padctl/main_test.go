// main_test.go: the harness of the binary's tests: the one build of padctl per test run, removed by TestMain, and helpers over cmdtest.

package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
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

// fake starts a padapitest fake and returns it with the environment that
// points padctl at it.
func fake(t *testing.T) (*padapitest.Server, map[string]string) { return cmdtest.Fake(t) }

// stub is cmdtest's Stub under the names main's tests use.
type stub struct{ *cmdtest.Stub }

func newStub(t *testing.T, routes map[string]http.HandlerFunc) *stub {
	t.Helper()
	return &stub{cmdtest.NewStub(t, routes)}
}

// env is the environment that points padctl at the stub.
func (s *stub) env() map[string]string { return s.Env() }

// reply answers with status and a JSON body.
func reply(status int, body string) http.HandlerFunc { return cmdtest.Reply(status, body) }

// hang never answers: it waits for the client to give up.
func hang(w http.ResponseWriter, r *http.Request) { cmdtest.Hang(w, r) }

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
