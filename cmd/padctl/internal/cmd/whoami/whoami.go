// Package whoami is padctl whoami.
package whoami

import (
	"context"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// view shows whose key this is.
var view = cmdutil.View[padapi.User]{
	Noun: "users",
	Cols: []cmdutil.Column[padapi.User]{
		{Name: "Name", Value: func(u *padapi.User) any {
			if u.Name == nil {
				return cmdutil.Unknown("not set")
			}
			return *u.Name
		}},
		{Name: "Can create pads", Value: func(u *padapi.User) any { return u.AllowPadCreation }},
		{Name: "Analytics ID", Value: func(u *padapi.User) any { return u.AnalyticsID }},
	},
}

// WhoamiOptions are what padctl whoami runs with.
type WhoamiOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
}

// NewCmdWhoami returns whoami. runF, when not nil, runs instead of
// whoamiRun.
func NewCmdWhoami(f *cmdutil.Factory, runF func(*WhoamiOptions) error) *cobra.Command {
	o := &WhoamiOptions{IO: f.IOStreams, Client: f.Client}
	return &cobra.Command{
		Use:   "whoami",
		Short: "Show whose API key this is",
		Long: `Show whose API key padctl uses (GET /api/user): the user's name, whether
they may create pads, and the service's analytics ID for them.

Piped, the columns are, in order: Name, Can create pads, Analytics ID (an
empty Name when the service has none). --json prints the answer as the
service sent it.`,
		Example: `  padctl whoami
  padctl whoami --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx, o.JSON = cmd.Context(), f.Flags.JSON
			if runF != nil {
				return runF(o)
			}
			return whoamiRun(o)
		},
	}
}

// whoamiRun shows the key's user.
func whoamiRun(o *WhoamiOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if o.JSON {
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.User.Get(ctx); return err })
	}
	u, err := c.User.Get(o.Ctx)
	if err != nil {
		return err
	}
	return cmdutil.PrintOne(o.IO, false, view, u)
}
