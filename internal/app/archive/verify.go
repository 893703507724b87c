// verify.go: Verify, every file of an archive checked against its index.

package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// Difference is one way an archive differs from its index.
type Difference struct {
	// Path is the file or folder, relative to DIR.
	Path string
	// Problem says what differs: "missing", "changed", "not in the index",
	// or why it cannot be read.
	Problem string
}

// Verify checks every file the index of the archive in dir names against
// its digest, and reports the files and pad folders the index does not
// name, in index order. It writes nothing. An error means dir could not be
// read as an archive at all.
func Verify(dir string) ([]Difference, error) {
	d, err := safefile.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	st := &store{dir: d, index: map[padapi.ID]*entry{}}
	if fresh, err := st.checkMarker(); err != nil {
		return nil, err
	} else if fresh {
		return nil, ErrNotArchive
	}
	if err := st.loadIndex(); err != nil {
		return nil, err
	}
	var diffs []Difference
	named := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(st.index)) {
		e := st.index[id]
		named[path.Base(e.Dir)] = true
		diffs = append(diffs, verifyPad(d, e)...)
	}
	entries, err := fs.ReadDir(d.FS(), padsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if !named[e.Name()] {
			diffs = append(diffs, Difference{Path: path.Join(padsDir, e.Name()), Problem: "not in the index"})
		}
	}
	return diffs, nil
}

// verifyPad checks one pad's folder against its index line.
func verifyPad(d *safefile.Dir, e *entry) []Difference {
	var diffs []Difference
	for _, name := range slices.Sorted(maps.Keys(e.Files)) {
		p := path.Join(e.Dir, name)
		data, err := d.ReadFile(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			diffs = append(diffs, Difference{Path: p, Problem: "missing"})
		case err != nil:
			diffs = append(diffs, Difference{Path: p, Problem: strings.TrimPrefix(err.Error(), p+": ")})
		default:
			sum := sha256.Sum256(data)
			if hex.EncodeToString(sum[:]) != e.Files[name] {
				diffs = append(diffs, Difference{Path: p, Problem: "changed"})
			}
		}
	}
	_ = fs.WalkDir(d.FS(), e.Dir, func(p string, de fs.DirEntry, err error) error {
		switch rel := strings.TrimPrefix(p, e.Dir+"/"); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			diffs = append(diffs, Difference{Path: p, Problem: "cannot be read"})
		case de.IsDir():
		case e.Files[rel] == "":
			diffs = append(diffs, Difference{Path: p, Problem: "not in the index"})
		}
		return nil
	})
	return diffs
}
