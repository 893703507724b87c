//go:build !unix

// lock_other.go: the run's lock on DIR where there is no flock: a file
// made with O_EXCL, removed at the end of the run. A run killed outright
// leaves it; remove it by hand once no run is going.

package archive

import (
	"errors"
	"io/fs"
	"os"
)

func lock(dir, name string) (func(), error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	fh, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		root.Close()
		return nil, ErrLocked
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	fh.Close()
	return func() { _ = root.Remove(name); root.Close() }, nil
}
