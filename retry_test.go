// retry_test.go: tests of which attempts are retried, and of backoff and Retry-After.

package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// busyResponder answers 503 with the service's error body.
var busyResponder = httpmock.NewStringResponder(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`)

// dialError is what net/http returns when no connection could be made.
var dialError = &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}

func TestGetRetriedOn5xxThenSucceeds(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			c, mt := newMockClient(t)
			fail := httpmock.NewStringResponder(status, `{"status":"ERROR","message":"try later"}`)
			mt.RegisterResponder(http.MethodGet, quotaURL, fail.Then(fail).Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
			q, err := c.Quota.Get(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if q.PadsUsed != 1 {
				t.Errorf("quota %+v, want the 200's", q)
			}
			if n := mt.GetTotalCallCount(); n != 3 {
				t.Errorf("%d calls, want 3", n)
			}
		})
	}
}

func TestIdempotentMethodsRetried(t *testing.T) {
	t.Parallel()
	calls := map[string]func(c *padapi.Client) error{
		"PUT": func(c *padapi.Client) error {
			_, err := c.Pads.Update(context.Background(), "DM32JWG2", &padapi.PadUpdateParams{Title: padapi.Ptr("y")})
			return err
		},
		"DELETE": func(c *padapi.Client) error {
			return c.Questions.Delete(context.Background(), "42")
		},
	}
	urls := map[string]string{"PUT": padsURL + "/DM32JWG2", "DELETE": testBase + "/api/questions/42"}
	bodies := map[string]string{"PUT": okPad, "DELETE": `{"status":"OK"}`}
	for method, call := range calls {
		t.Run(method, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(method, urls[method], busyResponder.Then(httpmock.NewStringResponder(http.StatusOK, bodies[method])))
			if err := call(c); err != nil {
				t.Fatal(err)
			}
			if n := mt.GetTotalCallCount(); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}

			// After the last attempt a 5xx is ErrServer, never
			// ErrOutcomeUnknown: these methods are idempotent.
			c, mt = newMockClient(t)
			mt.RegisterResponder(method, urls[method], busyResponder)
			err := call(c)
			if !errors.Is(err, padapi.ErrServer) || errors.Is(err, padapi.ErrOutcomeUnknown) {
				t.Errorf("error = %v, want ErrServer and not ErrOutcomeUnknown", err)
			}
			if n := mt.GetTotalCallCount(); n != 4 {
				t.Errorf("%d calls, want 4", n)
			}
		})
	}
}

func TestGetRetriedOnConnectionError(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, quotaURL,
		httpmock.NewErrorResponder(io.ErrUnexpectedEOF).Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// TestRetriesExhausted: a call that gets 503 on every attempt ends, after
// the default 3 retries, with the last answer's APIError. It runs in a
// synctest bubble: the default backoff between the attempts (about half
// a second) is fake time.
func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// Default retries and waits: the test shows what a caller gets out of
		// the box (3 retries, so 4 attempts).
		mt := httpmock.NewMockTransport()
		c := newTestClient(t, testBase, testKey, padapi.WithHTTPClient(&http.Client{Transport: mt}))
		var n atomic.Int32
		mt.RegisterResponder(http.MethodGet, quotaURL, func(*http.Request) (*http.Response, error) {
			i := n.Add(1)
			return httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy `+strconv.Itoa(int(i))+`"}`), nil
		})
		_, err := c.Quota.Get(context.Background())
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("error = %v, want an *APIError", err)
		}
		if apiErr.StatusCode != 503 || apiErr.Attempts != 4 || apiErr.Message != "busy 4" || apiErr.Status != "ERROR" {
			t.Errorf("error = %+v, want the 4th attempt's 503 \"busy 4\" with Attempts 4", apiErr)
		}
		if !errors.Is(err, padapi.ErrServer) {
			t.Errorf("error %v does not match ErrServer", err)
		}
		if strings.Contains(err.Error(), "giving up") {
			t.Errorf("error %q has go-retryablehttp's text", err)
		}
		if want := "padapi: GET /api/quota: 503: busy 4"; err.Error() != want {
			t.Errorf("error text %q, want %q", err, want)
		}
		if got := mt.GetTotalCallCount(); got != 4 {
			t.Errorf("%d calls, want 4", got)
		}
	})
}

