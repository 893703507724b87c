package padapi

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Version is the version of this library, sent in the User-Agent header.
const Version = "0.2.0"

// Defaults, changeable with options.
const (
	defaultRetryMax = 3
	defaultWaitMin  = 100 * time.Millisecond
	defaultWaitMax  = 2 * time.Second
	defaultMaxBody  = 32 << 20
	// maxDrain bounds how much of an unread body is discarded to keep the
	// connection reusable; past it, closing the connection is cheaper.
	maxDrain = 256 << 10
)

// Client talks to one Pad Interview Service under one base URL with one API
// key. It is safe for concurrent use; create one and share it.
//
// Its fields are the services, one per resource of the API, so calls read
// like the API itself: c.Pads.Get(ctx, id).
type Client struct {
	// Quota reads the monthly pad quota.
	Quota *QuotaService
	// Pads lists, reads, creates and updates pads.
	Pads *PadsService
	// Questions manages the question library.
	Questions *QuestionsService
	// Organization reads the caller's organization, its stats, and all of
	// its pads and questions.
	Organization *OrganizationService

	// cfg is behind a pointer so that fmt of a Client (%v, %+v, %#v)
	// prints an address; the key in it is behind a func (see auth).
	cfg *config
	rc  *retryablehttp.Client
}

type service struct{ client *Client }

// config is what NewClient and the options set up.
type config struct {
	base      string // the base URL without a trailing slash
	userAgent string
	hc        *http.Client
	retryMax  int
	waitMin   time.Duration
	waitMax   time.Duration
	logger    *slog.Logger
	maxBody   int64
	insecure  bool
	pages     int         // WithConcurrentPages
	tls       *tls.Config // for the client's own pool; tests only
	err       error

	// key returns what the client knows of its API key. A func, because
	// fmt prints a func as an address whatever the verb or depth, while a
	// string in a struct behind a pointer is printed in full by %s or %q
	// of the Client (fmt reprints a pointer it has no verb for with %v).
	key func() *credential
}

// Option configures a Client in NewClient.
type Option func(*config)

// WithHTTPClient sends requests through hc's Transport (http.DefaultTransport
// when nil), read on every request, and keeps hc's Timeout. The client never
// changes hc, and never follows redirects whatever hc.CheckRedirect says, so
// the API key only goes to the base URL's host. httpmock.ActivateNonDefault(hc)
// therefore intercepts every request, retries included, even when it is called
// after NewClient.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) {
		if hc == nil {
			c.err = errors.New("padapi: WithHTTPClient(nil)")
		}
		c.hc = hc
	}
}

// WithRetry sets how many times a failed request is retried (0 turns retries
// off) and the bounds of the backoff between tries: minWait, doubled at each
// retry up to maxWait, with jitter. No wait is ever longer than maxWait,
// including waits asked for by Retry-After; a minWait of 0 retries without
// waiting, but for a Retry-After. The defaults are 3 retries waiting 100ms
// to 2s.
func WithRetry(max int, minWait, maxWait time.Duration) Option {
	return func(c *config) {
		if max < 0 || minWait < 0 || maxWait < minWait {
			c.err = fmt.Errorf("padapi: WithRetry(%d, %v, %v): need max >= 0 and 0 <= minWait <= maxWait", max, minWait, maxWait)
			return
		}
		c.retryMax, c.waitMin, c.waitMax = max, minWait, maxWait
	}
}

// WithLogger logs each attempt and each call's outcome at debug level, with
// method, API path, attempt and status: never headers, the API key or query
// strings. Without it the client logs nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// WithUserAgent puts ua in front of the User-Agent header
// ("ua padapi-go/0.1.0 go/1.23"), so the service's operators can tell
// callers apart.
func WithUserAgent(ua string) Option {
	return func(c *config) {
		if strings.ContainsAny(ua, "\r\n") {
			c.err = errors.New("padapi: WithUserAgent: the user agent has a line break")
			return
		}
		c.userAgent = strings.TrimSpace(ua + " " + c.userAgent)
	}
}

