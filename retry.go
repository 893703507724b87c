package padapi

import (
	"context"
	"crypto/tls"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"time"
)

// call is the state of one API call across its attempts. go-retryablehttp's
// CheckRetry sees the context but not the request, so the pipeline puts the
// call in the request's context.
type call struct {
	method, path string
	attempts     int
	lastErr      error  // the transport error of the last attempt
	body         []byte // the success body, read by the response handler
	bodyErr      error  // ErrResponseTooLarge, when it was
}

type callKey struct{}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		c = &call{}
	}
	return c
}

// checkRetry decides after every attempt whether to try again.
//
// GET, PUT and DELETE are idempotent: they are retried on transport errors and
// on 500, 502, 503 and 504. A 429 is retried only when its Retry-After fits
// under the wait cap. A POST is retried only when its connection was never
// made: after that the service may have acted on it.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := callFrom(ctx)
	st.lastErr = err
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	idempotent := st.method != http.MethodPost
	if err != nil {
		var certErr *tls.CertificateVerificationError
		if errors.As(err, &certErr) {
			return false, nil
		}
		return idempotent || neverConnected(err), nil
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return idempotent, nil
	case http.StatusTooManyRequests:
		wait := retryAfter(resp)
		return idempotent && wait > 0 && wait <= c.cfg.waitMax, nil
	}
	return false, nil
}

// neverConnected reports whether a transport error happened before a
// connection existed, so the request certainly did not reach the service.
func neverConnected(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// backoff is capped, jittered exponential backoff. A Retry-After that fits
// under the cap is honoured; nothing ever waits longer than the cap.
func (c *Client) backoff(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait := retryAfter(resp); wait > 0 && wait <= max {
			return wait
		}
	}
	d := max
	if attempt < 63 && min <= max>>attempt { // so min<<attempt <= max, without overflow
		d = min << attempt
	}
	// Equal jitter: half fixed, half random, so clients that failed together
	// do not come back together.
	half := d / 2
	return half + rand.N(d-half+1)
}

// retryAfter reads a Retry-After header in seconds or as an HTTP date; 0 when
// absent, unreadable or in the past.
func retryAfter(resp *http.Response) time.Duration {
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s <= 0 || s > int64(365*24*time.Hour/time.Second) {
			return 0
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
