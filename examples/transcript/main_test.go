package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

// service is a hand-made Pad Interview Service: one interview (pad
// DM32JWG2, its event log in two pages, two environments), and a pad
// list. It records the requests.
type service struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

func newService(t *testing.T, list string) *service {
	t.Helper()
	s := &service{}
	mux := http.NewServeMux()
	for pattern, body := range map[string]string{
		"GET /api/pads": list,
		"GET /api/pads/DM32JWG2": `{"status":"OK","id":"DM32JWG2","title":"Backend screen","language":"python3",
			"participants":["Jane Doe","Candidate"],"notes":"Strong on SQL.",
			"created_at":"2026-03-05T10:00:00Z","ended_at":"2026-03-05T12:02:10+01:00",
			"pad_environment_ids":[98765],"active_environment_id":98766}`,
		"GET /api/pads/DM32JWG2/events": `{"status":"OK","total":2,"events":[
			{"kind":"joined","message":"Jane Doe joined the pad","user_name":"Jane Doe","created_at":"2026-03-05T10:01:00Z"}],
			"next_page":"https://app.coderpad.io/api/pads/DM32JWG2/events?page=2"}`,
		"GET /api/pad_environments/98765": `{"status":"OK","id":98765,"pad_id":1,"language":"python3",
			"file_contents":[{"path":"main.py","contents":"print(\"hi\")","history":null}]}`,
		"GET /api/pad_environments/98766": `{"status":"OK","id":98766,"pad_id":1,"language":"go",
			"file_contents":[{"path":"main.go","contents":"package main\n"},{"path":"logo.png","contents":"iVBORw0KGgo=","binary":true},{"path":"empty.txt","contents":null}]}`,
		"GET /api/pads/NOPE": `{"status":"ERROR","message":"Pad not found"}`,
	} {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
			s.mu.Unlock()
			status := http.StatusOK
			if strings.Contains(body, `"ERROR"`) {
				status = http.StatusNotFound
			}
			if r.URL.Query().Get("page") == "2" {
				body = `{"status":"OK","total":2,"events":[
					{"kind":"ran","message":"Candidate ran the code","user_name":"Candidate","created_at":"2026-03-05T11:20:00+01:00"}]}`
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(body))
		})
	}
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *service) env() func(string) string {
	return env(map[string]string{"PAD_BASE_URL": s.URL, "PAD_API_KEY": "k-secret"})
}

// wantDM32JWG2 is the transcript of the hand-made interview: the package
// doc's example, and the other environment.
const wantDM32JWG2 = `Backend screen (DM32JWG2)
python3, created 2026-03-05 10:00 UTC, ended 2026-03-05 11:02 UTC
participants: Jane Doe, Candidate

== notes
Strong on SQL.

== events (2)
2026-03-05 10:01:00  joined  Jane Doe joined the pad
2026-03-05 10:20:00  ran     Candidate ran the code

== files
-- 98765/main.py (python3)
print("hi")
-- 98766/main.go (go)
package main
-- 98766/logo.png (go): binary, 12 bytes as sent
-- 98766/empty.txt (go): empty
`

// Given a pad ID, it prints the pad, every page of events and every
// environment, the active one included, exactly as the package doc shows.
func TestRunPadID(t *testing.T) {
	s := newService(t, `{"status":"OK","pads":[],"total":0}`)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"DM32JWG2"}, s.env(), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if stdout.String() != wantDM32JWG2 {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), wantDM32JWG2)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q, want nothing", stderr.String())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	slices.Sort(s.requests)
	want := []string{
		"GET /api/pad_environments/98765", "GET /api/pad_environments/98766",
		"GET /api/pads/DM32JWG2", "GET /api/pads/DM32JWG2/events?page=2&sort=created_at%2Casc", "GET /api/pads/DM32JWG2/events?sort=created_at%2Casc",
	}
	if !slices.Equal(s.requests, want) {
		t.Errorf("requests %q, want %q", s.requests, want)
	}
}

// The package doc's example output is what the program prints.
func TestDocExample(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	// The example is the comment's indented block after the command line.
	var block []string
	in := false
	for _, line := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(line, "//") {
			break
		}
		line = strings.TrimPrefix(line, "//")
		switch {
		case strings.HasPrefix(line, "\t$ "):
			in = true
		case in && line == "":
			block = append(block, "")
		case in && strings.HasPrefix(line, "\t"):
			block = append(block, strings.TrimPrefix(line, "\t"))
		case in:
			in = false
		}
	}
	for len(block) > 0 && block[len(block)-1] == "" {
		block = block[:len(block)-1]
	}
	shown := strings.Join(block, "\n") + "\n"
	if len(block) < 10 || !strings.HasPrefix(wantDM32JWG2, shown) {
		t.Errorf("the package doc shows:\n%s\nthe program prints:\n%s", shown, wantDM32JWG2)
	}
}

// Given no pad ID, it prints the newest pad, the first of the list, and
// says which on stderr.
func TestRunNewest(t *testing.T) {
	s := newService(t, `{"status":"OK","pads":[{"id":"DM32JWG2","title":"Backend screen"},{"id":"OLDER001","title":"Older"}],"total":2}`)
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), nil, s.env(), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if stdout.String() != wantDM32JWG2 {
		t.Errorf("stdout:\n%s\nwant:\n%s", stdout.String(), wantDM32JWG2)
	}
	if want := "no pad ID given: the newest pad is DM32JWG2 (Backend screen)\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	if s.requests[0] != "GET /api/pads" {
		t.Errorf("first request %q, want the pad list", s.requests[0])
	}
}

