package qfolder

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// age sets the time of every file and folder below dir to an hour ago, as
// a library checked out earlier has.
func age(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(dir, func(p string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readCached reads dir through cache and checks the hits and misses.
func readCached(t *testing.T, dir, cache string, hits, misses int) *Library {
	t.Helper()
	lib, stats, err := ReadCached(dir, false, cache)
	if err != nil {
		t.Fatal(err)
	}
	if stats != (CacheStats{Hits: hits, Misses: misses}) {
		t.Errorf("cache %+v, want %d hits and %d misses", stats, hits, misses)
	}
	return lib
}

// Issue 40 #4: a folder whose files did not change is taken from the read
// cache, not read; any change of a file's size or time, a new or removed
// file, or a time too close to the last scan (racy) reads it again, and
// what is read is what the folder holds.
func TestReadCache(t *testing.T) {
	dir, cache := t.TempDir(), filepath.Join(t.TempDir(), "c", "cache.json")
	writeTree(t, dir, map[string]string{
		"a/question.json":       `{"id": 1, "title": "A", "language": "go"}`,
		"a/starter.go":          "package a\n",
		"b/question.json":       `{"id": 2, "title": "B", "language": "java"}`,
		"b/files/src/Main.java": "class Main {}\n",
		"c/question.json":       `{"title": "C", "language": "go"}`,
		"c/description.md":      "C.\n",
		".git/question.json":    "not a question",
		"README.md":             "a library",
	})
	// Just written: too close to the scan to trust, so read each time.
	readCached(t, dir, cache, 0, 3)
	readCached(t, dir, cache, 0, 3)
	age(t, dir)
	readCached(t, dir, cache, 0, 3) // the times changed
	lib := readCached(t, dir, cache, 3, 0)
	if lib.Folders[1].Q.Files[0].Contents != "class Main {}\n" || lib.Folders[0].Starter != "starter.go" || lib.Folders[2].Q.Description != "C.\n" {
		t.Errorf("from the cache: %+v", lib.Folders)
	}
	// An edit (same size, a new time), a new file in a subfolder, a new
	// folder: those are read again.
	writeTree(t, dir, map[string]string{"a/starter.go": "package b\n", "b/files/src/X.java": "class X {}\n", "d/question.json": `{"title": "D", "language": "go"}`})
	lib = readCached(t, dir, cache, 1, 3)
	if lib.Folders[0].Q.Contents != "package b\n" || len(lib.Folders[1].Q.Files) != 2 || len(lib.Folders) != 4 {
		t.Errorf("after edits: %+v", lib.Folders)
	}
	age(t, dir)
	readCached(t, dir, cache, 0, 4)
	readCached(t, dir, cache, 4, 0)
	// A removed file, a removed folder.
	if err := os.Remove(filepath.Join(dir, "c", "description.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "d")); err != nil {
		t.Fatal(err)
	}
	lib = readCached(t, dir, cache, 2, 1)
	if len(lib.Folders) != 3 || lib.Folders[2].Q.Description != "" {
		t.Errorf("after removals: %+v", lib.Folders)
	}
	// A cache that is not one is an empty cache.
	if err := os.WriteFile(cache, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	readCached(t, dir, cache, 0, 3)
	// A bad folder is reported whatever the cache holds.
	writeTree(t, dir, map[string]string{"a/question.json": `{"id": 1, "title": "", "language": "go"}`})
	if _, _, err := ReadCached(dir, false, cache); err == nil {
		t.Errorf("a bad folder read from the cache")
	}
}
