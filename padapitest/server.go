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
// The fake serves every endpoint padapi calls, in the service's wire format.
// Its responses are written with encoding/json from padapi's own model types
// (Pad, Question, Quota, Organization, PadEnvironment, History, ...), so the
// fake and the client cannot drift apart.
//
// # Two shapes
//
// The service answers in two shapes: the one its documentation shows and the
// one live responses have (see WithShape). Each follows one source:
//
//   - LiveShape (the default) follows the answers recorded from the live
//     service (the module's docs/api-notes.md lists each difference from
//     the documented examples with its evidence; testdata/recorded holds
//     the recorded shapes): pads carry
//     state, type, team, question_ids, pad_environment_ids and
//     active_environment_id, their events as a link, and null for empty
//     language, contents, notes, history and drawing; the quota carries
//     overages_enabled; the organization and its users carry teams. The
//     vendor's current Postman collection shows the same pad fields.
//   - DocumentedShape follows the vendor's older reference pages (the
//     "Pad Resource", quota and organization pages with their inline
//     examples): pads carry their events as a list and none of the live
//     fields (no state, type, pad_environment_ids,
//     active_environment_id, question_ids or team), the quota has no
//     overages_enabled, and the organization names its default language
//     default_language. It does not follow the current collection, whose
//     pads have the live fields and their events as a link: a client
//     that reads LiveShape reads those.
//
// Both shapes send the quota's trial_expires_at (a timestamp, on every
// plan), event kinds created, joined, ran, left, ended, and enabled and
// disabled when a PUT switches code execution, and metadata "invisible"
// on the join of a seeded interviewer watching invisibly.
//
// # Strict about what it is sent
//
// A test against the fake means something against the service only when the
// fake refuses what the service refuses. Every endpoint answers 400 with the
// service's error body ({"status":"ERROR","message":...}) for:
//
//   - a form field or query parameter it does not take, such as a flat title
//     on a question create (questions take question[title], as a Rails form
//     sends it) or a shared that no endpoint takes; and any field given twice;
//   - a boolean other than true or false (but a pad update's ended and
//     deleted, of which the service heeds only true), or a question_id
//     that is not an integer or names no question;
//   - a question create without question[title] or question[language], an
//     empty title or language, or more than one of question[contents],
//     question[file_contents] and question[zip_file]; candidate instructions
//     or files that are not the JSON the service takes; a zip_file that is
//     not a file upload, not a zip archive, or bigger than 16 MiB unpacked;
//   - contents together with question_id on a pad;
//   - a body that is neither application/x-www-form-urlencoded nor
//     multipart/form-data (nor application/json, on the routes that take
//     it), or is malformed, or is over 32 MiB;
//   - a sort other than created_at or updated_at (with ,asc or ,desc), a
//     page that is not a positive integer, a stats window with one end.
//
// A page number past the last page, however large, is an empty page.
//
// # What it holds
//
//   - Auth: only Server.APIKey, sent as Authorization: Token token="KEY", is
//     accepted; any other key or header gets 401 with
//     {"status":"ERROR","message":"Invalid API key"}.
//   - Quota: a new fake has a limited plan of 120 pads a month, none used,
//     last reset at the start of the current month (UTC), and a trial
//     that ended a month before (SetTrialExpiresAt). Each successful
//     POST /api/pads adds one to pads_used; when no pads remain a create gets
//     429 {"status":"ERROR","message":"Over quota"} and creates nothing,
//     unless overages are enabled (SetOveragesEnabled). AddPad and Seed do
//     not count. The quota carries pads_remaining and monthly_pad_limit
//     whenever the plan is limited, unless SetOmitQuotaCounts says to leave
//     them out, as some live answers do.
//   - Pads get IDs like the service's (8 uppercase letters and digits, the
//     same sequence for every new fake); questions get integer IDs from 1,
//     environments from 1001. A pad started from a question takes its
//     language and its files.
//   - Every pad has at least one environment, listed in pad_environment_ids
//     and active_environment_id and served at /api/pad_environments/ID: its
//     language, and its files with the pad's contents as the first one.
//     Every file links its edit history on a second listener (HistoryURL),
//     as the service links documents on another host; so does the pad's
//     history link. Replaying a history (padapi.History.Replay) gives the
//     file's contents: every change of a pad's contents through the API
//     adds an entry. Changing the language switches to the pad's
//     environment of that language, or a new one; a question_id adds an
//     environment with the question's files.
//   - Every pad has an event log at /api/pads/ID/events: a creation event,
//     then one when code execution is switched off (kind "disabled") or on
//     ("enabled") and one when the pad ends; AddEvent adds more.
//   - PUT /api/pads/ID with deleted=true deletes the pad with its
//     environments, events and histories: they are 404 afterwards. Only
//     the value true ends or deletes: ended and deleted with any other
//     value are ignored, as the service's docs say, not refused.
//   - Lists give 50 items a page, the total, and absolute next_page and
//     prev_page links on the fake's own URL; sort is created_at or
//     updated_at with ,asc or ,desc (default created_at,desc). Items with
//     equal times come in the order they were stored for ,asc and in the
//     reverse order for ,desc, as when a database breaks ties by row ID in
//     the requested direction. Events sort by their time.
//   - List and create paths, and every other path, are served with and
//     without a trailing slash.
//   - Unknown IDs and unknown paths get 404 with the service's error body.
//   - The organization has two users in one team; the API key belongs to
//     the first, who owns new pads and questions unless user_email says
//     otherwise. The key is an owner's, so /api/pads and
//     /api/organization/pads both list every pad (and the same for
//     questions); SetCallerIsOwner(false) makes it a user's, who gets 403
//     from the organization endpoints. /api/organization/users?email=E
//     lists only that user.
//   - Stats count the pads created in [start_time, end_time) per owner
//     email, computed from the state; the default window is the 7 days up to
//     now.
//   - The routes added in v5 (docs/api-notes.md): a
//     question's variants at /api/questions/ID/variants (JSON bodies;
//     one variant per language or project template, ProjectTemplateIDs;
//     a language change clears the starter unless contents comes with
//     it; file_contents overlays the template's files on a create and
//     replaces that overlay on an update, [] giving the template's files
//     again; 404 for a variant of another question; 204 on a delete), and
//     GET /api/user, answering for the key (SetUser). Their answers carry
//     no "status", as the peers' fixtures show. Pads take the interview
//     controls, as a form or as JSON {"pad":{...}} (the only way the
//     access list comes), where a JSON boolean execution_enabled is
//     ignored, as the service ignores it: the rest applies, with a 2xx.
//   - Edit histories are served only to requests without an Authorization
//     header: the service's links point at another host, which must never
//     see the API key. A request that carries one gets 401.
//
// # Inspection and faults
//
// Requests records the requests in arrival order, the API key redacted
// wherever it appears: the last 10 000, each cut to 64 KiB of values and
// file contents, 32 MiB in all, unless WithRequestLog sets other bounds, so
// that a client that sends without end cannot grow the fake's memory
// without end. FailNext, DropNext and Delay inject faults on one
// route, named by the ServeMux pattern the fake registers (see Routes), such
// as "POST /api/pads"; SetFaults draws a fault for each request.
//
// No request can crash or wedge the fake: a handler that panics (a test's
// clock or fault function, say) answers 500 with the service's error body,
// and the fake goes on serving. Both listeners have read-header, read,
// write and idle timeouts and a header size limit (DefaultTimeouts; see
// WithTimeouts), so stalled clients cannot hold connections for ever.
//
// Every method of Server is safe for concurrent use.
package padapitest

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/padinterview/padapi"
)

