//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package flock

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func open(t *testing.T, name string) *os.File {
	t.Helper()
	if _, err := os.Stat(name); err != nil {
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// A second open file cannot take a held lock until the first releases it;
// a folder locks as a file does.
func TestTryLockRelease(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{filepath.Join(dir, "lock"), dir} {
		a, b := open(t, name), open(t, name)
		if err := TryLock(a); err != nil {
			t.Fatalf("%s: first lock: %v", name, err)
		}
		if err := TryLock(b); !errors.Is(err, ErrHeld) {
			t.Fatalf("%s: second lock: %v, want ErrHeld", name, err)
		}
		if err := Release(a); err != nil {
			t.Fatalf("%s: release: %v", name, err)
		}
		if err := TryLock(b); err != nil {
			t.Fatalf("%s: lock after release: %v", name, err)
		}
		if err := Release(b); err != nil {
			t.Fatal(err)
		}
	}
	// A closed file is an error, never a lock taken or held.
	c := open(t, filepath.Join(dir, "lock"))
	c.Close()
	if err := TryLock(c); err == nil || errors.Is(err, ErrHeld) {
		t.Errorf("TryLock of a closed file: %v", err)
	}
}

// Release frees the lock though a copy of the descriptor lives, as a
// forked child's does until its exec: a close alone would leave it held.
func TestReleaseFreesTheLockThoughACopyLives(t *testing.T) {
	name := filepath.Join(t.TempDir(), "lock")
	a, b := open(t, name), open(t, name)
	if err := TryLock(a); err != nil {
		t.Fatal(err)
	}
	copied, err := syscall.Dup(int(a.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(copied)
	if err := Release(a); err != nil {
		t.Fatal(err)
	}
	if err := TryLock(b); err != nil {
		t.Fatalf("lock after release, a copy of the descriptor open: %v", err)
	}
}
