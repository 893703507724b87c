//go:build unix

package archive_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// A second run on a folder another run holds exits 6, as the question
// sync does, and says so.
func TestLockedExitsSix(t *testing.T) {
	_, env := fake(t, 1)
	dir := filepath.Join(t.TempDir(), "a")
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "archive", dir))
	fh, err := os.Open(filepath.Join(dir, ".padctl-archive.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := syscall.Flock(int(fh.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	r := cmdtest.Padctl(t, env, "archive", dir)
	if r.Code != cmdutil.ExitLocked || !strings.Contains(r.Stderr, "another archive run is working on this folder") || r.Stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}
