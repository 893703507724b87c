package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

const overQuota = `{"status":"ERROR","message":"Over quota"}`

// createpad runs the example against srv with the given title.
func createpad(t *testing.T, srv *padapitest.Server, title string) (code int, stdout, stderr string) {
	t.Helper()
	vars := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
	var out, errOut bytes.Buffer
	code = run(context.Background(), []string{"-title", title}, func(k string) string { return vars[k] }, &out, &errOut)
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

func TestCreatepad(t *testing.T) {
	const title = "Interview with Ada"
	for _, tc := range []struct {
		name      string
		setup     func(*padapitest.Server)
		code      int
		stdout    string // a regexp
		stderr    string // a substring
		calls     []string
		pads      int
		padsTitle string
	}{{
		name:   "created",
		code:   0,
		stdout: `^created pad [A-Z0-9]{8} "Interview with Ada": http://127\.0\.0\.1:\d+/[A-Z0-9]{8}\n$`,
		calls:  []string{"GET /api/quota", "POST /api/pads"},
		pads:   1,
	}, {
		name:   "quota spent before the create",
		setup:  func(s *padapitest.Server) { s.SetQuota(10, 10) },
		code:   1,
		stderr: "no pads left this month: 10 pads used of 10",
		calls:  []string{"GET /api/quota"},
	}, {
		name:   "quota spent between check and create",
		setup:  func(s *padapitest.Server) { s.FailNext("POST /api/pads", 1, http.StatusTooManyRequests, overQuota) },
		code:   1,
		stderr: "no pads left this month: the quota was spent since the check",
		calls:  []string{"GET /api/quota", "POST /api/pads"},
	}, {
		// The pad was made but the answer lost: found, not made twice.
		name:   "answer lost",
		setup:  func(s *padapitest.Server) { s.DropNext("POST /api/pads", 1) },
		code:   0,
		stdout: `^created pad [A-Z0-9]{8} "Interview with Ada"`,
		calls:  []string{"GET /api/quota", "POST /api/pads", "GET /api/pads"},
		pads:   1,
	}, {
		// A 502 from a proxy: the pad was not made, so it is made again.
		name:   "outcome unknown, pad not made",
		setup:  func(s *padapitest.Server) { s.FailNext("POST /api/pads", 1, http.StatusBadGateway, "") },
		code:   0,
		stdout: `^created pad [A-Z0-9]{8}`,
		stderr: "no pad titled \"Interview with Ada\" found, creating again",
		calls:  []string{"GET /api/quota", "POST /api/pads", "GET /api/pads", "POST /api/pads"},
		pads:   1,
	}, {
		name:   "outcome unknown every time",
		setup:  func(s *padapitest.Server) { s.FailNext("POST /api/pads", 5, http.StatusBadGateway, "") },
		code:   1,
		stderr: "gave up after 2 attempts",
		calls:  []string{"GET /api/quota", "POST /api/pads", "GET /api/pads", "POST /api/pads", "GET /api/pads"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := padapitest.NewServer(t)
			srv.AddPad(padapi.Pad{Title: "Interview with Grace"})
			if tc.setup != nil {
				tc.setup(srv)
			}
			code, stdout, stderr := createpad(t, srv, title)
			if code != tc.code || !regexp.MustCompile(tc.stdout).MatchString(stdout) || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout like %q, stderr with %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
			if got := calls(srv); strings.Join(got, ", ") != strings.Join(tc.calls, ", ") {
				t.Errorf("requests %q, want %q", got, tc.calls)
			}
			var made int
			for _, p := range srv.Pads() {
				if p.Title == title {
					made++
				}
			}
			if made != tc.pads {
				t.Errorf("%d pads titled %q, want %d", made, title, tc.pads)
			}
		})
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