func TestRetryOff(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, noRetry)
	mt.RegisterResponder(http.MethodGet, quotaURL, busyResponder)
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.Attempts != 1 {
		t.Errorf("error = %v, want an *APIError with 1 attempt", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestPostNotRetriedOn5xx(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewStringResponder(status, `{"status":"ERROR","message":"internal"}`))
			pad, err := createPad(c)
			if pad != nil {
				t.Errorf("pad = %+v, want nil", pad)
			}
			if !errors.Is(err, padapi.ErrOutcomeUnknown) {
				t.Errorf("error %v does not match ErrOutcomeUnknown", err)
			}
			if !errors.Is(err, padapi.ErrServer) {
				t.Errorf("error %v does not match ErrServer", err)
			}
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Method != http.MethodPost || apiErr.Attempts != 1 {
				t.Errorf("error = %#v, want an *APIError %d for POST after 1 attempt", err, status)
			}
			if n := mt.GetTotalCallCount(); n != 1 {
				t.Errorf("%d calls, want exactly 1", n)
			}
		})
	}
}

func TestPostOverQuotaNotRetried(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 5*time.Second))
	resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"You have exceeded your monthly pad quota"}`)
	// A Retry-After that fits under the cap still does not make a create
	// retry: the quota is spent until the service says otherwise.
	resp.Header.Set("Retry-After", "1")
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.ResponderFromResponse(resp))
	_, err := createPad(c)
	if !errors.Is(err, padapi.ErrOverQuota) {
		t.Errorf("error %v does not match ErrOverQuota", err)
	}
	if errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("error %v matches ErrOutcomeUnknown, but a 429 is a definite no", err)
	}
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "You have exceeded your monthly pad quota" || apiErr.RetryAfter != time.Second {
		t.Errorf("error = %#v, want the service's message and RetryAfter 1s", err)
	}
	if want := "padapi: POST /api/pads: 429: You have exceeded your monthly pad quota"; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestPostRetriedWhenNeverConnected(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewErrorResponder(dialError).Then(httpmock.NewStringResponder(http.StatusOK, okPad)))
	pad, err := createPad(c)
	if err != nil {
		t.Fatal(err)
	}
	if pad.ID != "DM32JWG2" {
		t.Errorf("pad ID %q, want DM32JWG2", pad.ID)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}

	// When no attempt ever connects, nothing can have been created.
	c, mt = newMockClient(t)
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewErrorResponder(dialError))
	_, err = createPad(c)
	if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("error = %v, want an error that is not ErrOutcomeUnknown", err)
	}
	var opErr *net.OpError
	if !errors.As(err, &opErr) || opErr.Op != "dial" {
		t.Errorf("error %v does not wrap the dial error", err)
	}
	if n := mt.GetTotalCallCount(); n != 4 {
		t.Errorf("%d calls, want 4", n)
	}
}

func TestPostNotRetriedAfterConnecting(t *testing.T) {
	t.Parallel()
	for name, cause := range map[string]error{
		"unexpected EOF":   io.ErrUnexpectedEOF,
		"connection reset": &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")},
		"write failed":     &net.OpError{Op: "write", Net: "tcp", Err: errors.New("broken pipe")},
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewErrorResponder(cause).Then(httpmock.NewStringResponder(http.StatusOK, okPad)))
			_, err := createPad(c)
			if !errors.Is(err, padapi.ErrOutcomeUnknown) {
				t.Errorf("error %v does not match ErrOutcomeUnknown", err)
			}
			if !errors.Is(err, cause) {
				t.Errorf("error %v does not wrap %v", err, cause)
			}
			var apiErr *padapi.APIError
			if errors.As(err, &apiErr) {
				t.Errorf("error %v is an *APIError, but no answer came", err)
			}
			if n := mt.GetTotalCallCount(); n != 1 {
				t.Errorf("%d calls, want exactly 1", n)
			}
		})
	}
}

// TestPostDialThenDropped is a create whose first attempt could not connect
// and whose retry connected and lost the answer: that retry may have created
// the pad.
func TestPostDialThenDropped(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodPost, padsURL,
		httpmock.NewErrorResponder(dialError).Then(httpmock.NewErrorResponder(io.ErrUnexpectedEOF)).Then(httpmock.NewStringResponder(http.StatusOK, okPad)))
	_, err := createPad(c)
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error = %v, want ErrOutcomeUnknown wrapping io.ErrUnexpectedEOF", err)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

func TestRetryAfterOverCapNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 50*time.Millisecond))
		resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
		resp.Header.Set("Retry-After", "86400")
		mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp))
		start := time.Now()
		_, err := c.Quota.Get(context.Background())
		if elapsed := time.Since(start); elapsed != 0 {
			t.Errorf("took %v of fake time, want no wait", elapsed)
		}
		if !errors.Is(err, padapi.ErrRateLimited) || errors.Is(err, padapi.ErrOverQuota) {
			t.Errorf("error %v does not match ErrRateLimited alone", err)
		}
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || apiErr.RetryAfter != 24*time.Hour || apiErr.Attempts != 1 {
			t.Errorf("error = %#v, want RetryAfter 24h after 1 attempt", err)
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d calls, want 1", n)
		}
	})
}

func TestRetryAfterDateOverCapNotRetried(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 50*time.Millisecond))
	resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
	resp.Header.Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter < 59*time.Minute || apiErr.RetryAfter > time.Hour {
		t.Errorf("error = %#v, want an *APIError with RetryAfter about an hour", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestTooManyRequestsWithoutRetryAfterNotRetried(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`))
	if _, err := c.Quota.Get(context.Background()); !errors.Is(err, padapi.ErrRateLimited) {
		t.Errorf("error %v does not match ErrRateLimited", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

// TestServerRetryAfterCapped checks that a 503 asking for a day's wait is
// still retried, after a backoff that stays under the cap.
func TestServerRetryAfterCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(1, time.Millisecond, 50*time.Millisecond))
		resp := httpmock.NewStringResponse(http.StatusServiceUnavailable, `{"status":"ERROR","message":"busy"}`)
		resp.Header.Set("Retry-After", "86400")
		mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp).Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
		start := time.Now()
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed <= 0 || elapsed > 50*time.Millisecond {
			t.Errorf("took %v of fake time, want a backoff of at most the 50ms cap", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 2 {
			t.Errorf("%d calls, want 2", n)
		}
	})
}

