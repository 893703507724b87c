// limits_test.go: the built binary (main.go) against hostile lists and environments: request counts and peak RSS of get_pad_code, of endless lists through pads list, questions diff and the MCP tools, and PAD_LIST_LIMIT.

package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest/rpcline"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// The issue 28 bounds, measured on the built binary against a service that
// answers as an attacker would: the count of requests it sends, and the
// peak resident memory of the padctl process (Linux's rusage of the child).
//
// The child's ru_maxrss is an upper bound of its own peak: Go starts it
// with vfork, so until exec it shares the test process's memory, and Linux
// keeps that memory's high-water mark as the child's. runBounded lowers
// that floor first (the test process's mark reset to its current RSS) and
// logs it, so a figure near the floor is the test's, not padctl's.

// runBounded runs padctl (the test binary, see binary) with env and
// stdin, within 30 s (a bound against hangs, not a measure: -race on a
// loaded machine included), and returns what it printed and its process
// state.
func runBounded(t *testing.T, env map[string]string, stdin string, args ...string) (stdout, stderr string, ps *os.ProcessState) {
	t.Helper()
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	floor := resetPeakRSS()
	start := time.Now()
	_ = cmd.Run()
	t.Logf("padctl %.40q ran %v (the test process's RSS at the start, a floor of its peak RSS: %d KiB)", args, time.Since(start), floor)
	if ctx.Err() != nil {
		t.Fatalf("padctl %q did not end within its deadline; stderr:\n%s", args, errOut.String())
	}
	return out.String(), errOut.String(), cmd.ProcessState
}

// resetPeakRSS resets the test process's peak RSS to its current RSS
// (Linux's clear_refs 5) and returns it in KiB, or -1 where it cannot.
func resetPeakRSS() int64 {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return -1
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return n
			}
		}
	}
	return -1
}

// checkPeakRSS fails the test when the process ps used more than limit
// bytes of memory at its peak, and logs the figure. It skips the test
// where the peak is not measured the Linux way (ru_maxrss in KiB), so it
// comes after every other assertion.
func checkPeakRSS(t *testing.T, what string, ps *os.ProcessState, limit int64) {
	t.Helper()
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if runtime.GOOS != "linux" || !ok {
		t.Skipf("peak RSS is read as Linux's ru_maxrss in KiB; not on %s", runtime.GOOS)
	}
	kib := int64(ru.Maxrss)
	t.Logf("%s: peak RSS %d KiB", what, kib)
	if raceDetector {
		// padctl is this test binary: under -race its memory is the
		// race detector's shadow too. The plain run (CI runs both)
		// holds the bound.
		return
	}
	if kib*1024 > limit {
		t.Errorf("%s: peak RSS %d KiB, over the %d MiB bound", what, kib, limit>>20)
	}
}

// count returns how many requests s received for method and path.
func (s *stub) count(method, path string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// Issue 28 #6 and #7: a pad that lists one environment 20 000 times, an
// environment of 3 MiB, costs get_pad_code one request for it, however
// many calls ask at once, and padctl mcp stays under 100 MiB.
func TestBinaryPadCodeRepeatedEnvironment(t *testing.T) {
	ids := strings.Repeat("1001,", 19_999) + "1001"
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/P":        reply(http.StatusOK, `{"status":"OK","id":"P","title":"t","state":"ended","pad_environment_ids":[`+ids+`],"active_environment_id":1001}`),
		"GET /api/pads/P/events": reply(http.StatusOK, `{"status":"OK","events":[],"total":0}`),
		"GET /api/pad_environments/1001": reply(http.StatusOK, `{"status":"OK","id":1001,"pad_id":"P","language":"python3","file_contents":[`+
			`{"path":"main.py","contents":"`+strings.Repeat("x", 3<<20)+`","history":null}],`+
			`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z"}`),
	})
	const calls = 4
	lines := []string{rpcline.Init(0)}
	for i := 1; i <= calls; i++ {
		lines = append(lines, rpcline.Call(i, "get_pad_code", map[string]any{"id": "P"}))
	}
	stdout, stderr, ps := runBounded(t, s.env(), strings.Join(lines, "\n")+"\n", "mcp", "--timeout", "15s")
	if n := strings.Count(stdout, `"main.py`); n < calls {
		t.Errorf("%d of %d answers name main.py; stdout %.2000s\nstderr:\n%s", n, calls, stdout, stderr)
	}
	if n := s.count(http.MethodGet, "/api/pad_environments/1001"); n != calls {
		t.Errorf("%d environment requests for %d calls of one distinct environment listed 20 000 times, want %d", n, calls, calls)
	}
	checkPeakRSS(t, fmt.Sprintf("%d get_pad_code calls, 20 000 IDs, one 3 MiB environment", calls), ps, 100<<20)
}

