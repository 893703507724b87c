// store.go: the archive folder: marker, lock, index, and the repairs a
// killed run calls for.

package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// The archive's own names at the top of DIR.
const (
	markerName = ".padctl-archive"
	lockName   = ".padctl-archive.lock"
	indexName  = "index.jsonl"
	padsDir    = "pads"
)

// markerFormat is the archive layout's version.
const markerFormat = 1

// marker is the content of the marker file.
type marker struct {
	Format int `json:"format"`
	// HighWater is the newest updated_at of the last run that completed
	// with no failure: every pad older than it (less the overlap) is held.
	HighWater *time.Time `json:"high_water,omitempty"`
	// LastFull is when the last run that listed every pad began: a run
	// lists every pad again, to find those gone or missed whatever the
	// totals say, once it is FullEvery old.
	LastFull *time.Time `json:"last_full,omitempty"`
}

// entry is one line of the index.
type entry struct {
	ID        padapi.ID         `json:"id"`
	Title     string            `json:"title"`
	State     string            `json:"state"`
	UpdatedAt time.Time         `json:"updated_at"`
	Deleted   bool              `json:"deleted,omitempty"`
	Dir       string            `json:"dir"`
	Files     map[string]string `json:"files"`
}

// store is an archive folder held by this run.
type store struct {
	dir    *safefile.Dir // durable writes: index and marker
	lazy   *safefile.Dir // pad folders, which can be fetched again
	unlock func()
	mark   marker
	index  map[padapi.ID]*entry
	// lines holds each entry of index as the index file has it (as
	// encoded, or as read). The index file is written whole every few
	// seconds: encoding every entry each time made a run's cost grow with
	// the square of the organization (10 000 pads: 1 s of CPU and 62 MB
	// of garbage per write).
	lines map[padapi.ID][]byte
	// lean: the entries keep no Files, which their line holds: held
	// twice, the digests took a run on 10 000 pads over issue 31's
	// 100 MiB. A run's store is lean; Verify's is not.
	lean  bool
	dirty bool // the index differs from the file
	// crash, in tests, says that the process has died: from then on no
	// write reaches the disk, as after a SIGKILL.
	crash func() bool
}

// errKilled is what a write fails with once crash says the process died.
var errKilled = errors.New("killed (test)")

// alive returns errKilled once the test says the process has died.
func (st *store) alive() error {
	if st.crash != nil && st.crash() {
		return errKilled
	}
	return nil
}

// padDir is the folder of pad id, relative to DIR.
func padDir(id padapi.ID) string { return path.Join(padsDir, safefile.Name(string(id))) }

