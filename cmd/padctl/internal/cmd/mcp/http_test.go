// http_test.go: padctl mcp --http over a real loopback listener, and --accounts (http.go, accounts.go).

package mcp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/padapitest"
)

const (
	httpTestToken = "tok-Zx81Qw77Lp02Vb"
	httpTestKey   = "padctl-http-key-Hq27Ns84Rt"
)

// httpServer is padctl mcp --http running in the test.
type httpServer struct {
	url    string // http://HOST:PORT/mcp
	line   string // the serving line
	stderr *syncBuffer
	stop   context.CancelFunc
	done   chan error
	srv    *padapitest.Server
}

// startHTTP runs mcpRun with --http on a free loopback port against a
// fake, and reads the serving line from stderr (no polling: the line is
// read from a pipe).
func startHTTP(t *testing.T, edit func(*MCPOptions)) *httpServer {
	t.Helper()
	srv := padapitest.NewServer(t, padapitest.WithAPIKey(httpTestKey))
	srv.SetQuota(50, 12)
	ios, _, out, _ := iostreams.Test()
	pr, pw := io.Pipe()
	ios.ErrOut = pw
	ctx, cancel := context.WithCancel(context.Background())
	env := map[string]string{tokenEnv: httpTestToken}
	o := &MCPOptions{IO: ios, Keys: []string{httpTestKey}, HasKey: true, Ctx: ctx, In: strings.NewReader(""),
		Client: func() (*padapi.Client, error) { return srv.Client(), nil }, HTTPAddr: "127.0.0.1:0",
		MaxSessions: defaultMaxSessions, Getenv: func(k string) string { return env[k] }}
	if edit != nil {
		edit(o)
	}
	h := &httpServer{stderr: &syncBuffer{}, stop: cancel, done: make(chan error, 1), srv: srv}
	go func() { h.done <- mcpRun(o); pw.Close() }()
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("no serving line: %q, %v (%v)", line, err, <-h.done)
	}
	h.line = strings.TrimSuffix(line, "\n")
	h.stderr.Write([]byte(line))
	go io.Copy(h.stderr, br)
	m := regexp.MustCompile(`^padctl: serving MCP on (http://127\.0\.0\.1:\d+/mcp)$`).FindStringSubmatch(h.line)
	if m == nil {
		cancel()
		t.Fatalf("serving line %q", h.line)
	}
	h.url = m[1]
	t.Cleanup(func() {
		cancel()
		<-h.done
		all := h.stderr.String() + out.String()
		for _, secret := range []string{httpTestKey, httpTestToken} {
			for i := 0; i+8 <= len(secret); i++ {
				if strings.Contains(all, secret[i:i+8]) {
					t.Errorf("8 bytes of a secret (%d on) are in padctl's output:\n%s", i, all)
				}
			}
		}
	})
	return h
}

// bearer adds the Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session with token.
func (h *httpServer) connect(ctx context.Context, token string) (*sdk.ClientSession, error) {
	tr := &sdk.StreamableClientTransport{Endpoint: h.url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}}
	return sdk.NewClient(&sdk.Implementation{Name: "t", Version: "0"}, nil).Connect(ctx, tr, nil)
}

// Every request without the exact bearer token gets 401, GET and POST,
// with nothing handed to the MCP handler; with it, the tools answer.
func TestHTTPToken(t *testing.T) {
	h := startHTTP(t, nil)
	for _, tc := range []struct{ method, auth string }{
		{"POST", ""}, {"GET", ""}, {"POST", "Bearer " + httpTestToken + "x"}, {"GET", "Bearer wrong"},
		{"POST", httpTestToken}, {"DELETE", "bearer " + httpTestToken},
	} {
		req, _ := http.NewRequest(tc.method, h.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s with %q: %d, want 401", tc.method, tc.auth, resp.StatusCode)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := h.connect(ctx, "nope"); err == nil {
		t.Error("a session started with a wrong token")
	}
	cs, err := h.connect(ctx, httpTestToken)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_quota", Arguments: map[string]any{}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, `"pads_used":12`) {
		t.Errorf("get_quota over HTTP: %v %+v", err, res)
	}
	// Read-only by default over HTTP too.
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if !tool.Annotations.ReadOnlyHint {
			t.Errorf("%s is served without --allow-writes", tool.Name)
		}
	}
}