// endlessList serves every page of route as a full page of item (with
// "%d" for its number), a total of a billion and a link to the next page,
// forever.
func endlessList(s **stub, key, item string, perPage int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("page"))
		n = max(n, 1)
		items := make([]string, perPage)
		for i := range items {
			items[i] = fmt.Sprintf(item, (n-1)*perPage+i+1)
		}
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n+1))
		next := (*s).URL + r.URL.Path + "?" + q.Encode()
		reply(http.StatusOK, `{"status":"OK","`+key+`":[`+strings.Join(items, ",")+`],"total":1000000000,"next_page":"`+next+`"}`)(w, r)
	}
}

// Issue 28 #8: a service whose lists claim a billion items, and link to a
// next page forever, is read up to the list limit the user sets
// (PAD_LIST_LIMIT) and no further: each command ends with an error that
// names the limit, and padctl stays under 256 MiB. The MCP tools read no
// more than their answer holds: get_pad_transcript stops once its capped
// answer is full, and list_pads reads one page.
func TestBinaryEndlessLists(t *testing.T) {
	const window = 8 // pages the library fetches ahead
	// Pages of the service's choice (it need not send 50), as many as it
	// takes to reach the limit: 10 pages of 1 000 items, the 8 fetched
	// ahead on top. Where the list stops is told by the pages counted,
	// whatever their size; more items only cost CPU (20 000 took twice
	// the time, at 30-60 MiB of peak RSS, far under the bound). Under
	// -race padctl (this test binary) is ten times slower and its peak
	// RSS is not checked: a fifth of the items tells the same.
	perPage, limit := 1_000, 10_000
	if raceDetector {
		perPage, limit = 200, 2_000
	}
	// A pad and a question as the live service sends them, and an event.
	pad := `{"id":"P%d","title":"Backend screen","owner_email":"ops@example.com","language":null,"participants":[],"contents":null,"notes":null,` +
		`"events":"https://app.coderpad.io/api/pads/K3P9ZR2A/events","private":true,"execution_enabled":false,` +
		`"created_at":"2024-03-05T10:15:30.123Z","updated_at":"2024-03-05T11:00:00.000Z","ended_at":null,` +
		`"url":"https://app.coderpad.io/K3P9ZR2A","playback":"https://app.coderpad.io/K3P9ZR2A/playback","history":null,"drawing":null,` +
		`"state":"started","type":"live","question_ids":[1234,5678],"pad_environment_ids":[98765],"active_environment_id":98765,` +
		`"team":{"id":"68264172-5a54-4ac3-962b-cb8d1ad15d05","name":"Platform"},"restrict_interviewer_access":null}`
	question := `{"id":%d,"title":"FizzBuzz","owner_email":"vincent@example.com","author_name":"Vincent Woo","organization_name":"Example Corp",` +
		`"language":"python3","description":"A warm-up; expect ten minutes.","candidate_instructions":[{"instructions":"Print the numbers from 1 to n.","default_visible":true}],` +
		`"contents":"def fizzbuzz(n):\n    pass\n","solution":null,"shared":true,"take_home":false,"test_cases_enabled":true,"is_draft":false,"used":17,` +
		`"pad_type":"interview","custom_files":[],"test_cases":[{"id":1,"arguments":["15"],"return_value":"FizzBuzz","visible":true}],` +
		`"contents_for_test_cases":null,"public_take_home_setting_id":null,"custom_database":null,` +
		`"created_at":"2023-06-01T09:00:00.000Z","updated_at":"2023-06-02T17:30:15.250+02:00"}`
	event := `{"message":"Candidate ran the code (%d)","kind":"ran","metadata":"python3","user_name":"Candidate","user_email":null,"created_at":"2024-03-05T10:16:02Z"}`
	var s *stub
	s = newStub(t, map[string]http.HandlerFunc{
		"GET /api/pads":          endlessList(&s, "pads", pad, perPage),
		"GET /api/questions":     endlessList(&s, "questions", question, perPage),
		"GET /api/pads/P/events": endlessList(&s, "events", event, perPage),
		"GET /api/pads/P":        reply(http.StatusOK, `{"status":"OK","id":"P","title":"t","state":"ended","pad_environment_ids":[]}`),
	})
	env := s.env()
	env["PAD_LIST_LIMIT"] = strconv.Itoa(limit)
	mcp := func(tool string, args map[string]any) string {
		return rpcline.Init(1) + "\n" + rpcline.Call(2, tool, args) + "\n"
	}
	// What each run must print: the error naming the limit, and for
	// padctl the variable that sets it.
	limitErr := fmt.Sprintf("list limit reached of %d items (PAD_LIST_LIMIT)", limit)
	for _, tc := range []struct {
		name, path, stdin, want string
		args                    []string
		code, pages             int
	}{
		{"pads list --all", "/api/pads", "", limitErr, []string{"pads", "list", "--all"}, exitError, limit/perPage + window},
		{"pads list --all --json", "/api/pads", "", limitErr, []string{"pads", "list", "--all", "--json"}, exitError, limit/perPage + window},
		{"questions diff", "/api/questions", "", limitErr, []string{"questions", "diff", "--settle", "0s", t.TempDir()}, cmdutil.ExitNoPlan, limit/perPage + window},
		// The transcript's answer is capped (64 KiB): it stops reading
		// the events once the cap is reached and says how to read on.
		{"mcp get_pad_transcript", "/api/pads/P/events", mcp("get_pad_transcript", map[string]any{"id": "P"}),
			`events_truncated`, []string{"mcp"}, 0, 1 + window},
		{"mcp list_pads", "/api/pads", mcp("list_pads", nil), `\"next_page\":{\"page\":2}`, []string{"mcp"}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := s.count(http.MethodGet, tc.path)
			stdout, stderr, ps := runBounded(t, env, tc.stdin, tc.args...)
			pages := s.count(http.MethodGet, tc.path) - before
			t.Logf("exit %d, %d pages read, %d bytes on stdout, stderr %q", ps.ExitCode(), pages, len(stdout), stderr)
			if ps.ExitCode() != tc.code || !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("exit %d, want %d and %q; stdout %.2000q\nstderr:\n%s", ps.ExitCode(), tc.code, tc.want, stdout, stderr)
			}
			if tc.code != 0 && !strings.Contains(stderr, "PAD_LIST_LIMIT sets how many") {
				t.Errorf("no advice naming PAD_LIST_LIMIT; stderr:\n%s", stderr)
			}
			if pages > tc.pages {
				t.Errorf("%d pages read of %d items each, for a limit of %d items: want at most %d", pages, perPage, limit, tc.pages)
			}
			checkPeakRSS(t, tc.name, ps, 256<<20)
		})
	}
}

// PAD_LIST_LIMIT must be a whole number of at least 1.
func TestBinaryListLimitRefused(t *testing.T) {
	t.Parallel() // a process of its own against a server of its own
	s := newStub(t, nil)
	for _, v := range []string{"0", "-1", "lots", "1e9"} {
		env := s.env()
		env["PAD_LIST_LIMIT"] = v
		_, stderr, ps := runBounded(t, env, "", "pads", "list", "--all")
		if ps.ExitCode() != exitUsage || !strings.Contains(stderr, "PAD_LIST_LIMIT=") {
			t.Errorf("PAD_LIST_LIMIT=%s: exit %d, stderr %q", v, ps.ExitCode(), stderr)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("%d requests sent with a bad PAD_LIST_LIMIT", n)
	}
}
