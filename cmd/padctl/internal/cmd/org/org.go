// Package org is padctl org: the organization, its pads, questions, users
// and stats.
package org

import (
	"context"
	"fmt"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// orgView prints an organization; its users are org users's.
var orgView = cmdutil.View[padapi.Organization]{
	Noun: "organizations",
	Cols: []cmdutil.Column[padapi.Organization]{
		{Name: "Name", Value: func(o *padapi.Organization) any { return o.Name }},
		{Name: "Users", Value: func(o *padapi.Organization) any { return o.UserCount }},
		{Name: "Default language", Value: func(o *padapi.Organization) any { return o.DefaultLanguage }},
		{Name: "Single sign-on", Value: func(o *padapi.Organization) any { return o.SingleSignOnSupported }},
		{Name: "ID", Value: func(o *padapi.Organization) any { return o.ID }},
	},
	Detail: []cmdutil.Column[padapi.Organization]{
		{Name: "Sign-in URL", Value: func(o *padapi.Organization) any { return o.SingleSignInURL }},
	},
}

// userView prints the users of an organization.
var userView = cmdutil.View[padapi.OrganizationUser]{
	Noun: "users",
	Cols: []cmdutil.Column[padapi.OrganizationUser]{
		{Name: "Email", Value: func(u *padapi.OrganizationUser) any { return u.Email }},
		{Name: "Name", Value: func(u *padapi.OrganizationUser) any { return u.Name }},
		{Name: "Teams", Value: func(u *padapi.OrganizationUser) any { return u.Teams }},
	},
}

// userStatsView prints the rows of org stats: pads created per user.
var userStatsView = cmdutil.View[padapi.UserStats]{
	Noun: "users with pads",
	Cols: []cmdutil.Column[padapi.UserStats]{
		{Name: "Email", Value: func(u *padapi.UserStats) any { return u.Email }},
		{Name: "Name", Value: func(u *padapi.UserStats) any { return u.Name }},
		{Name: "Pads", Value: func(u *padapi.UserStats) any { return u.PadsCreated }},
	},
}

// Options are what every org command runs with.
type Options struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
}

// set fills what a command learns when it runs.
func (o *Options) set(f *cmdutil.Factory, cmd *cobra.Command) {
	o.IO, o.Client, o.Ctx, o.JSON = f.IOStreams, f.Client, cmd.Context(), f.Flags.JSON
}

// NewCmdOrg returns org, which shows the organization, and its
// subcommands. runF, when not nil, runs instead of orgRun.
func NewCmdOrg(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	o := &Options{}
	cmd := &cobra.Command{
		Use:   "org",
		Short: "Show your organization; its subcommands list its pads, questions, users and stats",
		Long: `Show your organization. Its subcommands list every pad and question of the
organization, its users, and how many pads each user created.

The organization commands need an organization owner's API key (or an
organization that lets its users see all pads).`,
		Example: `  padctl org
  padctl org pads --all
  padctl org stats --start 2026-05-01 --end 2026-06-01`,
		Args: cmdutil.GroupArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.set(f, cmd)
			if runF != nil {
				return runF(o)
			}
			return orgRun(o)
		},
	}
	orgPads := cmdutil.NewCmdList(f, "pads", "List every pad of the organization", cmdutil.PadView, func(c *padapi.Client, _ []string) cmdutil.Lister[padapi.Pad] {
		return cmdutil.Paged(c.Organization.ListPads, c.Organization.AllPads).Under("pads")
	}, nil)
	orgPads.Example = `  padctl org pads
  padctl org pads --all --sort updated`
	orgQuestions := cmdutil.NewCmdList(f, "questions", "List every question of the organization", cmdutil.QuestionView, func(c *padapi.Client, _ []string) cmdutil.Lister[padapi.Question] {
		return cmdutil.Paged(c.Organization.ListQuestions, c.Organization.AllQuestions).Under("questions")
	}, nil)
	orgQuestions.Example = `  padctl org questions
  padctl org questions --all --json`
	cmd.AddCommand(NewCmdStats(f, nil), orgPads, orgQuestions, NewCmdUsers(f, nil))
	return cmd
}

// orgRun shows the organization.
func orgRun(o *Options) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if o.JSON {
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.Organization.Get(ctx); return err })
	}
	org, err := c.Organization.Get(o.Ctx)
	if err != nil {
		return err
	}
	return cmdutil.PrintOne(o.IO, false, orgView, org)
}

// UsersOptions are what org users runs with.
type UsersOptions struct {
	Options
	Email string
}

// NewCmdUsers returns org users. runF, when not nil, runs instead of
// usersRun.
func NewCmdUsers(f *cmdutil.Factory, runF func(*UsersOptions) error) *cobra.Command {
	o := &UsersOptions{}
	cmd := &cobra.Command{
		Use:   "users",
		Short: "List the organization's users, or with --email only that one",
		Example: `  padctl org users
  padctl org users --email ada@example.com`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.set(f, cmd)
			if runF != nil {
				return runF(o)
			}
			return usersRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Email, "email", "", "show only the user with this `EMAIL`")
	return cmd
}

// usersRun lists the users.
func usersRun(o *UsersOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	var resp padapi.Response
	users, err := c.Organization.ListUsers(padapi.WithResponse(o.Ctx, &resp), &padapi.OrganizationUserListOptions{Email: o.Email})
	if err != nil {
		return err
	}
	if o.JSON {
		// Not paged: the users of the one answer, as sent.
		raw, err := cmdutil.RawItems(resp.Body, "users")
		if err != nil {
			return err
		}
		return cmdutil.PrintRawList(o.IO, raw)
	}
	return cmdutil.PrintList(o.IO, false, userView, users)
}

// StatsOptions are what org stats runs with.
type StatsOptions struct {
	Options
	Start, End cmdutil.TimeFlag
}

// NewCmdStats returns org stats. The library checks the window (both ends
// or neither, end not before start). runF, when not nil, runs instead of
// statsRun.
func NewCmdStats(f *cmdutil.Factory, runF func(*StatsOptions) error) *cobra.Command {
	o := &StatsOptions{}
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count the pads each user created (default: the last 7 days)",
		Example: `  padctl org stats
  padctl org stats --start 2026-05-01 --end 2026-06-01`,
		Long: `Count the pads the organization created in a window of time, per user.

Give both --start and --end, or neither for the service's default window, the
last 7 days. On a terminal a line above the table gives the window and the
total; piped, the rows alone; --json gives everything.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.set(f, cmd)
			if runF != nil {
				return runF(o)
			}
			return statsRun(o)
		},
	}
	cmd.Flags().Var(&o.Start, "start", "the start of the window (RFC 3339, or a date: 2026-05-01)")
	cmd.Flags().Var(&o.End, "end", "the end of the window (RFC 3339, or a date: 2026-05-08)")
	return cmd
}

// statsRun counts the pads per user.
func statsRun(o *StatsOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	var resp padapi.Response
	st, err := c.Organization.Stats(padapi.WithResponse(o.Ctx, &resp), &padapi.StatsOptions{Start: o.Start.Time, End: o.End.Time})
	if err != nil {
		return err
	}
	if o.JSON {
		return cmdutil.PrintRaw(o.IO, resp.Body)
	}
	if o.IO.OutTTY {
		fmt.Fprintf(o.IO.Out, "%d pads created from %s to %s\n\n", st.PadsCreated, cmdutil.Format(st.StartTime, true), cmdutil.Format(st.EndTime, true))
	}
	return cmdutil.PrintList(o.IO, false, userStatsView, st.Users)
}