// retryAfterWaits sends a GET answered 429 with the Retry-After value
// returns, then 200, on a client whose wait cap is waitMax, inside a
// synctest bubble: the call succeeds in two requests after exactly one
// second of fake time.
func retryAfterWaits(t *testing.T, waitMax time.Duration, value func() string) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(1, time.Millisecond, waitMax))
		retryAt := httpmock.Responder(func(*http.Request) (*http.Response, error) {
			resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
			resp.Header.Set("Retry-After", value())
			return resp, nil
		})
		mt.RegisterResponder(http.MethodGet, quotaURL, retryAt.Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
		start := time.Now()
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if elapsed := time.Since(start); elapsed != time.Second {
			t.Errorf("took %v of fake time, want the 1s Retry-After", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 2 {
			t.Errorf("%d calls, want 2", n)
		}
	})
}

// TestRetryAfterHonoured checks that a 429 on a GET whose Retry-After fits
// under the cap waits that long (not the 1ms backoff) and retries.
func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	retryAfterWaits(t, 2*time.Second, func() string { return "1" })
}

// TestRetryAfterDateHonoured is TestRetryAfterHonoured with an HTTP date.
func TestRetryAfterDateHonoured(t *testing.T) {
	t.Parallel()
	// An HTTP date has whole seconds, and so has the bubble's clock,
	// which starts at midnight and has not moved when the date is made.
	retryAfterWaits(t, 2*time.Second, func() string { return time.Now().Add(time.Second).UTC().Format(http.TimeFormat) })
}

func TestDeadlineDuringBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(3, 5*time.Second, 5*time.Second))
		mt.RegisterResponder(http.MethodGet, quotaURL, busyResponder)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Quota.Get(ctx)
		if elapsed := time.Since(start); elapsed != 50*time.Millisecond {
			t.Errorf("took %v of fake time, want the call to end at the 50ms deadline", elapsed)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error %v does not match context.DeadlineExceeded", err)
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d calls, want 1", n)
		}
	})
}

func TestCancelDuringRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t)
		mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusOK, okQuota).Delay(5*time.Second))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(20*time.Millisecond, cancel)
		start := time.Now()
		_, err := c.Quota.Get(ctx)
		if elapsed := time.Since(start); elapsed != 20*time.Millisecond {
			t.Errorf("took %v of fake time, want the call to end at the cancel, at 20ms", elapsed)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v does not match context.Canceled", err)
		}
		if n := mt.GetTotalCallCount(); n != 1 {
			t.Errorf("%d calls, want 1 (no retry after a cancel)", n)
		}
	})
}

