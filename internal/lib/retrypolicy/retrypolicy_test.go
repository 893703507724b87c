package retrypolicy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]struct {
		wait time.Duration
		ok   bool
	}{
		"":                              {0, false},
		"3":                             {3 * time.Second, true},
		"0":                             {0, true},
		"-1":                            {0, false},
		"99999999999":                   {0, false},
		"31536000":                      {365 * 24 * time.Hour, true}, // a year: the longest read
		"31536001":                      {0, false},
		"soon":                          {0, false},
		"Mon, 01 Jan 2001 00:00:00 GMT": {0, true}, // in the past: now
	} {
		resp := &http.Response{Header: http.Header{}}
		if v != "" {
			resp.Header.Set("Retry-After", v)
		}
		if wait, ok := RetryAfter(resp); wait != want.wait || ok != want.ok {
			t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", v, wait, ok, want.wait, want.ok)
		}
	}
	resp := &http.Response{Header: http.Header{"Retry-After": {time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)}}}
	if wait, ok := RetryAfter(resp); !ok || wait < 58*time.Minute || wait > time.Hour {
		t.Errorf("RetryAfter(an hour from now) = %v, %v", wait, ok)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	lo, hi := 100*time.Millisecond, 2*time.Second
	for attempt := range 70 {
		d := Backoff(lo, hi, attempt, nil)
		if d < lo/2 || d > hi {
			t.Fatalf("Backoff(attempt %d) = %v, want within [%v, %v]", attempt, d, lo/2, hi)
		}
	}
	asks := func(v string) *http.Response { return &http.Response{Header: http.Header{"Retry-After": {v}}} }
	if d := Backoff(lo, hi, 0, asks("1")); d != time.Second {
		t.Errorf("Backoff with Retry-After: 1 = %v, want 1s", d)
	}
	if d := Backoff(lo, hi, 0, asks("0")); d != lo {
		t.Errorf("Backoff with Retry-After: 0 = %v, want the minimum %v", d, lo)
	}
	if d := Backoff(lo, hi, 0, asks("60")); d > hi {
		t.Errorf("Backoff with Retry-After: 60 = %v, over the cap %v", d, hi)
	}
	if d := Backoff(lo, hi, 0, asks("2")); d != hi {
		t.Errorf("Backoff with Retry-After: 2 = %v, want the cap %v itself", d, hi)
	}
	// Equal jitter: half of the ceiling, and up to all of it.
	for _, d := range []time.Duration{1, 2, 3} {
		seen := map[time.Duration]bool{}
		for range 200 {
			seen[Backoff(d, d, 0, nil)] = true
		}
		for w := range seen {
			if w < d/2 || w > d {
				t.Errorf("Backoff(%v, %v) = %v, want within [%v, %v]", d, d, w, d/2, d)
			}
		}
		if !seen[d] || !seen[d/2] {
			t.Errorf("Backoff(%v, %v) gave %v over 200 calls, want both ends %v and %v", d, d, seen, d/2, d)
		}
	}
}

// The ceiling of a backoff: the minimum doubled at each attempt, capped,
// exactly; 0 without a minimum.
//
// Equivalent mutant (make mutate): attempt < 63 made attempt <= 63 in
// ceiling. At attempt 63 with a minimum above 0, max>>63 is 0 for every
// duration, so min <= 0 is false either way and both return max (a
// minimum of 0 returns before).
func TestCeiling(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	for _, tc := range []struct {
		min, max time.Duration
		attempt  int
		want     time.Duration
	}{
		{100 * ms, 2000 * ms, 0, 100 * ms},
		{100 * ms, 2000 * ms, 1, 200 * ms},
		{100 * ms, 2000 * ms, 4, 1600 * ms},
		{100 * ms, 2000 * ms, 5, 2000 * ms},
		{100 * ms, 800*ms + 7, 3, 800 * ms}, // min<<3 below a cap with low bits
		{100 * ms, 2000 * ms, 62, 2000 * ms},
		{1, 1 << 62, 62, 1 << 62},
		{1, 1<<63 - 1, 63, 1<<63 - 1}, // no shift past 63
		{0, 2000 * ms, 0, 0},
		{0, 2000 * ms, 70, 0},
	} {
		if got := ceiling(tc.min, tc.max, tc.attempt); got != tc.want {
			t.Errorf("ceiling(%v, %v, %d) = %v, want %v", tc.min, tc.max, tc.attempt, got, tc.want)
		}
	}
}

func TestErrorClasses(t *testing.T) {
	t.Parallel()
	dial := fmt.Errorf("wrapped: %w", &net.OpError{Op: "dial", Err: errors.New("refused")})
	read := &net.OpError{Op: "read", Err: errors.New("reset")}
	notFound := &net.DNSError{Err: "no such host", IsNotFound: true}
	timeout := &net.DNSError{Err: "timeout", IsTimeout: true}
	if !NeverConnected(dial) || !NeverConnected(timeout) || NeverConnected(read) {
		t.Error("NeverConnected: want true for a dial or DNS error, false for a read")
	}
	if !HostNotFound(notFound) || HostNotFound(timeout) {
		t.Error("HostNotFound: want true only for a DNS not-found answer")
	}
	if !HandshakeFailed(http.ErrSchemeMismatch) || HandshakeFailed(read) {
		t.Error("HandshakeFailed: want true for a plain-HTTP answer to TLS, false for a read error")
	}
}
