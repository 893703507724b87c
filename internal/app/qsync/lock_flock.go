//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package qsync

import (
	"errors"
	"fmt"
	"os"

	"github.com/padinterview/padapi/internal/lib/flock"
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
	if err := flock.TryLock(f); err != nil {
		f.Close()
		if errors.Is(err, flock.ErrHeld) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("%s: lock: %w", dir, err)
	}
	return &lockFile{f: f}, nil
}

// release drops the lock, then closes the folder (flock.Release says
// why in that order).
func (l *lockFile) release() error {
	return flock.Release(l.f)
}