// WithMaxResponseBytes caps the size of a response body (default 32 MiB).
// A larger body is an error matching ErrResponseTooLarge.
func WithMaxResponseBytes(n int64) Option {
	return func(c *config) {
		if n <= 0 {
			c.err = fmt.Errorf("padapi: WithMaxResponseBytes(%d): need a positive size", n)
			return
		}
		c.maxBody = n
	}
}

// WithInsecureHTTP allows a plain-http base URL on a host that is not
// loopback. The API key then crosses the network in clear text: use it only
// on a network you trust.
func WithInsecureHTTP() Option {
	return func(c *config) { c.insecure = true }
}

// NewClient returns a client for the service at baseURL (for the public
// service https://app.coderpad.io; a path prefix such as
// https://gateway.example.com/pad is kept) authenticating with apiKey.
//
// The base URL must be https, except for loopback hosts or with
// WithInsecureHTTP. The key must be non-empty printable ASCII without '"' or
// '\'. Errors never quote the key.
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	cfg := &config{
		userAgent: "padapi-go/" + Version + " go/" + strings.TrimPrefix(runtime.Version(), "go"),
		retryMax:  defaultRetryMax,
		waitMin:   defaultWaitMin,
		waitMax:   defaultWaitMax,
		maxBody:   defaultMaxBody,
	}
	for _, opt := range opts {
		opt(cfg)
		if cfg.err != nil {
			return nil, configError{cfg.err}
		}
	}
	if err := checkAPIKey(apiKey); err != nil {
		return nil, configError{err}
	}
	base, err := checkBaseURL(baseURL, cfg.insecure)
	if err != nil {
		return nil, configError{err}
	}
	key := newCredential(apiKey)
	cfg.base, cfg.key = base, func() *credential { return key }

	c := &Client{cfg: cfg}
	t := &transport{caller: cfg.hc}
	if cfg.hc == nil {
		t.own = newTransport(cfg.tls)
	}
	hc := &http.Client{
		Transport: t,
		// A redirect is returned as it is: following one could send the
		// key to another host, or turn a POST into a GET.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	if cfg.hc != nil {
		hc.Timeout = cfg.hc.Timeout
	}
	c.rc = &retryablehttp.Client{
		HTTPClient:   hc,
		RetryMax:     cfg.retryMax,
		RetryWaitMin: cfg.waitMin,
		RetryWaitMax: cfg.waitMax,
		CheckRetry:   c.checkRetry,
		Backoff:      c.backoff,
		// Hand back the last response or error as it is: the pipeline
		// turns it into an *APIError rather than "giving up after N
		// attempts".
		ErrorHandler: func(resp *http.Response, err error, _ int) (*http.Response, error) { return resp, err },
	}
	// The hook runs before every attempt: it counts them for errors, and
	// logs them when there is a logger.
	c.rc.RequestLogHook = c.beforeAttempt
	c.Quota = &QuotaService{client: c}
	c.Pads = &PadsService{client: c}
	c.Questions = &QuestionsService{client: c}
	c.Organization = &OrganizationService{client: c}
	return c, nil
}

