// quota.go: Quota, its helpers, and GET /api/quota.

package padapi

import (
	"context"
	"net/http"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Quota is the monthly pad quota: the organization's when the API key's user
// belongs to one, else the user's own.
//
// A quota is a snapshot. Checking it before a create is advisory: another
// process can spend the last pad between the check and the create, so the
// create's ErrOverQuota is the real answer.
//
// A limited plan may come without PadsRemaining and MonthlyPadLimit (the
// live service sends such quotas): its limit is then unknown, which is
// neither zero nor an error. Remaining, Limit and CanCreate read a quota in
// every shape.
type Quota struct {
	// Status is the answer's status, "OK" in every quota the client
	// returns (any other status is an *APIError instead). It is kept so
	// that a Quota marshals back to the wire shape, as every model does.
	Status string `json:"status"`
	// TrialExpiresAt is when the trial ends or ended; nil when the plan has
	// no trial.
	TrialExpiresAt *time.Time `json:"trial_expires_at,omitempty"`
	// PadsUsed counts the pads created this billing cycle.
	PadsUsed int `json:"pads_used"`
	// QuotaResetAt is when the quota was last reset.
	QuotaResetAt time.Time `json:"quota_reset_at"`
	// Unlimited is true for an unmetered plan.
	Unlimited bool `json:"unlimited"`
	// PadsRemaining is the pads left this cycle; nil when Unlimited or
	// not sent.
	PadsRemaining *int `json:"pads_remaining,omitempty"`
	// MonthlyPadLimit is the pads allocated per cycle; nil when Unlimited
	// or not sent. The service's current documentation names it
	// billing_cycle_pad_limit: either name decodes into it.
	MonthlyPadLimit *int `json:"monthly_pad_limit,omitempty"`
	// OveragesEnabled reports whether pads past the limit are allowed (and
	// billed); nil, as in the documented shape, means off.
	OveragesEnabled *bool `json:"overages_enabled,omitempty"`
}

// Remaining returns the pads left this cycle. ok is false when the plan is
// unlimited or the quota does not say: when only the limit was sent,
// Remaining derives the rest from PadsUsed (never below 0).
func (q *Quota) Remaining() (n int, ok bool) {
	switch {
	case q.Unlimited:
		return 0, false
	case q.PadsRemaining != nil:
		return max(*q.PadsRemaining, 0), true
	case q.MonthlyPadLimit != nil:
		return max(*q.MonthlyPadLimit-q.PadsUsed, 0), true
	}
	return 0, false
}

// Limit returns the pads allocated per cycle. ok is false when the plan is
// unlimited or the quota does not say: when only the pads remaining were
// sent, Limit derives it from PadsUsed.
func (q *Quota) Limit() (n int, ok bool) {
	switch {
	case q.Unlimited:
		return 0, false
	case q.MonthlyPadLimit != nil:
		return *q.MonthlyPadLimit, true
	case q.PadsRemaining != nil:
		return q.PadsUsed + max(*q.PadsRemaining, 0), true
	}
	return 0, false
}

// CanCreate reports whether n more pads may be created. It is false only
// when the quota proves there is no room: a limited plan, overages off, and
// fewer than n pads known to remain. An unknown limit answers true, since
// the create's ErrOverQuota is the authority anyway. It is advisory; see
// Quota.
func (q *Quota) CanCreate(n int) bool {
	if q.OveragesEnabled != nil && *q.OveragesEnabled {
		return true
	}
	remaining, ok := q.Remaining()
	return !ok || remaining >= n
}

// UnmarshalJSON decodes the service's quota object. The limit comes as
// monthly_pad_limit (older documentation) or billing_cycle_pad_limit (the
// vendor's current name); the first is kept when both come.
func (q *Quota) UnmarshalJSON(b []byte) error { return unmarshal(b, q) }

// unmarshalQuota is Quota's decoder for json v2 (see decodeOptions).
func unmarshalQuota(dec *jsontext.Decoder, q *Quota) error {
	type plain Quota // Quota's fields without its methods
	var w struct {
		plain
		BillingCyclePadLimit *int `json:"billing_cycle_pad_limit"`
	}
	if err := json.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	*q = Quota(w.plain)
	if q.MonthlyPadLimit == nil {
		q.MonthlyPadLimit = w.BillingCyclePadLimit
	}
	return nil
}

// Get returns the current quota (GET /api/quota). See Quota for what the
// numbers mean and why checking them is advisory.
func (s *QuotaService) Get(ctx context.Context) (*Quota, error) {
	return get[Quota](ctx, s.client, &request{method: http.MethodGet, path: "/api/quota", what: "quota"})
}
