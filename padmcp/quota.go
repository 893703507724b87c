// quota.go: the quota tool.

package padmcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// noArgs are the arguments of a tool that takes none.
type noArgs struct{}

// getQuota is get_quota: the monthly pad quota.
func getQuota(ts *toolset) serverTool {
	return newTool(ts, spec[noArgs]{kind: read, out: []string{"pads_used", "monthly_pad_limit", "pads_remaining", "unlimited", "overages_enabled", "quota_reset_at", "trial_expires_at", "can_create_one"}, plain: true, tool: &mcp.Tool{Name: "get_quota", Title: "Get the pad quota",
		Description: "The monthly pad quota: pads used, the limit and pads remaining (null when the plan is unlimited or the service does not say), " +
			"and whether a create may succeed. Advisory: create_pad's answer is the authority."}},
		func(ctx context.Context, _ noArgs) (any, error) { return ts.quotaView(ctx) })
}

// quotaView is the quota as get_quota and pad://quota show it.
func (ts *toolset) quotaView(ctx context.Context) (map[string]any, error) {
	q, err := ts.client(ctx).Quota.Get(ctx)
	if err != nil {
		return nil, err
	}
	limit, lok := q.Limit()
	rem, rok := q.Remaining()
	return map[string]any{
		"pads_used": q.PadsUsed, "monthly_pad_limit": known(limit, lok), "pads_remaining": known(rem, rok),
		"unlimited": q.Unlimited, "overages_enabled": q.OveragesEnabled, "quota_reset_at": q.QuotaResetAt,
		"trial_expires_at": q.TrialExpiresAt, "can_create_one": q.CanCreate(1),
	}, nil
}

// known is v when ok, else nil (JSON null: the service did not say).
func known(v int, ok bool) any {
	if !ok {
		return nil
	}
	return v
}
