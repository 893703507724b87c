//go:build linux

package questions_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// The child process of TestQuestionsDiffMemoryFollowsTheFolder: padctl
// questions diff (in-process, as the binary runs it, at its default
// limits) against the service at QSYNC_RSS_URL, then its peak resident
// memory (VmHWM) and its exit code on stdout.
func TestQuestionsDiffRSSChild(t *testing.T) {
	url := os.Getenv("QSYNC_RSS_URL")
	if url == "" {
		t.Skip("run by TestQuestionsDiffMemoryFollowsTheFolder")
	}
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: map[string]string{"PAD_BASE_URL": url, "PAD_API_KEY": testKey}},
		"questions", "diff", "--settle", "0s", os.Getenv("QSYNC_RSS_DIR"))
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("exit %d\n", r.Code)
	for line := range strings.Lines(string(status)) {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Print(line)
		}
	}
	fmt.Printf("stdout %q\nstderr %q\n", r.Stdout, r.Stderr)
}

// Issue 37 #2: against question pages of 50 × 200 KiB that claim a total
// of a billion, questions diff keeps only what its plan needs (the
// folder's questions; the rest are read and dropped), and stays under
// 256 MiB of peak RSS at the default limits. The service ends its list
// after 20 pages (200 MB), far more than the bound: a diff that kept the
// list would pass it (issue 37 measured 647 MiB on the endless list).
func TestQuestionsDiffMemoryFollowsTheFolder(t *testing.T) {
	if raceDetector() {
		t.Skip("under -race the memory is the detector's shadow too; the plain run holds the bound")
	}
	const pages, perPage = 20, 50
	text := strconv.Quote(strings.Repeat("x", 200<<10))
	var s *cmdtest.Stub
	s = cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/questions": func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("page"))
			n = max(n, 1)
			var b strings.Builder
			b.WriteString(`{"status":"OK","questions":[`)
			for i := range perPage {
				if i > 0 {
					b.WriteString(",")
				}
				// The folder holds question 7: it is the one kept.
				fmt.Fprintf(&b, `{"id":%d,"title":"Q","language":"go","organization_name":"Org","description":%s,"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`,
					(n-1)*perPage+i+1, text)
			}
			next := ""
			if n < pages {
				next = s.URL + "/api/questions?page=" + strconv.Itoa(n+1)
			}
			fmt.Fprintf(&b, `],"total":1000000000,"next_page":%q}`, next)
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(b.String()))
		},
	})
	dir := filepath.Join(t.TempDir(), "lib")
	writeFiles(t, dir, map[string]string{"q/question.json": `{"id": 7, "title": "Q", "language": "go"}`})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestQuestionsDiffRSSChild$", "-test.count=1", "-test.v=false")
	cmd.Env = append(os.Environ(), "QSYNC_RSS_URL="+s.URL, "QSYNC_RSS_DIR="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%.3000s", err, out)
	}
	t.Logf("diff of %d pages of %d × 200 KiB in %v", pages, perPage, time.Since(start))
	// The plan: question 7 differs (the folder has no description), so
	// diff exits 1, having read every page.
	if !strings.Contains(string(out), "exit 1\n") || !strings.Contains(string(out), "update  q/  #7") {
		t.Fatalf("child: want exit 1 and an update of #7:\n%.3000s", out)
	}
	// The list is read 8 pages at once: past its last page the walker
	// may have asked for up to 7 that it guessed and then dropped.
	if got := len(s.Requests()); got < pages || got > pages+cmdutil.DefaultPagesAtOnce-1 {
		t.Errorf("%d pages read, want %d, and at most %d guessed past the end", got, pages, cmdutil.DefaultPagesAtOnce-1)
	}
	_, hwm, ok := strings.Cut(string(out), "VmHWM:")
	kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(strings.SplitN(hwm, "\n", 2)[0]), " kB"), 10, 64)
	if !ok || err != nil {
		t.Fatalf("child: no VmHWM in its output:\n%.3000s", out)
	}
	t.Logf("peak RSS %d MiB", kib>>10)
	if kib<<10 > 256<<20 {
		t.Errorf("questions diff peaked at %d MiB of RSS: want under 256", kib>>10)
	}
}
