// Package cmdtest runs padctl in-process for the tests of its commands:
// captured streams, a made-up environment, a hand-made API server (Stub)
// and padapitest's fake. Only tests import it.
package cmdtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/root"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/padapitest"
)

// TestKey is distinctive, so that a leak into any output cannot be missed.
const TestKey = "padctl-secret-Qz7Xw9Kp3Lm"

// Result is what one run of padctl gave.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// Opts describe one in-process run of padctl.
type Opts struct {
	Env map[string]string
	TTY bool // stdin, stdout and stderr are terminals
	// Stdin is what padctl reads: the answers to its questions.
	Stdin     string
	Ctx       context.Context
	Transport http.RoundTripper
	// Factory, when set, receives the factory padctl ran with.
	Factory **cmdutil.Factory
}

// Invoke runs padctl in-process, through the same root.Run as main, and
// fails the test if an API key shows up in anything it printed.
func Invoke(t testing.TB, o Opts, args ...string) Result {
	t.Helper()
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ios, stdin, stdout, stderr := iostreams.Test()
	ios.OutTTY, ios.ErrTTY, ios.InTTY = o.TTY, o.TTY, o.TTY
	stdin.WriteString(o.Stdin)
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(k string) string { return o.Env[k] }, Transport: o.Transport}
	if o.Factory != nil {
		*o.Factory = f
	}
	r := Result{root.Run(ctx, args, f), stdout.String(), stderr.String()}
	for _, key := range []string{TestKey, o.Env["PAD_API_KEY"]} {
		if key != "" && strings.Contains(r.Stdout+r.Stderr, key) {
			t.Errorf("padctl %q printed the API key:\nstdout:\n%s\nstderr:\n%s", args, r.Stdout, r.Stderr)
		}
	}
	return r
}

// Padctl runs padctl with its output piped.
func Padctl(t testing.TB, env map[string]string, args ...string) Result {
	t.Helper()
	return Invoke(t, Opts{Env: env}, args...)
}

// Fake starts a padapitest fake and returns it with the environment that
// points padctl at it.
func Fake(t *testing.T) (*padapitest.Server, map[string]string) {
	srv := padapitest.NewServer(t)
	return srv, map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
}

// Ok fails the test unless r succeeded with nothing on stderr.
func Ok(t testing.TB, r Result) {
	t.Helper()
	if r.Code != 0 || r.Stderr != "" {
		t.Fatalf("exit %d, stderr:\n%s\nstdout:\n%s", r.Code, r.Stderr, r.Stdout)
	}
}

// Lines splits output into its lines, without the last newline.
func Lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// HasField reports whether a terminal listing shows "name: value",
// however the column is padded.
func HasField(out, name, value string) bool {
	return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `:\s+` + regexp.QuoteMeta(value) + `$`).MatchString(out)
}

// CheckUsageError checks that r is a usage error: exit 2, one error line
// with one prefix, then where to find the usage.
func CheckUsageError(t testing.TB, args []string, r Result, want string) {
	t.Helper()
	l := Lines(r.Stderr)
	if r.Code != cmdutil.ExitUsage || len(l) != 2 || r.Stdout != "" {
		t.Fatalf("padctl %q: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and two lines on stderr", args, r.Code, r.Stdout, r.Stderr)
	}
	if !strings.HasPrefix(l[0], "padctl: ") || strings.Contains(l[0], "padapi:") || !strings.Contains(l[0], want) {
		t.Errorf("padctl %q: error line %q, want one padctl: prefix and %q", args, l[0], want)
	}
	if !strings.HasPrefix(l[1], "Run 'padctl") || !strings.HasSuffix(l[1], " --help' for usage.") {
		t.Errorf("padctl %q: second line %q, want the usage hint", args, l[1])
	}
}

// Stub is a hand-made API server, for what the fake does not do (yet) and
// for answers the fake never gives: each route ("GET /api/pads/X", the
// path unescaped) has a handler; any other request is a 404 in the
// service's shape. It records every request, with its body.
type Stub struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []StubRequest
}

// StubRequest is one request a Stub received.
type StubRequest struct {
	Method, Path, Auth, ContentType string
	Query                           map[string][]string
	Body                            []byte
}

// NewStub starts a Stub with routes; the test's cleanup closes it.
func NewStub(t testing.TB, routes map[string]http.HandlerFunc) *Stub {
	t.Helper()
	s := &Stub{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		s.reqs = append(s.reqs, StubRequest{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), r.URL.Query(), body})
		s.mu.Unlock()
		if h := routes[r.Method+" "+r.URL.Path]; h != nil {
			h(w, r)
			return
		}
		Reply(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// Env is the environment that points padctl at the stub.
func (s *Stub) Env() map[string]string {
	return map[string]string{"PAD_BASE_URL": s.URL, "PAD_API_KEY": TestKey}
}

// Requests returns the requests so far.
func (s *Stub) Requests() []StubRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]StubRequest(nil), s.reqs...)
}

// Reply answers with status and a JSON body.
func Reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// Hang never answers: it waits for the client to give up.
func Hang(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// RoundTrip is a func that is an http.RoundTripper.
type RoundTrip func(*http.Request) (*http.Response, error)

// RoundTrip calls f.
func (f RoundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Form decodes a request's form-encoded body.
func Form(t testing.TB, req StubRequest) url.Values {
	t.Helper()
	v, err := url.ParseQuery(string(req.Body))
	if err != nil || req.ContentType != "application/x-www-form-urlencoded" {
		t.Fatalf("body %q (%s): %v", req.Body, req.ContentType, err)
	}
	return v
}

// WriteFiles writes name and contents pairs below dir.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, contents := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
