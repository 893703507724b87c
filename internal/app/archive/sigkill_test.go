package archive

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The child process of TestSIGKILLAtRandomMomentsThenResume: it archives
// into ARCHIVE_CHILD_DIR from the fake at ARCHIVE_CHILD_URL, printing a
// line for each pad done, until it is killed. It writes the index every
// 20 ms, as a run of hours writes it every 2 s: a kill then lands before,
// during or after an index write, with pads done since the last one, as
// in a long run, and each run resumes from what the one before it left
// (with the index written every 2 s, a run of a second never writes it,
// and every run would start again from nothing).
func TestArchiveChildProcess(t *testing.T) {
	dir, c, g := childClient(t, "ARCHIVE_CHILD")
	if dir == "" {
		t.Skip("run by TestSIGKILLAtRandomMomentsThenResume")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Run(ctx, c, dir, Options{Gate: g, flushEvery: 20 * time.Millisecond, Progress: func(p Progress) {
		if p.Kind == PadDone {
			os.Stdout.WriteString("done\n")
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("finished\n")
}

// TestSIGKILLAtRandomMomentsThenResume kills a run (a child process) with
// SIGKILL 20 times, each after a random number of pads, and checks that
// the run after leaves the archive byte for byte as an uninterrupted run
// does. It costs two whole runs of 60 pads on disk (the uninterrupted
// one, and the killed ones end to end), so it runs once in CI: in the
// plain go test ./..., not again under -race (nor with -short, as make
// mutate runs); TestKilledAtAnyWriteTheNextRunFinishesTheSame kills runs
// in-process under -race too.
func TestSIGKILLAtRandomMomentsThenResume(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("slow: two runs of 60 pads and 20 processes killed; run by the plain go test")
	}
	t.Parallel()
	f := newFixture(t, 60)
	ref := filepath.Join(t.TempDir(), "ref")
	f.dir = ref
	f.run(t, Options{})
	dir := filepath.Join(t.TempDir(), "killed")
	rng := rand.New(rand.NewPCG(31, 20))
	// This seed's 20 kills come after 52 pads in all: fewer than the 60
	// (a pad done after the index's last write is done again by the next
	// run), so the 20th kill still finds the run unfinished.
	finished, kills := false, 0
	for ; kills < 20 && !finished; kills++ {
		finished = f.child(t, dir, 1+rng.IntN(6))
	}
	if finished || kills != 20 {
		t.Fatalf("the run finished after %d kills: it had too little to do", kills)
	}
	// The kills left an index part-way: the runs resumed from one another.
	if n := len(indexLines(t, dir)); n == 0 || n >= 60 {
		t.Fatalf("after 20 kills the index holds %d pads, want some of the 60", n)
	}
	// The run after the kills finishes the job.
	if !f.child(t, dir, 1<<30) {
		t.Fatal("the run after the kills did not finish")
	}
	if diff := cmp.Diff(tree(t, ref), tree(t, dir)); diff != "" {
		t.Errorf("(-uninterrupted +killed and resumed):\n%s", diff)
	}
}

// child runs the child process on dir and kills it with SIGKILL once it
// has done after pads; it reports whether the run finished first.
func (f *fixture) child(t *testing.T, dir string, after int) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestArchiveChildProcess$", "-test.count=1")
	cmd.Env = childEnv("ARCHIVE_CHILD", dir, f.srv)
	out, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	lines := bufio.NewScanner(out)
	done, finished := 0, false
	for lines.Scan() {
		switch lines.Text() {
		case "done":
			done++
		case "finished":
			finished = true
		}
		if done >= after && !finished {
			must(t, cmd.Process.Kill())
			break
		}
	}
	_ = cmd.Wait()
	return finished
}