// DefaultAPIKey is the key a fake accepts unless WithAPIKey sets another.
const DefaultAPIKey = "padapitest-key"

// Server is a running fake of the Pad Interview Service.
type Server struct {
	// URL is the fake's base URL, such as http://127.0.0.1:41234. It is
	// always one padapi.NewClient accepts: a fake listening on all
	// addresses names a loopback one.
	URL string
	// HistoryURL is the base URL of the second listener, which serves the
	// edit-history documents that pads and environment files link to.
	HistoryURL string
	// APIKey is the only API key the fake accepts.
	APIKey string

	api, history *httptest.Server
	t            TB // nil when started by Start or Listen
	cfg          config
	auth         string // the Authorization header value that is accepted
	redact       *strings.Replacer
	done         chan struct{}
	closeOnce    sync.Once

	mu        sync.Mutex
	quota     quotaState
	org       padapi.Organization
	pads      []*padState // in creation order
	questions []*questionState
	envs      map[padapi.ID]*envState
	next      struct{ question, env, entry, variant int64 }
	ids       *rand.Rand
	requests  requestLog
	faults    map[string]*counted
	draw      func(route string, r Request) Fault // set by SetFaults
	notOwner  bool                                // set by SetCallerIsOwner(false)
	keyUser   *padapi.User                        // set by SetUser
}

