package qfolder

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkReadCached reads a library of 500 folders that did not change
// since the read cache recorded it.
func BenchmarkReadCached(b *testing.B) {
	dir, cache := b.TempDir(), filepath.Join(b.TempDir(), "cache.json")
	files := map[string]string{}
	for i := range 500 {
		files[fmt.Sprintf("q%d/question.json", i)] = fmt.Sprintf(`{"id": %d, "title": "Q %d", "language": "python"}`, i+1, i)
		files[fmt.Sprintf("q%d/description.md", i)] = "Write a function.\n"
		files[fmt.Sprintf("q%d/starter.py", i)] = "def f():\n    pass\n"
	}
	writeTree(b, dir, files)
	age(b, dir)
	if _, _, err := ReadCached(dir, false, cache); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_, stats, err := ReadCached(dir, false, cache)
		if err != nil || stats.Hits != 500 {
			b.Fatal(err, stats)
		}
	}
}
