package root_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/root"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

func TestHelp(t *testing.T) {
	env := map[string]string{"PAD_API_KEY": cmdtest.TestKey} // help must not show it
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{nil, []string{"Available Commands:", "quota", "pads", "questions", "org", "completion", "Exit codes:", "PAD_TIMEOUT", "--insecure-http"}},
		{[]string{"help"}, []string{"Available Commands:", "pads"}},
		{[]string{"-h"}, []string{"Available Commands:"}},
		{[]string{"pads"}, []string{"list", "get", "create", "update", "delete", "events", "env", "export"}},
		{[]string{"help", "pads", "list"}, []string{"--sort", "--page", "--all", "--limit", "Global Flags:", "--json"}},
		{[]string{"pads", "list", "-h"}, []string{"--sort"}},
		{[]string{"org", "--help"}, []string{"stats", "users", "owner's API key"}},
		{[]string{"questions", "create", "--help"}, []string{"--file", "--zip", "--instructions", "--contents-file", "--ai-prompt"}},
		{[]string{"pads", "export", "--help"}, []string{"DIR/events.json", "--history", "symbolic link"}},
		{[]string{"pads", "env", "--help"}, []string{"not a pad ID"}},
	} {
		r := cmdtest.Padctl(t, env, tc.args...)
		cmdtest.Ok(t, r)
		for _, w := range tc.want {
			if !strings.Contains(r.Stdout, w) {
				t.Errorf("padctl %q: help has no %q:\n%s", tc.args, w, r.Stdout)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		r := cmdtest.Padctl(t, nil, args...)
		cmdtest.Ok(t, r)
		if r.Stdout != root.VersionLine() || !strings.HasPrefix(r.Stdout, "padctl 0.") {
			t.Errorf("padctl %q = %q, want %q", args, r.Stdout, root.VersionLine())
		}
	}
}

func TestUsageErrors(t *testing.T) {
	s := cmdtest.NewStub(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, `unknown command "bogus" for "padctl"`},
		{[]string{"pads", "lsit"}, `unknown command "lsit" for "padctl pads"; did you mean list?`},
		{[]string{"org", "stat"}, `did you mean stats?`},
		{[]string{"quota", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"pads", "get"}, "pads get needs a PAD_ID"},
		{[]string{"pads", "get", "A", "B"}, "pads get takes PAD_ID only, not 2 arguments"},
		{[]string{"pads", "delete"}, "pads delete needs a PAD_ID"},
		{[]string{"pads", "env"}, "pads env needs an ENV_ID"},
		{[]string{"questions", "pull"}, "questions pull needs a DIR"},
		{[]string{"pads", "list", "--sort", "newest"}, "want created or updated"},
		{[]string{"pads", "list", "--page", "-1"}, "--page -1: must be a positive number"},
		{[]string{"quota", "--timeout", "soon"}, "--timeout soon: must be a duration"},
		{[]string{"quota", "--timeout", "-1s"}, "negative"},
		{[]string{"org", "stats", "--start", "May"}, "want an RFC 3339 time"},
		{[]string{"pads", "update", "ABC"}, "nothing to change"},
		{[]string{"questions", "update", "1"}, "nothing to change"},
		{[]string{"questions", "create", "--contents", "x", "--contents-file", "y"}, "[contents contents-file] were all set"},
		{[]string{"questions", "create", "--title", "t", "--language", "go", "--file", "/does/not/exist"}, "--file: open /does/not/exist"},
		{[]string{"pads", "export", "ABC"}, "needs a DIR"},
	} {
		cmdtest.CheckUsageError(t, tc.args, cmdtest.Padctl(t, s.Env(), tc.args...), tc.want)
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
}

// A call the library refuses before sending anything is a usage error too,
// found by the library alone: padctl has no copy of its checks.
func TestLibraryRefusalsAreUsageErrors(t *testing.T) {
	s := cmdtest.NewStub(t, nil)
	for _, args := range [][]string{
		{"pads", "get", ".."},
		{"pads", "get", ""},
		{"pads", "update", ".", "--title", "x"},
		{"pads", "delete", "..", "--yes"},
		{"pads", "events", ".."},
		{"pads", "env", ".."},
		{"pads", "export", "..", "--dir", t.TempDir()},
		{"pads", "create", "--contents", "x", "--question", "1"},
		{"questions", "get", ".."},
		{"questions", "create", "--title", "no language"},
		{"questions", "create", "--title", "t", "--language", "go", "--contents", "c", "--zip", "root_test.go"},
		{"org", "stats", "--start", "2026-01-01"},
		{"org", "stats", "--start", "2026-02-01", "--end", "2026-01-01"},
		// --json goes through the same typed methods: refused alike.
		{"--json", "pads", "create", "--contents", "x", "--question", "1"},
		{"--json", "pads", "get", ".."},
		{"--json", "pads", "update", ".", "--title", "x"},
		{"--json", "pads", "events", ".."},
		{"--json", "pads", "events", "..", "--all"},
		{"--json", "questions", "get", ".."},
		{"--json", "questions", "create", "--title", "no language"},
		{"--json", "org", "stats", "--start", "2026-01-01"},
	} {
		cmdtest.CheckUsageError(t, args, cmdtest.Padctl(t, s.Env(), args...), "invalid argument")
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("refused calls sent %d requests", n)
	}
}

func TestGlobalFlagsAnywhere(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	flags := []string{"--base-url", srv.URL, "--api-key", srv.APIKey, "--json", "--timeout", "5s", "--debug=false"}
	before := cmdtest.Padctl(t, nil, append(flags, "quota")...)
	cmdtest.Ok(t, before)
	if !strings.Contains(before.Stdout, `"pads_used"`) {
		t.Fatalf("--json before the command: %s", before.Stdout)
	}
	after := cmdtest.Padctl(t, nil, append([]string{"quota"}, flags...)...)
	cmdtest.Ok(t, after)
	if after.Stdout != before.Stdout {
		t.Errorf("flags after the command gave\n%s\nbefore it\n%s", after.Stdout, before.Stdout)
	}
	// Flags beat the environment.
	wrong := map[string]string{"PAD_BASE_URL": "https://wrong.example.com", "PAD_API_KEY": "wrong"}
	cmdtest.Ok(t, cmdtest.Padctl(t, wrong, append(flags, "quota")...))
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "pads", "list", "--json"))
}

