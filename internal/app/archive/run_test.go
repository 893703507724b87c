package archive

import (
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

func TestANewRunKnowsWhatTheArchiveHeld(t *testing.T) {
	t.Parallel()
	st := &store{index: map[padapi.ID]*entry{
		"a": {ID: "a", UpdatedAt: base},
		"b": {ID: "b", UpdatedAt: base.Add(time.Hour), Deleted: true},
		"c": {ID: "c", UpdatedAt: base.Add(2 * time.Hour)},
	}}
	r := newRun(nil, st, Options{})
	if r.heldActive != 2 || len(r.held) != 3 || !r.held["b"].deleted || !r.held["c"].updatedAt.Equal(base.Add(2*time.Hour)) {
		t.Errorf("held %v, %d active; want a, b (deleted) and c, 2 active", r.held, r.heldActive)
	}
	// The index is written every flushEvery (2 s) unless a test says.
	if r.flushEvery != 2*time.Second {
		t.Errorf("the index is written every %v, want 2s", r.flushEvery)
	}
	if r := newRun(nil, st, Options{flushEvery: time.Millisecond}); r.flushEvery != time.Millisecond {
		t.Errorf("told 1ms: the index is written every %v", r.flushEvery)
	}
}

func TestWritingTheIndexMidRunDoesNotStopIt(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	// The index is written after every pad: each write succeeds, and the
	// run goes on to the end.
	sum := f.run(t, Options{NoHistory: true, flushEvery: time.Nanosecond})
	if sum.Added != 12 || sum.Failed != 0 {
		t.Errorf("summary %+v, want 12 added", sum)
	}
	if lines := indexLines(t, f.dir); len(lines) != 12 {
		t.Errorf("%d index lines, want 12", len(lines))
	}
	verifyClean(t, f.dir)
}
