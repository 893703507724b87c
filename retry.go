// retry.go: the attempts of one call: which are tried again, and how long
// to wait between them.

package padapi

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
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
// go-retryablehttp runs the attempts and waits between them (the backoff
// of retrypolicy); what this client adds are its hooks, made for this
// call: before each attempt, a trace of whether a create was written;
// after it, the read of a 2xx body inside the attempt (its response
// handler), so that a GET whose connection dies halfway through its body
// is retried like one lost before the answer; and the decision, retryable.
//
// GET, PUT and DELETE are idempotent: they are retried on transport errors
// and on 500, 502, 503 and 504. A 429 is retried only when its Retry-After
// fits under the wait cap. A POST is retried only when its request was
// certainly never written: after that the service may have acted on it. A
// context that has ended ends the call with its error.
func (c *Client) exchange(ctx context.Context, req *http.Request, r *request, o reading) (a attempt, n int, uncertain bool) {
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return attempt{err: err}, 0, false
	}
	if r.body != nil || r.method == http.MethodPost {
		var data []byte
		if r.body != nil {
			data = r.body.data
		}
		// A create's body is never NoBody, and has no GetBody: a
		// transport may resend a request whose body it can get again
		// (net/http's HTTP/2 does after a stream reset, once the server
		// may have acted on it). Another attempt of a create comes from
		// here, which knows whether the first was written.
		if err := rreq.SetBody(bytes.NewReader(data)); err != nil {
			return attempt{err: err}, 0, false
		}
		rreq.ContentLength = int64(len(data))
		if r.method == http.MethodPost {
			rreq.GetBody = nil
		}
	}
	var sent *sentTrace // this attempt's, for a create
	read := false       // this attempt's 2xx body was read
	rreq.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		read = true
		body, err := readAnswer(ctx, resp, r, o, c.cfg.maxBody)
		if err != nil {
			a = attempt{resp: resp, err: err, sent: sent.mayHaveSent(err)}
			return err
		}
		a = attempt{resp: resp, body: body}
		return nil
	})
	rc := &retryablehttp.Client{
		HTTPClient:   c.hc,
		RetryMax:     c.cfg.retryMax,
		RetryWaitMin: c.cfg.waitMin,
		RetryWaitMax: c.cfg.waitMax,
		Backoff:      retrypolicy.Backoff,
		RequestLogHook: func(_ retryablehttp.Logger, hr *http.Request, i int) {
			n, read, sent = i+1, false, nil
			if r.method == http.MethodPost {
				// Only a create needs to know whether its request was
				// written; reads pay nothing for the trace.
				sent = new(sentTrace)
				*hr = *hr.WithContext(httptrace.WithClientTrace(ctx, sent.hooks()))
			}
			if c.cfg.logger != nil {
				c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "padapi: sending",
					slog.String("method", r.method), slog.String("path", r.path), slog.Int("attempt", n))
			}
		},
		CheckRetry: func(_ context.Context, resp *http.Response, err error) (bool, error) {
			switch {
			case resp == nil || err != nil && !read:
				a = attempt{err: err, sent: sent.mayHaveSent(err)}
			case resp.StatusCode >= 200 && resp.StatusCode <= 299 && !read:
				if ctx.Err() == nil {
					return false, nil // the response handler reads the body
				}
				a = attempt{resp: resp}
			case resp.StatusCode < 200 || resp.StatusCode > 299:
				a = attempt{resp: resp}
			}
			if err := ctx.Err(); err != nil {
				if a.resp != nil {
					discard(a.resp.Body)
				}
				a = attempt{err: err, sent: a.err == nil || a.sent}
				return false, err
			}
			retry, unsure := retryable(r.method, a, c.cfg.waitMax)
			uncertain = uncertain || unsure
			if retry && n <= c.cfg.retryMax && a.resp != nil {
				// Drained up to the client's bound, which keeps the
				// connection for the retry under a large error page
				// (go-retryablehttp drains 4 KiB, then closes).
				discard(a.resp.Body)
			}
			return retry, nil
		},
		// The last answer or error as it is: the pipeline turns it into
		// an *APIError rather than "giving up after N attempts".
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	_, _ = rc.Do(rreq) // the outcome is a, which the hooks keep
	if err := ctx.Err(); err != nil && a.err != err {
		// The context ended during a wait between attempts.
		if a.resp != nil {
			discard(a.resp.Body)
		}
		a = attempt{err: err, sent: a.sent}
	}
	return a, n, uncertain
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
