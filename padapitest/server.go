// Package padapitest runs an in-memory fake of the whole Pad Interview
// Service on loopback, for tests of code that uses padapi. It is to the Pad
// API what net/http/httptest is to HTTP: a real server with real state, not a
// mock of an interface, so what a test exercises is what runs in production.
//
// A test needs three lines:
//
//	srv := padapitest.NewServer(t) // closed by t.Cleanup
//	c := srv.Client()              // a *padapi.Client for the fake
//	err := codeUnderTest(ctx, c)   // then look at srv.Pads(), srv.Requests()
//
// The fake serves all 14 endpoints in the service's wire format. Its
// responses are written with encoding/json from padapi's own model types
// (Pad, Question, Quota, Organization, OrganizationStats), so the fake and the
// client cannot drift apart.
//
// # What it does
//
//   - Auth: only Server.APIKey, sent as Authorization: Token token="KEY", is
//     accepted; any other key or header gets 401 with
//     {"status":"ERROR","message":"Invalid API key"}.
//   - Quota: a new fake has a limited plan of 120 pads a month, none used,
//     last reset at the start of the current month (UTC). Each successful
//     POST /api/pads adds one to pads_used; when no pads remain a create gets
//     429 {"status":"ERROR","message":"Over quota"} and creates nothing.
//     AddPad and Seed do not count. GET /api/quota omits pads_remaining and
//     monthly_pad_limit when unlimited, as the service does.
//   - Pads get IDs like the service's (8 uppercase letters and digits, the
//     same sequence for every new fake); questions get integer IDs from 1.
//     Creates and updates read the form fields the service documents.
//     contents with question_id is 400; a question_id that names no question
//     is 400 too (the request is wrong; 404 is kept for the resource in the
//     path). A pad started from a question takes its language and contents.
//   - Lists give 50 items a page, the total, and absolute next_page and
//     prev_page links on the fake's own URL; sort is created_at or
//     updated_at with ,asc or ,desc (default created_at,desc), anything else
//     is 400; a page past the end is empty. Items with equal times come in
//     the order they were stored (created or added) for ,asc and in the
//     reverse order for ,desc, as when a database breaks ties by row ID in
//     the requested direction.
//   - Unknown IDs and unknown paths get 404 with the service's error body.
//   - The organization has two users; the API key belongs to the first, who
//     owns new pads and questions unless user_email says otherwise. The key
//     is an owner's, so /api/pads and /api/organization/pads both list every
//     pad (and the same for questions).
//   - Stats count the pads created in [start_time, end_time) per owner
//     email, computed from the state; the default window is the 7 days up to
//     now; start_time and end_time must come together.
//
// # Inspection and faults
//
// Requests records every request in arrival order, the API key redacted
// wherever it appears. FailNext, DropNext and Delay inject faults on one
// route, named by the ServeMux pattern the fake registers (see Routes), such
// as "POST /api/pads"; SetFaults draws a fault for each request.
//
// Every method of Server is safe for concurrent use.
package padapitest

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// DefaultAPIKey is the key a fake accepts unless WithAPIKey sets another.
const DefaultAPIKey = "padapitest-key"

// Server is a running fake of the Pad Interview Service.
type Server struct {
	// URL is the fake's base URL, such as http://127.0.0.1:41234.
	URL string
	// APIKey is the only API key the fake accepts.
	APIKey string

	ts        *httptest.Server
	t         testing.TB // nil when started by Start or Listen
	cfg       config
	auth      string // the Authorization header value that is accepted
	redact    *strings.Replacer
	done      chan struct{}
	closeOnce sync.Once
	mux       *http.ServeMux

	mu           sync.Mutex
	quota        quotaState
	org          padapi.Organization
	pads         []padapi.Pad // in creation order
	questions    []padapi.Question
	nextQuestion int64
	ids          *rand.Rand
	requests     []Request
	faults       map[string]*counted
	draw         func(route string, r Request) Fault // set by SetFaults
}

// Request is a request the fake received. The API key never appears in it:
// the Authorization value is replaced by "[REDACTED]", and so is the key,
// as is or URL-escaped, wherever else it appears in Path or in a value of
// Query, Form or Header.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path is the URL path, such as /api/pads/ABC.
	Path string
	// Query holds the query parameters; nil when there were none.
	Query url.Values
	// Form holds the form-encoded body's fields; nil when there were none.
	Form url.Values
	// Header holds the headers, with the Authorization value replaced by
	// "[REDACTED]".
	Header http.Header
}

// redacted stands for the API key in recorded requests.
const redacted = "[REDACTED]"

type config struct {
	apiKey string
	addr   string
	clock  func() time.Time
}

// Option configures a fake in NewServer, Start or Listen.
type Option func(*config)

