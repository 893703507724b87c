// client.go: Client, NewClient, its options, and the one request pipeline (do).

package padapi

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/h2route"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
	"github.com/padinterview/padapi/internal/lib/pathcheck"
	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// Version is the version of this library, sent in the User-Agent header.
const Version = "0.5.0"

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
	// User reads whose API key this is.
	User *UserService

	// cfg is behind a pointer so that fmt of a Client (%v, %+v, %#v)
	// prints an address; the key in it is behind a func (see auth.go).
	cfg *config
	rc  *retryablehttp.Client
	// own is the transport the client built, nil with WithHTTPClient.
	own *h2route.Router
}

// service is what every service holds: the client, whose pipeline its
// methods use. The services are declared here, beside the Client that
// holds them; their methods live in the file of their resource.
type service struct{ client *Client }

// QuotaService reads the quota. Its one method makes it easy to stub:
// a caller can depend on interface{ Get(context.Context) (*padapi.Quota, error) }.
type QuotaService service

// PadsService lists, reads, creates, updates and deletes pads, and reads
// what happened in them: events, environments, edit history.
type PadsService service

// QuestionsService manages the question library.
type QuestionsService service

// OrganizationService reads the caller's organization. Its endpoints need an
// organization owner (or an organization that lets users see all pads);
// otherwise they fail with ErrForbidden.
type OrganizationService service

// UserService reads the user whose API key the client holds.
type UserService service

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
	listLimit int         // WithListLimit
	tls       *tls.Config // for the client's own transport; tests only
	err       error

	// key returns what the client knows of its API key. A func, because
	// fmt prints a func as an address whatever the verb or depth.
	key func() *credential
}

// Option configures a Client in NewClient.
type Option func(*config)

