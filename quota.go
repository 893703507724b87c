package padapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Quota is the monthly pad quota: the organization's when the API key's user
// belongs to one, else the user's own.
//
// A quota is a snapshot. Checking it before a create is advisory: another
// process can spend the last pad between the check and the create, so the
// create's ErrOverQuota is the real answer.
type Quota struct {
	// Status is "OK" in every quota the client returns.
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
	// PadsRemaining is the pads left this cycle; nil when Unlimited.
	PadsRemaining *int `json:"pads_remaining,omitempty"`
	// MonthlyPadLimit is the pads allocated per cycle; nil when Unlimited.
	MonthlyPadLimit *int `json:"monthly_pad_limit,omitempty"`
}

// CanCreate reports whether n more pads fit in the quota: true when the plan
// is unlimited or at least n pads remain. It is advisory; see Quota.
func (q *Quota) CanCreate(n int) bool {
	remaining, unlimited := q.Remaining()
	return unlimited || remaining >= n
}

// Remaining returns the pads left this cycle, or unlimited true (and n 0)
// when the plan is unmetered. A limited quota without a count, which the
// service never sends but a hand-built stub may hold, has 0 left.
func (q *Quota) Remaining() (n int, unlimited bool) {
	switch {
	case q.Unlimited:
		return 0, true
	case q.PadsRemaining == nil:
		return 0, false
	}
	return *q.PadsRemaining, false
}

// UnmarshalJSON decodes the service's quota object, with its timestamp forms,
// and rejects a quota that breaks the rule that pads_remaining and
// monthly_pad_limit are present exactly when unlimited is false.
func (q *Quota) UnmarshalJSON(b []byte) error {
	var w quotaWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if err := w.check(); err != nil {
		return err
	}
	*q = w.quota()
	return nil
}

// quotaAlias has Quota's fields without its methods.
type quotaAlias Quota

// quotaWire is the response body: Quota with wire timestamps.
type quotaWire struct {
	quotaAlias
	Message        string     `json:"message"`
	TrialExpiresAt *timestamp `json:"trial_expires_at"`
	QuotaResetAt   timestamp  `json:"quota_reset_at"`
}

func (w *quotaWire) envelope() (status, message string) { return w.Status, w.Message }

func (w *quotaWire) check() error {
	if w.Unlimited && (w.PadsRemaining != nil || w.MonthlyPadLimit != nil) {
		return errors.New("unlimited quota with pads_remaining or monthly_pad_limit")
	}
	if !w.Unlimited && (w.PadsRemaining == nil || w.MonthlyPadLimit == nil) {
		return errors.New("limited quota without pads_remaining or monthly_pad_limit")
	}
	return nil
}

func (w *quotaWire) quota() Quota {
	q := Quota(w.quotaAlias)
	q.TrialExpiresAt = w.TrialExpiresAt.ptr()
	q.QuotaResetAt = w.QuotaResetAt.Time
	return q
}

// QuotaService reads the quota. Its one method makes it easy to stub:
// a caller can depend on interface{ Get(context.Context) (*padapi.Quota, error) }.
type QuotaService service

// Get returns the current quota (GET /api/quota). See Quota for what the
// numbers mean and why checking them is advisory.
func (s *QuotaService) Get(ctx context.Context) (*Quota, error) {
	return one(ctx, s.client, http.MethodGet, "/api/quota", nil, nil, (*quotaWire).quota)
}
