//go:build unix

package archive

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/padinterview/padapi/internal/lib/flock"
)

// TestReleaseFreesTheLockThoughACopyLives: a child this process forks holds
// a copy of the lock's descriptor until its exec closes it, and the kernel
// wakes the forking parent before that close. A release that only closed
// the file left the lock held by the copy, and the next run, started at
// once, failed with ErrLocked (TestKilledAtAnyWrite did, on a loaded
// machine, while the SIGKILL test forked its children). The copy here is
// a dup, which shares the lock as a fork's copy does.
func TestReleaseFreesTheLockThoughACopyLives(t *testing.T) {
	dir := t.TempDir()
	fh, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDONLY|os.O_CREATE, 0o644)
	must(t, err)
	must(t, syscall.Flock(int(fh.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	copied, err := syscall.Dup(int(fh.Fd()))
	must(t, err)
	defer syscall.Close(copied)
	_ = flock.Release(fh)
	unlock, err := lock(dir, lockName)
	if err != nil {
		t.Fatalf("lock after release, a copy of the descriptor open: %v", err)
	}
	unlock()
}