// WithHTTPClient sends requests through hc's Transport (http.DefaultTransport
// when nil), read on every request, and keeps hc's Timeout. The client never
// changes hc, and never follows redirects whatever hc.CheckRedirect says, so
// the API key only goes to the base URL's host. httpmock.ActivateNonDefault(hc)
// therefore intercepts every request, retries included, even when it is called
// after NewClient. A caller's transport may also retry by itself, outside
// WithRetry (net/http's HTTP/2 resends a request the server refused), but
// never a create: the client gives no transport a way to send one again.
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
// ("ua padapi-go/0.5.0 go/1.26"), so the service's operators can tell
// callers apart.
func WithUserAgent(ua string) Option {
	return func(c *config) {
		for i := 0; i < len(ua); i++ {
			if b := ua[i]; (b < 0x20 && b != '\t') || b == 0x7f {
				c.err = errors.New("padapi: WithUserAgent: the user agent has a line break or another control character")
				return
			}
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
// service DefaultBaseURL; a path prefix such as
// https://gateway.example.com/pad is kept) authenticating with apiKey.
//
// The base URL must be https, except for loopback hosts or with
// WithInsecureHTTP. The key must be non-empty printable ASCII without '"' or
// '\'. Errors never quote the key, nor the base URL's query or user
// information.
func NewClient(baseURL, apiKey string, opts ...Option) (*Client, error) {
	cfg := &config{
		userAgent: "padapi-go/" + Version + " go/" + strings.TrimPrefix(runtime.Version(), "go"),
		retryMax:  defaultRetryMax,
		waitMin:   defaultWaitMin,
		waitMax:   defaultWaitMax,
		maxBody:   defaultMaxBody,
		listLimit: defaultListLimit,
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
	base, err := pathcheck.BaseURL(baseURL, cfg.insecure)
	if err != nil {
		return nil, configError{err}
	}
	key := newCredential(apiKey)
	cfg.base, cfg.key = base, func() *credential { return key }

	c := &Client{cfg: cfg}
	var rt http.RoundTripper
	switch _, std := http.DefaultTransport.(*http.Transport); {
	case cfg.hc != nil:
		rt = callerTransport{cfg.hc}
	case !std:
		// An application that replaced http.DefaultTransport (a tracing
		// wrapper, httpmock.Activate) gets that transport, as its other
		// net/http calls do.
		rt = callerTransport{&http.Client{}}
	default:
		c.own = h2route.NewTransport(cfg.tls, unwanted)
		// Wrapped, so that go-retryablehttp's CloseIdleConnections after
		// a failed call does not empty the pool the other calls share,
		// and so that a dial can tell its attempt was answered.
		rt = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := c.own.RoundTrip(r)
			st := callFrom(r.Context())
			st.answered.Store(st.current.Load())
			return resp, err
		})
	}
	hc := &http.Client{
		Transport: rt,
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
		Backoff:      retrypolicy.Backoff,
		// Hand back the last response or error as it is: the pipeline
		// turns it into an *APIError rather than "giving up after N
		// attempts".
		ErrorHandler:   func(resp *http.Response, err error, _ int) (*http.Response, error) { return resp, err },
		RequestLogHook: c.beforeAttempt,
	}
	c.Quota = &QuotaService{client: c}
	c.Pads = &PadsService{client: c}
	c.Questions = &QuestionsService{client: c}
	c.Organization = &OrganizationService{client: c}
	c.User = &UserService{client: c}
	return c, nil
}

// Close releases the idle connections of the transport the client built
// for itself. It does nothing to a caller's *http.Client (WithHTTPClient).
// The client stays usable: a later call opens new connections.
func (c *Client) Close() {
	if c.own != nil {
		c.own.CloseIdleConnections()
	}
}

// request is one API call as the pipeline sends it.
type request struct {
	method string
	// path is the API path, escaped (/api/pads/ABC), below the base URL.
	path  string
	query url.Values
	body  *body // nil: no body
	// link, when set, is an absolute URL requested instead of the base URL
	// and path, without the API key, and its answer has no status envelope:
	// an edit-history link on another host.
	link string
	// need is the top-level key the answer must carry ("id" of a pad,
	// "pads" of a list; "" for any besides the status), and what names
	// the resource in the error when it does not ("pad", "\"pads\" list").
	need, what string
	// quota marks a request that spends the pad quota: its 429 is
	// ErrOverQuota rather than ErrRateLimited.
	quota bool
	// gone marks a delete: a 404 after an attempt that got no definite
	// answer means that attempt deleted the resource.
	gone bool
	// bare marks a route added in v5, whose answers may come without the
	// envelope (see bareEnvelope).
	bare bool
}

// get sends r and decodes its answer into a new T. It returns nil, nil only
// for a PUT or DELETE answered without the resource.
func get[T any](ctx context.Context, c *Client, r *request) (*T, error) {
	v := new(T)
	found, err := c.do(ctx, r, v)
	if err != nil || !found {
		return nil, err
	}
	return v, nil
}

// do is the one request pipeline: every endpoint goes through it. It sends
// r, retries as the method allows, and decodes a 2xx body whose status is
// "OK" into v (nil: decode nothing). Every other outcome is an error that
// names method and path.
//
// found is false, with a nil error, only for a PUT or DELETE that the
// service answered with a status alone or an empty body: success without
// the resource. A GET or POST answered so is an error.
func (c *Client) do(ctx context.Context, r *request, v any) (found bool, err error) {
	if ctx == nil {
		return false, argError("nil context")
	}
	if err := r.dryRun(ctx); err != nil {
		return false, err
	}
	st := &call{request: r, response: responseFrom(ctx)}
	if st.response != nil {
		*st.response = Response{}
	}
	found, err = c.send(ctx, st, v)
	if c.cfg.logger != nil {
		c.logResult(ctx, st, err)
	}
	return found, err
}

func (c *Client) send(ctx context.Context, st *call, v any) (bool, error) {
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
	ctx = context.WithValue(ctx, callKey{}, st)
	if st.method == http.MethodPost {
		// Only a create needs to know whether its request was written;
		// reads pay nothing for the trace.
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
			GetConn:      func(string) { st.traced.Store(true) },
			WroteHeaders: func() { st.wrote.Store(true) },
		})
	}
	var data any
	if st.body != nil {
		data = st.body.data
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
	req.SetResponseHandler(func(resp *http.Response) error {
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		return c.readAnswer(ctx, st, resp, v)
	})
	resp, err := c.rc.Do(req)
	if err != nil {
		if resp != nil {
			discard(resp.Body)
		}
		return false, st.transportError(c.cfg.key(), err)
	}
	switch {
	case resp.StatusCode < 200:
		// 101 Switching Protocols (or another 1xx that reached us): the
		// body is the raw connection, which may never say anything.
		// Close it unread; decode reports the answer.
		_ = resp.Body.Close()
	case st.answer != nil:
		defer resp.Body.Close() // read to its end: nothing to drain
	default:
		defer discard(resp.Body)
	}
	return c.decode(st, resp, v)
}

// readAnswer reads a success body, checking the context at every read and
// stopping at the size cap. A list page and an edit-history document are
// decoded as they stream; any other answer (small: a pad, a question, the
// quota) is read, and decode reads it.
//
// It runs inside the retry loop, as the read of the whole body did before
// the decode streamed: so a GET whose connection dies halfway through its
// body is still retried like one lost before the answer (the hostile and
// retry tests of bodies lost halfway rely on it), and a decode that
// started over is reset first. A create is not retried: its body's loss
// is ErrOutcomeUnknown, as before.
func (c *Client) readAnswer(ctx context.Context, st *call, resp *http.Response, v any) error {
	st.answer, st.answerErr, st.streamed, st.streamErr, st.memberErr = nil, nil, false, nil, nil
	if resp.ContentLength > c.cfg.maxBody {
		st.answerErr = ErrResponseTooLarge
		return nil
	}
	// What is kept of the bytes: all of an answer decode reads from
	// them (a pad, a question, the quota: small) and all for
	// WithResponse; of an answer decoded as it streams, only what an
	// error shows of it (APIError.Body), so that a page in flight holds
	// its pads and not its bytes beside them.
	keep := -1
	m, members := v.(envelope.MemberDecoder)
	switch {
	case st.response != nil:
	case st.link != "":
		// A history document may be 31 MiB.
		keep = maxErrorBody + c.cfg.key().longest
	case members:
		keep = maxPageErrorBody + c.cfg.key().longest
	}
	r := &st.reader // the call's own: no allocation per attempt
	r.Reset(ctx, resp.Body, resp.ContentLength, c.cfg.maxBody, keep)
	switch {
	case st.link != "":
		// Its own decoder, not a pooled one: its buffer may grow large.
		st.streamErr = decodeStream(jsontext.NewDecoder(r, decodeOptions), v)
		st.streamed = r.Err() == nil
	case members:
		m.Reset()
		envelope.WithDecoder(r, decodeOptions, func(dec *jsontext.Decoder) {
			st.env, st.memberErr, st.streamErr = envelope.DecodeMembers(dec, st.need, m, decodeOptions)
		})
		// Every error of the answer comes from the stream: its bytes
		// are not kept to read again.
		st.streamed = r.Err() == nil
	}
	if !st.streamed || st.response != nil {
		_ = r.Rest() // all of it, for decode or for WithResponse
	}
	st.answer = r.Kept()
	switch {
	case r.Err() == nil:
		return nil
	case errors.Is(r.Err(), ErrResponseTooLarge):
		st.answerErr, st.streamed = r.Err(), false
		if st.response == nil {
			st.answer = nil // kept only for WithResponse
		}
		return nil // a definite answer, for decode to report
	default:
		st.answer, st.streamed = nil, false
		return r.Err()
	}
}

// transportError is the error for a call that got no HTTP answer. It wraps
// the cause without the URL (url.Error would add it, query and all) and
// without the key (a malformed status line or a GOAWAY's debug data may
// echo the Authorization header), and marks a create whose request may
// have been written as ErrOutcomeUnknown.
func (st *call) transportError(k *credential, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	err = k.scrubErr(err)
	if st.method == http.MethodPost && st.mayHaveSent(st.lastErr) {
		return fmt.Errorf("padapi: %s %s: %w: %w", st.method, st.path, ErrOutcomeUnknown, err)
	}
	return fmt.Errorf("padapi: %s %s: %w", st.method, st.path, err)
}

// decode turns an HTTP answer into v or into an *APIError.
func (c *Client) decode(st *call, resp *http.Response, v any) (bool, error) {
	k := c.cfg.key()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return st.refusal(resp, k)
	}
	st.capture(resp, st.answer)
	if st.answerErr != nil {
		return false, st.failure(k, resp.StatusCode, fmt.Sprintf("response body over %d bytes", c.cfg.maxBody), st.answerErr, nil)
	}
	data := st.answer
	if st.link != "" && st.streamed && st.streamErr == nil {
		return true, nil // an edit-history document, decoded as it came
	}
	if _, ok := v.(envelope.MemberDecoder); ok && st.streamed {
		return st.decodeStreamed(k, resp.StatusCode, data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return st.noBody(k, resp.StatusCode)
	}
	if st.link != "" {
		// An edit-history document: no envelope, the whole body is v.
		// What was kept of a long one is its start: a decode of that
		// alone ends early and tells nothing of the fault.
		msg, cause := decodeFailure(k, st.streamErr, data, func(b []byte) error {
			if err := unmarshal(b, v); !errors.Is(err, io.ErrUnexpectedEOF) {
				return err
			}
			return nil
		})
		return false, st.failure(k, resp.StatusCode, msg, cause, data)
	}
	return st.decodeEnveloped(k, resp.StatusCode, data, v)
}

// noBody is the outcome of a 2xx answer without a body.
func (st *call) noBody(k *credential, status int) (bool, error) {
	if st.method == http.MethodPut || st.method == http.MethodDelete {
		return false, nil // done, and the answer says no more
	}
	return false, st.failure(k, status, "the answer has no body", nil, nil)
}

// decodeStreamed is the outcome of an answer decoded as it streamed (a
// list page), from what the stream found; data is the start of the body,
// for APIError.Body. A syntax error comes first, then a status other than
// OK (even beside a malformed list), then a member that did not decode.
func (st *call) decodeStreamed(k *credential, status int, data []byte) (bool, error) {
	switch err := st.streamErr; {
	case errors.Is(err, envelope.ErrEmpty):
		return st.noBody(k, status)
	case err != nil:
		return false, st.streamFailure(k, status, err, data)
	case st.env.Status != "OK":
		return false, st.statusError(k, status, st.env, data)
	case st.memberErr != nil:
		return false, st.streamFailure(k, status, st.memberErr, data)
	}
	return st.checkResource(k, status, st.env, data)
}

// streamFailure is the *APIError of an answer whose decode, as it
// streamed, failed with err: its message names the field or the byte,
// and quotes a few bytes of the value, scrubbed of the key before they
// are cut (the bytes themselves are gone).
func (st *call) streamFailure(k *credential, status int, err error, data []byte) *APIError {
	jsonerr.Seal(err, k.scrubBody)
	return st.failure(k, status, jsonerr.Describe(err, nil), err, data)
}

// refusal is the *APIError of a non-2xx answer, or found == false with no
// error for a delete whose earlier attempt did it.
func (st *call) refusal(resp *http.Response, k *credential) (bool, error) {
	if st.gone && resp.StatusCode == http.StatusNotFound && st.uncertain {
		// An earlier attempt got no definite answer, and the
		// resource is gone now: that attempt deleted it.
		return false, nil
	}
	var snippet []byte
	if resp.StatusCode >= 200 {
		// Read past the kept snippet by the key's length, so that a
		// key cut at the snippet's end is still found and scrubbed.
		// A 1xx answer (101 Switching Protocols) has no body to read:
		// its connection belongs to whoever asked for the switch.
		snippet, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+int64(k.longest)))
	}
	st.capture(resp, snippet)
	e := errorFromBody(resp, snippet, k)
	e.Method, e.Path, e.Attempts, e.quota = st.method, st.path, st.attempts, st.quota
	e.outcomeUnknown = st.method == http.MethodPost && (resp.StatusCode >= 500 || resp.StatusCode < 200)
	return false, e
}

