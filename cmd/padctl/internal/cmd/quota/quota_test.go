package quota_test

import (
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

func TestQuota(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	srv.SetQuota(50, 12)
	r := cmdtest.Padctl(t, env, "quota")
	cmdtest.Ok(t, r)
	f := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\t")
	if len(f) != 7 || f[0] != "12" || f[1] != "50" || f[2] != "38" || f[3] != "false" {
		t.Errorf("piped: %q", r.Stdout)
	}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "quota")
	cmdtest.Ok(t, r)
	for _, f := range [][2]string{{"Used", "12"}, {"Limit", "50"}, {"Remaining", "38"}, {"Unlimited", "no"}} {
		if !cmdtest.HasField(r.Stdout, f[0], f[1]) {
			t.Errorf("on a terminal, no %s: %s in:\n%s", f[0], f[1], r.Stdout)
		}
	}
	// Unlimited: no limit and nothing remaining to show, not zeros.
	srv.SetUnlimited()
	r = cmdtest.Padctl(t, env, "quota")
	cmdtest.Ok(t, r)
	if f := strings.Split(r.Stdout, "\t"); len(f) != 7 || f[1] != "" || f[2] != "" || f[3] != "true" {
		t.Errorf("unlimited, piped: %q", r.Stdout)
	}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "quota")
	if !cmdtest.HasField(r.Stdout, "Limit", "unlimited") || !cmdtest.HasField(r.Stdout, "Remaining", "unlimited") {
		t.Errorf("unlimited, on a terminal:\n%s", r.Stdout)
	}
}

// A limited plan without counts: on a terminal Limit and Remaining say so
// rather than vanish; piped they are empty cells, the columns in place.
func TestQuotaNotReported(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	srv.SetQuota(50, 12)
	srv.SetOmitQuotaCounts(true)
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "quota")
	cmdtest.Ok(t, r)
	if !cmdtest.HasField(r.Stdout, "Limit", "not reported") || !cmdtest.HasField(r.Stdout, "Remaining", "not reported") || !cmdtest.HasField(r.Stdout, "Used", "12") {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}
	r = cmdtest.Padctl(t, env, "quota")
	if f := strings.Split(r.Stdout, "\t"); len(f) != 7 || f[0] != "12" || f[1] != "" || f[2] != "" {
		t.Errorf("piped: %q", r.Stdout)
	}
}