// Request is a request the fake received, on either listener. The API key
// never appears in it: the Authorization value is replaced by "[REDACTED]",
// and so is the key, as is or URL-escaped, wherever else it appears in Path,
// in a value of Query, Form or Header, or in a file name.
type Request struct {
	// Method is the HTTP method.
	Method string
	// Path is the URL path, such as /api/pads/ABC.
	Path string
	// Query holds the query parameters; nil when there were none.
	Query url.Values
	// Form holds the fields of a form-encoded or multipart body; nil when
	// there were none.
	Form url.Values
	// Files holds the file parts of a multipart body by field name; nil
	// when there were none.
	Files map[string][]File
	// JSON is a JSON body (application/json) as it came, the key
	// redacted; nil when there was none.
	JSON []byte
	// Header holds the headers, with the Authorization value replaced by
	// "[REDACTED]".
	Header http.Header
	// Truncated reports that the request was bigger than the log's cap
	// (WithRequestLog): some values or file contents above are cut short
	// or empty.
	Truncated bool
}

// File is a file part of a multipart request body.
type File struct {
	// Filename is the name the part gave; ContentType is its Content-Type.
	Filename    string
	ContentType string
	// Data is the part's content, as sent.
	Data []byte
}

// redacted stands for the API key in recorded requests.
const redacted = "[REDACTED]"

type config struct {
	apiKey string
	addr   string
	clock  func() time.Time
	shape  Shape
	log    logConfig
	limits Timeouts
	// pageSize is how many items a list page holds (pageSize unless
	// WithPageSize sets another).
	pageSize int
	// onRecord, when set (by the package's tests), runs after each request
	// is recorded, without the lock held.
	onRecord func()
}

// Option configures a fake in NewServer, Start or Listen.
type Option func(*config)

// WithAPIKey sets the key the fake accepts (default DefaultAPIKey). It must
// be a key padapi.NewClient accepts, so that Server.Client works.
func WithAPIKey(key string) Option {
	return func(c *config) { c.apiKey = key }
}

// WithAddr sets the address the fake listens on (default 127.0.0.1:0, a free
// loopback port). The history listener takes a free port on the same host.
func WithAddr(addr string) Option {
	return func(c *config) { c.addr = addr }
}

// WithClock sets the fake's clock (default time.Now), which stamps created
// and updated times, events and history entries, ends pads and sets the
// default stats window and quota reset date. A fixed clock makes responses
// reproducible.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// WithPageSize sets how many items a page of a list holds (default 50, as
// the service pages). A smaller page lets a test cross page boundaries, and
// page through a list, with a handful of items. A size below 1 keeps 50.
func WithPageSize(n int) Option {
	return func(c *config) {
		if n >= 1 {
			c.pageSize = n
		}
	}
}

// TB is the part of testing.TB that NewServer uses: a *testing.T, a
// *testing.B or any testing.TB is one. padapitest names it rather than
// importing package testing, so that a program that starts a fake (Start,
// Listen) does not link the testing package.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// NewServer starts a fake for a test and closes it when the test ends.
func NewServer(t TB, opts ...Option) *Server {
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
	s, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	cfg := s.cfg
	apiL, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, err
	}
	host, _, _ := net.SplitHostPort(cfg.addr)
	historyL, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		apiL.Close()
		return nil, err
	}
	// Set before serving: a handler reads them, and the race detector cannot
	// see that a client learns the URLs only after Listen returns.
	s.URL, s.HistoryURL = baseURL(apiL.Addr()), baseURL(historyL.Addr())
	apiMux, historyMux := s.muxes()
	s.api = &httptest.Server{Listener: apiL, Config: cfg.limits.server(s.serve(apiMux))}
	s.history = &httptest.Server{Listener: historyL, Config: cfg.limits.server(s.serve(historyMux))}
	s.api.Start()
	s.history.Start()
	return s, nil
}

