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
	"strconv"
	"strings"
	"sync"
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

// ownNames are the names the archive chose itself, at the top of DIR and
// in a pad folder: safefile never checks them against the redactor (a
// constant of this program cannot hold the key, even where 8 characters
// of the key match it), while every name made from the service's data
// still is.
var ownNames = []string{markerName, lockName, indexName, padsDir, padFile, eventFile, notesFile, envsDir, histDir}

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
	// taken holds each pad folder of the archive, case-folded, and the pad
	// that holds it; claimed each pad's folder (dirFor).
	claimMu sync.Mutex
	taken   map[string]padapi.ID
	claimed map[padapi.ID]string
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

// padDir is the folder of pad id, relative to DIR, when no other pad of
// the archive has an ID that differs from id only in case: the ID as it is
// wherever it is a safe name (letters of either case, digits, '-' and
// '_'), and otherwise safefile.Name's escapes for the bytes that are not.
// So pad DM32JWG2 is in pads/DM32JWG2.
func padDir(id padapi.ID) string { return path.Join(padsDir, readableName(id)) }

// escapedDir is the folder of pad id in an archive written before folders
// were named by the pad ID: safefile.Name, every upper-case letter
// escaped. An archive's next run renames it (migrate).
func escapedDir(id padapi.ID) string { return path.Join(padsDir, safefile.Name(string(id))) }

// collisionDir is the folder of pad id when another pad of the archive,
// archived before it, has an ID that differs from id only in case: every
// letter escaped (%xx), lower-case ones too. Neither safefile.Name nor
// readableName escapes a lower-case letter, and an ID with no letter has
// no other pad to differ from in case, so the name is no other pad's,
// whatever the case.
func collisionDir(id padapi.ID) string {
	name := safefile.Name(string(id))
	prefix, hash, cut := strings.Cut(name, "~") // '~' is escaped elsewhere
	var b strings.Builder
	for i := 0; i < len(prefix); i++ {
		switch c := prefix[i]; {
		case c == '%': // an escape already: as it is
			b.WriteString(prefix[i:min(i+3, len(prefix))])
			i += 2
		case 'a' <= c && c <= 'z':
			fmt.Fprintf(&b, "%%%02x", c)
		default:
			b.WriteByte(c)
		}
	}
	if cut {
		b.WriteString("~" + hash)
	}
	return path.Join(padsDir, b.String())
}

// padDirs are the folders pad id may have, relative to DIR: padDir,
// collisionDir, and escapedDir of the earlier layout.
func padDirs(id padapi.ID) []string { return []string{padDir(id), collisionDir(id), escapedDir(id)} }

