package archive

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// crashAfter returns a crash function that says the process died at its
// n-th disk write (and from then on), and a count of the calls so far. At
// the death it calls die, when not nil: a test cancels the dead run's
// context there, so that it stops fetching as a killed process would (no
// write of it reaches the disk either way).
func crashAfter(n int, die func()) (func() bool, func() int) {
	var mu sync.Mutex
	calls := 0
	return func() bool {
			mu.Lock()
			defer mu.Unlock()
			calls++
			if calls == n && die != nil {
				die()
			}
			return calls >= n
		}, func() int {
			mu.Lock()
			defer mu.Unlock()
			return calls
		}
}

// crashAndResume copies from into a new folder (from "" is none), runs
// there until the process "dies" at the n-th disk write, runs again to
// the end, and returns the folder.
func (f *fixture) crashAndResume(t *testing.T, from string, n int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "a")
	if from != "" {
		must(t, os.CopyFS(dir, os.DirFS(from)))
	}
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	dead, die := context.WithCancel(ctx)
	defer die()
	crash, calls := crashAfter(n, die)
	// The run that dies may return no error (every pad it had left failed,
	// and it had nothing more to write), errKilled, or the cancellation:
	// what counts is that it died, and that its deadline did not pass.
	_, err := Run(dead, f.c, dir, Options{Gate: f.gate, crash: crash, flushEvery: time.Nanosecond})
	if (err != nil && !errors.Is(err, errKilled) && !errors.Is(err, context.Canceled)) || calls() < n || ctx.Err() != nil {
		t.Fatalf("crash at write %d: Run: %v after %d writes", n, err, calls())
	}
	if _, err := Run(ctx, f.c, dir, Options{Gate: f.gate, flushEvery: time.Nanosecond}); err != nil {
		t.Fatalf("crash at write %d: the next run: %v", n, err)
	}
	return dir
}

// runCounting runs in f.dir as crashAndResume does and returns its
// summary and how many disk writes it made. The index is written after
// every pad: the crash points fall between pads too, and the count of
// writes does not hang on how long the run takes (with the index written
// every 2 s, a run slowed by -race or a busy machine writes it more often
// than the reference run did, and a crash point past the end is missed).
func (f *fixture) runCounting(t *testing.T) (Summary, int) {
	t.Helper()
	crash, calls := crashAfter(1<<30, nil)
	sum := f.run(t, Options{crash: crash, flushEvery: time.Nanosecond})
	return sum, calls()
}

// points picks about k crash points among n writes, the first and the
// last included.
func points(n, k int) []int {
	var out []int
	for i := 1; i < n; i += max(n/k, 1) {
		out = append(out, i)
	}
	return append(out, n)
}

// TestKilledAtAnyWriteTheNextRunFinishesTheSame kills a first run of 4
// pads, and a run that updates two, marks one gone and keeps one, at
// points spread evenly over their disk writes (15 of 57 and 11 of 30:
// each pad is killed at 3 or 4 of its files, a different one each time),
// and resumes each.
func TestKilledAtAnyWriteTheNextRunFinishesTheSame(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 4)
	ref0 := filepath.Join(t.TempDir(), "ref")
	f.dir = ref0
	_, writes := f.runCounting(t)
	want0 := tree(t, ref0)
	few := 12
	if testing.Short() {
		few = 5
	}
	for _, n := range points(writes, few) {
		if diff := cmp.Diff(want0, tree(t, f.crashAndResume(t, "", n))); diff != "" {
			t.Fatalf("first run killed at write %d, then resumed (-uninterrupted +resumed):\n%s", n, diff)
		}
	}

	// The same for a run that replaces changed pads and marks one gone.
	for _, id := range f.ids[:2] {
		_, err := f.c.Pads.Update(deadline(t), id, &padapi.PadUpdateParams{Contents: padapi.Ptr("changed")})
		must(t, err)
	}
	must(t, f.c.Pads.Delete(deadline(t), f.ids[3]))
	ref1 := filepath.Join(t.TempDir(), "ref1")
	must(t, os.CopyFS(ref1, os.DirFS(ref0)))
	f.dir = ref1
	sum, writes := f.runCounting(t)
	if sum.Updated != 2 || sum.Deleted != 1 {
		t.Fatalf("the reference re-run: %+v", sum)
	}
	want1 := tree(t, ref1)
	for _, n := range points(writes, few*2/3) {
		if diff := cmp.Diff(want1, tree(t, f.crashAndResume(t, ref0, n))); diff != "" {
			t.Fatalf("re-run killed at write %d, then resumed (-uninterrupted +resumed):\n%s", n, diff)
		}
	}
}

