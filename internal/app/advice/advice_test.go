package advice

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

func TestOf(t *testing.T) {
	create429 := &padapi.APIError{StatusCode: http.StatusTooManyRequests, Method: http.MethodPost, Path: "/api/pads", RetryAfter: 3 * time.Second}
	for _, tt := range []struct {
		name string
		err  error
		want Kind
	}{
		{"nil", nil, None},
		{"plain", errors.New("boom"), None},
		// Outcome-unknown comes first: a create cut by its deadline is
		// both, and the user must hear that it may exist.
		{"unknown and deadline", fmt.Errorf("%w: %w", padapi.ErrOutcomeUnknown, context.DeadlineExceeded), OutcomeUnknown},
		{"over quota", padapi.ErrOverQuota, OverQuota},
		{"rate limited", padapi.ErrRateLimited, RateLimited},
		{"list limit", fmt.Errorf("x: %w", padapi.ErrListLimit), ListLimit},
		{"invalid", padapi.ErrInvalidArgument, InvalidArgument},
		{"unauthorized", padapi.ErrUnauthorized, Unauthorized},
		{"forbidden", padapi.ErrForbidden, Forbidden},
		{"not found", padapi.ErrNotFound, NotFound},
		{"bad request", padapi.ErrBadRequest, BadRequest},
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), Timeout},
		{"server", padapi.ErrServer, Server},
		{"dns", &net.DNSError{Err: "no such host", Name: "x.invalid"}, DNS},
		{"dial", &net.OpError{Op: "dial", Err: errors.New("connection refused")}, Connect},
		{"read", &net.OpError{Op: "read", Err: errors.New("reset")}, None},
		{"tls", fmt.Errorf("x: %w", x509.UnknownAuthorityError{}), TLS},
		{"tls alert", &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}, TLS},
		{"plain http to https", fmt.Errorf("x: %w", http.ErrSchemeMismatch), TLS},
		// Text alone is no evidence: an error that only says tls is none.
		{"tls in text", errors.New("pad title: tls: certificate"), None},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), Canceled},
		{"unknown and canceled", fmt.Errorf("%w: %w", padapi.ErrOutcomeUnknown, context.Canceled), OutcomeUnknown},
		{"api 429", create429, RateLimited},
	} {
		if got := Of(tt.err); got != tt.want {
			t.Errorf("%s: Of(%v) = %d, want %d", tt.name, tt.err, got, tt.want)
		}
	}
	if got := RetryAfter(fmt.Errorf("x: %w", create429)); got != 3*time.Second {
		t.Errorf("RetryAfter = %v, want 3s", got)
	}
	if got := RetryAfter(errors.New("x")); got != 0 {
		t.Errorf("RetryAfter of a plain error = %v, want 0", got)
	}
}
