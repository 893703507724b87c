package cmdutil_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// A list command's flags, parsed alone through runF: the service's sort
// spelling, the page and the limit; no client is made.
func TestListFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *cmdutil.ListOptions[padapi.Pad]
	cmd := cmdutil.NewCmdList(f, "list", "", cmdutil.View[padapi.Pad]{}, nil, func(o *cmdutil.ListOptions[padapi.Pad]) error { got = o; return nil })
	cmd.SetArgs([]string{"--sort", "updated,asc", "--page", "2", "--limit", "5"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Sort != "updated_at,asc" || got.Page != 2 || got.Limit != 5 || got.All {
		t.Errorf("options %+v", got)
	}
	cmd.SetArgs([]string{"--sort", "created"})
	if err := cmd.Execute(); err != nil || got.Sort != "created_at,desc" {
		t.Errorf("--sort created: %v, %q", err, got.Sort)
	}
}

// --all and --page contradict each other: refused before anything runs,
// and from the root a usage error (exit 2).
func TestListFlagsConflict(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	ran := false
	cmd := cmdutil.NewCmdList(f, "list", "", cmdutil.View[padapi.Pad]{}, nil, func(*cmdutil.ListOptions[padapi.Pad]) error { ran = true; return nil })
	cmd.SetArgs([]string{"--all", "--page", "2"})
	if err := cmd.Execute(); err == nil || ran || !strings.Contains(err.Error(), "[all page]") {
		t.Errorf("--all --page 2: ran %v, error %v", ran, err)
	}
}

// TimeoutError is padctl's one timeout type: as a context's cause it makes
// the deadline a DeadlineExceeded (with its advice); as a command's report
// (Stopped) it is that report alone, exit 1, no deadline advice.
func TestTimeoutError(t *testing.T) {
	limit := &cmdutil.TimeoutError{D: 2 * time.Second}
	if !errors.Is(limit, context.DeadlineExceeded) || limit.Error() != "timed out after 2s" {
		t.Errorf("limit: Is %v, %q", errors.Is(limit, context.DeadlineExceeded), limit.Error())
	}
	stopped := &cmdutil.TimeoutError{D: 2 * time.Second, Stopped: "the archive stopped at the --timeout limit (2s) after 3 pads"}
	if errors.Is(stopped, context.DeadlineExceeded) || stopped.Error() != stopped.Stopped {
		t.Errorf("stopped: Is %v, %q", errors.Is(stopped, context.DeadlineExceeded), stopped.Error())
	}
	if code, advice := cmdutil.ExitCode(stopped, true), cmdutil.Advice(stopped); code != cmdutil.ExitError || advice != "" {
		t.Errorf("stopped: exit %d, advice %q; want 1 and none", code, advice)
	}
	if advice := cmdutil.Advice(fmt.Errorf("GET /api/pads: %w", limit)); !strings.Contains(advice, "--timeout") {
		t.Errorf("a request cut by the limit: advice %q", advice)
	}
}
