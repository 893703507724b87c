// Package advice is the module's one table from an error to what the
// person or program that got it can do about it. It reads the library's
// sentinels (and the network's errors) once, in the order a caller should
// hear about them; padctl and padmcp each phrase the answer for their own
// audience (a command to run, a tool to call), so the wording differs and
// the reading cannot.
package advice

import (
	"context"
	"errors"
	"net"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// Kind is what went wrong, as far as advice is concerned.
type Kind int

// The kinds, in the order Of tests for them: a create whose outcome is
// unknown is that first, whatever else is true of it.
const (
	None            Kind = iota // nothing to advise beyond the error itself
	OutcomeUnknown              // a create may or may not have happened
	OverQuota                   // the monthly pad quota is spent; nothing was created
	RateLimited                 // the service throttles requests
	ListLimit                   // a list walk reached the client's WithListLimit
	InvalidArgument             // the client refused the call before sending anything
	Unauthorized                // the service rejected the key
	Forbidden                   // the key may not see this (organization endpoints)
	NotFound                    // no such resource
	BadRequest                  // the service refused the arguments
	Timeout                     // no answer within the deadline
	Server                      // the service failed (5xx)
	DNS                         // the host name does not resolve
	Connect                     // the connection could not be made
	TLS                         // the TLS handshake failed
	Canceled                    // the caller cancelled the call (padctl: a signal)
)

// table is the one mapping from the library's sentinels to kinds, in
// order.
var table = []struct {
	err  error
	kind Kind
}{
	{padapi.ErrOutcomeUnknown, OutcomeUnknown},
	{padapi.ErrOverQuota, OverQuota},
	{padapi.ErrRateLimited, RateLimited},
	{padapi.ErrListLimit, ListLimit},
	{padapi.ErrInvalidArgument, InvalidArgument},
	{padapi.ErrUnauthorized, Unauthorized},
	{padapi.ErrForbidden, Forbidden},
	{padapi.ErrNotFound, NotFound},
	{padapi.ErrBadRequest, BadRequest},
	{context.DeadlineExceeded, Timeout},
	{padapi.ErrServer, Server},
	{context.Canceled, Canceled},
}

// Of is the kind of err (None for nil or an error with nothing to advise).
func Of(err error) Kind {
	if err == nil {
		return None
	}
	for _, row := range table {
		if errors.Is(err, row.err) {
			return row.kind
		}
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &dnsErr):
		return DNS
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return Connect
	// A certificate the client does not trust, or plain HTTP where TLS
	// was expected (the library's own test, which also stops its
	// retries), or the server's TLS alert ("remote error").
	case retrypolicy.HandshakeFailed(err), errors.As(err, &opErr) && opErr.Op == "remote error":
		return TLS
	}
	return None
}

// RetryAfter is how long the service asked to wait before the next try,
// or 0 when it did not say.
func RetryAfter(err error) time.Duration {
	var ae *padapi.APIError
	if errors.As(err, &ae) {
		return ae.RetryAfter
	}
	return 0
}
