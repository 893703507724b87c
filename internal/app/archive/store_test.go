package archive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

func TestABadIndexLineIsNamed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	f.run(t, Options{NoHistory: true})
	index := filepath.Join(f.dir, indexName)
	data, err := os.ReadFile(index)
	must(t, err)
	for _, bad := range []string{`{"id":""}`, `not json`, `{"id":"X","dir":"pads/Y"}`} {
		// Line 3, after a blank line 2: the blank line is skipped, and
		// counted.
		first, _, _ := strings.Cut(string(data), "\n")
		must(t, os.WriteFile(index, []byte(first+"\n\n"+bad+"\n"), 0o644))
		if _, err := Run(deadline(t), f.c, f.dir, Options{Gate: f.gate}); err == nil || !strings.Contains(err.Error(), "index.jsonl, line 3:") {
			t.Errorf("index line %s: Run: %v", bad, err)
		}
		if _, err := Verify(f.dir); err == nil || !strings.Contains(err.Error(), "line 3:") {
			t.Errorf("index line %s: Verify: %v", bad, err)
		}
	}
}

// TestTheIndexIsWrittenOnlyWhenChanged: saveIndex writes the index when an
// entry has changed since its last write, and not again until one does (a
// run saves it after each batch of pads and once more at its end). Each
// write replaces the file, so a write shows as a new file.
func TestTheIndexIsWrittenOnlyWhenChanged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st, err := openStore(dir, nil)
	must(t, err)
	defer st.close()
	must(t, st.set(&entry{ID: "A", Dir: padDir("A")}))
	must(t, st.saveIndex())
	first, err := os.Stat(filepath.Join(dir, indexName))
	must(t, err)
	must(t, st.saveIndex())
	if again, err := os.Stat(filepath.Join(dir, indexName)); err != nil || !os.SameFile(first, again) {
		t.Errorf("the index was written again with nothing changed (%v)", err)
	}
	must(t, st.set(&entry{ID: "B", Dir: padDir("B")}))
	must(t, st.saveIndex())
	if again, err := os.Stat(filepath.Join(dir, indexName)); err != nil || os.SameFile(first, again) {
		t.Errorf("the index was not written after a change (%v)", err)
	}
}

// TestAnIndexLineThatHoldsTheKeyIsRefused: every byte of the index passes
// the redactor; a line it would change is refused, and nothing of it is
// kept to be written.
func TestAnIndexLineThatHoldsTheKeyIsRefused(t *testing.T) {
	t.Parallel()
	const key = "sk_live_0123456789abcdef"
	st, err := openStore(t.TempDir(), redact.New(key).String)
	must(t, err)
	defer st.close()
	err = st.set(&entry{ID: "A", Title: "a " + key, Dir: padDir("A")})
	if !errors.Is(err, safefile.ErrSecretName) || strings.Contains(err.Error(), key) {
		t.Errorf("set: %v, want ErrSecretName without the key", err)
	}
	if len(st.lines) != 0 || st.dirty {
		t.Errorf("the refused line was kept: %q", st.lines)
	}
	must(t, st.set(&entry{ID: "B", Title: "clean", Dir: padDir("B")}))
	if len(st.lines) != 1 {
		t.Errorf("a clean line was not kept")
	}
}
