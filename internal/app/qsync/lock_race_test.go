// This file holds the one slow test of the lock (two applies at a time of
// the same 6 new folders, four times: 24 real creates over loopback).
// gremlins runs with -tags mutate and skips it: TestLockRefusesOrWaits
// kills the lock's mutants in milliseconds.

//go:build !mutate

package qsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// Two applies of the same 6 new folders at once create each question
// once: the second waits for the first's lock, and then finds every id
// written back. Without the lock (flock shared, not exclusive) the first
// try already fails: 10 to 12 questions for the 6 folders, in 20 runs of
// 20 (20 folders and 10 tries, as in issue 28's figures, wrote 1 000
// files; 6 and 4 write 120). The applies run in a bubble: the second
// one's polls of the lock take no real time.
func TestConcurrentAppliesNeverCreateTwice(t *testing.T) {
	const folders, tries = 6, 4
	for try := range tries {
		e := newEnv(t)
		synctest.Test(t, func(t *testing.T) {
			e.t = t
			applyTwiceAtOnce(t, e, try, folders)
		})
	}
}

// applyTwiceAtOnce writes folders new folders and applies them twice at
// once.
func applyTwiceAtOnce(t *testing.T, e *env, try, folders int) {
	for i := range folders {
		e.write(map[string]string{fmt.Sprintf("q%02d/question.json", i): fmt.Sprintf(`{"title": "Q %d", "language": "go"}`, i)})
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	created := make([]int, 2)
	for i := range 2 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			evs, err := runWith(ctx, e.syncer(Options{}), Push)
			errs[i], created[i] = err, actions(evs)[Create]
		})
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("try %d: %v", try, errs)
	}
	if n := len(e.srv.Questions()); n != folders || created[0]+created[1] != folders {
		t.Fatalf("try %d: %d questions for %d folders (created %v)", try, n, folders, created)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.dir)); len(entries) != folders+1 {
		t.Errorf("try %d: %d entries in the folder, want %d folders and the state file", try, len(entries), folders)
	}
}