// newServer makes a fake with opts applied, its state set up, listening
// nowhere yet.
func newServer(opts []Option) (*Server, error) {
	cfg := config{apiKey: DefaultAPIKey, addr: "127.0.0.1:0", clock: time.Now, log: defaultLog, limits: DefaultTimeouts, pageSize: pageSize}
	for _, opt := range opts {
		opt(&cfg)
	}
	if err := checkKey(cfg.apiKey); err != nil {
		return nil, err
	}
	s := &Server{
		APIKey: cfg.apiKey,
		cfg:    cfg,
		auth:   `Token token="` + cfg.apiKey + `"`,
		redact: newRedacter(cfg.apiKey),
		done:   make(chan struct{}),
		ids:    rand.New(rand.NewPCG(1, 2)),
		envs:   map[padapi.ID]*envState{},
		faults: map[string]*counted{},
		org:    defaultOrganization(),
		// The request log is bounded, so that a client sending without end
		// cannot grow the fake's memory without end.
		requests: requestLog{size: cfg.log.size},
	}
	s.next.question, s.next.env = 1, 1001
	now := s.now()
	resetAt := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	s.quota = quotaState{limit: 120, resetAt: resetAt, trialExpiresAt: padapi.Ptr(resetAt.AddDate(0, -1, 0))}
	return s, nil
}

// baseURL is the URL of a listener, naming 127.0.0.1 when the listener is
// on all addresses (0.0.0.0, [::]), which no client can dial as such and
// which padapi.NewClient refuses over plain http.
func baseURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return "http://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port))
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

// Close stops the fake and its history listener. Requests waiting in a
// Delay end at once. Close may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		if s.api != nil { // nil for a fake served in memory by the tests
			s.api.Close()
			s.history.Close()
		}
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

// Requests returns copies of the requests received so far, on both
// listeners, in arrival order, including those answered with an error or a
// fault: the last DefaultRequestLogSize of them, each cut to
// DefaultRequestBodyCap bytes, unless WithRequestLog says otherwise, and
// fewer when they hold over RequestLogBytes in all.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.requests.all()
	for i, r := range out {
		out[i] = r.clone()
	}
	return out
}

func (r Request) clone() Request {
	r.Query, r.Form, r.Header = cloneValues(r.Query), cloneValues(r.Form), r.Header.Clone()
	if r.Files != nil {
		files := make(map[string][]File, len(r.Files))
		for name, list := range r.Files {
			files[name] = slices.Clone(list)
			for i := range files[name] {
				files[name][i].Data = slices.Clone(list[i].Data)
			}
		}
		r.Files = files
	}
	return r
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

// handler serves one endpoint with the state locked. It returns the value
// to send (written with "status":"OK" added), or an error: an *apiError
// gives its status and message, any other error is a 500.
type handler func(r *http.Request) (any, error)

// apiError is a failure a handler answers with.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) error {
	return errorf(http.StatusBadRequest, format, args...)
}

// route is one endpoint: its handler, the form fields or query parameters
// it takes (any other is a 400), the fields that are file uploads,
// whether the history listener serves it rather than the API, and whether
// it needs an organization owner (403 otherwise).
type route struct {
	h       handler
	params  []string
	files   []string
	history bool
	owner   bool
	// json marks a route that takes a JSON body; bare one whose answers
	// carry no status, as the peers' fixtures of the routes added in v5
	// show.
	json, bare bool
}

var (
	listParams = []string{"sort", "page"}
	padFields  = []string{"title", "language", "contents", "question_id", "private", "execution_enabled", "user_email", "notes"}
	// A pad create also takes the interview controls (and, in a JSON body,
	// allowed_interviewer_emails).
	padCreateFields = append(slices.Clip(padFields), "team_id", "restrict_interviewer_access", "disable_coaching_tips",
		"take_home", "take_home_time_limit", "ai_assist_enabled")
	// A pad update takes a create's first fields and some controls, and
	// ends or deletes the pad.
	padUpdateFields = append(slices.Clip(padFields), "ended", "deleted", "restrict_interviewer_access", "disable_coaching_tips")
	questionFields  = []string{
		"question[title]", "question[language]", "question[description]", "question[contents]",
		"question[solution]", "question[ai_assist_custom_system_prompt]", "question[candidate_instructions]",
		"question[file_contents]", zipField,
	}
)

// zipField is the one file upload the fake takes.
const zipField = "question[zip_file]"