// The key given with --api-key cannot come out through fmt of what padctl
// holds, whatever the verb.
func TestKeyUnreachableByFmt(t *testing.T) {
	srv, _ := cmdtest.Fake(t)
	var f *cmdutil.Factory
	r := cmdtest.Invoke(t, cmdtest.Opts{Factory: &f}, "quota", "--base-url", srv.URL, "--api-key", srv.APIKey)
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		for _, v := range []any{f, *f, f.Flags, &f.Flags.APIKey} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, srv.APIKey) {
				t.Errorf("fmt %s of %T shows the key: %s", verb, v, s)
			}
		}
	}
}

func TestConfigurationErrors(t *testing.T) {
	s := cmdtest.NewStub(t, nil)
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{}, nil, "no API key: set PAD_API_KEY or pass --api-key"},
		{map[string]string{"PAD_API_KEY": cmdtest.TestKey, "PAD_BASE_URL": "http://pad.example.com"}, nil, "--insecure-http"},
		{map[string]string{"PAD_API_KEY": cmdtest.TestKey, "PAD_BASE_URL": s.URL + "/api"}, nil, "drop the trailing /api"},
		{map[string]string{"PAD_API_KEY": `bad"` + cmdtest.TestKey, "PAD_BASE_URL": s.URL}, nil, "API key has a character that is not allowed"},
		{map[string]string{"PAD_API_KEY": cmdtest.TestKey, "PAD_BASE_URL": s.URL, "PAD_TIMEOUT": "soon"}, nil, `PAD_TIMEOUT="soon"`},
		{s.Env(), []string{"--base-url", "ftp://pad.example.com"}, "need an absolute http or https URL"},
		// No scheme: the one the library accepts is suggested, http://
		// for a loopback host, https:// for any other.
		{s.Env(), []string{"--base-url", "127.0.0.1:8189"}, "--base-url 127.0.0.1:8189: a base URL starts with its scheme: did you mean http://127.0.0.1:8189?"},
		{map[string]string{"PAD_API_KEY": cmdtest.TestKey, "PAD_BASE_URL": "pad.example.com"}, nil, "PAD_BASE_URL pad.example.com: a base URL starts with its scheme: did you mean https://pad.example.com?"},
		// The peers' variable, set instead of padctl's.
		{map[string]string{"CODERPAD_API_KEY": cmdtest.TestKey}, nil, "no API key: CODERPAD_API_KEY is set, but padctl reads PAD_API_KEY"},
	} {
		args := append([]string{"quota"}, tc.args...)
		r := cmdtest.Padctl(t, tc.env, args...)
		cmdtest.CheckUsageError(t, args, r, tc.want)
		if strings.Contains(r.Stderr, "WithInsecureHTTP") {
			t.Errorf("the advice names the Go option, not the flag: %s", r.Stderr)
		}
	}
	if n := len(s.Requests()); n != 0 {
		t.Errorf("refused configurations sent %d requests", n)
	}
	// PAD_TIMEOUT is only the default: the flag wins.
	env := s.Env()
	env["PAD_TIMEOUT"] = "soon"
	if r := cmdtest.Padctl(t, env, "quota", "--timeout", "5s"); r.Code != cmdutil.ExitError {
		t.Errorf("--timeout with a bad PAD_TIMEOUT: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
}

// --insecure-http lets the key go over plain http to a host that is not
// loopback. The transport takes such a request to the local stub.
func TestInsecureHTTP(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/quota": cmdtest.Reply(200, `{"status":"OK","pads_used":1,"unlimited":true,"quota_reset_at":"2026-05-01T00:00:00Z"}`)})
	toStub := cmdtest.RoundTrip(func(r *http.Request) (*http.Response, error) {
		r.URL.Host = strings.TrimPrefix(s.URL, "http://")
		return http.DefaultTransport.RoundTrip(r)
	})
	env := map[string]string{"PAD_BASE_URL": "http://pad.internal.example", "PAD_API_KEY": cmdtest.TestKey}
	cmdtest.CheckUsageError(t, []string{"quota"}, cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: toStub}, "quota"), "plain http")
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: toStub}, "quota", "--insecure-http")
	cmdtest.Ok(t, r)
	if got := s.Requests(); len(got) != 1 || got[0].Auth != `Token token="`+cmdtest.TestKey+`"` {
		t.Errorf("requests %+v, want one with the key", got)
	}
	if r.Stdout != "1\t\t\ttrue\t\t2026-05-01T00:00:00Z\t\n" {
		t.Errorf("stdout %q", r.Stdout)
	}
}