// failure is the *APIError of a 2xx answer that cannot be used.
func (st *call) failure(k *credential, status int, msg string, cause error, body []byte) *APIError {
	return &APIError{
		// A decoding error quotes a few bytes of the body, which
		// may be the key.
		StatusCode: status, Message: k.scrubText(msg), Method: st.method, Path: st.path,
		Attempts: st.attempts, Body: clipBytes(k.scrubBody(body)), quota: st.quota, err: k.scrubErr(cause),
		// A create that succeeded but whose answer was lost did
		// happen: the caller must not create again blindly.
		outcomeUnknown: st.method == http.MethodPost,
	}
}

// decodeEnveloped decodes a 2xx answer with the service's status envelope
// into v: a status other than OK, or an answer without the resource, is an
// *APIError.
func (st *call) decodeEnveloped(k *credential, status int, data []byte, v any) (bool, error) {
	raw, isRaw := v.(*stdjson.RawMessage)
	env, err := envelope.Read(data, st.need, v == nil || isRaw, decodeOptions)
	if st.bare {
		env, err = bareEnvelope(data, env, err)
	}
	if err != nil {
		msg, cause := decodeFailure(k, err, data, func(b []byte) error {
			_, err := envelope.Read(b, st.need, v == nil || isRaw, decodeOptions)
			return err
		})
		return false, st.failure(k, status, msg, cause, data)
	}
	if env.Status != "OK" {
		return false, st.statusError(k, status, env, data)
	}
	if isRaw {
		*raw, v = append((*raw)[:0], data...), nil // the service's bytes, as they came
	}
	if found, err := st.checkResource(k, status, env, data); !found || err != nil {
		return found, err
	}
	if v != nil {
		if err := unmarshal(data, v); err != nil {
			msg, cause := decodeFailure(k, err, data, func(b []byte) error { return unmarshal(b, v) })
			return false, st.failure(k, status, msg, cause, data)
		}
	}
	return true, nil
}

