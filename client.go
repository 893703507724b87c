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
	"net/url"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/capread"
	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/h2route"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
	"github.com/padinterview/padapi/internal/lib/pathcheck"
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
	hc  *http.Client
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
// method, API path, attempt, and for the outcome the last answer's status
// and the call's duration: never headers, the API key or query strings.
// Without it the client logs nothing.
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
		c.own = h2route.NewTransport(cfg.tls)
		// Wrapped, so that go-retryablehttp's CloseIdleConnections after
		// a failed call does not empty the pool the other calls share.
		rt = callerTransport{&http.Client{Transport: c.own}}
	}
	c.hc = &http.Client{
		Transport: rt,
		// A redirect is returned as it is: following one could send the
		// key to another host, or turn a POST into a GET.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	if cfg.hc != nil {
		c.hc.Timeout = cfg.hc.Timeout
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

// request is one API call as the pipeline sends it: made by an endpoint
// method, read by every step, written by none.
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
//
// The steps, each a function of values: the options of the read, made
// once (readingFor); the attempts (exchange, each one try: send, and read
// a 2xx body); the check of the last one, which turns it into v or an
// error (outcome.check, go-github's CheckResponse and decode).
func (c *Client) do(ctx context.Context, r *request, v any) (found bool, err error) {
	if ctx == nil {
		return false, argError("nil context")
	}
	if err := r.dryRun(ctx); err != nil {
		return false, err
	}
	o := c.readingFor(ctx, r, v)
	if o.capture != nil {
		*o.capture = Response{}
	}
	start := time.Now()
	attempts, status := 0, 0
	if err = ctx.Err(); err != nil {
		err = fmt.Errorf("padapi: %s %s: %w", r.method, r.path, err)
	} else if req, nerr := c.newRequest(ctx, r); nerr != nil {
		err = fmt.Errorf("padapi: %s %s: %w", r.method, r.path, nerr)
	} else {
		var a attempt
		var uncertain bool
		a, attempts, uncertain = c.exchange(ctx, req, r, o)
		if a.resp != nil {
			status = a.resp.StatusCode
		}
		out := outcome{request: r, attempts: attempts, uncertain: uncertain, k: c.cfg.key(), capture: o.capture, maxBody: c.cfg.maxBody}
		found, err = out.check(a, o, v)
	}
	if c.cfg.logger != nil {
		c.logResult(ctx, r, attempts, status, time.Since(start), err)
	}
	return found, err
}

// reading is how a call reads a success body, decided before the request
// and never changed.
type reading struct {
	// capture is the caller's WithResponse, nil when it asked for none.
	capture *Response
	// members is v when it decodes a list page as it streams, and
	// document v when it is an edit-history document, decoded whole as
	// it streams (a request with a link).
	members  envelope.MemberDecoder
	document any
	// keep is how much of the body is kept (-1: all): all of an answer
	// decode reads from the bytes (a pad, a question, the quota: small)
	// and all for WithResponse; of an answer decoded as it streams, only
	// what an error shows of it (APIError.Body), so that a page in
	// flight holds its pads and not its bytes beside them.
	keep int
}

// readingFor makes the options of r's read into v.
func (c *Client) readingFor(ctx context.Context, r *request, v any) reading {
	o := reading{capture: responseFrom(ctx), keep: -1}
	o.members, _ = v.(envelope.MemberDecoder)
	if r.link != "" {
		o.document, o.members = v, nil
	}
	switch {
	case o.capture != nil:
	case r.link != "":
		// A history document may be 31 MiB.
		o.keep = maxErrorBody + c.cfg.key().longest
	case o.members != nil:
		o.keep = maxPageErrorBody + c.cfg.key().longest
	}
	return o
}

// newRequest builds r's HTTP request, without its body (try gives each
// attempt its own).
func (c *Client) newRequest(ctx context.Context, r *request) (*http.Request, error) {
	target := r.link
	if target == "" {
		target = c.cfg.base + r.path
		if len(r.query) > 0 {
			target += "?" + r.query.Encode()
		}
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, nil)
	if err != nil {
		return nil, err
	}
	if r.link == "" {
		req.Header["Authorization"] = []string{c.cfg.key().header}
	}
	req.Header["Accept"] = []string{"application/json"}
	req.Header["User-Agent"] = []string{c.cfg.userAgent}
	if r.body != nil {
		req.Header["Content-Type"] = []string{r.body.contentType}
	}
	return req, nil
}

// answer is what an attempt read of a 2xx body.
type answer struct {
	// data is what was kept of the bytes (see reading.keep).
	data []byte
	// tooLarge is ErrResponseTooLarge for a body over the cap: a
	// definite answer, which check reports.
	tooLarge error
	// streamed reports that the answer was decoded as it came: env is
	// its envelope, streamErr what ended the read (an edit-history
	// document's fault, or a page's that is not one member's), memberErr
	// a page's first member that did not decode.
	streamed             bool
	env                  envelope.Envelope
	streamErr, memberErr error
}

// readAnswer reads a success body, checking the context at every read and
// stopping at the size cap. A list page and an edit-history document are
// decoded as they stream; any other answer (small: a pad, a question, the
// quota) is read, and check decodes it. Its error is the body's loss.
func readAnswer(ctx context.Context, resp *http.Response, r *request, o reading, maxBody int64) (answer, error) {
	var a answer
	if resp.ContentLength > maxBody {
		return answer{tooLarge: ErrResponseTooLarge}, nil
	}
	var cr capread.Reader
	cr.Reset(ctx, resp.Body, resp.ContentLength, maxBody, o.keep)
	switch {
	case o.document != nil:
		// Its own decoder, not a pooled one: its buffer may grow large.
		a.streamErr = decodeStream(jsontext.NewDecoder(&cr, decodeOptions), o.document)
		a.streamed = cr.Err() == nil
	case o.members != nil:
		o.members.Reset()
		envelope.WithDecoder(&cr, decodeOptions, func(dec *jsontext.Decoder) {
			a.env, a.memberErr, a.streamErr = envelope.DecodeMembers(dec, r.need, o.members, decodeOptions)
		})
		// Every error of the answer comes from the stream: its bytes
		// are not kept to read again.
		a.streamed = cr.Err() == nil
	}
	if !a.streamed || o.capture != nil {
		_ = cr.Rest() // all of it, for check or for WithResponse
	}
	a.data = cr.Kept()
	switch {
	case cr.Err() == nil:
		return a, nil
	case errors.Is(cr.Err(), ErrResponseTooLarge):
		a.tooLarge, a.streamed = cr.Err(), false
		if o.capture == nil {
			a.data = nil // kept only for WithResponse
		}
		return a, nil // a definite answer, for check to report
	}
	return answer{}, cr.Err()
}

// outcome is what check needs to know of a call once its attempts are
// over: the request, how many attempts it took, and whether an earlier
// one may have acted without a definite answer. Made once, never changed.
type outcome struct {
	*request
	attempts  int
	uncertain bool
	k         *credential
	capture   *Response
	maxBody   int64
}

// check turns the last attempt into v or an error: an *APIError for a
// definite answer that is not a success (go-github's CheckResponse), the
// transport's error for none.
func (out outcome) check(a attempt, o reading, v any) (bool, error) {
	if a.err != nil {
		if a.resp != nil {
			discard(a.resp.Body)
		}
		return false, out.transportError(a)
	}
	resp := a.resp
	switch {
	case resp.StatusCode < 200:
		// 101 Switching Protocols (or another 1xx that reached us): the
		// body is the raw connection, which may never say anything.
		// Close it unread; refusal reports the answer.
		_ = resp.Body.Close()
	case a.body.data != nil:
		defer resp.Body.Close() // read to its end: nothing to drain
	default:
		defer discard(resp.Body)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return out.refusal(resp)
	}
	out.record(resp, a.body.data)
	return out.decode(resp.StatusCode, a.body, v)
}

// transportError is the error for a call that got no HTTP answer. It wraps
// the cause without the URL (url.Error would add it, query and all) and
// without the key (a malformed status line or a GOAWAY's debug data may
// echo the Authorization header), and marks a create whose request may
// have been written as ErrOutcomeUnknown.
func (out outcome) transportError(a attempt) error {
	err := a.err
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	err = out.k.scrubErr(err)
	if out.method == http.MethodPost && a.sent {
		return fmt.Errorf("padapi: %s %s: %w: %w", out.method, out.path, ErrOutcomeUnknown, err)
	}
	return fmt.Errorf("padapi: %s %s: %w", out.method, out.path, err)
}

// decode turns a 2xx answer into v or into an *APIError.
func (out outcome) decode(status int, a answer, v any) (bool, error) {
	k := out.k
	if a.tooLarge != nil {
		return false, out.failure(status, fmt.Sprintf("response body over %d bytes", out.maxBody), a.tooLarge, nil)
	}
	data := a.data
	if out.link != "" && a.streamed && a.streamErr == nil {
		return true, nil // an edit-history document, decoded as it came
	}
	if _, ok := v.(envelope.MemberDecoder); ok && a.streamed {
		return out.decodeStreamed(status, a, data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return out.noBody(status)
	}
	if out.link != "" {
		// An edit-history document: no envelope, the whole body is v.
		// What was kept of a long one is its start: a decode of that
		// alone ends early and tells nothing of the fault.
		msg, cause := decodeFailure(k, a.streamErr, data, func(b []byte) error {
			if err := unmarshal(b, v); !errors.Is(err, io.ErrUnexpectedEOF) {
				return err
			}
			return nil
		})
		return false, out.failure(status, msg, cause, data)
	}
	return out.decodeEnveloped(status, data, v)
}

// noBody is the outcome of a 2xx answer without a body.
func (out outcome) noBody(status int) (bool, error) {
	if out.method == http.MethodPut || out.method == http.MethodDelete {
		return false, nil // done, and the answer says no more
	}
	return false, out.failure(status, "the answer has no body", nil, nil)
}

// decodeStreamed is the outcome of an answer decoded as it streamed (a
// list page), from what the stream found; data is the start of the body,
// for APIError.Body. A syntax error comes first, then a status other than
// OK (even beside a malformed list), then a member that did not decode.
func (out outcome) decodeStreamed(status int, a answer, data []byte) (bool, error) {
	switch err := a.streamErr; {
	case errors.Is(err, envelope.ErrEmpty):
		return out.noBody(status)
	case err != nil:
		return false, out.streamFailure(status, err, data)
	case a.env.Status != "OK":
		return false, out.statusError(status, a.env, data)
	case a.memberErr != nil:
		return false, out.streamFailure(status, a.memberErr, data)
	}
	return out.checkResource(status, a.env, data)
}

// streamFailure is the *APIError of an answer whose decode, as it
// streamed, failed with err: its message names the field or the byte,
// and quotes a few bytes of the value, scrubbed of the key before they
// are cut (the bytes themselves are gone).
func (out outcome) streamFailure(status int, err error, data []byte) *APIError {
	jsonerr.Seal(err, out.k.scrubBody)
	return out.failure(status, jsonerr.Describe(err, nil), err, data)
}

// refusal is the *APIError of a non-2xx answer, or found == false with no
// error for a delete whose earlier attempt did it.
func (out outcome) refusal(resp *http.Response) (bool, error) {
	if out.gone && resp.StatusCode == http.StatusNotFound && out.uncertain {
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
		snippet, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+int64(out.k.longest)))
	}
	out.record(resp, snippet)
	e := errorFromBody(resp, snippet, out.k)
	e.Method, e.Path, e.Attempts, e.quota = out.method, out.path, out.attempts, out.quota
	// A create answered with a 5xx, a 1xx or a redirect (a gateway's 303
	// See Other after forwarding it) may have been carried out.
	e.outcomeUnknown = out.method == http.MethodPost && (resp.StatusCode >= 500 || resp.StatusCode < 200 || resp.StatusCode/100 == 3)
	return false, e
}