// checkBaseURL returns the base URL without a trailing slash, or an error
// when it is not one the key may be sent to.
func checkBaseURL(raw string, insecure bool) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		// url.Error quotes the URL, password and all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", fmt.Errorf("padapi: invalid base URL: %w", err)
	}
	switch {
	case u.User != nil:
		return "", errors.New("padapi: base URL must not carry user information")
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "", fmt.Errorf("padapi: base URL %q: need an absolute http or https URL", u.Redacted())
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return "", fmt.Errorf("padapi: base URL %q: must not have a query or fragment", u.Redacted())
	case u.Scheme == "http" && !insecure && !isLoopback(u.Hostname()):
		return "", fmt.Errorf("padapi: base URL %q: plain http would send the API key in clear text; use https, a loopback host, or WithInsecureHTTP", u.Redacted())
	case strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/api"):
		// Kept, every call would go to .../api/api/... and get a 404.
		return "", fmt.Errorf("padapi: base URL %q: drop the trailing /api; the client adds /api/... to every path itself", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/"), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// transport sends each request through the caller's http.Client transport,
// read at every request, or through the client's own (newTransport, in
// transport.go). It does not offer CloseIdleConnections, so
// go-retryablehttp's habit of closing idle connections after every failed
// call cannot empty a pool it does not own.
type transport struct {
	caller *http.Client
	own    http.RoundTripper
}

// RoundTrip sends r through the caller's client's transport when there is
// one, else through the client's own pool.
func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.caller == nil {
		return t.own.RoundTrip(r)
	}
	if rt := t.caller.Transport; rt != nil {
		return rt.RoundTrip(r)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// request is one API call as the pipeline sends it.
type request struct {
	method string
	// path is the API path, escaped (/api/pads/ABC), below the base URL.
	path  string
	query url.Values
	body  *body // nil: no body
	// link, when set, is an absolute URL requested instead of the base URL
	// and path, without the API key: an edit-history link on another host.
	link string
	// quota marks a request that spends the pad quota: its 429 is
	// ErrOverQuota rather than ErrRateLimited.
	quota bool
	// gone marks a delete: a 404 after an attempt that got no definite
	// answer means that attempt deleted the resource.
	gone bool
}

// call is the state of one request across its attempts. go-retryablehttp's
// CheckRetry sees the context but not the request, so the pipeline puts the
// call in the request's context: the call is that context, the caller's
// extended with itself (Value of callKey), one allocation where
// context.WithValue would add another.
type call struct {
	context.Context
	request
	attempts  int
	lastErr   error  // the transport error of the last attempt
	uncertain bool   // an attempt may have reached the service and got no definite answer
	answer    []byte // the success body, read by the response handler
	answerErr error  // ErrResponseTooLarge, when it was
	read      bool   // the last attempt's success body was read to its end
	// inFlight is set while the client's own pool sends an attempt over
	// HTTP/1.1, for its dials to tell whether they are still needed.
	inFlight atomic.Bool

	// What httptrace reported of the current attempt (creates only): the
	// transport took the request (traced), and wrote its headers (wrote).
	// Atomic, because a transport may report from its own goroutines.
	traced, wrote atomic.Bool
}

type callKey struct{}

func (st *call) Value(key any) any {
	if _, ok := key.(callKey); ok {
		return st
	}
	return st.Context.Value(key)
}

func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	if c == nil {
		c = &call{}
	}
	return c
}

// do is the one request pipeline: every endpoint goes through it. It sends
// r, retries as the method allows, and decodes a 2xx body with status "OK"
// into out. Every other outcome is an error that names method and path.
//
// found is false, with a nil error, only for a PUT or DELETE that the
// service answered with a status alone or an empty body: success without
// the resource. A GET or POST answered so is an error.
func (c *Client) do(ctx context.Context, r request, out response) (found bool, err error) {
	if ctx == nil {
		return false, argError("nil context")
	}
	st := &call{Context: ctx, request: r}
	found, err = c.send(st, st, out)
	if c.cfg.logger != nil {
		c.logResult(ctx, st, err)
	}
	return found, err
}

func (c *Client) send(ctx context.Context, st *call, out response) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("padapi: %s %s: %w", st.method, st.path, err)
	}
	target := st.link
	if target == "" {
		target = c.cfg.base + st.path
		if len(st.query) > 0 {
			target += "?" + st.query.Encode()
		}
	}
	var data any
	if st.body != nil {
		data = st.body.data
	}
	if st.method == http.MethodPost {
		// Only a create needs to know whether its request was written;
		// reads pay nothing for the trace.
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GetConn:      func(string) { st.traced.Store(true) },
			WroteHeaders: func() { st.wrote.Store(true) },
		})
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, st.method, target, data)
	if err != nil {
		return false, fmt.Errorf("padapi: %s %s: %w", st.method, st.path, err)
	}
	if st.link == "" {
		req.Header["Authorization"] = []string{c.cfg.key().header}
	}
	req.Header["Accept"] = []string{"application/json"}
	req.Header["User-Agent"] = []string{c.cfg.userAgent}
	if st.body != nil {
		req.Header["Content-Type"] = []string{st.body.contentType}
	}
	// A success body is read inside the retry loop, so that a connection
	// lost halfway through it is retried (where the method allows) like
	// one lost before the answer.
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		st.answer, st.answerErr = readBody(resp, c.cfg.maxBody)
		st.read = st.answerErr == nil
		if errors.Is(st.answerErr, ErrResponseTooLarge) {
			return nil // a definite answer, for decode to report
		}
		return st.answerErr
	})
	resp, err := c.rc.Do(req)
	if err != nil {
		if resp != nil {
			discard(resp.Body)
		}
		return false, st.transportError(err)
	}
	if st.read && resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		// The answer was read to its end: nothing is left to drain.
		defer resp.Body.Close()
	} else {
		defer discard(resp.Body)
	}
	return c.decode(st, resp, out)
}

