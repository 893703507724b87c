// quota_test.go: tests of Quota: decoding, its helpers, GET /api/quota.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

func TestQuotaDecode(t *testing.T) {
	t.Parallel()
	mst := time.FixedZone("", -7*3600)
	pst := time.FixedZone("", -8*3600)
	ist := time.FixedZone("", 5*3600+30*60)
	minus3 := time.FixedZone("", -3*3600)

	tests := []struct {
		file string
		want *padapi.Quota
		// wantErr lists what the error text must hold; nil means success.
		wantErr []string
	}{
		{file: "quota_limited.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2018, 1, 30, 16, 16, 0, 0, mst)),
			PadsUsed:        33,
			QuotaResetAt:    time.Date(2018, 1, 25, 14, 51, 37, 84e6, mst),
			PadsRemaining:   padapi.Ptr(87),
			MonthlyPadLimit: padapi.Ptr(120),
		}},
		{file: "quota_unlimited.json", want: &padapi.Quota{
			Status:         "OK",
			TrialExpiresAt: padapi.Ptr(time.Date(2019, 3, 1, 0, 0, 0, 0, time.UTC)),
			PadsUsed:       1204,
			QuotaResetAt:   time.Date(2019, 2, 1, 0, 0, 0, 0, time.UTC),
			Unlimited:      true,
		}},
		{file: "quota_offset_colon.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2024, 3, 15, 9, 30, 0, 0, ist)),
			QuotaResetAt:    time.Date(2024, 3, 1, 5, 30, 0, 0, ist),
			PadsRemaining:   padapi.Ptr(10),
			MonthlyPadLimit: padapi.Ptr(10),
		}},
		{file: "quota_offset_no_colon.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2024, 3, 15, 9, 30, 0, 0, time.UTC)),
			PadsUsed:        5,
			QuotaResetAt:    time.Date(2024, 3, 1, 12, 0, 0, 0, pst),
			PadsRemaining:   padapi.Ptr(45),
			MonthlyPadLimit: padapi.Ptr(50),
		}},
		{file: "quota_offset_hours.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2024, 3, 15, 9, 30, 0, 0, time.UTC)),
			PadsUsed:        5,
			QuotaResetAt:    time.Date(2024, 3, 1, 12, 0, 0, 0, minus3),
			PadsRemaining:   padapi.Ptr(45),
			MonthlyPadLimit: padapi.Ptr(50),
		}},
		{file: "quota_fractions.json", want: &padapi.Quota{
			Status:         "OK",
			TrialExpiresAt: padapi.Ptr(time.Date(2024, 3, 15, 9, 30, 0, 5e8, time.UTC)),
			PadsUsed:       120,
			// Digits past nanoseconds are dropped, as time.Parse does.
			QuotaResetAt:    time.Date(2024, 3, 1, 12, 0, 0, 123456789, mst),
			PadsRemaining:   padapi.Ptr(0),
			MonthlyPadLimit: padapi.Ptr(120),
		}},
		{file: "quota_microseconds.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2024, 3, 15, 9, 30, 0, 123456000, ist)),
			PadsUsed:        7,
			QuotaResetAt:    time.Date(2024, 3, 1, 12, 0, 0, 1000, time.UTC),
			PadsRemaining:   padapi.Ptr(3),
			MonthlyPadLimit: padapi.Ptr(10),
		}},
		{file: "quota_trial_null.json", want: &padapi.Quota{
			Status:          "OK",
			PadsUsed:        33,
			QuotaResetAt:    time.Date(2018, 1, 25, 14, 51, 37, 84e6, time.UTC),
			PadsRemaining:   padapi.Ptr(87),
			MonthlyPadLimit: padapi.Ptr(120),
		}},
		{file: "quota_trial_absent.json", want: &padapi.Quota{
			Status:       "OK",
			PadsUsed:     33,
			QuotaResetAt: time.Date(2018, 1, 25, 14, 51, 37, 84e6, time.UTC),
			Unlimited:    true,
		}},
		{file: "quota_unknown_fields.json", want: &padapi.Quota{
			Status:          "OK",
			TrialExpiresAt:  padapi.Ptr(time.Date(2018, 1, 30, 16, 16, 0, 0, pst)),
			PadsUsed:        33,
			QuotaResetAt:    time.Date(2018, 1, 25, 14, 51, 37, 84e6, pst),
			PadsRemaining:   padapi.Ptr(87),
			MonthlyPadLimit: padapi.Ptr(120),
			OveragesEnabled: padapi.Ptr(true),
		}},
		// An unlimited quota that carries counts keeps them as sent.
		{file: "quota_unlimited_with_limits.json", want: &padapi.Quota{
			Status: "OK", PadsUsed: 33, QuotaResetAt: time.Date(2018, 1, 25, 14, 51, 37, 0, time.UTC), Unlimited: true,
			PadsRemaining: padapi.Ptr(87), MonthlyPadLimit: padapi.Ptr(120),
		}},
		// The live service's limited plan: no counts, an unknown limit.
		{file: "quota_limited_without_limits.json", want: &padapi.Quota{
			Status: "OK", PadsUsed: 33, QuotaResetAt: time.Date(2018, 1, 25, 14, 51, 37, 0, time.UTC),
		}},
		{file: "quota_limited_partial.json", want: &padapi.Quota{
			Status: "OK", PadsUsed: 33, QuotaResetAt: time.Date(2018, 1, 25, 14, 51, 37, 0, time.UTC),
			PadsRemaining: padapi.Ptr(87),
		}},
		{file: "quota_bad_timestamp.json", wantErr: []string{"quota_reset_at", "2018-01-25 at lunchtime"}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimSuffix(tt.file, ".json"), func(t *testing.T) {
			body := fixture(t, tt.file)

			var unmarshalled padapi.Quota
			uerr := padapi.UnmarshalForTest(body, &unmarshalled)
			c, mux := setup(t)
			handle(mux, "GET /gw/api/quota", http.StatusOK, body)
			got, gerr := c.Quota.Get(context.Background())

			if tt.wantErr != nil {
				if uerr == nil {
					t.Errorf("json.Unmarshal: no error, want one holding %q", tt.wantErr)
				} else {
					checkErrorText(t, "json.Unmarshal", uerr, tt.wantErr)
				}
				if gerr == nil {
					t.Fatalf("Quota.Get: no error, want one holding %q; got %+v", tt.wantErr, got)
				}
				checkErrorText(t, "Quota.Get", gerr, tt.wantErr)
				var apiErr *padapi.APIError
				if !errors.As(gerr, &apiErr) || apiErr.StatusCode != http.StatusOK || apiErr.Path != "/api/quota" {
					t.Errorf("Quota.Get error = %#v, want an *APIError for the 200 GET /api/quota", gerr)
				}
				return
			}

			if uerr != nil {
				t.Fatalf("json.Unmarshal: %v", uerr)
			}
			if gerr != nil {
				t.Fatalf("Quota.Get: %v", gerr)
			}
			if diff := cmp.Diff(tt.want, &unmarshalled); diff != "" {
				t.Errorf("json.Unmarshal mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Quota.Get mismatch (-want +got):\n%s", diff)
			}
			// cmp compares times with Equal, which ignores the zone: the
			// offset the service wrote must be kept as well.
			checkOffset(t, "QuotaResetAt", tt.want.QuotaResetAt, got.QuotaResetAt)
			if tt.want.TrialExpiresAt != nil {
				checkOffset(t, "TrialExpiresAt", *tt.want.TrialExpiresAt, *got.TrialExpiresAt)
			}
			if !got.Unlimited && got.PadsRemaining != nil && got.MonthlyPadLimit != nil && *got.PadsRemaining != *got.MonthlyPadLimit-got.PadsUsed {
				t.Errorf("pads_remaining %d, want monthly_pad_limit - pads_used = %d", *got.PadsRemaining, *got.MonthlyPadLimit-got.PadsUsed)
			}

			// Marshalling gives the wire shape back, so a cached quota
			// decodes to the same value.
			out, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var again padapi.Quota
			if err := padapi.UnmarshalForTest(out, &again); err != nil {
				t.Fatalf("decoding the marshalled quota %s: %v", out, err)
			}
			if diff := cmp.Diff(got, &again); diff != "" {
				t.Errorf("marshal round trip mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func checkErrorText(t *testing.T, what string, err error, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s error %q does not hold %q", what, err, w)
		}
	}
}

