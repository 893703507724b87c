// org.go: padctl org: the organization, its users and stats.

package main

import (
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
)

// orgView prints an organization; its users are org users's.
var orgView = view[padapi.Organization]{
	noun: "organizations",
	cols: []column[padapi.Organization]{
		{"Name", func(o *padapi.Organization) any { return o.Name }},
		{"Users", func(o *padapi.Organization) any { return o.UserCount }},
		{"Default language", func(o *padapi.Organization) any { return o.DefaultLanguage }},
		{"Single sign-on", func(o *padapi.Organization) any { return o.SingleSignOnSupported }},
		{"ID", func(o *padapi.Organization) any { return o.ID }},
	},
	detail: []column[padapi.Organization]{
		{"Sign-in URL", func(o *padapi.Organization) any { return o.SingleSignInURL }},
	},
}

// userView prints the users of an organization.
var userView = view[padapi.OrganizationUser]{
	noun: "users",
	cols: []column[padapi.OrganizationUser]{
		{"Email", func(u *padapi.OrganizationUser) any { return u.Email }},
		{"Name", func(u *padapi.OrganizationUser) any { return u.Name }},
		{"Teams", func(u *padapi.OrganizationUser) any { return u.Teams }},
	},
}

// userStatsView prints the rows of org stats: pads created per user.
var userStatsView = view[padapi.UserStats]{
	noun: "users with pads",
	cols: []column[padapi.UserStats]{
		{"Email", func(u *padapi.UserStats) any { return u.Email }},
		{"Name", func(u *padapi.UserStats) any { return u.Name }},
		{"Pads", func(u *padapi.UserStats) any { return u.PadsCreated }},
	},
}

// newOrgCmd returns org, which shows the organization, and its
// subcommands.
func newOrgCmd(f *factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "org",
		Short: "Show your organization; its subcommands list its pads, questions, users and stats",
		Long: `Show your organization. Its subcommands list every pad and question of the
organization, its users, and how many pads each user created.

The organization commands need an organization owner's API key (or an
organization that lets its users see all pads).`,
		Args: groupArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if f.flags.json {
				return getRaw(cmd.Context(), f, c, "/api/organization", nil)
			}
			o, err := c.Organization.Get(cmd.Context())
			if err != nil {
				return err
			}
			return printOne(f, orgView, o)
		},
	}
	cmd.AddCommand(
		newOrgStatsCmd(f),
		newListCmd(f, "pads", "List every pad of the organization", padView, func(c *padapi.Client, _ []string) lister[padapi.Pad] {
			return paged(c.Organization.ListPads, c.Organization.AllPads).at("/api/organization/pads", "pads")
		}),
		newListCmd(f, "questions", "List every question of the organization", questionView, func(c *padapi.Client, _ []string) lister[padapi.Question] {
			return paged(c.Organization.ListQuestions, c.Organization.AllQuestions).at("/api/organization/questions", "questions")
		}),
		newOrgUsersCmd(f),
	)
	return cmd
}

// newOrgUsersCmd returns org users.
func newOrgUsersCmd(f *factory) *cobra.Command {
	var email string
	cmd := &cobra.Command{
		Use:   "users",
		Short: "List the organization's users, or with --email only that one",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if f.flags.json {
				// Not paged: the users of the one answer, as sent.
				q := url.Values{}
				if email != "" {
					q.Set("email", email)
				}
				_, users, err := rawPage(cmd.Context(), c, "/api/organization/users", "users", q)
				if err != nil {
					return err
				}
				return printRawList(f, users)
			}
			users, err := c.Organization.ListUsers(cmd.Context(), &padapi.OrganizationUserListOptions{Email: email})
			if err != nil {
				return err
			}
			return printList(f, userView, users)
		},
	}
	cmd.Flags().StringVar(&email, "email", "", "show only the user with this `EMAIL`")
	return cmd
}

// newOrgStatsCmd returns org stats. The library checks the window (both
// ends or neither, end not before start).
func newOrgStatsCmd(f *factory) *cobra.Command {
	var start, end timeFlag
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "Count the pads each user created (default: the last 7 days)",
		Long: `Count the pads the organization created in a window of time, per user.

Give both --start and --end, or neither for the service's default window, the
last 7 days. On a terminal a line above the table gives the window and the
total; piped, the rows alone; --json gives everything.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if f.flags.json {
				q, err := statsQuery(start.Time, end.Time)
				if err != nil {
					return err
				}
				return getRaw(cmd.Context(), f, c, "/api/organization/stats", q)
			}
			st, err := c.Organization.Stats(cmd.Context(), &padapi.StatsOptions{Start: start.Time, End: end.Time})
			if err != nil {
				return err
			}
			if f.outTTY {
				fmt.Fprintf(f.out, "%d pads created from %s to %s\n\n", st.PadsCreated, format(st.StartTime, true), format(st.EndTime, true))
			}
			return printList(f, userStatsView, st.Users)
		},
	}
	cmd.Flags().Var(&start, "start", "the start of the window (RFC 3339, or a date: 2026-05-01)")
	cmd.Flags().Var(&end, "end", "the end of the window (RFC 3339, or a date: 2026-05-08)")
	return cmd
}

// statsQuery is the stats window's query, as padapi sends it; a window
// with one end, or ending before it starts, is a usage error.
func statsQuery(start, end time.Time) (url.Values, error) {
	switch {
	case start.IsZero() && end.IsZero():
		return nil, nil
	case start.IsZero() || end.IsZero():
		return nil, usageErrorf("give both --start and --end, or neither")
	case end.Before(start):
		return nil, usageErrorf("--end is before --start")
	}
	return url.Values{"start_time": {start.Format(time.RFC3339Nano)}, "end_time": {end.Format(time.RFC3339Nano)}}, nil
}

// timeFlag is a time given in RFC 3339, or a date (midnight UTC).
type timeFlag struct{ time.Time }

// Type, String and Set make timeFlag a pflag.Value.
func (t *timeFlag) Type() string { return "time" }

func (t *timeFlag) String() string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func (t *timeFlag) Set(v string) error {
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if p, err := time.Parse(layout, v); err == nil {
			t.Time = p
			return nil
		}
	}
	return errors.New("want an RFC 3339 time such as 2026-05-01T09:00:00Z, or a date such as 2026-05-01")
}
