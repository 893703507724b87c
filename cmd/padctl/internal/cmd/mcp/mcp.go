// Package mcp is padctl mcp: its flags, the stdin relay, and padmcp's
// server over them.
package mcp

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/padinterview/padapi/padmcp"
	"github.com/spf13/cobra"
)

// drainWait is how long padctl mcp keeps answering after stdin ends, for
// the requests it has read; a request in flight may take the per-call
// timeout on top.
const drainWait = 5 * time.Second

// MCPOptions are what padctl mcp runs with.
type MCPOptions struct {
	IO *iostreams.IOStreams
	// Keys are the API keys no output may show.
	Keys []string
	// Client makes the API client; it is not called without a key, and
	// the server then answers each call with what to set.
	Client  func() (*padapi.Client, error)
	HasKey  bool
	Ctx     context.Context
	In      io.Reader
	Timeout time.Duration // per tool call; 0 for none
	// AllowWrites and AllowDeletes are --allow-writes and --allow-deletes.
	AllowWrites, AllowDeletes bool
	// LoopbackService is set when the service is local (--fake, or a
	// loopback base URL): history links may then be on loopback too.
	LoopbackService bool
	// Lockdown is --lockdown: text written by people comes only inside
	// data blocks.
	Lockdown bool
	// AccountsFile is --accounts: further accounts the tools may act as.
	AccountsFile string
	// HTTPAddr is --http: serve streamable HTTP there instead of stdio,
	// with TokenFile (--token-file) or PAD_MCP_TOKEN as the bearer token,
	// on loopback unless ListenPublic, at most MaxSessions sessions.
	HTTPAddr     string
	TokenFile    string
	ListenPublic bool
	MaxSessions  int
	// Getenv reads the environment (PAD_MCP_TOKEN, the accounts' key_env).
	Getenv func(string) string
	// Transport, when set, carries the accounts' requests (tests).
	Transport http.RoundTripper
}

// NewCmdMCP returns mcp. runF, when not nil, runs instead of mcpRun.
func NewCmdMCP(f *cmdutil.Factory, runF func(*MCPOptions) error) *cobra.Command {
	o := &MCPOptions{IO: f.IOStreams, Client: f.Client, Getenv: f.Getenv}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the API as MCP tools over stdio or HTTP, for AI assistants",
		Long: `Serve the Pad API as Model Context Protocol tools on stdin and stdout, for an
AI assistant that starts padctl as its MCP server.

Read tools are always on. Tools that create or change pads and questions
need --allow-writes; tools that delete need --allow-deletes. A tool that is
not enabled is not listed, and a call to it sends nothing to the service.

The key comes from PAD_API_KEY (or --api-key), never from a tool's
arguments, and no result, error or log line shows it. Without a key the
server starts anyway, and each tool call answers that PAD_API_KEY needs
setting. --timeout bounds each tool call. stdout carries only JSON-RPC;
diagnostics go to stderr.

--accounts FILE names further accounts, each a base URL and where its key
is (never the key itself); the file must have mode 0600:

  {"accounts": {"team-b": {"base_url": "https://app.coderpad.io", "key_env": "TEAM_B_KEY"},
                "sandbox": {"base_url": "http://127.0.0.1:8189", "key_file": "/run/keys/sandbox"}}}

Every tool then takes an optional "account"; PAD_BASE_URL and PAD_API_KEY
stay the default account. --lockdown hands text written by candidates to
the model only inside delimited data blocks.

--http ADDR serves MCP over streamable HTTP at http://ADDR/mcp, for a whole
team, instead of stdio. Every request needs "Authorization: Bearer TOKEN",
TOKEN from PAD_MCP_TOKEN or --token-file (mode 0600); padctl refuses to
start without one. It listens on loopback unless --listen-public (put TLS
in front of it then), prints "padctl: serving MCP on http://HOST:PORT/mcp"
on stderr once listening, allows --max-sessions initialized sessions, and
on SIGTERM answers the calls in flight and exits within 5 s. OAuth is not
supported.`,
		Example: `  padctl --fake mcp                        # try the tools against the in-process fake
  PAD_API_KEY=... padctl mcp               # read-only tools against the service
  padctl mcp --allow-writes --timeout 1m   # also create and update pads and questions
  PAD_MCP_TOKEN=... padctl mcp --http 127.0.0.1:8765   # one server for a team, over HTTP`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{cmdutil.NoDeadline: "per tool call"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx, o.In, o.Keys = cmd.Context(), cmd.InOrStdin(), f.Keys()
			// The command itself runs until stopped (NoDeadline): the
			// time limit is per tool call.
			o.Timeout = f.Timeout
			o.HasKey = o.Keys[0] != "" || f.Flags.Fake
			o.LoopbackService = f.Flags.Fake || loopbackURL(cmp.Or(f.Flags.BaseURL, f.Getenv("PAD_BASE_URL")))
			if runF != nil {
				return runF(o)
			}
			return mcpRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.AllowWrites, "allow-writes", false, "enable the tools that create, change and end pads and questions")
	cmd.Flags().BoolVar(&o.AllowDeletes, "allow-deletes", false, "enable the tools that delete pads and questions")
	cmd.Flags().BoolVar(&o.Lockdown, "lockdown", false, "hand text written by people to the model only inside delimited data blocks")
	cmd.Flags().StringVar(&o.AccountsFile, "accounts", "", "`FILE` naming further accounts (JSON, mode 0600)")
	cmd.Flags().StringVar(&o.HTTPAddr, "http", "", "serve streamable HTTP at `ADDR` (HOST:PORT), path /mcp, instead of stdio")
	cmd.Flags().StringVar(&o.TokenFile, "token-file", "", "with --http: the bearer token's `FILE` (mode 0600); default $PAD_MCP_TOKEN")
	cmd.Flags().BoolVar(&o.ListenPublic, "listen-public", false, "with --http: allow an address that is not loopback")
	cmd.Flags().IntVar(&o.MaxSessions, "max-sessions", defaultMaxSessions, "with --http: most initialized sessions at once")
	return cmd
}