// bareEnvelope is the envelope of an answer of a route added in v5 (a
// variant, a variant list, the user), which the peers' fixtures show
// without a status: a status absent (or null) reads as "OK", and a bare
// array as the list asked for.
func bareEnvelope(data []byte, env envelope.Envelope, err error) (envelope.Envelope, error) {
	if isArray(data) {
		return envelope.Envelope{Status: "OK", Others: 1, HasNeed: true}, nil
	}
	if err == nil && env.Status == "" {
		env.Status = "OK"
	}
	return env, err
}

// checkResource checks that an answer with status OK carries what the
// request asked for.
func (st *call) checkResource(k *credential, status int, env envelope.Envelope, data []byte) (bool, error) {
	if (st.need != "" && !env.HasNeed) || env.Others == 0 {
		if st.method == http.MethodPut || st.method == http.MethodDelete {
			return false, nil // done, and the answer says no more
		}
		// A read must carry what it asked for; a create that brings
		// nothing back may or may not have happened (failure marks it).
		return false, st.failure(k, status, "the answer has no "+cmp.Or(st.what, "resource"), nil, data)
	}
	return true, nil
}

// statusError is the *APIError of a 2xx answer whose status is not OK.
func (st *call) statusError(k *credential, status int, env envelope.Envelope, data []byte) *APIError {
	// Scrubbed before they are cut, so that no part of a key cut
	// at the end survives.
	s, message, code := clip(k.scrubText(env.Status), maxErrorBody), clip(k.scrubText(env.Message), maxErrorBody), clip(k.scrubText(env.Code), maxErrorBody)
	if message == "" {
		message = fmt.Sprintf("response status %q, want \"OK\"", clip(s, 64))
	}
	e := st.failure(k, status, message, nil, data)
	// A status other than OK is the service saying no: nothing was
	// created. An answer with no status at all (null, {}) says
	// nothing of the sort, and a create stays outcome-unknown.
	e.Status, e.Code = s, code
	e.outcomeUnknown = e.outcomeUnknown && env.Status == ""
	return e
}

