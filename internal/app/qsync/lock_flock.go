//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package qsync

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile is the folder itself, opened and locked with flock(2): the
// kernel drops the lock when the process ends, however it ends, and no
// file is left in the folder.
type lockFile struct {
	f *os.File
}

// tryLock takes an exclusive flock on the folder dir, or returns ErrLocked.
func tryLock(dir string) (*lockFile, error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (padctl follows no symlink)", dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("%s: lock: %w", dir, err)
	}
	return &lockFile{f: f}, nil
}

// release drops the lock, then closes the folder. A child this process is
// forking holds a copy of the descriptor until its exec closes it, after
// the kernel has let the parent go on: closed alone, the folder stayed
// locked by that copy for a moment, and an apply started at once found it
// locked. An flock belongs to the open file, which the copy shares, so
// unlocking through our descriptor frees it (as internal/app/archive does).
func (l *lockFile) release() error {
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	return l.f.Close()
}
