// Package quota is padctl quota.
package quota

import (
	"context"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// view shows the quota through the library's helpers, so that a live
// quota without counts shows an unknown limit rather than zero.
var view = cmdutil.View[padapi.Quota]{
	Noun: "quotas",
	Cols: []cmdutil.Column[padapi.Quota]{
		{Name: "Used", Value: func(q *padapi.Quota) any { return q.PadsUsed }},
		{Name: "Limit", Value: func(q *padapi.Quota) any { return count(q, q.Limit) }},
		{Name: "Remaining", Value: func(q *padapi.Quota) any { return count(q, q.Remaining) }},
		{Name: "Unlimited", Value: func(q *padapi.Quota) any { return q.Unlimited }},
		{Name: "Overages", Value: func(q *padapi.Quota) any { return q.OveragesEnabled }},
		{Name: "Last reset", Value: func(q *padapi.Quota) any { return q.QuotaResetAt }},
		{Name: "Trial expires", Value: func(q *padapi.Quota) any { return q.TrialExpiresAt }},
	},
}

// count is a number of the quota's helpers (Limit, Remaining) when it is
// known; else, on a terminal, why not: the plan is unlimited, or the
// service did not report it (empty when piped).
func count(q *padapi.Quota, n func() (int, bool)) any {
	v, ok := n()
	switch {
	case ok:
		return v
	case q.Unlimited:
		return cmdutil.Unknown("unlimited")
	}
	return cmdutil.Unknown("not reported")
}

// QuotaOptions are what padctl quota runs with.
type QuotaOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
}

// NewCmdQuota returns quota. runF, when not nil, runs instead of quotaRun.
func NewCmdQuota(f *cmdutil.Factory, runF func(*QuotaOptions) error) *cobra.Command {
	o := &QuotaOptions{IO: f.IOStreams, Client: f.Client}
	return &cobra.Command{
		Use:   "quota",
		Short: "Show the monthly pad quota",
		Long: `Show the monthly pad quota: the organization's when you belong to one.

On a terminal, Limit and Remaining say "unlimited" or "not reported" when
the service gives no number (a limited plan may come without them); piped,
they are empty. Piped, the columns are, in order: Used, Limit, Remaining,
Unlimited, Overages, Last reset, Trial expires.`,
		Example: `  padctl quota
  padctl quota | cut -f3                    # the pads remaining
  padctl quota --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Ctx, o.JSON = cmd.Context(), f.Flags.JSON
			if runF != nil {
				return runF(o)
			}
			return quotaRun(o)
		},
	}
}

// quotaRun shows the quota.
func quotaRun(o *QuotaOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if o.JSON {
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err })
	}
	q, err := c.Quota.Get(o.Ctx)
	if err != nil {
		return err
	}
	return cmdutil.PrintOne(o.IO, false, view, q)
}
