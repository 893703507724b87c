//go:build linux

package archive

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi/padapitest"
)

// The markers the child of countRerun opens (they do not exist) just
// before and just after its run: the opens of the run are the traced
// opens between them.
const (
	startMarker = "/.padctl-archive-rerun-start"
	endMarker   = "/.padctl-archive-rerun-end"
)

// The child process of countRerun: it runs the archive in
// ARCHIVE_RERUN_DIR once more, between the two markers, and prints
// "requests N unchanged N".
func TestArchiveRerunChild(t *testing.T) {
	dir, c, g := childClient(t, "ARCHIVE_RERUN")
	if dir == "" {
		t.Skip("run by TestANoChangeRunOpensFewFiles")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, _ = os.Open(startMarker)
	sum, err := Run(ctx, c, dir, Options{Gate: g})
	_, _ = os.Open(endMarker)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("requests %d unchanged %d\n", sum.Requests, sum.Unchanged)
}

// countRerun runs the archive in dir once more, with nothing changed on
// srv, in a child process under strace, and returns the requests it sent,
// the pads it found unchanged, and the files it opened (openat calls,
// those that failed too).
func countRerun(tb testing.TB, srv *padapitest.Server, dir string) (requests, unchanged, opens int) {
	tb.Helper()
	strace, err := exec.LookPath("strace")
	if err != nil {
		tb.Fatalf("counting the files a run opens needs strace: %v", err)
	}
	trace := filepath.Join(tb.TempDir(), "trace")
	cmd := exec.Command(strace, "-f", "-e", "trace=open,openat,openat2", "-o", trace, os.Args[0], "-test.run=^TestArchiveRerunChild$", "-test.v")
	cmd.Env = childEnv("ARCHIVE_RERUN", dir, srv)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	for line := range strings.Lines(string(out)) {
		if f := strings.Fields(line); len(f) == 4 && f[0] == "requests" {
			requests, _ = strconv.Atoi(f[1])
			unchanged, _ = strconv.Atoi(f[3])
		}
	}
	fh, err := os.Open(trace)
	if err != nil {
		tb.Fatal(err)
	}
	defer fh.Close()
	in := false
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		switch line := sc.Text(); {
		case strings.Contains(line, startMarker):
			in = true
		case strings.Contains(line, endMarker):
			in = false
		case in && strings.Contains(line, "open"):
			opens++
		}
	}
	return requests, unchanged, opens
}

// A run with nothing changed sends at most 2 requests and opens at most
// 50 files, whatever the archive holds (issue 40: it opened a file per
// pad).
func TestANoChangeRunOpensFewFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 60)
	f.run(t, Options{NoHistory: true})
	requests, unchanged, opens := countRerun(t, f.srv, f.dir)
	t.Logf("figures: %d requests, %d opens", requests, opens)
	if requests > 2 || unchanged != 60 || opens > 50 {
		t.Errorf("a run with nothing changed: %d requests, %d unchanged, %d files opened; want at most 2 requests and 50 files", requests, unchanged, opens)
	}
}

// BenchmarkNoChangeRun reports the requests and the files opened by a run
// with nothing changed on an archive of 1 000 pads (as seedBench makes
// them): issue 40's target is at most 2 and 50. Run it with
// -benchtime=1x.
func BenchmarkNoChangeRun(b *testing.B) {
	srv := padapitest.NewServer(b)
	seedBench(srv, 1000)
	dir := filepath.Join(b.TempDir(), "archive")
	g := NewGate(nil)
	c := srv.Client(padapiHTTP(g)...)
	if _, err := Run(b.Context(), c, dir, Options{Gate: g, Concurrency: MaxConcurrency}); err != nil {
		b.Fatal(err)
	}
	c.Close()
	for b.Loop() {
		requests, unchanged, opens := countRerun(b, srv, dir)
		if unchanged != 1000 {
			b.Fatalf("%d unchanged", unchanged)
		}
		b.ReportMetric(float64(requests), "requests")
		b.ReportMetric(float64(opens), "opens")
	}
}
