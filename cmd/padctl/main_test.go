package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi/padapitest"
)

// testKey is distinctive, so that a leak into any output cannot be missed.
const testKey = "padctl-secret-Qz7Xw9Kp3Lm"

// result is what one run of padctl gave.
type result struct {
	code           int
	stdout, stderr string
}

// opts describe one in-process run of padctl.
type opts struct {
	env       map[string]string
	tty       bool // stdout and stderr are terminals
	ctx       context.Context
	transport http.RoundTripper
}

// invoke runs padctl in-process, through the same run as main, and fails the
// test if an API key shows up in anything it printed.
func invoke(t *testing.T, o opts, args ...string) result {
	t.Helper()
	ctx := o.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	var stdout, stderr bytes.Buffer
	f := &factory{
		streams:   streams{out: &stdout, err: &stderr, outTTY: o.tty, errTTY: o.tty},
		getenv:    func(k string) string { return o.env[k] },
		transport: o.transport,
	}
	r := result{run(ctx, args, f), stdout.String(), stderr.String()}
	for _, key := range []string{testKey, o.env["PAD_API_KEY"]} {
		if key != "" && strings.Contains(r.stdout+r.stderr, key) {
			t.Errorf("padctl %q printed the API key:\nstdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
		}
	}
	return r
}

// padctl runs padctl with its output piped.
func padctl(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	return invoke(t, opts{env: env}, args...)
}

// fake starts a padapitest fake and returns it with the environment that
// points padctl at it.
func fake(t *testing.T) (*padapitest.Server, map[string]string) {
	srv := padapitest.NewServer(t)
	return srv, map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
}

// ok fails the test unless r succeeded with nothing on stderr.
func ok(t *testing.T, r result) {
	t.Helper()
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", r.code, r.stderr, r.stdout)
	}
}

