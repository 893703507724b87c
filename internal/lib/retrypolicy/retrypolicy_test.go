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