// A service that never answers cannot hang padctl: --timeout or
// PAD_TIMEOUT bounds the whole command, every attempt and the waits between
// them included, not each attempt. The time is fake (synctest), so the
// bound is exact and no machine's speed flips it; the service is a
// transport that, like one that never answers, waits for the request's
// context to end (a goroutine reading a real socket would not let the
// bubble's clock move).
func TestTimeout(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string // added to the key and base URL
		args []string
	}{
		{"flag", nil, []string{"quota", "--timeout", "300ms"}},
		{"env", map[string]string{"PAD_TIMEOUT": "300ms"}, []string{"quota"}},
		{"list", nil, []string{"pads", "list", "--all", "--timeout", "300ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var requests atomic.Int32
				hang := cmdtest.RoundTrip(func(r *http.Request) (*http.Response, error) {
					requests.Add(1)
					<-r.Context().Done()
					return nil, r.Context().Err()
				})
				env := map[string]string{"PAD_BASE_URL": "http://127.0.0.1:9", "PAD_API_KEY": cmdtest.TestKey}
				maps.Copy(env, tc.env)
				start := time.Now()
				r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: hang}, tc.args...)
				took := time.Since(start)
				l := cmdtest.Lines(r.Stderr)
				if r.Code != cmdutil.ExitError || len(l) != 2 || !strings.HasPrefix(l[0], "padctl: timed out after 300ms: GET /api/") ||
					l[1] != "No answer in time: --timeout or PAD_TIMEOUT (default 30s) bounds the whole command, retries included (0 for none)." {
					t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
				}
				// One deadline for the command, not 300ms for each of
				// four attempts and the backoff between them: the one
				// attempt is cut, and none follows.
				if n := requests.Load(); n != 1 {
					t.Errorf("%d requests, want 1: the deadline is the command's, not each attempt's", n)
				}
				if took != 300*time.Millisecond {
					t.Errorf("took %v, want 300ms", took)
				}
			})
		})
	}
}