func TestContextDoneBeforeCall(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusOK, okQuota))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Quota.Get(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v does not match context.Canceled", err)
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d calls, want 0", n)
	}
}

// TestBackoffZeroMinWait: a minimum wait of 0 means retries that do not
// wait, not waits near the cap.
func TestBackoffZeroMinWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(3, 0, 400*time.Millisecond))
		mt.RegisterResponder(http.MethodGet, quotaURL, busyResponder)
		start := time.Now()
		if _, err := c.Quota.Get(context.Background()); !errors.Is(err, padapi.ErrServer) {
			t.Errorf("error %v does not match ErrServer", err)
		}
		if elapsed := time.Since(start); elapsed != 0 {
			t.Errorf("took %v of fake time; with a minimum wait of 0 the retries should not wait", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 4 {
			t.Errorf("%d calls, want 4", n)
		}
	})
}

// TestBackoffCapped checks that exponential backoff stops growing at the cap:
// with waits of 10ms to 20ms, four attempts take tens of milliseconds.
func TestBackoffCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := newMockClient(t, padapi.WithRetry(3, 10*time.Millisecond, 20*time.Millisecond))
		mt.RegisterResponder(http.MethodGet, quotaURL, busyResponder)
		start := time.Now()
		_, err := c.Quota.Get(context.Background())
		elapsed := time.Since(start)
		if !errors.Is(err, padapi.ErrServer) {
			t.Errorf("error %v does not match ErrServer", err)
		}
		// Equal jitter waits at least half of 10ms, 20ms and 20ms.
		if elapsed < 25*time.Millisecond || elapsed > 50*time.Millisecond {
			t.Errorf("took %v of fake time, want between 25ms and the 50ms the cap allows", elapsed)
		}
		if n := mt.GetTotalCallCount(); n != 4 {
			t.Errorf("%d calls, want 4", n)
		}
	})
}

// A negative Retry-After is no answer: the 429 is not retried.
func TestRetryAfterNegativeNotRetried(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 50*time.Millisecond))
	resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
	resp.Header.Set("Retry-After", "-1")
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != 0 {
		t.Errorf("err = %#v, want an *APIError without RetryAfter", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

// A 429 whose Retry-After equals the wait cap fits under it: retried.
func TestRetryAfterAtTheCapRetried(t *testing.T) {
	t.Parallel()
	retryAfterWaits(t, time.Second, func() string { return "1" })
}

// connCounter starts srv counting the connections it accepts.
func connCounter(srv *httptest.Server) *atomic.Int32 {
	var n atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	// The failed handshakes are the point; the server need not log them.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	return &n
}

// A TLS handshake that failed sent no request byte: a create is not
// outcome-unknown, and no retry can fix a certificate, so none is made.
func TestHandshakeFailureNotOutcomeUnknown(t *testing.T) {
	t.Parallel()
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the server: %s %s", r.Method, r.URL)
	}))
	untrustedConns := connCounter(untrusted)
	untrusted.StartTLS()
	defer untrusted.Close()

	plain := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the server: %s %s", r.Method, r.URL)
	}))
	plainConns := connCounter(plain)
	plain.Start()
	defer plain.Close()

	for _, tt := range []struct {
		name  string
		base  string
		conns *atomic.Int32
		want  string
	}{
		{"untrusted certificate", untrusted.URL, untrustedConns, "certificate"},
		{"plain http answering the TLS hello", strings.Replace(plain.URL, "http://", "https://", 1), plainConns, "HTTP response to HTTPS client"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, tt.base, testKey, fastRetry)
			tt.conns.Store(0)
			_, err := createPad(c)
			if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) || strings.Contains(err.Error(), "outcome unknown") {
				t.Errorf("create: error %v, want a handshake error that is not outcome-unknown", err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("create: error %q does not say %q", err, tt.want)
			}
			_, err = c.Quota.Get(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("get: error %v, want one saying %q", err, tt.want)
			}
			// One connection per call: neither was retried.
			if n := tt.conns.Load(); n != 2 {
				t.Errorf("%d connections for two calls, want 2 (no retries)", n)
			}
		})
	}
}

