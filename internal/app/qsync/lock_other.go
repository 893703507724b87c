//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package qsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// lockName is the lock file where flock(2) is not available: made with
// O_EXCL and removed on Unlock. Unlike a flock it outlives a process that
// is killed, and must then be removed by hand.
const lockName = ".padctl-lock"

// lockFile is the lock file taken.
type lockFile struct {
	name string
}

// tryLock makes the lock file, or returns ErrLocked when it exists.
func tryLock(dir string) (*lockFile, error) {
	name := filepath.Join(dir, lockName)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("%w (%s exists: remove it if no apply or pull is running)", ErrLocked, name)
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return &lockFile{name: name}, nil
}

// release removes the lock file.
func (l *lockFile) release() error {
	return os.Remove(l.name)
}
