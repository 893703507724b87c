package cmdutil_test

import (
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