// A DNS error comes before any connection, so a create that met only DNS
// errors certainly sent nothing: a temporary one is retried and never
// outcome-unknown, also through a transport that reports nothing through
// httptrace.
func TestDNSErrorNeverConnected(t *testing.T) {
	t.Parallel()
	dns := &net.DNSError{Err: "server misbehaving", Name: "pads.example.test", IsTemporary: true}
	for name, cause := range map[string]error{
		"bare":       dns,
		"in a dial":  &net.OpError{Op: "dial", Net: "tcp", Err: dns},
		"in a write": &net.OpError{Op: "write", Net: "tcp", Err: dns},
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewErrorResponder(cause).Then(httpmock.NewStringResponder(http.StatusOK, okPad)))
			pad, err := createPad(c)
			if err != nil || pad.ID != "DM32JWG2" {
				t.Errorf("create = %v, %v; want the pad after one retry", pad, err)
			}
			if n := mt.GetTotalCallCount(); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}
		})
	}
}

// Retry-After: 0, or a date in the past, means "now": the GET is retried.
func TestRetryAfterNow(t *testing.T) {
	t.Parallel()
	for name, value := range map[string]func() string{
		"zero": func() string { return "0" },
		// Made inside the bubble: its clock is not the wall clock.
		"a past date": func() string { return time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat) },
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 50*time.Millisecond))
				resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
				resp.Header.Set("Retry-After", value())
				mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp).Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
				start := time.Now()
				if _, err := c.Quota.Get(context.Background()); err != nil {
					t.Fatalf("error %v, want the quota after a retry", err)
				}
				if elapsed := time.Since(start); elapsed > 50*time.Millisecond {
					t.Errorf("took %v of fake time, want no more than a backoff (50ms cap)", elapsed)
				}
				if n := mt.GetTotalCallCount(); n != 2 {
					t.Errorf("%d calls, want 2", n)
				}
			})
		})
	}
}

// A delete whose earlier attempt may have reached the service, answered 404
// on the retry, deleted the resource: that is success. A 404 on the first
// attempt is still ErrNotFound.
func TestDeleteGoneAfterUncertainAttempt(t *testing.T) {
	t.Parallel()
	deletes := []struct {
		name, method, url string
		call              func(*padapi.Client) error
	}{
		{"Questions.Delete", http.MethodDelete, testBase + "/api/questions/1234",
			func(c *padapi.Client) error { return c.Questions.Delete(context.Background(), "1234") }},
		{"Pads.Delete", http.MethodPut, testBase + "/api/pads/DM32JWG2",
			func(c *padapi.Client) error { return c.Pads.Delete(context.Background(), "DM32JWG2") }},
	}
	notFound := httpmock.NewStringResponder(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)
	for _, d := range deletes {
		t.Run(d.name, func(t *testing.T) {
			for _, first := range []httpmock.Responder{
				httpmock.NewErrorResponder(io.ErrUnexpectedEOF),
				httpmock.NewStringResponder(http.StatusServiceUnavailable, "busy"),
			} {
				c, mt := newMockClient(t)
				mt.RegisterResponder(d.method, d.url, first.Then(notFound))
				if err := d.call(c); err != nil {
					t.Errorf("error %v, want success: the first attempt deleted it", err)
				}
				if n := mt.GetTotalCallCount(); n != 2 {
					t.Errorf("%d calls, want 2", n)
				}
			}

			c, mt := newMockClient(t)
			mt.RegisterResponder(d.method, d.url, notFound)
			if err := d.call(c); !errors.Is(err, padapi.ErrNotFound) {
				t.Errorf("404 at once: error %v, want ErrNotFound", err)
			}
			// A refused dial sent nothing: its 404 after it is a real one.
			c, mt = newMockClient(t)
			mt.RegisterResponder(d.method, d.url, httpmock.NewErrorResponder(dialError).Then(notFound))
			if err := d.call(c); !errors.Is(err, padapi.ErrNotFound) {
				t.Errorf("404 after a refused dial: error %v, want ErrNotFound", err)
			}
		})
	}
}

// A large error page before a retry is drained, so the retry reuses the
// connection (go-retryablehttp alone drains 4 KiB and closes the rest).
func TestRetryReusesConnectionAfterLargeErrorPage(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	page := bytes.Repeat([]byte("x"), 10<<10)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write(page)
			return
		}
		respond(w, http.StatusOK, []byte(okQuota))
	}))
	conns := connCounter(srv)
	srv.Start()
	defer srv.Close()
	c := newTestClient(t, srv.URL, testKey, fastRetry)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 3 attempts, want 1", n)
	}
}