// --debug logs each attempt through the library's logger, and never the
// key, even when the server echoes it back.
func TestDebugNeverLogsTheKey(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/quota": func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			cmdtest.Reply(http.StatusServiceUnavailable, `{"status":"ERROR","message":"no entry for `+r.Header.Get("Authorization")+`"}`)(w, r)
			return
		}
		cmdtest.Reply(http.StatusUnauthorized, `{"status":"ERROR","message":"Invalid API key `+cmdtest.TestKey+`"}`)(w, r)
	}})
	r := cmdtest.Padctl(t, s.Env(), "quota", "--debug") // exec checks that the key is nowhere
	if r.Code != cmdutil.ExitError {
		t.Fatalf("exit %d", r.Code)
	}
	for _, want := range []string{`msg="padapi: sending" method=GET path=/api/quota attempt=1`, "attempt=2", "[REDACTED]", "check PAD_API_KEY",
		// The call's end: the last answer's status and how long it took.
		`msg="padapi: done" method=GET path=/api/quota attempts=2 status=401 duration=`} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr has no %q:\n%s", want, r.Stderr)
		}
	}
	// A success logs its status and duration too.
	ok := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/quota": cmdtest.Reply(200, `{"status":"OK","pads_used":1,"quota_reset_at":"2026-01-01T00:00:00Z","unlimited":true}`)})
	if r := cmdtest.Padctl(t, ok.Env(), "quota", "--debug"); r.Code != 0 || !regexp.MustCompile(`msg="padapi: done" method=GET path=/api/quota attempts=1 status=200 duration=[0-9.]+[µnm]?s\n`).MatchString(r.Stderr) {
		t.Errorf("a success under --debug: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	// Without --debug, nothing but the error.
	if r := cmdtest.Padctl(t, s.Env(), "quota"); strings.Contains(r.Stderr, "attempt") {
		t.Errorf("logs without --debug:\n%s", r.Stderr)
	}
}

// Every failure is one error line with one prefix, the exit code the
// library's sentinel stands for, and advice where there is some.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"POST /api/pads":      cmdtest.Reply(http.StatusBadGateway, `<html>bad gateway</html>`),
		"POST /api/questions": cmdtest.Reply(http.StatusBadGateway, ``),
		"GET /api/quota":      cmdtest.Reply(http.StatusTooManyRequests, `{"status":"ERROR","message":"Slow down"}`),
		"GET /api/pads": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "60")
			cmdtest.Reply(429, `{}`)(w, r)
		},
		"PUT /api/pads/ABC":     cmdtest.Reply(http.StatusTooManyRequests, `{"status":"ERROR","message":"Over quota"}`),
		"GET /api/pads/NOPE":    cmdtest.Reply(http.StatusNotFound, `{"status":"ERROR","message":"Pad not found"}`),
		"GET /api/organization": cmdtest.Reply(http.StatusForbidden, `{"status":"ERROR","message":"Forbidden"}`),
		"GET /api/questions/1":  cmdtest.Reply(http.StatusUnauthorized, `{"status":"ERROR","message":"Invalid API key"}`),
	})
	for _, tc := range []struct {
		args   []string
		code   int
		line   string
		advice string
	}{
		{[]string{"pads", "create", "--title", "x"}, cmdutil.ExitUnknown, "padctl: POST /api/pads: 502: Bad Gateway: outcome unknown",
			"The pad may or may not have been created. Lists lag about a minute behind: wait a minute, then look with 'padctl pads list' before creating it again, or you may get two."},
		{[]string{"questions", "create", "--title", "x", "--language", "go"}, cmdutil.ExitUnknown, "padctl: POST /api/questions: 502: Bad Gateway: outcome unknown", "'padctl questions list'"},
		{[]string{"quota"}, cmdutil.ExitRateLimited, "padctl: GET /api/quota: 429: Slow down", "The service is throttling requests: try again later."},
		{[]string{"pads", "list"}, cmdutil.ExitRateLimited, "padctl: GET /api/pads: 429: Too Many Requests", "try again in 1m0s."},
		// A 429 on anything but a pad create is throttling, not the quota.
		{[]string{"pads", "update", "ABC", "--end"}, cmdutil.ExitRateLimited, "padctl: PUT /api/pads/ABC: 429: Over quota", "throttling"},
		{[]string{"pads", "get", "NOPE"}, cmdutil.ExitError, "padctl: GET /api/pads/NOPE: 404: Pad not found", "Check the ID: 'padctl pads list' shows your pads."},
		{[]string{"org"}, cmdutil.ExitError, "padctl: GET /api/organization: 403: Forbidden", "Organization commands need an organization owner's API key."},
		{[]string{"questions", "get", "1"}, cmdutil.ExitError, "padctl: GET /api/questions/1: 401: Invalid API key", "The service rejected the API key: check PAD_API_KEY or --api-key."},
	} {
		r := cmdtest.Padctl(t, s.Env(), tc.args...)
		l := cmdtest.Lines(r.Stderr)
		if r.Code != tc.code || len(l) == 0 || l[0] != tc.line || r.Stdout != "" {
			t.Errorf("padctl %q: exit %d, stderr:\n%s\nwant exit %d and %q", tc.args, r.Code, r.Stderr, tc.code, tc.line)
			continue
		}
		switch {
		case tc.advice == "" && len(l) != 1:
			t.Errorf("padctl %q: want one line, got:\n%s", tc.args, r.Stderr)
		case tc.advice != "" && (len(l) != 2 || !strings.Contains(l[1], tc.advice)):
			t.Errorf("padctl %q: advice:\n%s\nwant %q", tc.args, r.Stderr, tc.advice)
		}
	}
}

