// main_test.go: the harness of the binary's tests: padctl run as this test binary under the name padctl (no build), its link removed by TestMain, and helpers over cmdtest.

package main

import (
	"net/http"
	"os"
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

// binDir holds the padctl the tests run, made at most once per run;
// TestMain removes it.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

// binaryName is the name the tests run padctl under: a link to this test
// binary, which TestMain turns into padctl when it is started under that
// name.
const binaryName = "padctl"

// binary returns the path of padctl for the tests that run it: a link
// named padctl to this very test binary, which holds package main and so
// padctl's main. No go build: the tests run the code they were built
// from, under -race and -cover too, with no second link of the module.
func binary() (string, error) {
	binOnce.Do(func() {
		self, err := os.Executable()
		if err != nil {
			binErr = err
			return
		}
		if binDir, binErr = os.MkdirTemp("", "padctl-test-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, binaryName)
		binErr = os.Symlink(self, binPath)
	})
	return binPath, binErr
}

// TestMain runs padctl's main when the test binary was started as padctl
// (binary), and the tests otherwise.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == binaryName {
		main() // exits
	}
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
