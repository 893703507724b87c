package cmdutil_test

import (
	"strings"
	"testing"

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
