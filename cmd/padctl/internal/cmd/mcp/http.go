// http.go: padctl mcp --http ADDR: go-sdk's streamable HTTP handler at /mcp, behind a bearer token, with a bound on sessions and a drain on SIGTERM.

package mcp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

// HTTP serving's bounds.
const (
	defaultMaxSessions = 64
	// shutdownWait is how long a drain waits for calls in flight after
	// SIGTERM before the server closes every connection; padctl exits
	// within 5 s.
	shutdownWait = 4 * time.Second
	// sessionIdle ends a session nothing has used for this long.
	sessionIdle = 30 * time.Minute
)

// tokenEnv is the variable that holds the bearer token.
const tokenEnv = "PAD_MCP_TOKEN"

// httpToken is the bearer token: from --token-file (0600, the trailing
// newline trimmed) or PAD_MCP_TOKEN; padctl refuses to serve without one.
func httpToken(file string, getenv func(string) string) (string, error) {
	if file != "" {
		b, err := readPrivate(file, "the token file")
		if err != nil {
			return "", err
		}
		tok := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
		if tok == "" {
			return "", cmdutil.UsageErrorf("the token file %s is empty", file)
		}
		return tok, nil
	}
	if tok := getenv(tokenEnv); tok != "" {
		return tok, nil
	}
	return "", cmdutil.UsageErrorf("padctl mcp --http needs a bearer token for its clients: set %s or pass --token-file FILE (mode 0600)", tokenEnv)
}

// listenAddr checks --http's address: loopback unless --listen-public.
func listenAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return cmdutil.UsageErrorf("--http %q: want HOST:PORT, such as 127.0.0.1:8765 (%v)", addr, err)
	}
	if public || host == "localhost" {
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil && a.Unmap().IsLoopback() {
		return nil
	}
	return cmdutil.UsageErrorf("--http %q is not a loopback address: padctl serves MCP on loopback (127.0.0.1, ::1, localhost) "+
		"unless --listen-public is given (then put TLS in front of it: the bearer token travels in every request)", addr)
}

// sessionGate counts the initialized sessions and bounds them.
type sessionGate struct {
	max  int
	open atomic.Int64
}

// middleware counts a session once it is initialized, until it ends; a
// session initialized past the bound is closed.
func (g *sessionGate) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if method != "notifications/initialized" {
			return res, err
		}
		ss, ok := req.GetSession().(*sdk.ServerSession)
		if !ok {
			return res, err
		}
		if g.open.Add(1) > int64(g.max) {
			g.open.Add(-1)
			go ss.Close()
			return res, err
		}
		go func() {
			ss.Wait()
			g.open.Add(-1)
		}()
		return res, err
	}
}

// full reports whether no further session may start.
func (g *sessionGate) full() bool { return g.open.Load() >= int64(g.max) }

// httpFront is what stands before go-sdk's handler: the bearer token on
// every request, the bound on sessions for a request that would start one,
// and the count of requests in flight for the drain.
type httpFront struct {
	want     []byte // "Bearer " + token
	gate     *sessionGate
	next     http.Handler
	inflight sync.WaitGroup
	draining atomic.Bool
}

// ServeHTTP checks the token in constant time, then the bound, then hands
// the request on.
func (f *httpFront) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), f.want) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="padctl mcp"`)
		http.Error(w, "padctl: missing or wrong bearer token", http.StatusUnauthorized)
		return
	}
	if f.draining.Load() {
		w.Header().Set("Connection", "close")
		http.Error(w, "padctl: shutting down", http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" && f.gate.full() {
		w.Header().Set("Retry-After", "5")
		http.Error(w, fmt.Sprintf("padctl: %d MCP sessions are open, the most --max-sessions allows; try again later", f.gate.max), http.StatusServiceUnavailable)
		return
	}
	if r.Method == http.MethodPost {
		f.inflight.Add(1)
		defer f.inflight.Done()
	}
	f.next.ServeHTTP(w, r)
}

// serveHTTP serves srv over streamable HTTP at /mcp on o.HTTPAddr until
// o.Ctx ends, then drains: the calls in flight are answered (for at most
// shutdownWait), and every connection is closed, event streams included.
// errOut is padctl's redacting stderr.
func serveHTTP(o *MCPOptions, srv *sdk.Server, token string, errOut io.Writer) error {
	if err := listenAddr(o.HTTPAddr, o.ListenPublic); err != nil {
		return err
	}
	maxSessions := o.MaxSessions
	if maxSessions <= 0 {
		return cmdutil.UsageErrorf("--max-sessions %d: want at least 1", maxSessions)
	}
	gate := &sessionGate{max: maxSessions}
	srv.AddReceivingMiddleware(gate.middleware)
	logger := slog.New(slog.NewTextHandler(errOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	handler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Logger: logger, SessionTimeout: sessionIdle})
	front := &httpFront{want: []byte("Bearer " + token), gate: gate, next: handler}
	mux := http.NewServeMux()
	mux.Handle("/mcp", front)
	ln, err := net.Listen("tcp", o.HTTPAddr)
	if err != nil {
		return fmt.Errorf("padctl mcp --http %s: %w", o.HTTPAddr, err)
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(errOut, "padctl: http: ", 0)}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(errOut, "padctl: serving MCP on http://%s/mcp\n", ln.Addr())
	if f, ok := errOut.(interface{ Flush() error }); ok {
		f.Flush()
	}
	select {
	case err := <-served:
		return err
	case <-o.Ctx.Done():
	}
	// Drain: no new request is taken, the calls in flight are answered,
	// then every connection (event streams too) is closed.
	front.draining.Store(true)
	go hs.Shutdown(context.Background()) // stops the listener and idle connections
	done := make(chan struct{})
	go func() { front.inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownWait):
	}
	hs.Close()
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return o.Ctx.Err() // as on stdio: the signal's exit code
}