// mcpRun serves MCP on o.In and o.IO.Out until o.In ends or o.Ctx is
// done, or with --http over HTTP until o.Ctx is done.
func mcpRun(o *MCPOptions) error {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var accounts map[string]*padapi.Client
	if o.AccountsFile != "" {
		clients, keys, err := loadAccounts(o.AccountsFile, getenv, o.Transport)
		if err != nil {
			return err
		}
		accounts = clients
		o.Keys = append(o.Keys, keys...)
	}
	var token string
	if o.HTTPAddr != "" {
		var err error
		if token, err = httpToken(o.TokenFile, getenv); err != nil {
			return err
		}
	} else if o.TokenFile != "" || o.ListenPublic {
		return cmdutil.UsageErrorf("--token-file and --listen-public go with --http")
	}
	// Every diagnostic, --debug's log included, goes through the redactor:
	// the keys and the bearer token.
	errOut := redact.New(append(slices.Clone(o.Keys), token)...).Writer(o.IO.ErrOut)
	defer errOut.Flush()
	o.IO.ErrOut = errOut
	var c *padapi.Client
	if o.HasKey {
		// Without a key the server starts all the same, so that an
		// assistant shows why each call fails rather than a dead server.
		var err error
		if c, err = o.Client(); err != nil {
			return err
		}
	}
	srv := padmcp.NewServer(c, padmcp.Options{
		AllowWrites: o.AllowWrites, AllowDeletes: o.AllowDeletes, CallTimeout: o.Timeout, Secrets: append(slices.Clone(o.Keys), token),
		AllowLoopbackHistory: o.LoopbackService, Lockdown: o.Lockdown, Accounts: accounts,
	})
	if o.HTTPAddr != "" {
		return serveHTTP(o, srv, token, errOut)
	}
	drain := drainWait
	if o.Timeout > 0 {
		drain += o.Timeout
	}
	wire := redact.New(wireKeys(o.Keys)...).Writer(o.IO.Out)
	defer wire.Flush()
	relay := newStdioRelay(o.In, wire, drain)
	go relay.pump(o.Ctx)
	err := srv.Run(o.Ctx, relay.transport())
	relay.close()
	if o.Ctx.Err() != nil {
		return o.Ctx.Err()
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return nil
}

// minWireKey is the shortest key redacted from JSON-RPC lines as a whole:
// a shorter one could match the protocol's own text ("id", "2.0") and
// break every message. Results and logs are redacted of every key.
const minWireKey = 8

// wireKeys returns the keys of at least minWireKey bytes.
func wireKeys(keys []string) []string {
	var long []string
	for _, k := range keys {
		if len(k) >= minWireKey {
			long = append(long, k)
		}
	}
	return long
}

// loopbackURL reports whether a base URL names a loopback host (a local
// fake), whose history links the tools may follow on loopback too.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}
