package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

const overQuota = `{"status":"ERROR","message":"Over quota"}`

// createpad runs the example against srv with the given title and flags.
func createpad(ctx context.Context, t *testing.T, srv *padapitest.Server, title string, flags ...string) (code int, stdout, stderr string) {
	t.Helper()
	vars := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
	var out, errOut bytes.Buffer
	code = run(ctx, append([]string{"-title", title}, flags...), func(k string) string { return vars[k] }, &out, &errOut)
	return code, out.String(), errOut.String()
}

// calls lists the requests srv received as "METHOD /path".
func calls(srv *padapitest.Server) []string {
	var out []string
	for _, r := range srv.Requests() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// made counts the pads in srv whose title is title with a request token.
func made(srv *padapitest.Server, title string) int {
	var n int
	for _, p := range srv.Pads() {
		if strings.HasPrefix(p.Title, title+" [ref ") {
			n++
		}
	}
	return n
}

// useClock makes createpad's clock (now, after) one that moves only when
// createpad waits, by what it waits, and calls onWait, if not nil, each
// time it does; until the test ends. With it, the looks within -wait are
// the same however long each takes on a busy machine. (A synctest bubble
// cannot do this: createpad's client talks to the fake over real sockets,
// and a goroutine reading an idle connection is not durably blocked, so
// the bubble's clock would not move.)
func useClock(t *testing.T, onWait func()) {
	var mu sync.Mutex
	at := time.Now()
	now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return at
	}
	after = func(d time.Duration) <-chan time.Time {
		if onWait != nil {
			onWait()
			return nil // never: only the context ends the wait
		}
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(d)
		c := make(chan time.Time, 1)
		c <- at
		return c
	}
	t.Cleanup(func() { now, after = time.Now, time.After })
}

func TestCreatepad(t *testing.T) {
	const title = "Interview with Ada"
	const (
		quota  = "GET /api/quota"
		create = "POST /api/pads"
		list   = "GET /api/pads"
	)
	for _, tc := range []struct {
		name   string
		flags  []string
		setup  func(*padapitest.Server)
		code   int
		stdout string // a regexp
		stderr string // a substring
		calls  []string
		pads   int
	}{{
		name:   "created",
		code:   0,
		stdout: `^created pad [A-Z0-9]{8} "Interview with Ada \[ref [A-Z2-7]{8}\]": http://127\.0\.0\.1:\d+/[A-Z0-9]{8}\n$`,
		calls:  []string{quota, create},
		pads:   1,
	}, {
		name:   "quota spent before the create",
		setup:  func(s *padapitest.Server) { s.SetQuota(10, 10) },
		code:   1,
		stderr: "no pads left this month: 10 pads used, 0 left",
		calls:  []string{quota},
	}, {
		name:   "quota spent between check and create",
		setup:  func(s *padapitest.Server) { s.FailNext(create, 1, http.StatusTooManyRequests, overQuota) },
		code:   1,
		stderr: "no pads left this month: the quota was spent since the check",
		calls:  []string{quota, create},
	}, {
		// The pad was made but the answer lost: found, not made twice.
		name:   "answer lost",
		flags:  []string{"-recreate"},
		setup:  func(s *padapitest.Server) { s.DropNext(create, 1) },
		code:   0,
		stdout: `^created pad [A-Z0-9]{8} "Interview with Ada \[ref [A-Z2-7]{8}\]"`,
		calls:  []string{quota, create, list},
		pads:   1,
	}, {
		// The answer was lost and the list lags: the first look comes back
		// without the pad, a later one finds it.
		name:  "answer lost, list lagging",
		flags: []string{"-wait", "500ms", "-recreate"},
		setup: func(s *padapitest.Server) {
			s.DropNext(create, 1)
			s.FailNext(list, 1, http.StatusOK, `{"status":"OK","pads":[],"total":0}`)
		},
		code:   0,
		stdout: `^created pad [A-Z0-9]{8} "Interview with Ada \[ref [A-Z2-7]{8}\]"`,
		calls:  []string{quota, create, list, list},
		pads:   1,
	}, {
		// A 502 from a proxy: the pad was not made, but createpad cannot
		// know that, so it looks until -wait has passed and does not create
		// again.
		name:   "outcome unknown, pad not found",
		flags:  []string{"-wait", "500ms"},
		setup:  func(s *padapitest.Server) { s.FailNext(create, 1, http.StatusBadGateway, "") },
		code:   3,
		stderr: "outcome unknown: the pad may exist",
		calls:  []string{quota, create, list, list},
	}, {
		// With -recreate, a pad not found after -wait is created again.
		name:   "outcome unknown, pad not found, recreate",
		flags:  []string{"-wait", "0", "-recreate"},
		setup:  func(s *padapitest.Server) { s.FailNext(create, 1, http.StatusBadGateway, "") },
		code:   0,
		stdout: `^created pad [A-Z0-9]{8}`,
		stderr: "found after 0s; creating it again (-recreate)",
		calls:  []string{quota, create, list, create},
		pads:   1,
	}, {
		name:   "outcome unknown every time, recreate",
		flags:  []string{"-wait", "0", "-recreate"},
		setup:  func(s *padapitest.Server) { s.FailNext(create, 5, http.StatusBadGateway, "") },
		code:   3,
		stderr: "outcome unknown: the pad may exist",
		calls:  []string{quota, create, list, create, list},
	}, {
		// The create got no answer and neither did the lookup.
		name:  "outcome unknown, lookup failed",
		flags: []string{"-recreate"},
		setup: func(s *padapitest.Server) {
			s.DropNext(create, 1)
			s.FailNext(list, 1, http.StatusUnauthorized, "")
		},
		code:   3,
		stderr: "looking for it failed",
		calls:  []string{quota, create, list},
		pads:   1,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			useClock(t, nil)
			srv := padapitest.NewServer(t)
			srv.AddPad(padapi.Pad{Title: "Interview with Grace"})
			if tc.setup != nil {
				tc.setup(srv)
			}
			code, stdout, stderr := createpad(t.Context(), t, srv, title, tc.flags...)
			if code != tc.code || !regexp.MustCompile(tc.stdout).MatchString(stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout like %q, stderr with %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if got := calls(srv); strings.Join(got, ", ") != strings.Join(tc.calls, ", ") {
				t.Errorf("requests %q, want %q", got, tc.calls)
			}
			if n := made(srv, title); n != tc.pads {
				t.Errorf("%d pads titled %q with a token, want %d", n, title, tc.pads)
			}
		})
	}
}