// lines splits output into its lines, without the last newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// hasField reports whether a terminal listing shows "name: value",
// however the column is padded.
func hasField(out, name, value string) bool {
	return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:\s+` + regexp.QuoteMeta(value) + `$`).MatchString(out)
}

// stub is a hand-made API server, for what the fake does not do (yet) and
// for answers the fake never gives: each route ("GET /api/pads/X", the path
// unescaped) has a handler; any other request is a 404 in the service's
// shape. It records every request, with its body.
type stub struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []stubRequest
}

type stubRequest struct {
	method, path, auth, contentType string
	query                           map[string][]string
	body                            []byte
}

func newStub(t *testing.T, routes map[string]http.HandlerFunc) *stub {
	t.Helper()
	s := &stub{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.reqs = append(s.reqs, stubRequest{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.URL.Query(), body})
		s.mu.Unlock()
		if h := routes[r.Method+" "+r.URL.Path]; h != nil {
			h(w, r)
			return
		}
		reply(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// env is the environment that points padctl at the stub.
func (s *stub) env() map[string]string {
	return map[string]string{"PAD_BASE_URL": s.URL, "PAD_API_KEY": testKey}
}

func (s *stub) requests() []stubRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]stubRequest(nil), s.reqs...)
}

// reply answers with status and a JSON body.
func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// hang never answers: it waits for the client to give up.
func hang(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

func TestHelp(t *testing.T) {
	env := map[string]string{"PAD_API_KEY": testKey} // help must not show it
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
		r := padctl(t, env, tc.args...)
		ok(t, r)
		for _, w := range tc.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("padctl %q: help has no %q:\n%s", tc.args, w, r.stdout)
			}
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		r := padctl(t, nil, args...)
		ok(t, r)
		if r.stdout != versionLine() || !strings.HasPrefix(r.stdout, "padctl 0.") {
			t.Errorf("padctl %q = %q, want %q", args, r.stdout, versionLine())
		}
	}
}

// checkUsageError checks that r is a usage error: exit 2, one error line
// with one prefix, then where to find the usage.
func checkUsageError(t *testing.T, args []string, r result, want string) {
	t.Helper()
	l := lines(r.stderr)
	if r.code != exitUsage || len(l) != 2 || r.stdout != "" {
		t.Fatalf("padctl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and two lines on stderr", args, r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(l[0], "padctl: ") || strings.Contains(l[0], "padapi:") || !strings.Contains(l[0], want) {
		t.Errorf("padctl %q: error line %q, want one padctl: prefix and %q", args, l[0], want)
	}
	if !strings.HasPrefix(l[1], "Run 'padctl") || !strings.HasSuffix(l[1], " --help' for usage.") {
		t.Errorf("padctl %q: second line %q, want the usage hint", args, l[1])
	}
}

func TestUsageErrors(t *testing.T) {
	s := newStub(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, `unknown command "bogus" for "padctl"`},
		{[]string{"pads", "lsit"}, `unknown command "lsit" for "padctl pads"; did you mean list?`},
		{[]string{"org", "stat"}, `did you mean stats?`},
		{[]string{"quota", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"pads", "get"}, "accepts 1 arg(s), received 0"},
		{[]string{"pads", "get", "A", "B"}, "accepts 1 arg(s), received 2"},
		{[]string{"pads", "list", "--sort", "newest"}, "want created or updated"},
		{[]string{"pads", "list", "--page", "-1"}, `invalid argument "-1" for "--page"`},
		{[]string{"quota", "--timeout", "soon"}, `invalid argument "soon" for "--timeout"`},
		{[]string{"quota", "--timeout", "-1s"}, "negative"},
		{[]string{"org", "stats", "--start", "May"}, "want an RFC 3339 time"},
		{[]string{"pads", "update", "ABC"}, "nothing to change"},
		{[]string{"questions", "update", "1"}, "nothing to change"},
		{[]string{"questions", "create", "--contents", "x", "--contents-file", "y"}, "[contents contents-file] were all set"},
		{[]string{"questions", "create", "--title", "t", "--language", "go", "--file", "/does/not/exist"}, "--file: open /does/not/exist"},
		{[]string{"pads", "export", "ABC"}, `required flag(s) "dir" not set`},
	} {
		checkUsageError(t, tc.args, padctl(t, s.env(), tc.args...), tc.want)
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("usage errors sent %d requests", n)
	}
}

// A call the library refuses before sending anything is a usage error too,
// found by the library alone: padctl has no copy of its checks.
func TestLibraryRefusalsAreUsageErrors(t *testing.T) {
	s := newStub(t, nil)
	for _, args := range [][]string{
		{"pads", "get", ".."},
		{"pads", "get", ""},
		{"pads", "update", ".", "--title", "x"},
		{"pads", "delete", ".."},
		{"pads", "events", ".."},
		{"pads", "env", ".."},
		{"pads", "export", "..", "--dir", t.TempDir()},
		{"pads", "create", "--contents", "x", "--question", "1"},
		{"questions", "get", ".."},
		{"questions", "create", "--title", "no language"},
		{"questions", "create", "--title", "t", "--language", "go", "--contents", "c", "--zip", "main_test.go"},
		{"org", "stats", "--start", "2026-01-01"},
		{"org", "stats", "--start", "2026-02-01", "--end", "2026-01-01"},
	} {
		checkUsageError(t, args, padctl(t, s.env(), args...), "invalid argument")
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("refused calls sent %d requests", n)
	}
}

func TestGlobalFlagsAnywhere(t *testing.T) {
	srv, env := fake(t)
	flags := []string{"--base-url", srv.URL, "--api-key", srv.APIKey, "--json", "--timeout", "5s", "--debug=false"}
	before := padctl(t, nil, append(flags, "quota")...)
	ok(t, before)
	if !strings.Contains(before.stdout, `"pads_used"`) {
		t.Fatalf("--json before the command: %s", before.stdout)
	}
	after := padctl(t, nil, append([]string{"quota"}, flags...)...)
	ok(t, after)
	if after.stdout != before.stdout {
		t.Errorf("flags after the command gave\n%s\nbefore it\n%s", after.stdout, before.stdout)
	}
	// Flags beat the environment.
	wrong := map[string]string{"PAD_BASE_URL": "https://wrong.example.com", "PAD_API_KEY": "wrong"}
	ok(t, padctl(t, wrong, append(flags, "quota")...))
	ok(t, padctl(t, env, "pads", "list", "--json"))
}

// The key given with --api-key cannot come out through fmt of what padctl
// holds, whatever the verb.
func TestKeyUnreachableByFmt(t *testing.T) {
	srv, _ := fake(t)
	var stdout, stderr bytes.Buffer
	f := &factory{streams: streams{out: &stdout, err: &stderr}, getenv: func(string) string { return "" }}
	if code := run(context.Background(), []string{"quota", "--base-url", srv.URL, "--api-key", srv.APIKey}, f); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		for _, v := range []any{f, *f, f.flags, &f.flags.apiKey} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, srv.APIKey) {
				t.Errorf("fmt %s of %T shows the key: %s", verb, v, s)
			}
		}
	}
}

func TestConfigurationErrors(t *testing.T) {
	s := newStub(t, nil)
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{}, nil, "no API key: set PAD_API_KEY or pass --api-key"},
		{map[string]string{"PAD_API_KEY": testKey, "PAD_BASE_URL": "http://pad.example.com"}, nil, "--insecure-http"},
		{map[string]string{"PAD_API_KEY": testKey, "PAD_BASE_URL": s.URL + "/api"}, nil, "drop the trailing /api"},
		{map[string]string{"PAD_API_KEY": `bad"` + testKey, "PAD_BASE_URL": s.URL}, nil, "API key has a character that is not allowed"},
		{map[string]string{"PAD_API_KEY": testKey, "PAD_BASE_URL": s.URL, "PAD_TIMEOUT": "soon"}, nil, `PAD_TIMEOUT="soon"`},
		{s.env(), []string{"--base-url", "ftp://pad.example.com"}, "need an absolute http or https URL"},
	} {
		args := append([]string{"quota"}, tc.args...)
		r := padctl(t, tc.env, args...)
		checkUsageError(t, args, r, tc.want)
		if strings.Contains(r.stderr, "WithInsecureHTTP") {
			t.Errorf("the advice names the Go option, not the flag: %s", r.stderr)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("refused configurations sent %d requests", n)
	}
	// PAD_TIMEOUT is only the default: the flag wins.
	env := s.env()
	env["PAD_TIMEOUT"] = "soon"
	if r := padctl(t, env, "quota", "--timeout", "5s"); r.code != exitError {
		t.Errorf("--timeout with a bad PAD_TIMEOUT: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// --insecure-http lets the key go over plain http to a host that is not
// loopback. The transport takes such a request to the local stub.
func TestInsecureHTTP(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": reply(200, `{"status":"OK","pads_used":1,"unlimited":true,"quota_reset_at":"2026-05-01T00:00:00Z"}`)})
	toStub := roundTrip(func(r *http.Request) (*http.Response, error) {
		r.URL.Host = strings.TrimPrefix(s.URL, "http://")
		return http.DefaultTransport.RoundTrip(r)
	})
	env := map[string]string{"PAD_BASE_URL": "http://pad.internal.example", "PAD_API_KEY": testKey}
	checkUsageError(t, []string{"quota"}, invoke(t, opts{env: env, transport: toStub}, "quota"), "plain http")
	r := invoke(t, opts{env: env, transport: toStub}, "quota", "--insecure-http")
	ok(t, r)
	if got := s.requests(); len(got) != 1 || got[0].auth != `Token token="`+testKey+`"` {
		t.Errorf("requests %+v, want one with the key", got)
	}
	if r.stdout != "1\t\t\ttrue\t\t2026-05-01T00:00:00Z\t\n" {
		t.Errorf("stdout %q", r.stdout)
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A server that accepts and never answers cannot hang padctl: --timeout or
// PAD_TIMEOUT bounds the whole command, every attempt and the waits between
// them included, not each attempt.
func TestTimeout(t *testing.T) {
	t.Parallel()
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": hang, "GET /api/pads": hang})
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flag", s.env(), []string{"quota", "--timeout", "300ms"}},
		{"env", map[string]string{"PAD_BASE_URL": s.URL, "PAD_API_KEY": testKey, "PAD_TIMEOUT": "300ms"}, []string{"quota"}},
		{"list", s.env(), []string{"pads", "list", "--all", "--timeout", "300ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The test's own deadline, should padctl's fail.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			start := time.Now()
			r := invoke(t, opts{env: tc.env, ctx: ctx}, tc.args...)
			took := time.Since(start)
			l := lines(r.stderr)
			if r.code != exitError || len(l) != 2 || !strings.HasPrefix(l[0], "padctl: timed out after 300ms: GET /api/") ||
				l[1] != "No answer in time: --timeout or PAD_TIMEOUT (default 30s) bounds the whole command, retries included (0 for none)." {
				t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
			}
			// One deadline for the command, not 300ms for each of four
			// attempts and the backoff between them.
			if took < 300*time.Millisecond || took > 900*time.Millisecond {
				t.Errorf("took %v, want 300ms and a little", took)
			}
			t.Logf("returned after %v", took)
		})
	}
}

// --debug logs each attempt through the library's logger, and never the
// key, even when the server echoes it back.
func TestDebugNeverLogsTheKey(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		first := calls == 1
		mu.Unlock()
		if first {
			reply(http.StatusServiceUnavailable, `{"status":"ERROR","message":"no entry for `+r.Header.Get("Authorization")+`"}`)(w, r)
			return
		}
		reply(http.StatusUnauthorized, `{"status":"ERROR","message":"Invalid API key `+testKey+`"}`)(w, r)
	}})
	r := padctl(t, s.env(), "quota", "--debug") // exec checks that the key is nowhere
	if r.code != exitError {
		t.Fatalf("exit %d", r.code)
	}
	for _, want := range []string{`msg="padapi: sending" method=GET path=/api/quota attempt=1`, "attempt=2", "[REDACTED]", "check PAD_API_KEY"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr has no %q:\n%s", want, r.stderr)
		}
	}
	// Without --debug, nothing but the error.
	if r := padctl(t, s.env(), "quota"); strings.Contains(r.stderr, "attempt") {
		t.Errorf("logs without --debug:\n%s", r.stderr)
	}
}

