package archive

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// WritePad writes a pad as an archive's pad folder holds it, file for
// file and byte for byte: the one layout (padctl pads export uses it),
// and it replaces what an earlier export left.
func TestWritePadIsAnArchivesPadFolder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	f.run(t, Options{})
	id := f.ids[1]
	want := tree(t, filepath.Join(f.dir, filepath.FromSlash(padDir(id))))
	dir := filepath.Join(t.TempDir(), "export")
	for range 2 { // the second time over the first
		res, err := WritePad(deadline(t), f.c, id, dir, PadOptions{})
		if err != nil || res.Skipped != 0 || res.Written != len(want)-countDirs(want) {
			t.Fatalf("WritePad: %+v, %v; want %d files", res, err, len(want)-countDirs(want))
		}
		if diff := cmp.Diff(want, tree(t, dir)); diff != "" {
			t.Errorf("the export and the archive's folder (-archive +export):\n%s", diff)
		}
	}
}

// countDirs counts the folders of a tree.
func countDirs(tr map[string]string) int {
	n := 0
	for _, v := range tr {
		if v == "<dir>" {
			n++
		}
	}
	return n
}
