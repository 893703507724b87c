// mcp.go: padctl mcp: its flags, the stdin relay and padmcp's server.

package main

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
	"github.com/padinterview/padapi/padmcp"
	"github.com/spf13/cobra"
)

// mcpDrainWait is how long padctl mcp keeps answering after stdin ends, for
// the requests it has read; a request in flight may take the per-call
// timeout on top.
const mcpDrainWait = 5 * time.Second

// mcpOptions are padctl mcp's own flags.
type mcpOptions struct {
	allowWrites, allowDeletes bool
}

// newMCPCmd returns mcp.
func newMCPCmd(f *cmdutil.Factory) *cobra.Command {
	o := &mcpOptions{}
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
		Args:        cobra.NoArgs,
		Annotations: map[string]string{cmdutil.NoDeadline: "per tool call"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runMCP(cmd.Context(), f, o, cmd.InOrStdin())
		},
	}
	cmd.Flags().BoolVar(&o.allowWrites, "allow-writes", false, "enable the tools that create, change and end pads and questions")
	cmd.Flags().BoolVar(&o.allowDeletes, "allow-deletes", false, "enable the tools that delete pads and questions")
	return cmd
}

// runMCP serves MCP on in and f.out until in ends or ctx is done.
func runMCP(ctx context.Context, f *cmdutil.Factory, o *mcpOptions, in io.Reader) error {
	keys := f.Keys()
	red := newRedactor(keys...)
	// Every diagnostic, --debug's log included, goes through the redactor.
	f.IOStreams.ErrOut = red.writer(f.IOStreams.ErrOut)
	var c *padapi.Client
	if keys[0] != "" || f.Flags.Fake {
		// Without a key the server starts all the same, so that an
		// assistant shows why each call fails rather than a dead server.
		var err error
		if c, err = f.Client(); err != nil {
			return err
		}
	}
	timeout := f.Timeout // per tool call: the command itself runs until stopped (noDeadline)
	srv := padmcp.NewServer(c, padmcp.Options{
		AllowWrites: o.allowWrites, AllowDeletes: o.allowDeletes, CallTimeout: timeout, Secrets: keys,
		AllowLoopbackHistory: f.Flags.Fake || loopbackURL(cmp.Or(f.Flags.BaseURL, f.Getenv("PAD_BASE_URL"))),
	})
	drain := mcpDrainWait
	if timeout > 0 {
		drain += timeout
	}
	relay := newStdioRelay(in, red.wire().writer(f.IOStreams.Out), drain)
	go relay.pump(ctx)
	err := srv.Run(ctx, relay.transport())
	relay.close()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return nil
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
