package archive

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
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

// TestAnIndexLineNeverHoldsTheKey: what an index line holds from the
// service passes the redactor: an ID that holds the key is refused and
// nothing of it is kept; a title or state that holds it is redacted.
func TestAnIndexLineNeverHoldsTheKey(t *testing.T) {
	t.Parallel()
	const key = "sk_live_0123456789abcdef"
	st, err := openStore(t.TempDir(), redact.New(key).String)
	must(t, err)
	defer st.close()
	id := padapi.ID("a" + key)
	err = st.set(&entry{ID: id, Dir: padDir(id)})
	if !errors.Is(err, safefile.ErrSecretName) || strings.Contains(err.Error(), key) {
		t.Errorf("set: %v, want ErrSecretName without the key", err)
	}
	if len(st.lines) != 0 || st.dirty {
		t.Errorf("the refused line was kept: %q", st.lines)
	}
	must(t, st.set(&entry{ID: "B", Title: "t " + key, State: key, Dir: padDir("B")}))
	if line := string(st.lines["B"]); len(st.lines) != 1 || strings.Contains(line, key) || !strings.Contains(line, `"title":"t `) {
		t.Errorf("the line of a title and state holding the key: %s", line)
	}
}

// A pad folder is the pad's ID wherever that is a safe name, letters of
// either case as they are; of two IDs that differ only in case, one keeps
// its name and the other is escaped, so no two folders share a name on a
// disk that ignores case; an unsafe byte is escaped.
func TestPadFoldersAreNamedByTheirID(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	for _, id := range []padapi.ID{"DM32JWG2", "dm32jwg2", "abc9", "Q-1_x"} {
		f.srv.AddPad(padapi.Pad{ID: id, Title: "t", Language: "python", CreatedAt: base, UpdatedAt: base})
	}
	f.run(t, Options{NoHistory: true})
	dirs := map[padapi.ID]string{}
	for _, e := range indexLines(t, f.dir) {
		dirs[e.ID] = e.Dir
	}
	for _, id := range []padapi.ID{"abc9", "Q-1_x"} {
		if dirs[id] != "pads/"+string(id) {
			t.Errorf("pad %s: folder %s", id, dirs[id])
		}
	}
	// Which of the two was archived first is the workers' race: that
	// one keeps its ID, the other has its letters escaped.
	upper, lower := dirs["DM32JWG2"], dirs["dm32jwg2"]
	if ok := (upper == "pads/DM32JWG2" && lower == "pads/%64%6d32%6a%77%672") ||
		(upper == "pads/%44%4d32%4a%57%472" && lower == "pads/dm32jwg2"); !ok || strings.EqualFold(upper, lower) {
		t.Errorf("folders %s and %s: want one of them named by its ID, the other escaped", upper, lower)
	}
	verifyClean(t, f.dir)
	if got := readableName("a.B/c"); got != "a%2eB%2fc" {
		t.Errorf("readableName(a.B/c) = %s", got)
	}
}

// An archive written before folders were named by the pad ID (every
// upper-case letter escaped: pads/0%53%43...) has its folders renamed on
// the next run, with no pad fetched again; a run killed after a folder
// was renamed but before the index was written finds it under its new
// name.
func TestOldFolderNamesAreMigrated(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	f.run(t, Options{NoHistory: true})
	want := tree(t, f.dir)
	// The archive as the earlier layout wrote it.
	raw, err := os.ReadFile(filepath.Join(f.dir, indexName))
	must(t, err)
	old := string(raw)
	for _, id := range f.ids {
		if escapedDir(id) == padDir(id) {
			t.Fatalf("pad %s: no upper-case letter to escape", id)
		}
		must(t, os.Rename(filepath.Join(f.dir, padDir(id)), filepath.Join(f.dir, escapedDir(id))))
		old = strings.Replace(old, `"dir":"`+padDir(id)+`"`, `"dir":"`+escapedDir(id)+`"`, 1)
	}
	must(t, os.WriteFile(filepath.Join(f.dir, indexName), []byte(old), 0o600))
	if _, err := os.Stat(filepath.Join(f.dir, "pads", string(f.ids[0]))); err == nil {
		t.Fatal("the old layout has the readable name")
	}
	n := len(f.srv.Requests())
	sum := f.run(t, Options{NoHistory: true})
	if sum.Unchanged != 12 || sum.Added+sum.Updated != 0 || len(f.srv.Requests())-n > 2 {
		t.Errorf("the run after: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
	if diff := cmp.Diff(want, tree(t, f.dir)); diff != "" {
		t.Errorf("migrated (-as written now +migrated):\n%s", diff)
	}
	// Killed mid-migration: the index names the old folder, the folder
	// has its new name.
	must(t, os.WriteFile(filepath.Join(f.dir, indexName), []byte(old), 0o600))
	n = len(f.srv.Requests())
	if sum := f.run(t, Options{NoHistory: true}); sum.Unchanged != 12 || len(f.srv.Requests())-n > 2 {
		t.Errorf("after a killed migration: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
	if diff := cmp.Diff(want, tree(t, f.dir)); diff != "" {
		t.Errorf("after a killed migration (-as written now +migrated):\n%s", diff)
	}
}

// The folder a pad gets when another differs from it only in case is no
// other pad's folder, under any of its names, case aside.
func TestACollisionFolderIsNoOtherPads(t *testing.T) {
	ids := []padapi.ID{"aa", "AA", "Aa", "a%41", "a%61", "%61a", "12", "a-b_c", "", padapi.ID(strings.Repeat("Ab", 40)), padapi.ID(strings.Repeat("aB", 40)), padapi.ID(strings.Repeat("x", 70) + "~")}
	for _, x := range ids {
		c := folded(collisionDir(x))
		for _, y := range ids {
			for _, d := range padDirs(y) {
				if x != y && folded(d) == c {
					t.Errorf("collisionDir(%q) = %s, a name of %q", x, collisionDir(x), y)
				}
			}
		}
	}
	if got := collisionDir("DM32jwg2"); got != "pads/%44%4d32%6a%77%672" {
		t.Errorf("collisionDir(DM32jwg2) = %s", got)
	}
}