// A host that does not exist (NXDOMAIN) is not retried: no retry can make
// it exist, and the caller learns at once what to check.
func TestDNSHostNotFoundNotRetried(t *testing.T) {
	t.Parallel()
	dns := &net.DNSError{Err: "no such host", Name: "pads.example.test", IsNotFound: true}
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewErrorResponder(&net.OpError{Op: "dial", Net: "tcp", Err: dns}))
	_, err := c.Quota.Get(context.Background())
	var got *net.DNSError
	if !errors.As(err, &got) || !got.IsNotFound {
		t.Errorf("err = %v, want the DNS error", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1 (no retry)", n)
	}
}

// TestHostileTruncatedBodyRetried: the first answer's body is cut off
// halfway. A GET reads its body inside the retry loop, so it is retried and
// succeeds; a create is not retried, and its outcome is unknown.
func TestHostileTruncatedBodyRetried(t *testing.T) {
	t.Parallel()
	const quota = `{"status":"OK","pads_used":1,"quota_reset_at":"2024-01-01T00:00:00Z","unlimited":true}`
	const pad = `{"status":"OK","id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"}`
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.Method]++
		first := calls[r.Method] == 1
		mu.Unlock()
		body := quota
		if r.Method == http.MethodPost {
			body = pad
		}
		if !first {
			_, _ = io.WriteString(w, body)
			return
		}
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:len(body)/2])
		_ = buf.Flush()
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, testKey, padapi.WithRetry(2, time.Millisecond, time.Millisecond))
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("GET with a cut-off first body: %v, want success after a retry", err)
	}
	_, err := c.Pads.Create(context.Background(), nil)
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("POST with a cut-off body: %v, want ErrOutcomeUnknown and io.ErrUnexpectedEOF", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if calls[http.MethodGet] != 2 || calls[http.MethodPost] != 1 {
		t.Errorf("requests %v, want 2 GETs and 1 POST", calls)
	}
}

// chaosFaults draws a fault for each request that reaches a padapitest fake,
// through Server.SetFaults, from a seeded generator, and counts them. The
// sequence of draws is fixed; which request gets which draw depends on the
// scheduler.
type chaosFaults struct {
	failure int     // the status of a failure
	fail    float64 // the share of requests answered failure before the handler runs
	drop    float64 // the share dropped after the handler ran

	mu     sync.Mutex
	rng    *rand.Rand
	counts map[string]int // per kind: "served", "failed", "dropped"
	titles map[string][]string
}

// Kinds of draw.
const (
	kindServed  = "served"
	kindFailed  = "failed"
	kindDropped = "dropped"
)

func newChaos(fake *padapitest.Server, failure int, fail, drop float64) *chaosFaults {
	ch := &chaosFaults{
		failure: failure, fail: fail, drop: drop,
		rng:    rand.New(rand.NewPCG(5, 20)),
		counts: map[string]int{},
		titles: map[string][]string{},
	}
	fake.SetFaults(ch.draw)
	return ch
}

func (ch *chaosFaults) draw(route string, r padapitest.Request) padapitest.Fault {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	kind, f := kindServed, padapitest.Fault{}
	switch x := ch.rng.Float64(); {
	case x < ch.fail:
		kind, f = kindFailed, padapitest.Fault{Status: ch.failure, Body: `{"status":"ERROR","message":"injected"}`}
	case x < ch.fail+ch.drop:
		kind, f = kindDropped, padapitest.Fault{Drop: true}
	}
	ch.counts[kind]++
	if route == "POST /api/pads" {
		title := r.Form.Get("title")
		ch.titles[title] = append(ch.titles[title], kind)
	}
	return f
}

func (ch *chaosFaults) count(kind string) int {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.counts[kind]
}

// drawn returns the draws of the creates of title, in order.
func (ch *chaosFaults) drawn(title string) []string {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.titles[title]
}

// chaosRetries is the retry count of the chaos clients. An attempt fails
// with probability q = 0.25 (20 % 503s plus 5 % drops), drawn independently
// for every request, so a call fails only when all 21 of its attempts fail:
// 0.25^21 ≈ 2.3e-13, and one of 300 calls fails with probability below
// 300 × 2.3e-13 ≈ 7e-11. net/http's own resend of a GET whose reused
// connection closed only lowers it. Waits of 1 to 5 ms keep the run short.
const chaosRetries = 20

