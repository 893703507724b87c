//go:build unix

// lock_unix.go: the run's lock on DIR, an flock the kernel releases when
// the process dies, however it dies.

package archive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/padinterview/padapi/internal/lib/safefile"
)

// lock takes an exclusive flock on the file name in dir (made if needed;
// never through a link or on anything but a regular file) and returns its
// release, or ErrLocked when another process or run holds it.
func lock(dir, name string) (func(), error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if fi, err := root.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %s: not locking it", name, safefile.Kind(fi.Mode()))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	fh, err := root.OpenFile(name, os.O_RDONLY|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, safefile.Pathless(err))
	}
	if err := syscall.Flock(int(fh.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		fh.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return func() { release(fh) }, nil
}

// release unlocks the lock file, then closes it. A child this process is
// forking holds a copy of the descriptor from the fork until its exec
// closes it, and the kernel wakes the forking parent before that close:
// a close alone left the lock held by the copy for that while, and a run
// started at once found it held. An flock belongs to the open file, which
// the copy shares, so unlocking through any copy frees it for all.
func release(fh *os.File) {
	_ = syscall.Flock(int(fh.Fd()), syscall.LOCK_UN)
	fh.Close()
}