// routes are the endpoints, by the ServeMux pattern that serves each.
func (s *Server) routes() map[string]route {
	return map[string]route{
		"GET /api/quota":                  {h: s.getQuota},
		"GET /api/pads":                   {h: s.listPads, params: listParams},
		"GET /api/pads/{id}":              {h: s.getPad},
		"POST /api/pads":                  {h: s.createPad, params: padCreateFields, json: true},
		"PUT /api/pads/{id}":              {h: s.updatePad, params: padUpdateFields, json: true},
		"GET /api/pads/{id}/events":       {h: s.listEvents, params: listParams},
		"GET /api/pad_environments/{id}":  {h: s.getEnvironment},
		"GET /api/questions":              {h: s.listQuestions, params: listParams},
		"GET /api/questions/{id}":         {h: s.getQuestion},
		"POST /api/questions":             {h: s.createQuestion, params: questionFields, files: []string{zipField}},
		"PUT /api/questions/{id}":         {h: s.updateQuestion, params: questionFields, files: []string{zipField}},
		"DELETE /api/questions/{id}":      {h: s.deleteQuestion},
		"GET /api/organization":           {h: s.getOrganization, owner: true},
		"GET /api/organization/stats":     {h: s.getStats, params: []string{"start_time", "end_time"}, owner: true},
		"GET /api/organization/pads":      {h: s.listPads, params: listParams, owner: true},
		"GET /api/organization/questions": {h: s.listQuestions, params: listParams, owner: true},
		"GET /api/organization/users":     {h: s.listUsers, params: []string{"email"}, owner: true},
		"GET /history/{env}/{file}":       {h: s.getHistory, history: true},
		"GET /api/user":                   {h: s.getUser, bare: true},

		"GET /api/questions/{id}/variants":          {h: s.listVariants, bare: true},
		"POST /api/questions/{id}/variants":         {h: s.createVariant, json: true, bare: true},
		"GET /api/questions/{id}/variants/{vid}":    {h: s.getVariant, bare: true},
		"PUT /api/questions/{id}/variants/{vid}":    {h: s.updateVariant, json: true, bare: true},
		"DELETE /api/questions/{id}/variants/{vid}": {h: s.deleteVariant, bare: true},
	}
}

// Routes returns the ServeMux patterns of the fake's endpoints, sorted: the
// names FailNext, DropNext and Delay take, and SetFaults gives. The edit
// histories' route, "GET /history/{env}/{file}", is on the history listener.
func Routes() []string {
	return slices.Sorted(maps.Keys(new(Server).routes()))
}

// muxes returns the API's mux and the history listener's.
func (s *Server) muxes() (api, history *http.ServeMux) {
	api, history = http.NewServeMux(), http.NewServeMux()
	for pattern, rt := range s.routes() {
		m := api
		if rt.history {
			m = history
		}
		m.Handle(pattern, s.endpoint(pattern, rt))
	}
	api.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorBody("Not found"))
	})
	history.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, historyError("Not found"))
	})
	return api, history
}

// maxBody caps a request body, as a web server in front of the service
// would.
const maxBody = 32 << 20

// serve reads and records a request, then routes it. Whatever happens
// below, a panic answers 500 and the fake goes on serving: every lock is
// released by a deferred Unlock.
func (s *Server) serve(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v) // dropConnection's way to reset an HTTP/2 stream
				}
				writeJSON(w, http.StatusInternalServerError, errorBody("Internal server error"))
			}
		}()
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		js, bodyErr := readBody(r)
		if js != nil {
			r = withJSON(r, js)
		}
		if r.MultipartForm != nil {
			defer r.MultipartForm.RemoveAll()
		}
		s.record(r)
		if bodyErr != nil {
			status, body := s.encodeError(route{}, bodyErr)
			writeJSON(w, status, body)
			return
		}
		// Rails routes /api/pads/ as /api/pads: so does the fake, for every
		// path.
		if p := r.URL.Path; len(p) > 1 && strings.HasSuffix(p, "/") {
			r.URL.Path, r.URL.RawPath = strings.TrimSuffix(p, "/"), strings.TrimSuffix(r.URL.RawPath, "/")
		}
		mux.ServeHTTP(w, r)
	})
}