// Every failure is one error line with one prefix, the exit code the
// library's sentinel stands for, and advice where there is some.
func TestExitCodes(t *testing.T) {
	t.Parallel()
	s := newStub(t, map[string]http.HandlerFunc{
		"POST /api/pads":      reply(http.StatusBadGateway, `<html>bad gateway</html>`),
		"POST /api/questions": reply(http.StatusBadGateway, ``),
		"GET /api/quota":      reply(http.StatusTooManyRequests, `{"status":"ERROR","message":"Slow down"}`),
		"GET /api/pads": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "60")
			reply(429, `{}`)(w, r)
		},
		"PUT /api/pads/ABC":     reply(http.StatusTooManyRequests, `{"status":"ERROR","message":"Over quota"}`),
		"GET /api/pads/NOPE":    reply(http.StatusNotFound, `{"status":"ERROR","message":"Pad not found"}`),
		"GET /api/organization": reply(http.StatusForbidden, `{"status":"ERROR","message":"Forbidden"}`),
		"GET /api/questions/1":  reply(http.StatusUnauthorized, `{"status":"ERROR","message":"Invalid API key"}`),
	})
	for _, tc := range []struct {
		args   []string
		code   int
		line   string
		advice string
	}{
		{[]string{"pads", "create", "--title", "x"}, exitUnknown, "padctl: POST /api/pads: 502: Bad Gateway: outcome unknown",
			"The pad may or may not have been created. Lists lag about a minute behind: wait a minute, then look with 'padctl pads list' before creating it again, or you may get two."},
		{[]string{"questions", "create", "--title", "x", "--language", "go"}, exitUnknown, "padctl: POST /api/questions: 502: Bad Gateway: outcome unknown", "'padctl questions list'"},
		{[]string{"quota"}, exitRateLimited, "padctl: GET /api/quota: 429: Slow down", "The service is throttling requests: try again later."},
		{[]string{"pads", "list"}, exitRateLimited, "padctl: GET /api/pads: 429: Too Many Requests", "try again in 1m0s."},
		// A 429 on anything but a pad create is throttling, not the quota.
		{[]string{"pads", "update", "ABC", "--end"}, exitRateLimited, "padctl: PUT /api/pads/ABC: 429: Over quota", "throttling"},
		{[]string{"pads", "get", "NOPE"}, exitError, "padctl: GET /api/pads/NOPE: 404: Pad not found", ""},
		{[]string{"org"}, exitError, "padctl: GET /api/organization: 403: Forbidden", "Organization commands need an organization owner's API key."},
		{[]string{"questions", "get", "1"}, exitError, "padctl: GET /api/questions/1: 401: Invalid API key", "The service rejected the API key: check PAD_API_KEY or --api-key."},
	} {
		r := padctl(t, s.env(), tc.args...)
		l := lines(r.stderr)
		if r.code != tc.code || len(l) == 0 || l[0] != tc.line || r.stdout != "" {
			t.Errorf("padctl %q: exit %d, stderr:\n%s\nwant exit %d and %q", tc.args, r.code, r.stderr, tc.code, tc.line)
			continue
		}
		switch {
		case tc.advice == "" && len(l) != 1:
			t.Errorf("padctl %q: want one line, got:\n%s", tc.args, r.stderr)
		case tc.advice != "" && (len(l) != 2 || !strings.Contains(l[1], tc.advice)):
			t.Errorf("padctl %q: advice:\n%s\nwant %q", tc.args, r.stderr, tc.advice)
		}
	}
}

