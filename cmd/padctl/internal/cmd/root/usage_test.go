package root_test

import (
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// TestEveryUsageErrorExits2: what cobra itself would answer with help and
// exit 0, and page numbers below 1.
func TestEveryUsageErrorExits2(t *testing.T) {
	s := cmdtest.NewStub(t, nil)
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
		cmdtest.CheckUsageError(t, tc.args, cmdtest.Padctl(t, s.Env(), tc.args...), tc.want)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
	for _, args := range [][]string{{"completion", "bash"}, {"help", "pads", "list"}, {"help"}} {
		if r := cmdtest.Padctl(t, nil, args...); r.Code != 0 || r.Stdout == "" {
			t.Errorf("padctl %q: exit %d", args, r.Code)
		}
	}
}

// TestNetworkHints: a request that cannot reach the service says what to
// check, on stderr.
func TestNetworkHints(t *testing.T) {
	closed := cmdtest.NewStub(t, nil)
	closed.Close()
	r := cmdtest.Padctl(t, closed.Env(), "quota")
	if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[1], "cannot connect: check the base URL's host and port") || r.Stdout != "" {
		t.Errorf("connection refused: exit %d\nstdout %q\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	// A host that does not resolve, answered by the transport as the
	// resolver would, so that the test needs no DNS.
	env := map[string]string{"PAD_BASE_URL": "https://pads.invalid", "PAD_API_KEY": cmdtest.TestKey}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: cmdtest.RoundTrip(func(*http.Request) (*http.Response, error) {
		return nil, &netDNSError
	})}, "quota")
	if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[1], "the host name does not resolve") {
		t.Errorf("no such host: exit %d\nstderr:\n%s", r.Code, r.Stderr)
	}
}

func TestPadsEventsHelp(t *testing.T) {
	r := cmdtest.Padctl(t, nil, "pads", "events", "--help")
	for _, want := range []string{"newest first", "--sort", "created,asc"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("pads events --help lacks %q:\n%s", want, r.Stdout)
		}
	}
}

// netDNSError is what a resolver answers for a name that does not exist.
var netDNSError = net.DNSError{Err: "no such host", Name: "pads.invalid", IsNotFound: true}
