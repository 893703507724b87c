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
	return newTool(ts, spec[noArgs]{kind: read, plain: true, tool: &mcp.Tool{Name: "get_quota", Title: "Get the pad quota",
		Description: "The monthly pad quota: pads used, the limit and pads remaining (null when the plan is unlimited or the service does not say), " +
			"and whether a create may succeed. Advisory: create_pad's answer is the authority."}},
		func(ctx context.Context, _ noArgs) (*quotaResult, error) { return ts.quotaView(ctx) })
}

// quotaView is the quota as get_quota and pad://quota show it.
func (ts *toolset) quotaView(ctx context.Context) (*quotaResult, error) {
	q, err := ts.client(ctx).Quota.Get(ctx)
	if err != nil {
		return nil, err
	}
	limit, lok := q.Limit()
	rem, rok := q.Remaining()
	return &quotaResult{PadsUsed: q.PadsUsed, MonthlyPadLimit: known(limit, lok), PadsRemaining: known(rem, rok),
		Unlimited: q.Unlimited, OveragesEnabled: q.OveragesEnabled, QuotaResetAt: q.QuotaResetAt,
		TrialExpiresAt: q.TrialExpiresAt, CanCreateOne: q.CanCreate(1)}, nil
}

// known is v when ok, else nil (JSON null: the service did not say).
func known(v int, ok bool) *int {
	if !ok {
		return nil
	}
	return &v
}
