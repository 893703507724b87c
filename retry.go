// retry.go: the attempts of one call: which are tried again, and how long
// to wait between them.

package padapi

import (
	"context"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// attempt is what one try of a request came to: an answer (resp, and what
// was read of a 2xx body), or an error (err: the transport's, or the loss
// of a 2xx body) with whether the request may have reached the service.
type attempt struct {
	resp *http.Response
	body answer
	err  error
	sent bool
}

// exchange sends req (r) until an attempt needs no other, or the retries
// run out, and returns the last attempt, how many were made, and whether
// one of them may have reached the service without a definite answer.
//
// GET, PUT and DELETE are idempotent: they are retried on transport errors
// and on 500, 502, 503 and 504. A 429 is retried only when its Retry-After
// fits under the wait cap. A POST is retried only when its request was
// certainly never written: after that the service may have acted on it. A
// context that has ended ends the call with its error.
func (c *Client) exchange(ctx context.Context, req *http.Request, r *request, o reading) (a attempt, n int, uncertain bool) {
	for n = 1; ; n++ {
		a = c.try(ctx, req, r, o, n)
		if err := ctx.Err(); err != nil {
			if a.resp != nil {
				discard(a.resp.Body)
			}
			return attempt{err: err, sent: a.err == nil || a.sent}, n, uncertain
		}
		retry, unsure := retryable(r.method, a, c.cfg.waitMax)
		uncertain = uncertain || unsure
		if !retry || n > c.cfg.retryMax {
			return a, n, uncertain
		}
		if a.resp != nil {
			// Drained up to the client's bound, which keeps the
			// connection for the retry under a large error page.
			discard(a.resp.Body)
		}
		t := time.NewTimer(retrypolicy.Backoff(c.cfg.waitMin, c.cfg.waitMax, n-1, a.resp))
		select {
		case <-ctx.Done():
			t.Stop()
			return attempt{err: ctx.Err(), sent: a.sent}, n, uncertain
		case <-t.C:
		}
	}
}

// retryable reports whether the attempt a may be tried again, and whether
// it may have reached the service without a definite answer.
func retryable(method string, a attempt, waitMax time.Duration) (retry, uncertain bool) {
	idempotent := method != http.MethodPost
	if a.err != nil {
		if retrypolicy.HandshakeFailed(a.err) || retrypolicy.HostNotFound(a.err) {
			// No retry can fix a certificate, a plain-http server or a
			// host name that does not exist.
			return false, false
		}
		if !a.sent {
			return true, false
		}
		return idempotent, true
	}
	switch a.resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return idempotent, true
	case http.StatusTooManyRequests:
		wait, ok := retrypolicy.RetryAfter(a.resp)
		return idempotent && ok && wait <= waitMax, false
	}
	return false, false
}

// sentTrace is what httptrace reports of a create's attempt: the transport
// took the request (traced), and wrote its headers (wrote). Atomic,
// because a transport may report from its own goroutines.
type sentTrace struct{ traced, wrote atomic.Bool }

func (s *sentTrace) hooks() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GetConn:      func(string) { s.traced.Store(true) },
		WroteHeaders: func() { s.wrote.Store(true) },
	}
}

// mayHaveSent reports whether the attempt, which failed with err, may have
// put request bytes on the wire. The evidence of httptrace comes first,
// where the transport reports through it (net/http does; s is nil for a
// read, which needs none): a request whose headers were never written was
// never sent, whatever went wrong before (a refused dial, DNS, a failed TLS
// handshake). A transport that reports nothing (a caller's own
// RoundTripper) is taken at its word only for errors that come before any
// connection: a dial or DNS error.
func (s *sentTrace) mayHaveSent(err error) bool {
	if s != nil && s.traced.Load() {
		return s.wrote.Load()
	}
	return !retrypolicy.NeverConnected(err)
}
