package mcp_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/mcp"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest/rpcline"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// The flags and the environment reach the options, through runF, without
// a service.
func TestNewCmdMCPOptions(t *testing.T) {
	for _, tc := range []struct {
		args                       []string
		env                        map[string]string
		writes, deletes, key, loop bool
	}{
		{nil, nil, false, false, false, false},
		{[]string{"--allow-writes"}, map[string]string{"PAD_API_KEY": "k-123456789"}, true, false, true, false},
		{[]string{"--allow-deletes"}, map[string]string{"PAD_API_KEY": "k-123456789", "PAD_BASE_URL": "http://127.0.0.1:9"}, false, true, true, true},
		{nil, map[string]string{"PAD_BASE_URL": "http://localhost:8080"}, false, false, false, true},
		{nil, map[string]string{"PAD_BASE_URL": "https://app.coderpad.io"}, false, false, false, false},
	} {
		ios, _, _, _ := iostreams.Test()
		f := &cmdutil.Factory{IOStreams: ios, Getenv: func(k string) string { return tc.env[k] }, Timeout: 3 * time.Second}
		var got *mcp.MCPOptions
		cmd := mcp.NewCmdMCP(f, func(o *mcp.MCPOptions) error { got = o; return nil })
		cmd.SetArgs(tc.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got.AllowWrites != tc.writes || got.AllowDeletes != tc.deletes || got.HasKey != tc.key || got.LoopbackService != tc.loop || got.Timeout != 3*time.Second {
			t.Errorf("%v %v: writes %v deletes %v key %v loopback %v timeout %v", tc.args, tc.env, got.AllowWrites, got.AllowDeletes, got.HasKey, got.LoopbackService, got.Timeout)
		}
	}
}

// --timeout bounds each tool call, and the session goes on after one runs
// out: get_quota against a service that never answers ends in an error
// naming --timeout when the 2 s run out, and list_pads after it is
// answered. The time is fake (synctest): the 2 s take none, so the bound
// is exact, and the service is a transport that, like a service that never
// answers, waits for the request's context to end (a goroutine reading a
// real socket would not let the bubble's clock move).
func TestMCPTimeoutPerCall(t *testing.T) {
	service := cmdtest.RoundTrip(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/api/pads" {
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}}, Request: r,
				Body: io.NopCloser(strings.NewReader(`{"status":"OK","pads":[],"total":0}`))}, nil
		}
		<-r.Context().Done()
		return nil, r.Context().Err()
	})
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		env := map[string]string{"PAD_BASE_URL": "http://127.0.0.1:9", "PAD_API_KEY": cmdtest.TestKey}
		r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: service, Stdin: strings.Join([]string{
			rpcline.Init(1), rpcline.Call(2, "get_quota", nil), rpcline.Call(3, "list_pads", nil)}, "\n") + "\n"},
			"mcp", "--timeout", "2s")
		took := time.Since(start)
		replies := map[string]string{}
		for _, l := range cmdtest.Lines(r.Stdout) {
			var m struct {
				ID     json.RawMessage
				Result struct {
					IsError bool
					Content []struct{ Text string }
				}
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil || len(m.Result.Content) != 1 {
				continue
			}
			replies[string(m.ID)] = fmt.Sprint(m.Result.IsError, " ", m.Result.Content[0].Text)
		}
		if r.Code != 0 || took != 2*time.Second {
			t.Errorf("exit %d after %v, want 0 after the 2s of get_quota\nstderr:\n%s", r.Code, took, r.Stderr)
		}
		if !strings.HasPrefix(replies["2"], "true ") || !strings.Contains(replies["2"], "--timeout") {
			t.Errorf("get_quota past --timeout: %q", replies["2"])
		}
		if !strings.HasPrefix(replies["3"], "false ") {
			t.Errorf("list_pads after a timeout: %q\nstdout:\n%s", replies["3"], r.Stdout)
		}
	})
}

// The padmcp 2 flags reach the options: --http, --token-file,
// --listen-public, --max-sessions (64 by default), --accounts, --lockdown.
func TestNewCmdMCPServeFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *mcp.MCPOptions
	cmd := mcp.NewCmdMCP(f, func(o *mcp.MCPOptions) error { got = o; return nil })
	cmd.SetArgs(nil)
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.MaxSessions != 64 || got.HTTPAddr != "" || got.Lockdown {
		t.Errorf("defaults: max sessions %d, http %q, lockdown %v", got.MaxSessions, got.HTTPAddr, got.Lockdown)
	}
	cmd = mcp.NewCmdMCP(f, func(o *mcp.MCPOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--http", "127.0.0.1:8765", "--token-file", "tok", "--listen-public", "--max-sessions", "9", "--accounts", "acc.json", "--lockdown"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.HTTPAddr != "127.0.0.1:8765" || got.TokenFile != "tok" || !got.ListenPublic || got.MaxSessions != 9 || got.AccountsFile != "acc.json" || !got.Lockdown {
		t.Errorf("flags: %+v", got)
	}
}
