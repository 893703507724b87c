// usage_test.go: usage errors exit 2 and name the flag; network hints (root.go's error classification).

package root_test

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"

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
		{[]string{"pads", "list", "--all", "--page", "2"}, "[all page] were all set"},
		{[]string{"questions", "list", "--json", "--all", "--page", "2"}, "[all page] were all set"},
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
	// A refused connect is retried: the waits between the tries are fake
	// (synctest). The dials are real, and refused at once.
	synctest.Test(t, func(t *testing.T) {
		r := cmdtest.Padctl(t, closed.Env(), "quota")
		if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[1], "cannot connect: check the base URL's host and port") || r.Stdout != "" {
			t.Errorf("connection refused: exit %d\nstdout %q\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
		}
	})
	// A host that does not resolve, answered by the transport as the
	// resolver would, so that the test needs no DNS.
	env := map[string]string{"PAD_BASE_URL": "https://pads.invalid", "PAD_API_KEY": cmdtest.TestKey}
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: cmdtest.RoundTrip(func(*http.Request) (*http.Response, error) {
		return nil, &netDNSError
	})}, "quota")
	if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[1], "the host name does not resolve") {
		t.Errorf("no such host: exit %d\nstderr:\n%s", r.Code, r.Stderr)
	}
	// A certificate padctl does not trust: found by the error's type
	// (the library's own test), not its text.
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake padctl refuses
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	r = cmdtest.Padctl(t, map[string]string{"PAD_BASE_URL": tlsSrv.URL, "PAD_API_KEY": cmdtest.TestKey}, "quota")
	if l := cmdtest.Lines(r.Stderr); r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[1], "TLS failed: ") {
		t.Errorf("untrusted certificate: exit %d\nstderr:\n%s", r.Code, r.Stderr)
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

// TestErrorsNameFlags: an argument the library or the flag parser refused
// is named by the flag the user typed, never by a Go type, field or
// parser call.
func TestErrorsNameFlags(t *testing.T) {
	s := cmdtest.NewStub(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"org", "stats", "--start", "2026-05-01"}, "give both --start and --end, or neither"},
		{[]string{"org", "stats", "--start", "2026-05-08", "--end", "2026-05-01"}, "--end is before --start"},
		{[]string{"pads", "create", "--contents", "x", "--question", "12"}, "--contents and --question cannot be combined"},
		{[]string{"pads", "create", "--question", ""}, "--question: an empty ID"},
		{[]string{"questions", "create", "--title", "T"}, "--title and --language are required"},
		{[]string{"questions", "update", "Q1", "--contents", "x", "--zip", "usage_test.go"}, "give at most one of --contents"},
		{[]string{"pads", "list", "--page", "-1"}, `--page -1: must be a positive number`},
		{[]string{"pads", "list", "--limit", "ten"}, `--limit ten: must be a positive number`},
		{[]string{"pads", "update", "X", "--private=maybe"}, `--private=maybe: must be true or false`},
		{[]string{"quota", "--timeout", "soon"}, `--timeout soon: must be a duration`},
	} {
		r := cmdtest.Padctl(t, s.Env(), tc.args...)
		cmdtest.CheckUsageError(t, tc.args, r, tc.want)
		for _, bad := range []string{"strconv.", "Params", "Options", "QuestionID", "time: "} {
			if strings.Contains(r.Stderr, bad) {
				t.Errorf("padctl %q: stderr names %q:\n%s", tc.args, bad, r.Stderr)
			}
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("refused arguments sent %d requests", n)
	}
}