func checkOffset(t *testing.T, field string, want, got time.Time) {
	t.Helper()
	_, wantOff := want.Zone()
	_, gotOff := got.Zone()
	if wantOff != gotOff {
		t.Errorf("%s offset = %ds, want %ds", field, gotOff, wantOff)
	}
}

func TestQuotaMarshalOmitsLimitsWhenUnlimited(t *testing.T) {
	t.Parallel()
	q := padapi.Quota{Status: "OK", Unlimited: true, QuotaResetAt: time.Date(2019, 2, 1, 0, 0, 0, 0, time.UTC)}
	out, err := json.Marshal(q)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := padapi.UnmarshalForTest(out, &fields); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pads_remaining", "monthly_pad_limit", "trial_expires_at"} {
		if _, ok := fields[name]; ok {
			t.Errorf("marshalled unlimited quota %s has %q", out, name)
		}
	}
	if fields["quota_reset_at"] != "2019-02-01T00:00:00Z" || fields["unlimited"] != true {
		t.Errorf("marshalled quota %s lost quota_reset_at or unlimited", out)
	}
}

func TestQuotaHelpers(t *testing.T) {
	t.Parallel()
	type count struct {
		N  int
		OK bool
	}
	tests := []struct {
		name      string
		q         padapi.Quota
		remaining count
		limit     count
		can       map[int]bool // CanCreate(n) for each n
	}{
		{"room for more", padapi.Quota{PadsUsed: 33, PadsRemaining: padapi.Ptr(87), MonthlyPadLimit: padapi.Ptr(120)},
			count{87, true}, count{120, true}, map[int]bool{0: true, 1: true, 87: true, 88: false}},
		{"spent", padapi.Quota{PadsUsed: 120, PadsRemaining: padapi.Ptr(0), MonthlyPadLimit: padapi.Ptr(120)},
			count{0, true}, count{120, true}, map[int]bool{0: true, 1: false}},
		{"spent, overages on", padapi.Quota{PadsUsed: 120, PadsRemaining: padapi.Ptr(0), MonthlyPadLimit: padapi.Ptr(120), OveragesEnabled: padapi.Ptr(true)},
			count{0, true}, count{120, true}, map[int]bool{1: true, 1000: true}},
		{"spent, overages off", padapi.Quota{PadsUsed: 120, PadsRemaining: padapi.Ptr(0), MonthlyPadLimit: padapi.Ptr(120), OveragesEnabled: padapi.Ptr(false)},
			count{0, true}, count{120, true}, map[int]bool{1: false}},
		{"unknown limit (live shape)", padapi.Quota{PadsUsed: 33},
			count{0, false}, count{0, false}, map[int]bool{1: true, 1_000_000: true}},
		{"only remaining sent", padapi.Quota{PadsUsed: 33, PadsRemaining: padapi.Ptr(7)},
			count{7, true}, count{40, true}, map[int]bool{7: true, 8: false}},
		{"only limit sent", padapi.Quota{PadsUsed: 33, MonthlyPadLimit: padapi.Ptr(40)},
			count{7, true}, count{40, true}, map[int]bool{7: true, 8: false}},
		{"used above the limit", padapi.Quota{PadsUsed: 50, MonthlyPadLimit: padapi.Ptr(40)},
			count{0, true}, count{40, true}, map[int]bool{0: true, 1: false}},
		{"negative remaining sent", padapi.Quota{PadsUsed: 50, PadsRemaining: padapi.Ptr(-10), MonthlyPadLimit: padapi.Ptr(40)},
			count{0, true}, count{40, true}, map[int]bool{1: false}},
		{"unlimited", padapi.Quota{Unlimited: true},
			count{0, false}, count{0, false}, map[int]bool{1_000_000: true}},
		{"unlimited with counts", padapi.Quota{Unlimited: true, PadsRemaining: padapi.Ptr(0), MonthlyPadLimit: padapi.Ptr(10)},
			count{0, false}, count{0, false}, map[int]bool{1: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got count
			if got.N, got.OK = tt.q.Remaining(); got != tt.remaining {
				t.Errorf("Remaining() = %+v, want %+v", got, tt.remaining)
			}
			if got.N, got.OK = tt.q.Limit(); got != tt.limit {
				t.Errorf("Limit() = %+v, want %+v", got, tt.limit)
			}
			for n, want := range tt.can {
				if got := tt.q.CanCreate(n); got != want {
					t.Errorf("CanCreate(%d) = %v, want %v", n, got, want)
				}
			}
		})
	}
}