// TestChaosReads sends 300 GETs across seven endpoints from 16 goroutines
// on one client, with 20 % of requests answered 503 and 5 % dropped after
// the fake served them: every call must succeed, and each must have been
// answered by the fake exactly once. (docs/reliability.md's v3 run had 1000 calls; 300
// prove the same under -race on a loaded runner in a third of the time.)
func TestChaosReads(t *testing.T) {
	t.Parallel()
	const calls, workers = 300, 16
	fake := padapitest.NewServer(t)
	fake.Seed(20)
	chaos := newChaos(fake, http.StatusServiceUnavailable, 0.20, 0.05)
	c := fake.Client(padapi.WithRetry(chaosRetries, time.Millisecond, 5*time.Millisecond))
	pads, questions := fake.Pads(), fake.Questions()
	ctx := context.Background()
	endpoints := []func(i int) error{
		func(int) error { _, err := c.Quota.Get(ctx); return err },
		func(i int) error {
			_, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc, Page: 1 + i%2})
			return err
		},
		func(i int) error { _, err := c.Pads.Get(ctx, pads[i%len(pads)].ID); return err },
		func(int) error { _, err := c.Questions.List(ctx, nil); return err },
		func(i int) error { _, err := c.Questions.Get(ctx, questions[i%len(questions)].ID); return err },
		func(int) error { _, err := c.Organization.Get(ctx); return err },
		func(int) error { _, err := c.Organization.Stats(ctx, nil); return err },
	}

	start := time.Now()
	errs := make(chan error, calls)
	spread(t, workers, calls, func(_, i int) {
		if err := endpoints[i%len(endpoints)](i); err != nil {
			errs <- fmt.Errorf("call %d: %w", i, err)
		}
	})
	close(errs)
	failed := 0
	for err := range errs {
		failed++
		t.Error(err)
	}
	served, fails, drops := chaos.count(kindServed), chaos.count(kindFailed), chaos.count(kindDropped)
	t.Logf("%d GETs in %v: %d failed; the fake saw %d requests: %d served, %d answered 503, %d dropped",
		calls, time.Since(start).Round(time.Millisecond), failed, served+fails+drops, served, fails, drops)
	// A call ends at its first answer that got through.
	if served != calls {
		t.Errorf("%d requests were served and answered, want one per call (%d)", served, calls)
	}
	if got := len(fake.Requests()); got != served+fails+drops {
		t.Errorf("the fake recorded %d requests, %d faults were drawn: want one draw per request", got, served+fails+drops)
	}
	// A run without faults would prove nothing; 300+ draws at 20 % and 5 %
	// give about 75 and 19 (400 draws): below 30 and 3 (each more than 5
	// standard deviations off) only when the faults are broken.
	if fails < 30 || drops < 3 {
		t.Errorf("only %d 503s and %d drops were injected", fails, drops)
	}
}