func TestKilledWhileAFolderIsReplaced(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	want := tree(t, f.dir)
	// safefile.Dir.Rename moves the old folder aside before it renames
	// the new one in: killed between the two, the pad has no folder, and
	// the index still names it.
	id := f.ids[5]
	must(t, os.Rename(filepath.Join(f.dir, padDir(id)), filepath.Join(f.dir, "pads", safefile.TempPrefix+"aside")))
	// And what a killed write leaves: a temporary file and folder.
	must(t, os.WriteFile(filepath.Join(f.dir, safefile.TempPrefix+"index"), []byte("part"), 0o644))
	must(t, os.MkdirAll(filepath.Join(f.dir, "pads", safefile.TempPrefix+"new", "x"), 0o755))
	sum := f.run(t, Options{NoHistory: true})
	if sum.Added != 1 || sum.Unchanged != 10 {
		t.Errorf("summary %+v, want the pad fetched again", sum)
	}
	if diff := cmp.Diff(want, tree(t, f.dir)); diff != "" {
		t.Errorf("(-before +after):\n%s", diff)
	}
}

func TestTheIndexIsWrittenAsTheRunGoes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	for _, c := range []struct {
		every time.Duration
		some  bool
	}{{time.Nanosecond, true}, {time.Hour, false}} {
		dir := filepath.Join(t.TempDir(), "a")
		// Die at the 60th write (about the 7th pad, with no histories).
		// One worker: with several, all 60 writes may fall in pads
		// still in flight, none done for the index to name, however
		// often it is written.
		crash, calls := crashAfter(60, nil)
		_, err := Run(deadline(t), f.c, dir, Options{Gate: f.gate, NoHistory: true, Concurrency: 1, crash: crash, flushEvery: c.every})
		if (err != nil && !errors.Is(err, errKilled)) || calls() < 60 {
			t.Fatalf("Run: %v after %d writes", err, calls())
		}
		lines := indexLines(t, dir)
		if got := len(lines) > 0; got != c.some || len(lines) >= 12 {
			t.Errorf("written every %v: %d index lines after a crash", c.every, len(lines))
		}
		// Every pad the index names is whole; what else the crash left
		// (folders the index does not name yet) the next run removes.
		diffs, err := Verify(dir)
		must(t, err)
		for _, d := range diffs {
			if d.Problem != "not in the index" || strings.Count(d.Path, "/") != 1 {
				t.Errorf("after a crash: %+v", d)
			}
		}
	}
}

func TestAFolderWithOnlyLeftoversIsFresh(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 1)
	must(t, os.MkdirAll(f.dir, 0o755))
	must(t, os.WriteFile(filepath.Join(f.dir, safefile.TempPrefix+"x"), []byte("part"), 0o644))
	must(t, os.WriteFile(filepath.Join(f.dir, safefile.TempPrefix+"y"), []byte("part"), 0o644))
	must(t, os.WriteFile(filepath.Join(f.dir, lockName), nil, 0o644))
	if sum := f.run(t, Options{NoHistory: true}); sum.Added != 1 {
		t.Errorf("summary %+v", sum)
	}
	// The first run, which made the folder an archive, removed the
	// leftovers too, every one.
	for _, name := range []string{"x", "y"} {
		if _, err := os.Stat(filepath.Join(f.dir, safefile.TempPrefix+name)); !os.IsNotExist(err) {
			t.Errorf("leftover %s stays after the first run: %v", name, err)
		}
	}
	// Folders in pads/ that the index does not name (written by a run
	// killed before its index was) are removed, every one.
	for _, name := range []string{"stray1", "stray2", "stray3"} {
		must(t, os.MkdirAll(filepath.Join(f.dir, padsDir, name, "x"), 0o755))
	}
	if sum := f.run(t, Options{NoHistory: true}); sum.Unchanged != 1 {
		t.Errorf("summary %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(f.dir, safefile.TempPrefix+"x")); !os.IsNotExist(err) {
		t.Errorf("the leftover stays: %v", err)
	}
	verifyClean(t, f.dir)
}