// transportError is the error for a call that got no HTTP answer. It wraps
// the cause without the URL (url.Error would add it, query and all), and
// marks a create whose request may have been written as ErrOutcomeUnknown.
func (st *call) transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if st.method == http.MethodPost && st.mayHaveSent(st.lastErr) {
		return fmt.Errorf("padapi: %s %s: %w: %w", st.method, st.path, ErrOutcomeUnknown, err)
	}
	return fmt.Errorf("padapi: %s %s: %w", st.method, st.path, err)
}

// decode turns an HTTP answer into out or into an *APIError.
func (c *Client) decode(st *call, resp *http.Response, out response) (bool, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		if st.gone && resp.StatusCode == http.StatusNotFound && st.uncertain {
			// An earlier attempt got no definite answer, and the
			// resource is gone now: that attempt deleted it.
			return false, nil
		}
		k := c.cfg.key()
		// Read past the kept snippet by the key's length, so that a key
		// cut at the snippet's end is still found and scrubbed.
		snippet, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+int64(k.longest)))
		e := errorFromBody(resp, k.scrub(snippet))
		e.Method, e.Path, e.Attempts, e.quota = st.method, st.path, st.attempts, st.quota
		e.outcomeUnknown = st.method == http.MethodPost && resp.StatusCode >= 500
		return false, e
	}
	fail := func(msg string, cause error, body []byte) *APIError {
		if len(body) > maxErrorBody {
			body = body[:maxErrorBody]
		}
		return &APIError{
			StatusCode: resp.StatusCode, Message: msg, Method: st.method, Path: st.path,
			Attempts: st.attempts, Body: body, quota: st.quota, err: cause,
			// A create that succeeded but whose answer was lost did
			// happen: the caller must not create again blindly.
			outcomeUnknown: st.method == http.MethodPost,
		}
	}
	if st.answerErr != nil {
		return false, fail(fmt.Sprintf("response body over %d bytes", c.cfg.maxBody), st.answerErr, nil)
	}
	data := st.answer
	missing := ""
	if len(bytes.TrimSpace(data)) == 0 {
		missing = "body"
	} else {
		if err := json.Unmarshal(data, out); err != nil {
			if clean := c.cfg.key().scrub(data); !bytes.Equal(clean, data) {
				// Describe the error from the scrubbed bytes, so that
				// no part of the key reaches the message.
				data, err = clean, json.Unmarshal(clean, out)
			}
			return false, fail(describeDecodeError(err), err, data)
		}
		if status, message, code := out.envelope(); status != "OK" {
			k := c.cfg.key()
			status, message, code = clip(k.redact.Replace(status), maxErrorBody), clip(k.redact.Replace(message), maxErrorBody), clip(k.redact.Replace(code), maxErrorBody)
			if message == "" {
				message = fmt.Sprintf("response status %q, want \"OK\"", clip(status, 64))
			}
			e := fail(message, nil, k.scrub(data))
			// The service answered, and said no: nothing was created.
			e.Status, e.Code, e.outcomeUnknown = status, code, false
			return false, e
		}
		if ch, ok := out.(checker); ok {
			if err := ch.check(); err != nil {
				return false, fail("malformed response: "+err.Error(), err, c.cfg.key().scrub(data))
			}
		}
		missing = out.missing()
	}
	if missing == "" {
		return true, nil
	}
	if st.method == http.MethodPut || st.method == http.MethodDelete {
		return false, nil // done, and the answer says no more
	}
	// A read must carry what it asked for; a create that brings nothing
	// back may or may not have happened (fail marks it).
	return false, fail("the answer has no "+missing, nil, c.cfg.key().scrub(data))
}

