//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package qsync

import (
	"syscall"
	"testing"
)

// TestReleaseFreesTheLockThoughACopyLives: a copy of the lock's descriptor,
// as a child being forked holds until its exec, does not keep the folder
// locked once release returns (a dup shares the lock as that copy does).
// With release closing the folder alone, the second tryLock is ErrLocked.
func TestReleaseFreesTheLockThoughACopyLives(t *testing.T) {
	dir := t.TempDir()
	l, err := tryLock(dir)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := syscall.Dup(int(l.f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(copied)
	if err := l.release(); err != nil {
		t.Fatal(err)
	}
	again, err := tryLock(dir)
	if err != nil {
		t.Fatalf("lock after release, a copy of the descriptor open: %v", err)
	}
	if err := again.release(); err != nil {
		t.Fatal(err)
	}
}