func TestInterrupted(t *testing.T) {
	sent := make(chan struct{}, 1)
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/quota": cmdtest.Hang, "POST /api/pads": func(w http.ResponseWriter, r *http.Request) {
		sent <- struct{}{}
		cmdtest.Hang(w, r)
	}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), Ctx: ctx}, "quota")
	if r.Code != cmdutil.ExitInterrupted || r.Stderr != "padctl: interrupted\n" {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}

	// A create interrupted after it was sent may have happened: that is
	// what the user hears, not "interrupted".
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// Cancelled once the create has reached the service, or by the
		// test's own deadline.
		select {
		case <-sent:
		case <-time.After(10 * time.Second):
		}
		cancel()
	}()
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), Ctx: ctx}, "pads", "create")
	if r.Code != cmdutil.ExitUnknown || !strings.Contains(r.Stderr, "outcome unknown") || !strings.Contains(r.Stderr, "padctl pads list") {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}
}

// padctl (not mcp) against a service that echoes the key encoded.
func TestKeyNeverPrintedEncoded(t *testing.T) {
	var esc strings.Builder
	for _, c := range cmdtest.TestKey {
		fmt.Fprintf(&esc, "\\u%04x", c)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(cmdtest.TestKey))
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/quota":     cmdtest.Reply(http.StatusUnauthorized, `{"status":"ERROR","message":"bad key `+b64+`"}`),
		"GET /api/pads/ECHO": cmdtest.Reply(http.StatusOK, `{"status":"OK","id":"ECHO","title":"`+esc.String()+`","notes":"`+b64+`"}`),
	})
	for _, args := range [][]string{{"quota"}, {"pads", "get", "ECHO"}, {"pads", "get", "ECHO", "--json"}} {
		r := cmdtest.Padctl(t, s.Env(), args...)
		out := r.Stdout + r.Stderr
		if strings.Contains(out, b64) || strings.Contains(out, cmdtest.TestKey) || strings.Contains(out, esc.String()) {
			t.Errorf("padctl %v: exit %d, the key (encoded) in:\nstdout: %s\nstderr: %s", args, r.Code, r.Stdout, r.Stderr)
		}
	}
}

// Every command whose usage line names arguments says which one is
// missing in those words, never cobra's "accepts 1 arg(s)".
func TestMissingArgsNamed(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	var walk func(*cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		words := strings.Fields(c.Use)
		if c.Args == nil || len(words) < 2 || strings.HasPrefix(words[1], "-") || strings.HasPrefix(words[1], "[") || strings.HasPrefix(words[1], "<") {
			return
		}
		path := strings.Fields(strings.TrimPrefix(c.CommandPath(), "padctl "))
		r := cmdtest.Padctl(t, nil, path...)
		what := strings.Join(path, " ")
		named := strings.Contains(r.Stderr, " "+words[1]+"\n") || strings.Contains(r.Stderr, " "+words[1]+" and ")
		if !strings.Contains(r.Stderr, "padctl: "+what+" needs a") || !named || strings.Contains(r.Stderr, "arg(s)") {
			t.Errorf("padctl %s: stderr %q, want it to say it needs a %s", what, r.Stderr, words[1])
		}
		n++
	}
	walk(root.NewCmdRoot(&cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}))
	if n < 10 {
		t.Errorf("checked %d commands with arguments, want every one of them (at least 10)", n)
	}
}

// Issue 37 #9: behind a gateway that answers a forwarded create with 303
// See Other, pads create exits 4 (outcome unknown, with its advice), not
// 1: the create may have been carried out.
func TestPadsCreateAnswered303IsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"POST /api/pads": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "/api/pads/NEW")
			w.WriteHeader(http.StatusSeeOther)
		},
	})
	r := cmdtest.Padctl(t, s.Env(), "pads", "create", "--title", "x")
	if r.Code != cmdutil.ExitUnknown || !strings.Contains(r.Stderr, "may or may not have been created") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit %d and the outcome-unknown advice", r.Code, r.Stderr, cmdutil.ExitUnknown)
	}
	if reqs := s.Requests(); len(reqs) != 1 || reqs[0].Method != http.MethodPost {
		t.Errorf("requests %+v, want the one create", reqs)
	}
}