// failure is the *APIError of a 2xx answer that cannot be used.
func (out outcome) failure(status int, msg string, cause error, body []byte) *APIError {
	k := out.k
	return &APIError{
		// A decoding error quotes a few bytes of the body, which
		// may be the key.
		StatusCode: status, Message: k.scrubText(msg), Method: out.method, Path: out.path,
		Attempts: out.attempts, Body: clipBytes(k.scrubBody(body)), quota: out.quota, err: k.scrubErr(cause),
		// A create that succeeded but whose answer was lost did
		// happen: the caller must not create again blindly.
		outcomeUnknown: out.method == http.MethodPost,
	}
}

// decodeEnveloped decodes a 2xx answer with the service's status envelope
// into v: a status other than OK, or an answer without the resource, is an
// *APIError.
func (out outcome) decodeEnveloped(status int, data []byte, v any) (bool, error) {
	raw, isRaw := v.(*stdjson.RawMessage)
	env, err := envelope.Read(data, out.need, v == nil || isRaw, decodeOptions)
	if out.bare {
		env, err = bareEnvelope(data, env, err)
	}
	if err != nil {
		msg, cause := decodeFailure(out.k, err, data, func(b []byte) error {
			_, err := envelope.Read(b, out.need, v == nil || isRaw, decodeOptions)
			return err
		})
		return false, out.failure(status, msg, cause, data)
	}
	if env.Status != "OK" {
		return false, out.statusError(status, env, data)
	}
	if isRaw {
		*raw, v = append((*raw)[:0], data...), nil // the service's bytes, as they came
	}
	if found, err := out.checkResource(status, env, data); !found || err != nil {
		return found, err
	}
	if v != nil {
		if err := unmarshal(data, v); err != nil {
			msg, cause := decodeFailure(out.k, err, data, func(b []byte) error { return unmarshal(b, v) })
			return false, out.failure(status, msg, cause, data)
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
func (out outcome) checkResource(status int, env envelope.Envelope, data []byte) (bool, error) {
	if (out.need != "" && !env.HasNeed) || env.Others == 0 {
		if out.method == http.MethodPut || out.method == http.MethodDelete {
			return false, nil // done, and the answer says no more
		}
		// A read must carry what it asked for; a create that brings
		// nothing back may or may not have happened (failure marks it).
		return false, out.failure(status, "the answer has no "+cmp.Or(out.what, "resource"), nil, data)
	}
	return true, nil
}

// statusError is the *APIError of a 2xx answer whose status is not OK.
func (out outcome) statusError(status int, env envelope.Envelope, data []byte) *APIError {
	k := out.k
	// Scrubbed before they are cut, so that no part of a key cut
	// at the end survives.
	s, message, code := clip(k.scrubText(env.Status), maxErrorBody), clip(k.scrubText(env.Message), maxErrorBody), clip(k.scrubText(env.Code), maxErrorBody)
	if message == "" {
		message = fmt.Sprintf("response status %q, want \"OK\"", clip(s, 64))
	}
	e := out.failure(status, message, nil, data)
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

// logResult logs a call's end: its method and path, how many attempts it
// took, the last answer's status (when there was one), the time the whole
// call took, and its error, if any. Never a header, the key or a query.
func (c *Client) logResult(ctx context.Context, r *request, attempts, status int, took time.Duration, err error) {
	attrs := []slog.Attr{slog.String("method", r.method), slog.String("path", r.path), slog.Int("attempts", attempts)}
	if status != 0 {
		attrs = append(attrs, slog.Int("status", status))
	}
	attrs = append(attrs, slog.Duration("duration", took))
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