// WithAPIKey sets the key the fake accepts (default DefaultAPIKey). It must
// be a key padapi.NewClient accepts, so that Server.Client works.
func WithAPIKey(key string) Option {
	return func(c *config) { c.apiKey = key }
}

// WithAddr sets the address the fake listens on (default 127.0.0.1:0, a free
// loopback port).
func WithAddr(addr string) Option {
	return func(c *config) { c.addr = addr }
}

// WithClock sets the fake's clock (default time.Now), which stamps created
// and updated times, ends pads and sets the default stats window and quota
// reset date. A fixed clock makes responses reproducible.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// NewServer starts a fake for a test and closes it when the test ends.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Listen(opts...)
	if err != nil {
		t.Fatalf("padapitest: %v", err)
	}
	s.t = t
	t.Cleanup(s.Close)
	return s
}

// Start starts a fake for a program (a command-line tool's demo mode, an
// example). The caller must call Close. Start panics when it cannot listen;
// Listen returns the error instead.
func Start(opts ...Option) *Server {
	s, err := Listen(opts...)
	if err != nil {
		panic("padapitest: " + err.Error())
	}
	return s
}

// Listen starts a fake like Start, but returns an error when it cannot
// listen on the address or when the API key is one padapi.NewClient would
// refuse.
func Listen(opts ...Option) (*Server, error) {
	cfg := config{apiKey: DefaultAPIKey, clock: time.Now}
	for _, opt := range opts {
		opt(&cfg)
	}
	if err := checkKey(cfg.apiKey); err != nil {
		return nil, err
	}
	s := &Server{
		APIKey:       cfg.apiKey,
		cfg:          cfg,
		auth:         `Token token="` + cfg.apiKey + `"`,
		redact:       newRedacter(cfg.apiKey),
		done:         make(chan struct{}),
		nextQuestion: 1,
		ids:          rand.New(rand.NewPCG(1, 2)),
		faults:       map[string]*counted{},
		org:          defaultOrganization(),
	}
	now := s.now()
	s.quota = quotaState{limit: 120, resetAt: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)}
	s.mux = s.newMux()

	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	if cfg.addr != "" {
		l, err := net.Listen("tcp", cfg.addr)
		if err != nil {
			s.ts.Close()
			return nil, err
		}
		s.ts.Listener.Close()
		s.ts.Listener = l
	}
	// Set before serving: a handler reads it, and the race detector cannot
	// see that a client learns the URL only after Listen returns.
	s.URL = "http://" + s.ts.Listener.Addr().String()
	s.ts.Start()
	return s, nil
}

// checkKey applies padapi.NewClient's rule for keys, so that a fake never
// accepts only a key no client can send.
func checkKey(key string) error {
	if key == "" {
		return errors.New("WithAPIKey: the key is empty")
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("WithAPIKey: the key has a character that is not allowed at byte %d (only printable ASCII without \" or \\)", i)
		}
	}
	return nil
}

// Close stops the fake. Requests waiting in a Delay end at once. Close may
// be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.ts.Close()
	})
}

// Client returns a client for the fake, with opts applied after the fake's
// own: short retry waits (1ms to 10ms, 3 retries) so that tests with faults
// stay fast. Pass padapi.WithRetry to change them. It fails the test (or
// panics, for a fake made by Start) when opts are invalid.
func (s *Server) Client(opts ...padapi.Option) *padapi.Client {
	opts = append([]padapi.Option{padapi.WithRetry(3, time.Millisecond, 10*time.Millisecond)}, opts...)
	c, err := padapi.NewClient(s.URL, s.APIKey, opts...)
	if err != nil {
		if s.t != nil {
			s.t.Helper()
			s.t.Fatalf("padapitest: Client: %v", err)
		}
		panic("padapitest: Client: " + err.Error())
	}
	return c
}

// Requests returns copies of the requests received so far, in arrival
// order, including those answered with an error or a fault.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = Request{Method: r.Method, Path: r.Path, Query: cloneValues(r.Query), Form: cloneValues(r.Form), Header: r.Header.Clone()}
	}
	return out
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	return url.Values(http.Header(v).Clone())
}

func (s *Server) now() time.Time {
	// Round(0) drops the monotonic reading, so stored times compare with ==
	// as well as with Equal.
	return s.cfg.clock().UTC().Round(0)
}

// handler serves one endpoint with the state locked. It returns the status
// and, for a success, the value to send (written with "status":"OK" added),
// or for an error the message.
type handler func(r *http.Request) (status int, body any)

// errorReply is what a handler returns for a failure.
type errorReply string

func fail(status int, format string, args ...any) (int, any) {
	return status, errorReply(fmt.Sprintf(format, args...))
}

