// quota.go: padctl quota.

package main

import (
	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
)

// quotaView shows the quota through the library's helpers, so that a live
// quota without counts shows an unknown limit rather than zero.
var quotaView = view[padapi.Quota]{
	noun: "quotas",
	cols: []column[padapi.Quota]{
		{"Used", func(q *padapi.Quota) any { return q.PadsUsed }},
		{"Limit", func(q *padapi.Quota) any { return known(q.Limit()) }},
		{"Remaining", func(q *padapi.Quota) any { return known(q.Remaining()) }},
		{"Unlimited", func(q *padapi.Quota) any { return q.Unlimited }},
		{"Overages", func(q *padapi.Quota) any { return q.OveragesEnabled }},
		{"Last reset", func(q *padapi.Quota) any { return q.QuotaResetAt }},
		{"Trial expires", func(q *padapi.Quota) any { return q.TrialExpiresAt }},
	},
}

// known returns &n when ok, else nil (printed empty).
func known(n int, ok bool) *int {
	if !ok {
		return nil
	}
	return &n
}

// newQuotaCmd returns quota.
func newQuotaCmd(f *factory) *cobra.Command {
	return &cobra.Command{
		Use:   "quota",
		Short: "Show the monthly pad quota",
		Long: `Show the monthly pad quota: the organization's when you belong to one.

Limit and Remaining are empty when the plan is unlimited or the service does
not say (a limited plan may come without them).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if f.flags.json {
				return getRaw(cmd.Context(), f, c, "/api/quota", nil)
			}
			q, err := c.Quota.Get(cmd.Context())
			if err != nil {
				return err
			}
			return printOne(f, quotaView, q)
		},
	}
}