// discard drains a little of what is left of a body, so the connection can
// be reused, and closes it.
func discard(body io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(body, maxDrain))
	_ = body.Close()
}

// beforeAttempt runs before every attempt: it counts attempts, makes a
// create's body impossible to replay, and logs when there is a logger.
func (c *Client) beforeAttempt(_ retryablehttp.Logger, r *http.Request, attempt int) {
	st := callFrom(r.Context())
	st.attempts = attempt + 1
	st.current.Store(int32(attempt + 1))
	st.traced.Store(false)
	st.wrote.Store(false)
	if r.Method == http.MethodPost {
		// A transport may resend a request whose body it can get again
		// (net/http's HTTP/2 does after a stream reset, once the server
		// may have acted on it): without GetBody, and with a body that
		// is never NoBody, none can. A create that needs another
		// attempt gets it from checkRetry, which knows whether the
		// first one was written.
		r.GetBody = nil
		if r.Body == nil || r.Body == http.NoBody {
			r.Body = io.NopCloser(bytes.NewReader(nil))
		}
	}
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

// resourcePath joins a collection path and an ID, escaped so that an ID can
// never reach another endpoint ("../quota" stays one path segment).
func resourcePath(collection string, id ID) (string, error) {
	if id == "" || id == "." || id == ".." {
		return "", argError(fmt.Sprintf("ID %q: need a non-empty ID other than . and ..", string(id)))
	}
	return collection + "/" + url.PathEscape(string(id)), nil
}

// DefaultBaseURL is the public Pad Interview Service, the base URL FromEnv
// uses when PAD_BASE_URL is not set.
const DefaultBaseURL = "https://app.coderpad.io"

// FromEnv returns a client for the service that PAD_BASE_URL names
// (DefaultBaseURL when it is unset or empty) with the key in PAD_API_KEY,
// as the Python client's from_env does. A missing key is an error matching
// ErrInvalidArgument that names PAD_API_KEY, the variable to set.
func FromEnv(opts ...Option) (*Client, error) {
	base := os.Getenv("PAD_BASE_URL")
	if base == "" {
		base = DefaultBaseURL
	}
	key := os.Getenv("PAD_API_KEY")
	if key == "" {
		return nil, configError{errors.New("padapi: PAD_API_KEY is not set: FromEnv reads the API key from it")}
	}
	return NewClient(base, key, opts...)
}

// Do sends one request to the service through the same pipeline as the
// typed methods (auth, retries, the size cap, the key scrub, POST safety)
// and decodes a successful answer into v. It reaches an endpoint or a field
// the typed methods do not cover yet.
//
// path is the escaped API path below the base URL ("/api/pads/ABC"); it
// must start with "/" and carry no query, fragment, "." or ".." segment.
// params go in the query of a GET or DELETE and form-encoded in the body
// of a POST or PUT (nil: none). v is a pointer to decode the body into, a
// *json.RawMessage (encoding/json's) to receive the service's bytes as they
// came, or nil.
//
// A body whose "status" is not "OK" is an *APIError, as for the typed
// methods. A PUT or DELETE answered with an empty body or a status alone
// succeeds and leaves v as it was.
func (c *Client) Do(ctx context.Context, method, path string, params url.Values, v any) error {
	r := &request{method: method, path: path, gone: method == http.MethodDelete}
	switch method {
	case http.MethodGet, http.MethodDelete:
		r.query = params
	case http.MethodPost, http.MethodPut:
		var f form // the one body encoder, keys in order as url.Values.Encode has them
		for _, name := range slices.Sorted(maps.Keys(params)) {
			for _, v := range params[name] {
				f.set(name, v)
			}
		}
		r.body = f.encode()
		r.quota = method == http.MethodPost && strings.TrimSuffix(path, "/") == "/api/pads"
	default:
		return argError("Do: method " + quoteShort([]byte(method)) + ": need GET, POST, PUT or DELETE")
	}
	if why := pathcheck.Check(path); why != "" {
		return argError("Do: " + why)
	}
	_, err := c.do(ctx, r, v)
	return err
}
