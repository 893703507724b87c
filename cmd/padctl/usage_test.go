package main

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestEveryUsageErrorExits2: what cobra itself would answer with help and
// exit 0, and page numbers below 1.
func TestEveryUsageErrorExits2(t *testing.T) {
	s := newStub(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"completion", "tcsh"}, `unknown command "tcsh" for "padctl completion"`},
		{[]string{"help", "nosuch"}, `no help topic "nosuch"`},
		{[]string{"help", "pads", "nosuch"}, `no help topic "pads nosuch"`},
		{[]string{"pads", "list", "--page", "0"}, "--page 0: pages are numbered from 1"},
		{[]string{"pads", "events", "ABC", "--page", "0"}, "--page 0"},
		{[]string{"questions", "list", "--json", "--page", "0"}, "--page 0"},
		{[]string{"org", "stats", "--json", "--start", "2026-05-01"}, "give both --start and --end"},
	} {
		checkUsageError(t, tc.args, padctl(t, s.env(), tc.args...), tc.want)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
	for _, args := range [][]string{{"completion", "bash"}, {"help", "pads", "list"}, {"help"}} {
		if r := padctl(t, nil, args...); r.code != 0 || r.stdout == "" {
			t.Errorf("padctl %q: exit %d", args, r.code)
		}
	}
}

// TestNetworkHints: a request that cannot reach the service says what to
// check, on stderr.
func TestNetworkHints(t *testing.T) {
	closed := newStub(t, nil)
	closed.Close()
	r := padctl(t, closed.env(), "quota")
	if l := lines(r.stderr); r.code != exitError || len(l) != 2 || !strings.HasPrefix(l[1], "cannot connect: check the base URL's host and port") || r.stdout != "" {
		t.Errorf("connection refused: exit %d\nstdout %q\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	// A host that does not resolve, answered by the transport as the
	// resolver would, so that the test needs no DNS.
	env := map[string]string{"PAD_BASE_URL": "https://pads.invalid", "PAD_API_KEY": testKey}
	r = invoke(t, opts{env: env, transport: roundTrip(func(*http.Request) (*http.Response, error) {
		return nil, &netDNSError
	})}, "quota")
	if l := lines(r.stderr); r.code != exitError || len(l) != 2 || !strings.HasPrefix(l[1], "the host name does not resolve") {
		t.Errorf("no such host: exit %d\nstderr:\n%s", r.code, r.stderr)
	}
}

func TestPadsEventsHelp(t *testing.T) {
	r := padctl(t, nil, "pads", "events", "--help")
	for _, want := range []string{"newest first", "--sort", "created,asc"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("pads events --help lacks %q:\n%s", want, r.stdout)
		}
	}
}

// netDNSError is what a resolver answers for a name that does not exist.
var netDNSError = net.DNSError{Err: "no such host", Name: "pads.invalid", IsNotFound: true}
