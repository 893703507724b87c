// Package retrypolicy holds what padapi's pipeline decides retries with:
// the Retry-After header, capped jittered backoff (go-retryablehttp's
// Backoff), and which transport errors a retry cannot fix or came before
// any connection.
package retrypolicy

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"
)

// RetryAfter reads a Retry-After header in seconds or as an HTTP date. ok is
// false when it is absent or unreadable; a date in the past, like 0, means
// now (0, true).
func RetryAfter(resp *http.Response) (wait time.Duration, ok bool) {
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(365*24*time.Hour/time.Second) {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0), true
	}
	return 0, false
}

// NeverConnected reports whether a transport error happened before a
// connection existed, so the request certainly did not reach the service.
func NeverConnected(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// HandshakeFailed reports whether err is a TLS handshake that failed for a
// reason a retry cannot change: a certificate the client does not trust, or
// a server that answered the TLS hello with plain HTTP.
func HandshakeFailed(err error) bool {
	var (
		verify    *tls.CertificateVerificationError
		record    tls.RecordHeaderError
		authority x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
	)
	return errors.Is(err, http.ErrSchemeMismatch) || errors.As(err, &verify) || errors.As(err, &record) ||
		errors.As(err, &authority) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

// HostNotFound reports whether err is a DNS answer that the host does not
// exist: final, unlike a DNS timeout or a temporary failure.
func HostNotFound(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsNotFound
}

// Backoff is capped, jittered exponential backoff. A Retry-After that fits
// under the cap is honoured (Retry-After: 0 waits at most the minimum);
// nothing ever waits longer than the cap.
func Backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait, ok := RetryAfter(resp); ok && wait <= max {
			if wait == 0 {
				return min // "now": wait no longer than the backoff's minimum
			}
			return wait
		}
	}
	// Equal jitter: half fixed, half random, so clients that failed together
	// do not come back together.
	d := ceiling(min, max, attempt)
	half := d / 2
	return half + rand.N(d-half+1)
}

// ceiling is the longest wait before retry attempt+1: min doubled attempt
// times, capped at max, without overflow; 0 when min is 0, however many
// the attempts.
func ceiling(min, max time.Duration, attempt int) time.Duration {
	// Ifs, not a switch: go's coverage counts no case expression, and
	// gremlins leaves what it cannot see covered untested.
	if min == 0 {
		return 0
	}
	if attempt < 63 && min <= max>>attempt { // so min<<attempt <= max
		return min << attempt
	}
	return max
}