// readBody parses the query and a form or multipart body, reads a JSON
// body (returned, non-nil), and refuses a body of any other type.
func readBody(r *http.Request) ([]byte, error) {
	ct := r.Header.Get("Content-Type")
	switch mediaType, _, _ := strings.Cut(ct, ";"); strings.TrimSpace(strings.ToLower(mediaType)) {
	case "multipart/form-data":
		if err := r.ParseMultipartForm(maxBody); err != nil {
			return nil, bodyError(err)
		}
		return nil, nil
	case "", "application/x-www-form-urlencoded":
		if ct == "" && r.ContentLength != 0 && r.Method != http.MethodGet {
			return nil, badRequest("A request body needs a Content-Type: application/x-www-form-urlencoded or multipart/form-data")
		}
		return nil, bodyError(r.ParseForm())
	case "application/json":
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, bodyError(err)
		}
		return b, bodyError(r.ParseForm()) // b is never nil; the form is the query
	}
	if r.ContentLength == 0 {
		return nil, bodyError(r.ParseForm())
	}
	return nil, badRequest("Unsupported Content-Type %q: send application/x-www-form-urlencoded, multipart/form-data or application/json", ct)
}

func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &tooLarge):
		return badRequest("Request body over %d bytes", maxBody)
	}
	return badRequest("Malformed request: %v", err)
}

func (s *Server) record(r *http.Request) {
	req := s.snapshot(r)
	if s.cfg.onRecord != nil {
		defer s.cfg.onRecord() // after the Unlock below
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests.add(req, keptCost(req))
}

// snapshot copies r as Requests shows it: the Authorization value replaced
// by [REDACTED], and the API key, as is or URL-escaped, replaced by
// [REDACTED] in the path, in every header, query and form value and in
// file names, where a caller's hand-made request may carry it too. Values
// and file contents are kept up to the log's cap (WithRequestLog), the key
// redacted before any cut.
func (s *Server) snapshot(r *http.Request) Request {
	b := &budget{left: s.cfg.log.capBytes}
	header := r.Header
	if _, ok := header["Authorization"]; ok {
		header = maps.Clone(header)
		header["Authorization"] = []string{redacted}
	}
	req := Request{
		Method: r.Method,
		Path:   s.redact.Replace(r.URL.Path),
		Header: b.values(header, s.redact.Replace),
	}
	if q := r.URL.Query(); len(q) > 0 {
		req.Query = b.values(q, s.redact.Replace)
	}
	if len(r.PostForm) > 0 {
		req.Form = b.values(r.PostForm, s.redact.Replace)
	}
	if r.MultipartForm != nil && len(r.MultipartForm.File) > 0 {
		req.Files = map[string][]File{}
		for _, name := range slices.Sorted(maps.Keys(r.MultipartForm.File)) {
			for _, fh := range r.MultipartForm.File[name] {
				f := File{Filename: b.take(s.redact.Replace(fh.Filename)), ContentType: fh.Header.Get("Content-Type")}
				f.Data = b.file(fh)
				req.Files[s.redact.Replace(name)] = append(req.Files[s.redact.Replace(name)], f)
			}
		}
	}
	if js, ok := jsonOf(r); ok {
		req.JSON = []byte(b.take(s.redact.Replace(string(js))))
	}
	req.Truncated = b.cut
	return req
}

// newRedacter replaces the key, and its escaped forms in a query or path.
func newRedacter(key string) *strings.Replacer {
	return strings.NewReplacer(key, redacted, url.QueryEscape(key), redacted, url.PathEscape(key), redacted)
}

// endpoint wraps a route's handler with the route's faults, the auth check
// and the parameter check.
func (s *Server) endpoint(pattern string, rt route) http.Handler {
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
		status, body := s.answer(rt, r)
		if f.Drop {
			dropConnection(w)
			return
		}
		writeJSON(w, status, body)
	})
}