// readableName is safefile.Name(id) with the upper-case letters it
// escaped (%41 to %5a) written as they are. safefile.Name never writes an
// upper-case letter itself, so the names stay distinct for distinct IDs.
func readableName(id padapi.ID) string {
	name := safefile.Name(string(id))
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; c == '%' && i+2 < len(name) {
			if v, err := strconv.ParseUint(name[i+1:i+3], 16, 8); err == nil && 'A' <= v && v <= 'Z' {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(name[i])
	}
	return b.String()
}

// folded is a folder name as a disk that ignores case sees it.
func folded(dir string) string { return strings.ToLower(dir) }

// dirFor returns the folder of pad id, relative to DIR, and claims it for
// the pad: the folder the index names, or padDir(id) unless another pad
// of the archive holds (or this run has claimed) a folder of that name,
// case aside, and then collisionDir(id). Workers call it at once.
func (st *store) dirFor(id padapi.ID) string {
	st.claimMu.Lock()
	defer st.claimMu.Unlock()
	// Each pad of the index claimed its folder when the store opened
	// (migrate): the index itself is the collector's.
	if dir, ok := st.claimed[id]; ok {
		return dir
	}
	dir := padDir(id)
	if _, taken := st.taken[folded(dir)]; taken {
		dir = collisionDir(id)
	}
	st.claim(id, dir)
	return dir
}

// claim notes that pad id holds folder dir.
func (st *store) claim(id padapi.ID, dir string) {
	if st.taken == nil {
		st.taken, st.claimed = map[string]padapi.ID{}, map[padapi.ID]string{}
	}
	st.taken[folded(dir)], st.claimed[id] = id, dir
}

// openStore opens dir as an archive (making it one when it is empty),
// takes its lock, and repairs what a killed run left. No name that redact
// changes (one holding the API key) is written in it.
func openStore(dir string, redact func(string) string) (*store, error) {
	d, err := safefile.Open(dir)
	if err != nil {
		return nil, err
	}
	d.Redact, d.Own = redact, ownNames
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
	st.lazy.Lazy, st.lazy.Redact, st.lazy.Own = true, st.dir.Redact, st.dir.Own
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
		if err := json.Unmarshal(line, e); err != nil || e.ID == "" || !slices.Contains(padDirs(e.ID), e.Dir) {
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

// set puts e in the index, replacing what it held of the pad. What in its
// line came from the service passes the redactor, as every other byte the
// archive writes: the title and state are redacted, and an ID the
// redactor would change is refused, not written changed (the line's id and
// dir must stay what they name). The rest of the line is JSON and the
// archive's own names (ownNames), which are never refused; the files'
// names passed safefile's check when they were written.
func (st *store) set(e *entry) error {
	if r := st.dir.Redact; r != nil {
		if shown := r(string(e.ID)); shown != string(e.ID) {
			return fmt.Errorf("pad %s: index line: %w", shown, safefile.ErrSecretName)
		}
		e.Title, e.State = r(e.Title), r(e.State)
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
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
// it replaced it: the pad is fetched again, so the mark goes), moves each
// pad folder to the name it should have (migrate), and removes the pad
// folders the index does not name (written by a run killed before its
// index was: they are fetched again).
func (st *store) reconcile() error {
	// One read of DIR/pads tells which folders there are: a stat of each
	// would open DIR/pads once per pad (os.Root resolves each path a part
	// at a time), a thousand opens on a run with nothing to do.
	entries, err := fs.ReadDir(st.dir.FS(), padsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	folders := map[string]bool{} // the folders of DIR/pads, not links
	for _, e := range entries {
		folders[e.Name()] = e.IsDir()
	}
	isDir := func(dir string) bool { return folders[path.Base(dir)] }
	held := map[string]int{} // each folder the index names, case-folded
	for _, e := range st.index {
		held[folded(e.Dir)]++
	}
	for _, id := range slices.Sorted(maps.Keys(st.index)) {
		e := st.index[id]
		if isDir(e.Dir) {
			continue
		}
		// A run killed while it moved folders (migrate) left the folder
		// under its new name: the index follows it, unless another pad
		// has that name, case aside.
		if want := padDir(id); want != e.Dir && held[folded(want)] == 0 && isDir(want) {
			if err := st.setDir(id, want); err != nil {
				return err
			}
			continue
		}
		delete(st.index, id)
		delete(st.lines, id)
		st.dirty = true
		st.mark.HighWater = nil
	}
	if err := st.migrate(); err != nil {
		return err
	}
	named := map[string]bool{}
	for _, e := range st.index {
		named[path.Base(e.Dir)] = true
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

// migrate gives each pad folder its readable name, padDir, where no
// other pad's folder has that name, case aside: an archive written before
// folders were named by the pad ID (pads/0%53%43%4c%42%58%48%41) has its
// folders renamed on the next run (pads/0SCLBXHA). The index is written
// after; a run killed between finds each folder under one of its two
// names (see reconcile).
func (st *store) migrate() error {
	ids := slices.Sorted(maps.Keys(st.index))
	for _, id := range ids {
		dir := st.index[id].Dir
		if other, ok := st.taken[folded(dir)]; ok && other != id {
			return fmt.Errorf("%s: pads %s and %s name one folder", indexName, st.dir.Redact(string(other)), st.dir.Redact(string(id)))
		}
		st.claim(id, dir)
	}
	moved := false
	for _, id := range ids {
		e := st.index[id]
		want := padDir(id)
		if e.Dir == want {
			continue
		}
		if _, taken := st.taken[folded(want)]; taken {
			continue // another pad holds the name: this one stays escaped
		}
		if err := st.alive(); err != nil {
			return err
		}
		if err := st.dir.Rename(e.Dir, want); err != nil {
			return err
		}
		delete(st.taken, folded(e.Dir))
		st.claim(id, want)
		if err := st.setDir(id, want); err != nil {
			return err
		}
		moved = true
	}
	if moved {
		return st.saveIndex()
	}
	return nil
}

// setDir changes the folder the index names for pad id.
func (st *store) setDir(id padapi.ID, dir string) error {
	var e entry // whole: with its Files, which a lean index does not hold
	if err := json.Unmarshal(st.lines[id], &e); err != nil {
		return err
	}
	e.Dir = dir
	return st.set(&e)
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
