package main

import (
	"bytes"
	"context"
	"net"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func env(vars map[string]string) func(string) string {
	return func(name string) string { return vars[name] }
}

func TestDescribe(t *testing.T) {
	now := time.Date(2026, 10, 14, 12, 0, 0, 0, time.UTC)
	reset := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		q    padapi.Quota
		want string
	}{
		{padapi.Quota{PadsUsed: 33, PadsRemaining: padapi.Ptr(87), MonthlyPadLimit: padapi.Ptr(120), QuotaResetAt: reset},
			"33 of 120 pads used, 87 left; quota last reset 2026-10-01"},
		{padapi.Quota{PadsUsed: 33, Unlimited: true, QuotaResetAt: reset},
			"unlimited plan, 33 pads used; quota last reset 2026-10-01"},
		{padapi.Quota{PadsUsed: 2, PadsRemaining: padapi.Ptr(8), MonthlyPadLimit: padapi.Ptr(10), QuotaResetAt: reset, TrialExpiresAt: padapi.Ptr(now.Add(48 * time.Hour))},
			"2 of 10 pads used, 8 left; quota last reset 2026-10-01; trial ends 2026-10-16"},
		{padapi.Quota{PadsUsed: 12, PadsRemaining: padapi.Ptr(0), MonthlyPadLimit: padapi.Ptr(10), QuotaResetAt: reset, TrialExpiresAt: padapi.Ptr(now.Add(-48 * time.Hour))},
			"12 of 10 pads used, 0 left; quota last reset 2026-10-01; trial ended 2026-10-12"},
		// The live service's limited plan, which sends neither count.
		{padapi.Quota{PadsUsed: 33, QuotaResetAt: reset, OveragesEnabled: padapi.Ptr(true)},
			"33 pads used, limit not reported (overages allowed); quota last reset 2026-10-01"},
		{padapi.Quota{PadsUsed: 33, MonthlyPadLimit: padapi.Ptr(40), QuotaResetAt: reset},
			"33 of 40 pads used, 7 left; quota last reset 2026-10-01"},
	} {
		if got := describe(&tc.q, now); got != tc.want {
			t.Errorf("describe = %q, want %q", got, tc.want)
		}
	}
}

// With neither variable set, the example asks its own fake.
func TestRunFake(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), env(nil), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if !regexp.MustCompile(`^33 of 120 pads used, 87 left; quota last reset \d{4}-\d\d-01; trial ended \d{4}-\d\d-01\n$`).MatchString(stdout.String()) {
		t.Errorf("stdout %q", stdout.String())
	}
	if lines := strings.Count(stderr.String(), "\n"); lines != 1 || !strings.Contains(stderr.String(), "fake") {
		t.Errorf("stderr %q, want one line saying a fake is used", stderr.String())
	}
}

func TestRunService(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.SetUnlimited()
	srv.SetQuotaResetAt(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))
	srv.SetTrialExpiresAt(padapi.Ptr(time.Date(2026, 8, 15, 0, 0, 0, 0, time.UTC)))
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), env(map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}), &stdout, &stderr)
	if code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	if want := "unlimited plan, 0 pads used; quota last reset 2026-09-01; trial ended 2026-08-15\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests to the service, want 1", n)
	}
}

func TestRunErrors(t *testing.T) {
	srv := padapitest.NewServer(t)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + closed.Addr().String()
	closed.Close()
	for _, tc := range []struct {
		name string
		vars map[string]string
		code int
		want string
	}{
		{"only the URL", map[string]string{"PAD_BASE_URL": srv.URL}, 2, "PAD_API_KEY is not set"},
		{"only the key", map[string]string{"PAD_API_KEY": "k"}, 2, "PAD_BASE_URL is not set"},
		{"wrong key", map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": "wrong-secret"}, 1, "401: Invalid API key"},
		{"not a URL", map[string]string{"PAD_BASE_URL": "ftp://pad.example", "PAD_API_KEY": "k"}, 1, "need an absolute http or https URL"},
	} {
		checkRunError(t, tc.name, tc.vars, tc.code, tc.want)
	}
	// A refused connect is retried: the waits between the tries are fake
	// (synctest). The dials are real, and refused at once.
	synctest.Test(t, func(t *testing.T) {
		checkRunError(t, "service down", map[string]string{"PAD_BASE_URL": down, "PAD_API_KEY": "k"}, 1, "connection refused")
	})
}

// checkRunError runs the example with vars and checks that it exits code
// with an error that holds want, and prints nothing else.
func checkRunError(t *testing.T, name string, vars map[string]string, wantCode int, want string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), env(vars), &stdout, &stderr)
	if code != wantCode || !strings.HasPrefix(stderr.String(), "quota: ") || !strings.Contains(stderr.String(), want) {
		t.Errorf("%s: exit %d, stderr %q; want exit %d and %q", name, code, stderr.String(), wantCode, want)
	}
	if stdout.Len() != 0 || strings.Contains(stderr.String(), "wrong-secret") {
		t.Errorf("%s: stdout %q, stderr %q", name, stdout.String(), stderr.String())
	}
}
