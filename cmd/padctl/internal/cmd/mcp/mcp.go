// Package mcp is padctl mcp: its flags, the stdin relay, and padmcp's
// server over them.
package mcp

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/netip"
	"net/url"
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
}

// NewCmdMCP returns mcp. runF, when not nil, runs instead of mcpRun.
func NewCmdMCP(f *cmdutil.Factory, runF func(*MCPOptions) error) *cobra.Command {
	o := &MCPOptions{IO: f.IOStreams, Client: f.Client}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the API as MCP tools over stdio, for AI assistants",
		Long: `Serve the Pad API as Model Context Protocol tools on stdin and stdout, for an
AI assistant that starts padctl as its MCP server.

Read tools are always on. Tools that create or change pads and questions
need --allow-writes; tools that delete need --allow-deletes. A tool that is
not enabled is not listed, and a call to it sends nothing to the service.

The key comes from PAD_API_KEY (or --api-key), never from a tool's
arguments, and no result, error or log line shows it. Without a key the
server starts anyway, and each tool call answers that PAD_API_KEY needs
setting. --timeout bounds each tool call. stdout carries only JSON-RPC;
diagnostics go to stderr.`,
		Example: `  padctl --fake mcp                        # try the tools against the in-process fake
  PAD_API_KEY=... padctl mcp               # read-only tools against the service
  padctl mcp --allow-writes --timeout 1m   # also create and update pads and questions`,
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
	return cmd
}

// mcpRun serves MCP on o.In and o.IO.Out until o.In ends or o.Ctx is done.
func mcpRun(o *MCPOptions) error {
	// Every diagnostic, --debug's log included, goes through the redactor.
	errOut := redact.New(o.Keys...).Writer(o.IO.ErrOut)
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
		AllowWrites: o.AllowWrites, AllowDeletes: o.AllowDeletes, CallTimeout: o.Timeout, Secrets: o.Keys,
		AllowLoopbackHistory: o.LoopbackService,
	})
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