// TestChaosCreates sends 200 creates, each with its own title, from 16
// goroutines while the quota runs out; 15 % of requests are answered 500
// before the fake acts, and 20 % are dropped after it acted. No create may
// be sent twice; a create that succeeded made exactly one pad, one that
// failed with another error made none, and one whose outcome is unknown
// made at most one.
func TestChaosCreates(t *testing.T) {
	t.Parallel()
	const creates, workers = 200, 16
	fake := padapitest.NewServer(t)
	// Fewer pads than creates reach the fake, so some creates meet a
	// definite no (429) as well.
	fake.SetQuota(120, 0)
	chaos := newChaos(fake, http.StatusInternalServerError, 0.15, 0.20)
	c := fake.Client(padapi.WithRetry(chaosRetries, time.Millisecond, 5*time.Millisecond))

	type result struct {
		pad *padapi.Pad
		err error
	}
	start := time.Now()
	results := make([]result, creates)
	spread(t, workers, creates, func(_, i int) {
		pad, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr(titleOf(i))})
		results[i] = result{pad, err}
	})

	byTitle := map[string][]padapi.Pad{}
	for _, p := range fake.Pads() {
		byTitle[p.Title] = append(byTitle[p.Title], p)
	}
	var succeeded, unknown, unknownMade, refused int
	for i, r := range results {
		title := titleOf(i)
		made := byTitle[title]
		switch {
		case r.err == nil:
			succeeded++
			if len(made) != 1 || made[0].ID != r.pad.ID {
				t.Errorf("%s succeeded as pad %s; the fake holds %d pads with its title", title, r.pad.ID, len(made))
			}
		case errors.Is(r.err, padapi.ErrOutcomeUnknown):
			unknown++
			unknownMade += len(made)
			if len(made) > 1 {
				t.Errorf("%s (%v) made %d pads", title, r.err, len(made))
			}
		default:
			refused++
			if len(made) != 0 || !errors.Is(r.err, padapi.ErrOverQuota) {
				t.Errorf("%s failed with %v, want ErrOverQuota and no pad; it made %d", title, r.err, len(made))
			}
		}
		// Each create reached the fake once, and its outcome is the one
		// its fault allows.
		drawn := chaos.drawn(title)
		if len(drawn) != 1 {
			t.Errorf("%s was sent %d times (%v), want once", title, len(drawn), drawn)
			continue
		}
		switch drawn[0] {
		case kindFailed:
			if len(made) != 0 || !errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s met a 500 before the fake acted: %v and %d pads, want ErrOutcomeUnknown and none", title, r.err, len(made))
			}
		case kindDropped:
			if !errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s was dropped after the fake acted: %v, want ErrOutcomeUnknown", title, r.err)
			}
		case kindServed:
			if errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s was answered, yet its outcome is unknown: %v", title, r.err)
			}
		}
	}
	total := len(fake.Pads())
	served, fails, drops := chaos.count(kindServed), chaos.count(kindFailed), chaos.count(kindDropped)
	t.Logf("%d creates in %v: %d succeeded, %d outcome unknown (%d of them made a pad), %d refused; the fake holds %d pads; faults: %d served, %d answered 500, %d dropped",
		creates, time.Since(start).Round(time.Millisecond), succeeded, unknown, unknownMade, refused, total, served, fails, drops)
	if total != succeeded+unknownMade {
		t.Errorf("the fake holds %d pads, want %d successes + %d unknown that made one", total, succeeded, unknownMade)
	}
	if total > creates {
		t.Errorf("%d pads from %d creates", total, creates)
	}
	if n := len(fake.Requests()); n != creates || served+fails+drops != creates {
		t.Errorf("the fake recorded %d create requests and drew %d faults, want one per create (%d): a create was retried", n, served+fails+drops, creates)
	}
	// Each fault and each outcome must have happened, or the test proved
	// less than it says. 200 draws at 15 % and 20 % give at least 15 and 20
	// unless the faults are broken.
	if fails < 15 || drops < 20 {
		t.Errorf("only %d 500s and %d drops were injected", fails, drops)
	}
	if succeeded == 0 || unknown == 0 || unknownMade == 0 || unknownMade == unknown || refused == 0 {
		t.Errorf("an outcome never happened: %d succeeded, %d unknown (%d made a pad), %d refused", succeeded, unknown, unknownMade, refused)
	}
}

func titleOf(i int) string { return fmt.Sprintf("chaos create %03d", i) }

// TestCreateRedirectedIsOutcomeUnknown: behind a gateway that forwards a
// create to the service and answers it with 303 See Other, the create
// happened, so the error matches ErrOutcomeUnknown (a caller that took it
// for a plain refusal would create again); a read answered with a
// redirect is a plain failure.
func TestCreateRedirectedIsOutcomeUnknown(t *testing.T) {
	t.Parallel()
	fake := padapitest.NewServer(t)
	target, err := url.Parse(fake.URL)
	if err != nil {
		t.Fatal(err)
	}
	gw := httputil.NewSingleHostReverseProxy(target)
	gw.ModifyResponse = func(resp *http.Response) error {
		if resp.StatusCode/100 == 2 {
			resp.StatusCode, resp.Status = http.StatusSeeOther, "303 See Other"
			resp.Header.Set("Location", "/api/pads")
		}
		return nil
	}
	srv := httptest.NewServer(gw)
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, fake.APIKey, fastRetry)
	_, err = c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("via gateway")})
	var apiErr *padapi.APIError
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSeeOther {
		t.Errorf("create answered 303: %v, want an *APIError 303 matching ErrOutcomeUnknown", err)
	}
	if n := len(fake.Pads()); n != 1 {
		t.Errorf("the service holds %d pads, want the 1 the create made", n)
	}
	if _, err := c.Quota.Get(context.Background()); err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("read answered 303: %v, want an error that is not ErrOutcomeUnknown", err)
	}
}