// answer checks the request's credentials and parameters, runs the handler
// with the state locked, and encodes what it returns.
func (s *Server) answer(rt route, r *http.Request) (status int, body []byte) {
	_, hasAuth := r.Header["Authorization"]
	switch {
	case rt.history && hasAuth:
		// The service's history links point at another host, which must
		// never be sent the API key (nor any other credential).
		return http.StatusUnauthorized, historyError("Requests for an edit history must not carry an Authorization header")
	case !rt.history && subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(s.auth)) != 1:
		return http.StatusUnauthorized, errorBody("Invalid API key")
	}
	if rt.owner && !s.callerIsOwner() {
		return http.StatusForbidden, errorBody(notOwnerMessage)
	}
	if _, js := jsonOf(r); js && !rt.json {
		return s.encodeError(rt, badRequest("Unsupported Content-Type application/json: send application/x-www-form-urlencoded or multipart/form-data"))
	}
	if err := checkParams(r, rt); err != nil {
		return s.encodeError(rt, err)
	}
	v, err := s.locked(rt.h, r)
	if err != nil {
		return s.encodeError(rt, err)
	}
	switch v := v.(type) {
	case document:
		return http.StatusOK, v
	case noContent:
		return http.StatusNoContent, nil
	}
	if rt.bare {
		b, err := json.Marshal(v)
		if err != nil {
			return s.encodeError(rt, err)
		}
		return http.StatusOK, b
	}
	b, err := patch(v, func(m map[string]json.RawMessage) { m["status"] = json.RawMessage(`"OK"`) })
	if err != nil {
		return s.encodeError(rt, err)
	}
	return http.StatusOK, b
}

// notOwnerMessage is the message of the 403 the organization endpoints
// answer a caller who is not an owner.
const notOwnerMessage = "You must be an organization owner to access this resource"

// SetCallerIsOwner makes the API key's user an owner of the organization
// (true, the default) or not (false). A caller who is not an owner gets
// 403 with the service's error body from every organization endpoint
// (GET /api/organization and the paths below it), as the service answers
// one whose organization does not let users see all pads; the caller's
// own endpoints (quota, pads, questions) answer as before.
func (s *Server) SetCallerIsOwner(owner bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notOwner = !owner
}

func (s *Server) callerIsOwner() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.notOwner
}

// locked runs h with the state locked. The deferred Unlock releases the
// lock when h panics, so that one bad request cannot wedge the fake.
func (s *Server) locked(h handler, r *http.Request) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return h(r)
}

// document is a handler's answer sent as it is, without the status
// envelope: an edit-history document.
type document []byte

// checkParams refuses a query parameter or form field the route does not
// take, one given more than once, and a file part the route does not take.
func checkParams(r *http.Request, rt route) error {
	// In name order, so that the message for a request is always the same.
	for _, name := range slices.Sorted(maps.Keys(r.Form)) {
		switch values := r.Form[name]; {
		case !slices.Contains(rt.params, name):
			return unknownParam(r, name)
		case len(values) > 1:
			return badRequest("%s is given %d times", name, len(values))
		}
	}
	if r.MultipartForm == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(r.MultipartForm.File)) {
		files := r.MultipartForm.File[name]
		switch {
		case !slices.Contains(rt.files, name):
			if slices.Contains(rt.params, name) {
				return badRequest("%s is a text field, not a file upload", name)
			}
			return unknownParam(r, name)
		case len(files) > 1 || r.Form.Has(name):
			return badRequest("%s is given more than once", name)
		}
	}
	return nil
}

func unknownParam(r *http.Request, name string) error {
	if r.Method == http.MethodGet || r.Method == http.MethodDelete {
		return badRequest("Unknown parameter %s", name)
	}
	return badRequest("Unknown field %s", name)
}

// encodeError writes err in the shape of the route's host: the service's
// error body on the API, the realtime database's on the history listener.
// An error that is not an *apiError is a 500. Messages never hold the key.
func (s *Server) encodeError(rt route, err error) (int, []byte) {
	status, msg := http.StatusInternalServerError, "padapitest: "+err.Error()
	var e *apiError
	if errors.As(err, &e) {
		status, msg = e.status, e.msg
	}
	msg = s.redact.Replace(msg)
	if rt.history {
		return status, historyError(msg)
	}
	return status, errorBody(msg)
}

func errorBody(msg string) []byte {
	b, _ := json.Marshal(struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}{"ERROR", msg})
	return b
}

// historyError is an error body of the history host, a realtime database.
func historyError(msg string) []byte {
	b, _ := json.Marshal(struct {
		Error string `json:"error"`
	}{msg})
	return b
}

// patch marshals v, a JSON object, and lets edit change its fields.
func patch(v any, edit func(map[string]json.RawMessage)) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	edit(m)
	return json.Marshal(m)
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
