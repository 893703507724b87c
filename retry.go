// retry.go: the state of one call across its attempts, which attempts are
// tried again, and how long to wait between them.

package padapi

import (
	"context"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/padinterview/padapi/internal/lib/capread"
	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// call is the state of one request across its attempts, kept in the
// request's context: go-retryablehttp's CheckRetry sees the context but not
// the request.
type call struct {
	*request
	attempts  int
	lastErr   error  // the transport error of the last attempt
	uncertain bool   // an attempt may have reached the service and got no definite answer
	answer    []byte // the success body
	answerErr error
	// streamed reports that the answer was decoded as it came (see
	// readAnswer): env is its envelope, streamErr what ended the read
	// (an edit-history document's fault, or a page's that is not one
	// member's), memberErr a page's first member that did not decode.
	streamed  bool
	env       envelope.Envelope
	streamErr error
	memberErr error
	reader    capread.Reader // reads the success body of an attempt
	// response is the caller's WithResponse, nil when it asked for none.
	response *Response
	// What httptrace reported of the current attempt (creates only): the
	// transport took the request (traced), and wrote its headers (wrote).
	// Atomic, because a transport may report from its own goroutines.
	traced, wrote atomic.Bool
	// current is the attempt being sent, and answered the last one that
	// has its answer (see unwanted): read by dials on other goroutines.
	current, answered atomic.Int32
}

type callKey struct{}

func callFrom(ctx context.Context) *call {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c
	}
	return &call{request: &request{}}
}

// checkRetry decides after every attempt whether to try again.
//
// GET, PUT and DELETE are idempotent: they are retried on transport errors and
// on 500, 502, 503 and 504. A 429 is retried only when its Retry-After fits
// under the wait cap. A POST is retried only when its request was certainly
// never written: after that the service may have acted on it.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := callFrom(ctx)
	st.lastErr = err
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	retry := st.retryable(resp, err, c.cfg.waitMax)
	if retry && resp != nil && st.attempts <= c.cfg.retryMax {
		// Another attempt follows. go-retryablehttp drains only 4 KiB of
		// this body before it, which closes the connection under any
		// larger error page; draining up to the client's own bound keeps
		// the connection for the retry.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrain))
	}
	return retry, nil
}

// retryable reports whether the attempt that ended in resp or err may be
// tried again, and notes whether it left the outcome uncertain.
func (st *call) retryable(resp *http.Response, err error, waitMax time.Duration) bool {
	idempotent := st.method != http.MethodPost
	if err != nil {
		if retrypolicy.HandshakeFailed(err) || retrypolicy.HostNotFound(err) {
			// No retry can fix a certificate, a plain-http server or a
			// host name that does not exist.
			return false
		}
		if !st.mayHaveSent(err) {
			return true
		}
		st.uncertain = true
		return idempotent
	}
	switch resp.StatusCode {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		st.uncertain = true
		return idempotent
	case http.StatusTooManyRequests:
		wait, ok := retrypolicy.RetryAfter(resp)
		return idempotent && ok && wait <= waitMax
	}
	return false
}

// mayHaveSent reports whether the current attempt, which failed with err,
// may have put request bytes on the wire. The evidence of httptrace comes
// first, where the transport reports through it (net/http does): a request
// whose headers were never written was never sent, whatever went wrong
// before (a refused dial, DNS, a failed TLS handshake). A transport that
// reports nothing (a caller's own RoundTripper) is taken at its word only
// for errors that come before any connection: a dial or DNS error.
func (st *call) mayHaveSent(err error) bool {
	if st.traced.Load() {
		return st.wrote.Load()
	}
	return !retrypolicy.NeverConnected(err)
}