// 100 sessions at once, each with calls of its own in flight, all
// answered; with --max-sessions 100, a 101st is refused until one closes,
// and a closed session frees its slot within 5 s.
func TestHTTPSessions(t *testing.T) {
	h := startHTTP(t, func(o *MCPOptions) { o.MaxSessions = 100 })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sessions := make([]*sdk.ClientSession, 100)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range sessions {
		wg.Go(func() {
			cs, err := h.connect(ctx, httpTestToken)
			if err != nil {
				errs <- err
				return
			}
			sessions[i] = cs
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_pads", Arguments: map[string]any{}})
			if err != nil || res.IsError {
				errs <- fmt.Errorf("session %d: %v %v", i, err, res)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	if cs, err := h.connect(ctx, httpTestToken); err == nil {
		cs.Close()
		t.Fatal("a 101st session started past --max-sessions 100")
	}
	sessions[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		cs, err := h.connect(ctx, httpTestToken)
		if err == nil {
			cs.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed session did not free its slot within 5 s: %v", err)
		}
	}
	for _, cs := range sessions[1:] {
		cs.Close()
	}
}

// On SIGTERM (the context's end) a call in flight is answered, and padctl
// returns within 5 s, although the session's event stream is open.
func TestHTTPDrain(t *testing.T) {
	h := startHTTP(t, nil)
	// The quota's answer waits until the test has sent SIGTERM.
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.srv.SetFaults(func(route string, _ padapitest.Request) padapitest.Fault {
		if route == "GET /api/quota" {
			once.Do(func() { close(reached) })
			<-release
		}
		return padapitest.Fault{}
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := h.connect(ctx, httpTestToken)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	answered := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "get_quota", Arguments: map[string]any{}})
		if err == nil && res.IsError {
			err = errors.New(res.Content[0].(*sdk.TextContent).Text)
		}
		answered <- err
	}()
	select {
	case <-reached:
	case <-ctx.Done():
		t.Fatal("the call never reached the service")
	}
	start := time.Now()
	h.stop()
	close(release)
	if err := <-answered; err != nil {
		t.Errorf("the call in flight at SIGTERM: %v", err)
	}
	select {
	case err := <-h.done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("mcpRun after the drain: %v", err)
		}
		h.done <- err // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("padctl did not exit within 5 s of SIGTERM")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the drain took %v", took)
	}
}

// --http refuses to start without a token, on a public address without
// --listen-public, and with an accounts file that is not 0600 (naming the
// mode); the token never reaches stderr.
func TestHTTPRefusals(t *testing.T) {
	dir := t.TempDir()
	loose := filepath.Join(dir, "accounts.json")
	if err := os.WriteFile(loose, []byte(`{"accounts":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*MCPOptions)
		want string
	}{
		{func(o *MCPOptions) { o.Getenv = func(string) string { return "" } }, "PAD_MCP_TOKEN"},
		{func(o *MCPOptions) { o.HTTPAddr = "0.0.0.0:0" }, "--listen-public"},
		{func(o *MCPOptions) { o.HTTPAddr = "example.com:80" }, "--listen-public"},
		{func(o *MCPOptions) { o.AccountsFile = loose }, "0644"},
		{func(o *MCPOptions) { o.TokenFile = loose }, "0644"},
		{func(o *MCPOptions) { o.MaxSessions = 0 }, "--max-sessions"},
		{func(o *MCPOptions) { o.HTTPAddr, o.ListenPublic = "", true }, "--http"},
	} {
		ios, _, _, errOut := iostreams.Test()
		o := &MCPOptions{IO: ios, Ctx: context.Background(), In: strings.NewReader(""), HTTPAddr: "127.0.0.1:0", MaxSessions: 1,
			Getenv: func(k string) string { return map[string]string{tokenEnv: httpTestToken}[k] }}
		tc.edit(o)
		err := mcpRun(o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.want, err)
		}
		if strings.Contains(errOut.String(), httpTestToken) || (err != nil && strings.Contains(err.Error(), httpTestToken)) {
			t.Errorf("the token was shown: %v %s", err, errOut)
		}
	}
}

// --accounts: each account from its variable or its file (the newline
// trimmed), the tools acting as the one named; keys never echoed, in
// errors or on stderr.
func TestAccountsFile(t *testing.T) {
	dir := t.TempDir()
	other := padapitest.NewServer(t, padapitest.WithAPIKey("other-key-Jd82Kq93Lm"))
	other.AddPad(padapi.Pad{Title: "other's"})
	keyFile := filepath.Join(dir, "other.key")
	if err := os.WriteFile(keyFile, []byte("other-key-Jd82Kq93Lm\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "accounts.json")
	write := func(body string) {
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf(`{"accounts":{"other":{"base_url":%q,"key_file":%q},"env":{"base_url":%q,"key_env":"ENV_KEY"}}}`, other.URL, keyFile, other.URL))
	clients, keys, err := loadAccounts(file, func(k string) string { return map[string]string{"ENV_KEY": "other-key-Jd82Kq93Lm"}[k] }, nil)
	if err != nil || len(clients) != 2 || len(keys) != 2 {
		t.Fatalf("loadAccounts: %v, %d clients", err, len(clients))
	}
	for name, c := range clients {
		page, err := c.Pads.List(context.Background(), nil)
		if err != nil || len(page.Items) != 1 {
			t.Errorf("account %s: %v", name, err)
		}
	}
	for _, body := range []string{
		`{"accounts":{"a":{"key_env":"UNSET"}}}`,
		`{"accounts":{"a":{"key_env":"X","key_file":"y"}}}`,
		`{"accounts":{"a":{"key":"other-key-Jd82Kq93Lm"}}}`,
		`{"accounts":{"a":{"base_url":"ftp://x","key_env":"ENV_KEY"}}}`,
	} {
		write(body)
		_, _, err := loadAccounts(file, func(k string) string { return map[string]string{"ENV_KEY": "other-key-Jd82Kq93Lm"}[k] }, nil)
		if err == nil || strings.Contains(err.Error(), "other-key") {
			t.Errorf("%s: %v", body, err)
		}
	}
	// Through padctl mcp over HTTP: the account argument reaches the other service.
	write(fmt.Sprintf(`{"accounts":{"other":{"base_url":%q,"key_file":%q}}}`, other.URL, keyFile))
	h := startHTTP(t, func(o *MCPOptions) { o.AccountsFile = file })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cs, err := h.connect(ctx, httpTestToken)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "list_pads", Arguments: map[string]any{"account": "other"}})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "other's") {
		t.Errorf("list_pads as other: %v %+v", err, res)
	}
}