func TestRunErrors(t *testing.T) {
	s := newService(t, `{"status":"OK","pads":[],"total":0}`)
	for _, tc := range []struct {
		name string
		args []string
		vars func(string) string
		code int
		want string
	}{
		{"two pad IDs", []string{"A", "B"}, s.env(), 2, "usage: transcript [PAD_ID]"},
		{"a flag", []string{"-h"}, s.env(), 2, "usage: transcript [PAD_ID]"},
		{"only the URL", nil, env(map[string]string{"PAD_BASE_URL": s.URL}), 2, "PAD_API_KEY is not set"},
		{"a refused ID", []string{".."}, s.env(), 2, "invalid argument"},
		{"an unknown pad", []string{"NOPE"}, s.env(), 1, "GET /api/pads/NOPE: 404: Pad not found"},
		{"no pads", nil, s.env(), 1, "the account has no pads; give a pad ID"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, tc.vars, &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", tc.name, code, stderr.String(), tc.code, tc.want)
		}
		if stdout.Len() != 0 || strings.Contains(stderr.String(), "k-secret") {
			t.Errorf("%s: stdout %q, stderr %q", tc.name, stdout.String(), stderr.String())
		}
	}
}

// Against the fake, the program prints the newest seeded pad's transcript,
// just as the library reads it from the same fake; where the fake cannot
// give a transcript, the program reports the library's error and exits 1.
func TestRunFake(t *testing.T) {
	srv := padapitest.NewServer(t)
	seedFake(srv)
	pads := srv.Pads()
	if len(pads) == 0 {
		t.Fatal("the seeded fake has no pads")
	}
	newest := slices.MaxFunc(pads, func(a, b padapi.Pad) int { return a.CreatedAt.Compare(b.CreatedAt) })
	want, wantErr := srv.Client().Pads.Transcript(context.Background(), newest.ID)

	var stdout, stderr bytes.Buffer
	vars := env(map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey})
	code := run(context.Background(), nil, vars, &stdout, &stderr)
	if !strings.HasPrefix(stderr.String(), "no pad ID given: the newest pad is "+string(newest.ID)+" ") {
		t.Errorf("stderr %q does not name the newest pad %s", stderr.String(), newest.ID)
	}
	if wantErr != nil {
		if code != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "transcript: "+wantErr.Error()) {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 with %q", code, stdout.String(), stderr.String(), wantErr)
		}
		return
	}
	var wantOut bytes.Buffer
	if err := write(&wantOut, want); err != nil {
		t.Fatal(err)
	}
	if code != 0 || stdout.String() != wantOut.String() {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, stdout.String(), wantOut.String())
	}
	if !strings.HasPrefix(stdout.String(), newest.Title+" ("+string(newest.ID)+")\n") {
		t.Errorf("stdout does not start with the newest pad's title: %q", stdout.String())
	}
}

// With neither variable set it starts its own fake, says so on stderr,
// and ends as the same program against a fake it is given does.
func TestRunBuiltInFake(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), nil, env(nil), &stdout, &stderr)
	lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
	if len(lines) < 2 || !strings.Contains(lines[0], "in-process fake service") || !strings.HasPrefix(lines[1], "no pad ID given: the newest pad is ") {
		t.Fatalf("stderr %q: want the fake's line, then the newest pad's", stderr.String())
	}

	srv := padapitest.NewServer(t)
	seedFake(srv)
	var stdout2, stderr2 bytes.Buffer
	code2 := run(context.Background(), nil, env(map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}), &stdout2, &stderr2)
	if code != code2 || lines[1] != strings.SplitN(stderr2.String(), "\n", 2)[0] {
		t.Errorf("built-in fake: exit %d, stderr %q; a given fake: exit %d, stderr %q", code, stderr.String(), code2, stderr2.String())
	}
	first := func(s string) string { return strings.SplitN(s, "\n", 2)[0] }
	if first(stdout.String()) != first(stdout2.String()) {
		t.Errorf("built-in fake prints %q first, a given fake %q", first(stdout.String()), first(stdout2.String()))
	}
}

// A cancelled run stops with the context's error, exit 1.
func TestRunCancelled(t *testing.T) {
	s := newService(t, `{"status":"OK","pads":[],"total":0}`)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"DM32JWG2"}, s.env(), &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), context.Canceled.Error()) {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr.String(), context.Canceled)
	}
}

// write leaves nothing out of a file whose text has no final line break,
// and prints an open pad as open.
func TestWriteOpenPad(t *testing.T) {
	tr := &padapi.Transcript{
		Pad:    &padapi.Pad{ID: "P1", Title: "t", CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		Events: []padapi.PadEvent{},
	}
	var b bytes.Buffer
	if err := write(&b, tr); err != nil {
		t.Fatal(err)
	}
	want := "t (P1)\nno language, created 2026-01-02 03:04 UTC, still open\n\n== notes\n(none)\n\n== events (0)\n\n== files\n(none)\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	if err := write(failingWriter{}, tr); !errors.Is(err, errWrite) {
		t.Errorf("write to a failing writer: %v", err)
	}
}

var errWrite = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }
