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

	"github.com/padinterview/padapi/internal/safefile"
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
	return func() { unlockClosing(fh) }, nil
}

// unlockClosing closes the lock file, which releases the flock once no
// process holds a copy of it. A child this process is forking holds one
// from the fork to its exec (O_CLOEXEC closes it only then), so a run that
// took the lock right after would find it held. Holding ForkLock for
// reading waits for any fork in progress (the parent keeps it until the
// child has exec'd) and lets none start until the file is closed.
func unlockClosing(fh *os.File) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fh.Close()
}