// routes are the 14 endpoints, by the ServeMux pattern that serves each.
func (s *Server) routes() map[string]handler {
	return map[string]handler{
		"GET /api/quota":                  s.getQuota,
		"GET /api/pads":                   s.listPads,
		"GET /api/pads/{id}":              s.getPad,
		"POST /api/pads":                  s.createPad,
		"PUT /api/pads/{id}":              s.updatePad,
		"GET /api/questions":              s.listQuestions,
		"GET /api/questions/{id}":         s.getQuestion,
		"POST /api/questions":             s.createQuestion,
		"PUT /api/questions/{id}":         s.updateQuestion,
		"DELETE /api/questions/{id}":      s.deleteQuestion,
		"GET /api/organization":           s.getOrganization,
		"GET /api/organization/stats":     s.getStats,
		"GET /api/organization/pads":      s.listPads,
		"GET /api/organization/questions": s.listQuestions,
	}
}

// Routes returns the ServeMux patterns of the fake's endpoints, sorted: the
// names FailNext, DropNext and Delay take, and SetFaults gives.
func Routes() []string {
	names := make([]string, 0, 14)
	for name := range new(Server).routes() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// serveHTTP records the request, then routes it.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	formErr := r.ParseForm()
	s.record(r)
	if formErr != nil {
		writeJSON(w, http.StatusBadRequest, errorBody("Malformed form body"))
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) newMux() *http.ServeMux {
	m := http.NewServeMux()
	for pattern, h := range s.routes() {
		m.Handle(pattern, s.endpoint(pattern, h))
	}
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody("Not found"))
	})
	return m
}

func (s *Server) record(r *http.Request) {
	req := s.snapshot(r)
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
}

// snapshot copies r as Requests shows it: the Authorization value replaced
// by [REDACTED], and the API key, as is or URL-escaped, replaced by
// [REDACTED] in the path and in every header, query and form value, where a
// caller's hand-made request may carry it too.
func (s *Server) snapshot(r *http.Request) Request {
	req := Request{
		Method: r.Method,
		Path:   s.redact.Replace(r.URL.Path),
		Header: s.scrub(map[string][]string(r.Header)),
	}
	if _, ok := req.Header["Authorization"]; ok {
		req.Header["Authorization"] = []string{redacted}
	}
	if q := r.URL.Query(); len(q) > 0 {
		req.Query = s.scrub(q)
	}
	if len(r.PostForm) > 0 {
		req.Form = s.scrub(r.PostForm)
	}
	return req
}

// scrub copies a header or url.Values with the key redacted in every value.
func (s *Server) scrub(m map[string][]string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for name, values := range m {
		clean := make([]string, len(values))
		for i, v := range values {
			clean[i] = s.redact.Replace(v)
		}
		out[name] = clean
	}
	return out
}

// newRedacter replaces the key, and its escaped forms in a query or path.
func newRedacter(key string) *strings.Replacer {
	return strings.NewReplacer(key, redacted, url.QueryEscape(key), redacted, url.PathEscape(key), redacted)
}

// endpoint wraps a handler with the faults of its route and the auth check.
func (s *Server) endpoint(pattern string, h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d := s.delayOf(pattern); d > 0 {
			timer := time.NewTimer(d)
			defer timer.Stop()
			select {
			case <-timer.C:
			case <-r.Context().Done():
				return // the caller gave up: the handler does not run
			case <-s.done:
				return
			}
		}
		f := s.takeFault(pattern, r)
		if f.Status != 0 {
			writeRaw(w, f.Status, f.Body)
			return
		}
		var status int
		var body []byte
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(s.auth)) != 1 {
			status, body = http.StatusUnauthorized, errorBody("Invalid API key")
		} else {
			s.mu.Lock()
			var v any
			status, v = h(r)
			s.mu.Unlock()
			body = encode(status, v)
		}
		if f.Drop {
			dropConnection(w)
			return
		}
		writeJSON(w, status, body)
	})
}

// encode writes a handler's answer in the service's shape: the value's JSON
// object with "status":"OK" added, or {"status":"ERROR","message":...}.
func encode(status int, v any) []byte {
	if msg, ok := v.(errorReply); ok {
		return errorBody(string(msg))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return errorBody("padapitest: " + err.Error())
	}
	// Decoding into a map and adding the status is simpler than a wrapper
	// type, which would lose Pad's own MarshalJSON when embedding it.
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		m = map[string]json.RawMessage{}
	}
	m["status"] = json.RawMessage(`"OK"`)
	out, _ := json.Marshal(m)
	return out
}

func errorBody(msg string) []byte {
	b, _ := json.Marshal(struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}{"ERROR", msg})
	return b
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeRaw writes a body given by a test, labelled JSON only when it is.
func writeRaw(w http.ResponseWriter, status int, body string) {
	if json.Valid([]byte(body)) {
		writeJSON(w, status, []byte(body))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// dropConnection closes the connection without an answer.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2): aborting the handler resets the stream.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}
