package whoami_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/whoami"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// whoami shows the key's user, piped as one row, on a terminal as fields,
// with --json the service's bytes as they came (no status, as the peers'
// fixtures show).
func TestWhoami(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	r := cmdtest.Padctl(t, env, "whoami")
	cmdtest.Ok(t, r)
	if r.Stdout != "Olivia Owner\ttrue\tanalytics-1\n" {
		t.Errorf("piped: %q", r.Stdout)
	}
	srv.SetUser(padapi.User{AnalyticsID: "u-9"})
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "whoami")
	cmdtest.Ok(t, r)
	if !cmdtest.HasField(r.Stdout, "Name", "not set") || !cmdtest.HasField(r.Stdout, "Can create pads", "no") || !cmdtest.HasField(r.Stdout, "Analytics ID", "u-9") {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}
	r = cmdtest.Padctl(t, env, "whoami", "--json")
	cmdtest.Ok(t, r)
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil || len(got) != 3 || got["name"] != nil || got["allow_pad_creation"] != false || got["analytics_id"] != "u-9" {
		t.Errorf("--json: %q", r.Stdout)
	}
}

// A rejected key is the usual auth error, and the key is nowhere in what
// padctl prints.
func TestWhoamiErrors(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/user": cmdtest.Reply(401, `{"status":"ERROR","message":"Invalid API key"}`)})
	r := cmdtest.Padctl(t, s.Env(), "whoami")
	if r.Code != cmdutil.ExitError || !strings.Contains(r.Stderr, "GET /api/user: 401") || r.Stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if strings.Contains(r.Stderr, cmdtest.TestKey) {
		t.Errorf("the key in the output: %q", r.Stderr)
	}
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	cmd := whoami.NewCmdWhoami(f, func(*whoami.WhoamiOptions) error { t.Error("ran with an argument"); return nil })
	cmd.SetArgs([]string{"extra"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.Execute(); err == nil {
		t.Error("whoami extra: no error")
	}
}