// Looking for a pad ends when the context does: here the context is
// cancelled when createpad starts to wait for its next look, which, with a
// -wait of an hour, only the context can end. The test has a deadline of
// its own, generous, for a createpad that would not stop.
func TestCreatepadCancelWhileLooking(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.FailNext("POST /api/pads", 1, http.StatusBadGateway, "")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	useClock(t, cancel)

	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, _, stderr := createpad(ctx, t, srv, "Interview with Ada", "-wait", "1h", "-recreate")
		done <- result{code, stderr}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("createpad still looking 30s after its context ended")
	}
	if r.code != 3 || !strings.Contains(r.stderr, "outcome unknown: the pad may exist") || !strings.Contains(r.stderr, "context canceled") {
		t.Errorf("exit %d, stderr %q; want exit 3, outcome unknown, context canceled", r.code, r.stderr)
	}
	if n := made(srv, "Interview with Ada"); n != 0 {
		t.Errorf("%d pads made", n)
	}
}

// Every run tags its title with a token of its own.
func TestCreatepadTokens(t *testing.T) {
	srv := padapitest.NewServer(t)
	for range 2 {
		if code, _, stderr := createpad(t.Context(), t, srv, "Interview with Ada"); code != 0 {
			t.Fatalf("exit %d, stderr %q", code, stderr)
		}
	}
	if p := srv.Pads(); len(p) != 2 || p[0].Title == p[1].Title {
		t.Errorf("pads %q and %q: want two titles that differ", p[0].Title, p[1].Title)
	}
}

func TestCreatepadFake(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"-title", "Demo", "-language", "go"}, func(string) string { return "" }, &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stdout.String(), "created pad ") || strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestCreatepadUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		vars map[string]string
		want string
	}{
		{nil, map[string]string{"PAD_BASE_URL": "https://app.coderpad.io"}, "PAD_API_KEY is not set"},
		{nil, map[string]string{"PAD_API_KEY": "k"}, "PAD_BASE_URL is not set"},
		{[]string{"-nope"}, nil, "flag provided but not defined"},
		{[]string{"stray"}, nil, "Usage of createpad"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, func(k string) string { return tc.vars[k] }, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 and %q", tc.args, tc.vars, code, stderr.String(), tc.want)
		}
	}
}