// TestQuotaFromServer checks that a decoded fixture drives the helpers the
// way the quota flow uses them: check, then create.
func TestQuotaFromServer(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	handle(mux, "GET /gw/api/quota", http.StatusOK, fixture(t, "quota_fractions.json"))
	q, err := c.Quota.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if q.CanCreate(1) {
		t.Errorf("CanCreate(1) on a spent quota = true")
	}
	if n, ok := q.Remaining(); n != 0 || !ok {
		t.Errorf("Remaining() = %d, %v, want 0, true", n, ok)
	}
}

// The vendor's current documentation names the limit
// billing_cycle_pad_limit: it is the limit when monthly_pad_limit is
// absent, and the helpers use it.
func TestQuotaBillingCyclePadLimit(t *testing.T) {
	t.Parallel()
	for body, want := range map[string]int{
		`{"status":"OK","pads_used":30,"quota_reset_at":"2024-03-01T00:00:00Z","unlimited":false,"billing_cycle_pad_limit":40}`:                        40,
		`{"status":"OK","pads_used":30,"quota_reset_at":"2024-03-01T00:00:00Z","unlimited":false,"monthly_pad_limit":50,"billing_cycle_pad_limit":40}`: 50,
	} {
		c, mux := setup(t, noRetry)
		handle(mux, "GET /gw/api/quota", http.StatusOK, []byte(body))
		q, err := c.Quota.Get(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		limit, ok := q.Limit()
		remaining, _ := q.Remaining()
		if !ok || limit != want || remaining != want-30 || q.CanCreate(want-29) {
			t.Errorf("%s: Limit %d %v, Remaining %d, CanCreate(%d) %v; want %d, %d, false", body, limit, ok, remaining, want-29, q.CanCreate(want-29), want, want-30)
		}
	}
}

// FuzzQuota decodes a quota with encoding/json and through the pipeline:
// neither panics, both agree (but for a body with no quota in it, which
// only the pipeline refuses), the helpers keep their rules on what
// decodes, and a decoded quota survives a trip through its own JSON.
func FuzzQuota(f *testing.F) {
	addFiles(f, "quota_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var direct padapi.Quota
		directErr := padapi.UnmarshalForTest(body, &direct)
		got, err := c.Quota.Get(answering(http.StatusOK, body))
		checkError(t, err, body)
		if err == nil {
			agree(t, body, got, &direct, directErr)
		} else if directErr == nil && direct.Status == "OK" && !strings.Contains(err.Error(), "the answer has no") {
			t.Fatalf("json.Unmarshal decodes %q with status OK, the pipeline fails: %v", body, err)
		}
		if directErr != nil {
			return
		}
		checkQuotaHelpers(t, &direct)
		roundTrips(t, body, &direct, new(padapi.Quota))
	})
}

// checkQuotaHelpers checks the rules of Quota's helpers on any quota.
func checkQuotaHelpers(t *testing.T, q *padapi.Quota) {
	t.Helper()
	remaining, rok := q.Remaining()
	limit, lok := q.Limit()
	switch {
	case q.Unlimited && (rok || lok):
		t.Fatalf("%+v: unlimited, but Remaining ok %v, Limit ok %v", q, rok, lok)
	case remaining < 0 || (!rok && remaining != 0):
		t.Fatalf("%+v: Remaining() = %d, %v", q, remaining, rok)
	case !lok && limit != 0:
		t.Fatalf("%+v: Limit() = %d, %v", q, limit, lok)
	case !q.CanCreate(0):
		t.Fatalf("%+v: CanCreate(0) is false", q)
	case !rok && !q.CanCreate(1_000_000):
		t.Fatalf("%+v: an unknown or unlimited quota refuses a create", q)
	case rok && !q.CanCreate(remaining):
		t.Fatalf("%+v: CanCreate(Remaining()) is false", q)
	}
}
