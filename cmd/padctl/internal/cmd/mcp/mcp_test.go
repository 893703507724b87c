package mcp_test

import (
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/mcp"
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
