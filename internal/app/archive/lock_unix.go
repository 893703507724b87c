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

	"github.com/padinterview/padapi/internal/lib/flock"
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
	if err := flock.TryLock(fh); err != nil {
		fh.Close()
		if errors.Is(err, flock.ErrHeld) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return func() { _ = flock.Release(fh) }, nil
}
