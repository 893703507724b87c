package qfolder

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
)

// Render keeps the starter and solution names a folder already uses, and
// writes starter code only for a single-file question that has some.
func TestRenderNames(t *testing.T) {
	q := Question{Title: "T", Language: "python", Contents: "c", Solution: "s"}
	for _, tt := range []struct {
		name string
		q    Question
		old  *Folder
		want []string
	}{
		{"new folder", q, nil, []string{"question.json", "solution.py", "starter.py"}},
		{"folder with no code yet", q, &Folder{}, []string{"question.json", "solution.py", "starter.py"}},
		{"folder's own names", q, &Folder{Starter: "main.py", Solution: "answer.py"}, []string{"answer.py", "main.py", "question.json"}},
		{"no starter code", Question{Title: "T", Language: "go", Solution: "s"}, nil, []string{"question.json", "solution.go"}},
		{"files, and starter code the service shows", Question{Title: "T", Language: "go", Contents: "c",
			Files: []padapi.QuestionFile{{Path: "a.go", Contents: "a"}}}, nil, []string{"files/a.go", "question.json"}},
	} {
		files, err := Render(tt.q, nil, tt.old)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := slices.Sorted(maps.Keys(files)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: files %v, want %v", tt.name, got, tt.want)
		}
	}
	if _, err := Render(Question{Title: "T", Language: "go", Files: []padapi.QuestionFile{{Path: "../x", Contents: "x"}}}, nil, nil); err == nil {
		t.Errorf("Render of a file path out of the folder succeeded")
	}
}

// openWriter is a Writer on dir, closed when the test ends.
func openWriter(t *testing.T, dir string) *Writer {
	t.Helper()
	w, err := NewWriter(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// Sync writes question.json last: when a file fails to write, the folder's
// question.json is still the old one.
func TestSyncWritesQuestionJSONLast(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, dir)
	// A folder where starter.py must go ("s" sorts after "q"), and one
	// where description.md must go (before it).
	for _, name := range []string{"starter.py", "description.md"} {
		if err := os.MkdirAll(filepath.Join(dir, "q", name, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
		err := w.Sync("q", nil, map[string]string{QuestionFile: "{}\n", name: "text"})
		if err == nil {
			t.Fatalf("%s: Sync over a folder succeeded", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "q", QuestionFile)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: question.json was written before a file that failed: %v", name, err)
		}
		if err := os.RemoveAll(filepath.Join(dir, "q", name)); err != nil {
			t.Fatal(err)
		}
	}
}

// Remove takes away the folders it empties up to stop, and no further.
func TestRemoveStopsAtStop(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, dir)
	for _, name := range []string{"q/files/a/b/x", "other/y"} {
		if err := w.WriteFile(name, "x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Remove("q/files/a/b/x", "q/files"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "q/files/a")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the emptied folders under stop are left: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "q/files")); err != nil {
		t.Errorf("stop itself, now empty, was removed: %v", err)
	}
	// A file outside stop: its folder stays.
	if err := w.Remove("other/y", "q"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); err != nil {
		t.Errorf("a folder outside stop was removed: %v", err)
	}
}

func TestFolderNameBounds(t *testing.T) {
	never := func(string) bool { return false }
	if got := FolderName(strings.Repeat("a", 70), "1", never); got != strings.Repeat("a", 60) {
		t.Errorf("a long title: %q (%d), want 60 letters", got, len(got))
	}
	taken := map[string]bool{"x": true, "x-1": true, "x-1-2": true}
	if got := FolderName("x", "1", func(s string) bool { return taken[s] }); got != "x-1-3" {
		t.Errorf("the next free name: %q, want x-1-3", got)
	}
	if got := FolderName("x", "", func(s string) bool { return s == "x" }); got != "x-new" {
		t.Errorf("no id: %q, want x-new", got)
	}
}
