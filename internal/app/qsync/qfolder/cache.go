package qfolder

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/padinterview/padapi/internal/lib/safefile"
)

// The read cache: what Read last read of each question folder, with the
// size and modification time of every entry below it when it did, kept in
// a file outside the library (the library is committed; the cache belongs
// to one checkout on one machine). A folder whose entries all show the
// same size and time is taken from the cache rather than read again, so
// that a pull or diff with nothing changed costs about a list of the
// service's questions. Git's index does the same for its work tree.
//
// An entry is trusted only when every modification time it records is at
// least racyWindow older than the moment its scan began: a file changed
// within the file system's time granularity of that moment could keep its
// time and size, and is read again instead (git's "racily clean" entries).

// cacheVersion is the cache file's format.
const cacheVersion = 1

// racyWindow is how much older than the scan a recorded time must be:
// coarser than any file system's time granularity (FAT's is 2 s).
const racyWindow = 3 * time.Second

// cacheOptions are json v2's options for the cache: v1's meaning of nil
// (a nil slice is null, and reads back nil: files/ or none), with v2's
// speed.
var cacheOptions = jsonv2.JoinOptions(jsonv2.FormatNilSliceAsNull(true), jsonv2.FormatNilMapAsNull(true))

// cacheFile is the read cache as stored.
type cacheFile struct {
	Version int `json:"version"`
	// Scanned is when the scan that recorded the entries began.
	Scanned time.Time              `json:"scanned"`
	Folders map[string]*cacheEntry `json:"folders"`
}

// cacheEntry is one question folder as last read.
type cacheEntry struct {
	// Stat is every entry below the folder, in walk order.
	Stat []entryStat `json:"stat"`
	// Folder is what was read.
	Folder *Folder `json:"folder"`
}

// entryStat is one file or directory below a question folder.
type entryStat struct {
	Path  string `json:"p"`
	Mode  uint32 `json:"m"`
	Size  int64  `json:"s,omitempty"`
	MTime int64  `json:"t"`
}

// CacheStats counts what a Read with a cache did, for tests and benchmarks.
type CacheStats struct {
	// Hits are the folders taken from the cache, Misses those read.
	Hits, Misses int
}

// readCache reads the cache at name; a missing or unreadable one, or one
// of another version, is an empty cache.
func readCache(name string) *cacheFile {
	empty := &cacheFile{Version: cacheVersion, Folders: map[string]*cacheEntry{}}
	if name == "" {
		return empty
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return empty
	}
	var c cacheFile
	if jsonv2.Unmarshal(b, &c, cacheOptions) != nil || c.Version != cacheVersion || c.Folders == nil {
		return empty
	}
	return &c
}

// statFolder lists the folder name of root itself (as ".") and every
// entry below it, with its mode, size and modification time.
func statFolder(root *os.Root, name string) ([]entryStat, error) {
	self, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	out := []entryStat{statOf(".", self)}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := fs.ReadDir(root.FS(), path.Join(name, dir))
		if err != nil {
			return err
		}
		for _, e := range entries {
			info, err := e.Info()
			if err != nil {
				return err
			}
			p := path.Join(dir, e.Name())
			out = append(out, statOf(p, info))
			if e.IsDir() && len(out) <= 4*limits.files {
				if err := walk(p); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return out, walk(".")
}

// statOf is one entry's record.
func statOf(p string, info fs.FileInfo) entryStat {
	st := entryStat{Path: p, Mode: uint32(info.Mode()), MTime: info.ModTime().UnixNano()}
	if info.Mode().IsRegular() {
		st.Size = info.Size()
	}
	return st
}

// trusted reports whether e still describes the question folder name of
// the library dir, for a cache whose scan began at scanned: every entry
// it recorded shows the same mode, size and time, and each was older than
// the scan by racyWindow. A file added, removed or renamed changes the
// time of its directory, which the entry records too; so no directory is
// read.
func (e *cacheEntry) trusted(dir, name string, scanned time.Time) bool {
	if e == nil || e.Folder == nil || len(e.Stat) == 0 || e.Stat[0].Path != "." {
		return false
	}
	limit := scanned.Add(-racyWindow).UnixNano()
	for _, s := range e.Stat {
		if s.MTime >= limit {
			return false
		}
		info, err := os.Lstat(filepath.Join(dir, name, filepath.FromSlash(s.Path)))
		if err != nil || statOf(s.Path, info) != s {
			return false
		}
	}
	return true
}

// saveCache writes c to name atomically, creating its folder; a cache
// that cannot be written is left as it was (it only saves time).
func saveCache(name string, c *cacheFile) {
	if name == "" {
		return
	}
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	d, err := safefile.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	d.Lazy = true // a cache lost to a power cut costs one slower run
	b, err := jsonv2.Marshal(c, cacheOptions)
	if err != nil {
		return
	}
	if err := d.WriteFile(filepath.Base(name), b); err != nil && !errors.Is(err, fs.ErrExist) {
		return
	}
}