// openStore opens dir as an archive (making it one when it is empty),
// takes its lock, and repairs what a killed run left. No name that redact
// changes (one holding the API key) is written in it.
func openStore(dir string, redact func(string) string) (*store, error) {
	d, err := safefile.Open(dir)
	if err != nil {
		return nil, err
	}
	d.Redact = redact
	st := &store{dir: d, unlock: func() {}, index: map[padapi.ID]*entry{}, lean: true}
	if err := st.open(dir); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

func (st *store) open(dir string) error {
	fresh, err := st.checkMarker()
	if err != nil {
		return err
	}
	unlock, err := lock(dir, lockName)
	if err != nil {
		return err
	}
	st.unlock = unlock
	if st.lazy, err = safefile.Open(dir); err != nil {
		return err
	}
	st.lazy.Lazy, st.lazy.Redact = true, st.dir.Redact
	if fresh {
		if err := st.saveMarker(); err != nil {
			return err
		}
	}
	if err := st.clean(); err != nil {
		return err
	}
	if err := st.loadIndex(); err != nil {
		return err
	}
	return st.reconcile()
}

func (st *store) close() {
	st.unlock()
	if st.lazy != nil {
		st.lazy.Close()
	}
	st.dir.Close()
}

// checkMarker reads the marker; it reports a folder with nothing in it
// (but what a refused run may have left: the lock, temporary files) as
// fresh, and refuses any other folder without a marker.
func (st *store) checkMarker() (fresh bool, err error) {
	data, err := st.dir.ReadFile(markerName)
	if err == nil {
		if err := json.Unmarshal(data, &st.mark); err != nil || st.mark.Format != markerFormat {
			return false, fmt.Errorf("%s: not a marker of this archive format", markerName)
		}
		return false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	entries, err := fs.ReadDir(st.dir.FS(), ".")
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Name() != lockName && !strings.HasPrefix(e.Name(), safefile.TempPrefix) {
			return false, ErrNotArchive
		}
	}
	st.mark = marker{Format: markerFormat}
	return true, nil
}

func (st *store) saveMarker() error {
	if err := st.alive(); err != nil {
		return err
	}
	data, err := json.Marshal(st.mark)
	if err != nil {
		return err
	}
	return st.dir.WriteFile(markerName, append(data, '\n'))
}

// clean removes the temporary files and folders a killed run left at the
// top of DIR and in DIR/pads.
func (st *store) clean() error {
	for _, dir := range []string{".", padsDir} {
		entries, err := fs.ReadDir(st.dir.FS(), dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), safefile.TempPrefix) {
				if err := st.dir.RemoveAll(path.Join(dir, e.Name())); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// loadIndex reads the index, if there is one.
func (st *store) loadIndex() error {
	data, err := st.dir.ReadFile(indexName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		e := new(entry)
		if err := json.Unmarshal(line, e); err != nil || e.ID == "" || e.Dir != padDir(e.ID) {
			return fmt.Errorf("%s, line %d: not an index line of this archive", indexName, n+1)
		}
		st.keep(e, line[:len(line):len(line)]) // as read
	}
	return nil
}

// keep puts e in the index with its line.
func (st *store) keep(e *entry, line []byte) {
	if st.lines == nil {
		st.lines = map[padapi.ID][]byte{}
	}
	if st.lean {
		e.Files = nil
	}
	st.index[e.ID], st.lines[e.ID] = e, line
}

// set puts e in the index, replacing what it held of the pad. Its line
// passes the redactor like every other byte the archive writes: one the
// redactor would change is refused, not written changed (its id and dir
// must stay what they name).
func (st *store) set(e *entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if st.dir.Redact != nil && st.dir.Redact(string(line)) != string(line) {
		return fmt.Errorf("pad %s: index line: %w", st.dir.Redact(string(e.ID)), safefile.ErrSecretName)
	}
	st.keep(e, line)
	st.dirty = true
	return nil
}

// setDeleted marks the entry of pad id deleted.
func (st *store) setDeleted(id padapi.ID) error {
	var e entry // whole: with its Files, which a lean index does not hold
	if err := json.Unmarshal(st.lines[id], &e); err != nil {
		return err
	}
	e.Deleted = true
	return st.set(&e)
}

// reconcile drops the index lines whose folder is gone (a run killed while
// it replaced it: the pad is fetched again, so the mark goes) and removes
// the pad folders the index does not name (written by a run killed before
// its index was: they are fetched again).
func (st *store) reconcile() error {
	for id, e := range st.index {
		if fi, err := st.dir.Lstat(e.Dir); err != nil || !fi.IsDir() {
			delete(st.index, id)
			delete(st.lines, id)
			st.dirty = true
			st.mark.HighWater = nil
		}
	}
	named := map[string]bool{}
	for _, e := range st.index {
		named[path.Base(e.Dir)] = true
	}
	entries, err := fs.ReadDir(st.dir.FS(), padsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !named[e.Name()] {
			if err := st.dir.RemoveAll(path.Join(padsDir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeIndex is the index file: one line per pad, sorted by id.
func (st *store) encodeIndex() []byte {
	ids := slices.Sorted(maps.Keys(st.lines))
	size := 0
	for _, id := range ids {
		size += len(st.lines[id]) + 1
	}
	b := make([]byte, 0, size)
	for _, id := range ids {
		b = append(append(b, st.lines[id]...), '\n')
	}
	return b
}

// saveIndex writes the index whole, when it has changed.
func (st *store) saveIndex() error {
	if !st.dirty {
		return nil
	}
	if err := st.alive(); err != nil {
		return err
	}
	err := st.dir.WriteFile(indexName, st.encodeIndex())
	if err == nil {
		st.dirty = false
	}
	return err
}