func TestInterrupted(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": hang, "POST /api/pads": hang})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := invoke(t, opts{env: s.env(), ctx: ctx}, "quota")
	if r.code != exitInterrupted || r.stderr != "padctl: interrupted\n" {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}

	// A create interrupted after it was sent may have happened: that is
	// what the user hears, not "interrupted".
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for len(s.requests()) == 0 && ctx.Err() == nil {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	r = invoke(t, opts{env: s.env(), ctx: ctx}, "pads", "create")
	if r.code != exitUnknown || !strings.Contains(r.stderr, "outcome unknown") || !strings.Contains(r.stderr, "padctl pads list") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// padctl (not mcp) against a service that echoes the key encoded.
func TestKeyNeverPrintedEncoded(t *testing.T) {
	var esc strings.Builder
	for _, c := range testKey {
		fmt.Fprintf(&esc, "\\u%04x", c)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(testKey))
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/quota":     reply(http.StatusUnauthorized, `{"status":"ERROR","message":"bad key `+b64+`"}`),
		"GET /api/pads/ECHO": reply(http.StatusOK, `{"status":"OK","id":"ECHO","title":"`+esc.String()+`","notes":"`+b64+`"}`),
	})
	for _, args := range [][]string{{"quota"}, {"pads", "get", "ECHO"}, {"pads", "get", "ECHO", "--json"}} {
		r := padctl(t, s.env(), args...)
		out := r.stdout + r.stderr
		if strings.Contains(out, b64) || strings.Contains(out, testKey) || strings.Contains(out, esc.String()) {
			t.Errorf("padctl %v: exit %d, the key (encoded) in:\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
		}
	}
}