// readBody reads a success body up to max bytes.
func readBody(resp *http.Response, max int64) ([]byte, error) {
	if resp.ContentLength > max {
		return nil, ErrResponseTooLarge
	}
	var data []byte
	var err error
	if resp.ContentLength >= 0 {
		// One allocation of the announced size; the +1 lets the read see
		// EOF (or a body longer than announced) without growing, and
		// bounds the read without a LimitReader.
		data = make([]byte, resp.ContentLength+1)
		var n int
		n, err = io.ReadFull(resp.Body, data)
		data = data[:n]
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			err = nil
			if int64(n) < resp.ContentLength {
				err = io.ErrUnexpectedEOF
			}
		}
	} else {
		data, err = io.ReadAll(io.LimitReader(resp.Body, max+1))
	}
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, ErrResponseTooLarge
	}
	return data, nil
}

// discard drains a little of what is left of a body, so the connection can
// be reused, and closes it.
func discard(body io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, maxDrain))
	_ = body.Close()
}

func (c *Client) beforeAttempt(_ retryablehttp.Logger, r *http.Request, attempt int) {
	st := callFrom(r.Context())
	st.attempts = attempt + 1
	st.traced.Store(false)
	st.wrote.Store(false)
	if c.cfg.logger == nil {
		return
	}
	c.cfg.logger.LogAttrs(r.Context(), slog.LevelDebug, "padapi: sending",
		slog.String("method", st.method), slog.String("path", st.path), slog.Int("attempt", attempt+1))
}

func (c *Client) logResult(ctx context.Context, st *call, err error) {
	attrs := []slog.Attr{slog.String("method", st.method), slog.String("path", st.path), slog.Int("attempts", st.attempts)}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "padapi: done", attrs...)
}

// one sends a request through do and converts the wire type it decodes into
// the public type, so that each endpoint method is a line or two. It returns
// nil, nil only for a PUT or DELETE answered without the resource.
func one[W any, PW interface {
	*W
	response
}, T any](ctx context.Context, c *Client, r request, conv func(*W) T) (*T, error) {
	// The wire value and the result share one allocation.
	both := new(struct {
		w W
		v T
	})
	found, err := c.do(ctx, r, PW(&both.w))
	if err != nil || !found {
		return nil, err
	}
	both.v = conv(&both.w)
	return &both.v, nil
}

// resourcePath joins a collection path and an ID, escaped so that an ID can
// never reach another endpoint ("../quota" stays one path segment).
func resourcePath(collection string, id ID) (string, error) {
	if id == "" || id == "." || id == ".." {
		return "", argError(fmt.Sprintf("ID %q: need a non-empty ID other than . and ..", string(id)))
	}
	return collection + "/" + url.PathEscape(string(id)), nil
}
