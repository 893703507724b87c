// setup_test.go: the one test harness: server setup, client makers, request checks.

package padapi_test

// This file is the one test harness of the package: every test builds its
// client, its server and its expectations of a request with the helpers
// below (after go-github's setup, testMethod and testFormValues).

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/redact"
)

const (
	// testKey is the API key of every test client but those of the tests
	// that look for a key of their own in what the client prints.
	testKey = "test-key-0123456789abcdef"
	// testBase is the base URL of the clients that never dial: httpmock
	// and in-memory transports.
	testBase = "https://pad.example.test"
	// gwPrefix is the gateway prefix of the base URL of every client that
	// setup returns, so every endpoint test also checks that requests go
	// below it.
	gwPrefix = "/gw"
	// quotaURL and padsURL are GET /api/quota and the pad collection below
	// testBase.
	quotaURL = testBase + "/api/quota"
	padsURL  = testBase + "/api/pads"
	// okQuota is a valid quota body.
	okQuota = `{"status":"OK","pads_used":1,"quota_reset_at":"2024-03-01T00:00:00Z","unlimited":false,"pads_remaining":9,"monthly_pad_limit":10}`
	// okPad is a valid pad body.
	okPad = `{"status":"OK","id":"DM32JWG2","title":"x","owner_email":"","language":"go","participants":[],"contents":"","notes":"","events":[],"private":false,"execution_enabled":true,"created_at":"2014-11-14T03:02:45Z","updated_at":"2014-11-14T03:02:45Z","ended_at":null,"url":"https://app.coderpad.io/DM32JWG2","playback":"","history":""}`
)

// fastRetry keeps the default retry count with waits short enough for tests.
var fastRetry = padapi.WithRetry(3, time.Millisecond, 5*time.Millisecond)

// noRetry makes every call one request.
var noRetry = padapi.WithRetry(0, 0, 0)

// newTestClient is the one place the tests construct a client: it fails
// the test when NewClient refuses. Most tests pass testKey; those that look
// for a key in what the client prints pass one of their own.
func newTestClient(tb testing.TB, base, key string, opts ...padapi.Option) *padapi.Client {
	tb.Helper()
	c, err := padapi.NewClient(base, key, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// setup starts a loopback server for a new mux and returns a client whose
// base URL is the server's below gwPrefix. The tests register their
// handlers on the mux, with the prefix; a request no pattern matches fails
// the test, so a wrong method or path is caught even when the call under
// test reports no error.
func setup(tb testing.TB, opts ...padapi.Option) (*padapi.Client, *http.ServeMux) {
	tb.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		tb.Errorf("unexpected request %s %s", r.Method, r.RequestURI)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return newTestClient(tb, srv.URL+gwPrefix, testKey, opts...), mux
}

// serve starts a loopback server that answers every request with status
// and body, and returns a client for it with key.
func serve(tb testing.TB, key string, status int, body string, opts ...padapi.Option) *padapi.Client {
	tb.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		respond(w, status, []byte(body))
	}))
	tb.Cleanup(srv.Close)
	return newTestClient(tb, srv.URL, key, opts...)
}

// handle answers the requests to pattern on mux with status and body, and
// counts them.
func handle(mux *http.ServeMux, pattern string, status int, body []byte) *atomic.Int32 {
	var n atomic.Int32
	mux.HandleFunc(pattern, func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		respond(w, status, body)
	})
	return &n
}

// newMockClient returns a client for testBase whose requests go to a fresh
// httpmock transport, with fast retries unless opts say otherwise.
func newMockClient(t *testing.T, opts ...padapi.Option) (*padapi.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	opts = append([]padapi.Option{fastRetry, padapi.WithHTTPClient(&http.Client{Transport: mt})}, opts...)
	return newTestClient(t, testBase, testKey, opts...), mt
}

// fixture returns the contents of testdata/name.
func fixture(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// respond writes a JSON answer.
func respond(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// memoryAnswerKey is the context key of a memoryAnswer.
type memoryAnswerKey struct{}

// memoryAnswer is the HTTP answer that memoryTransport gives to a request.
type memoryAnswer struct {
	status int
	body   []byte
}

// memoryTransport answers each request with the memoryAnswer in its
// context, so one client serves any number of inputs, concurrently too.
type memoryTransport struct{}

func (memoryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	a := r.Context().Value(memoryAnswerKey{}).(memoryAnswer)
	return &http.Response{
		StatusCode:    a.status,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)),
		Request:       r,
	}, nil
}

// memoryClient is a client whose answers come from the call's context (see
// answering), without retries: every call is one request.
func memoryClient(tb testing.TB) *padapi.Client {
	tb.Helper()
	return newTestClient(tb, testBase, testKey, noRetry, padapi.WithHTTPClient(&http.Client{Transport: memoryTransport{}}))
}

// answering returns a context under which memoryTransport answers with
// status and body.
func answering(status int, body []byte) context.Context {
	return context.WithValue(context.Background(), memoryAnswerKey{}, memoryAnswer{status, body})
}

// rawJSONCmp compares raw JSON by meaning: the service's spacing survives
// in a json.RawMessage, but json.Marshal compacts it.
var rawJSONCmp = cmp.Comparer(func(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
})

// endpointCase is one call of an endpoint method: the request it must
// send, the testdata file the server answers with, and the value it must
// return.
type endpointCase struct {
	name   string
	call   func(context.Context, *padapi.Client) (any, error)
	method string
	path   string     // the escaped path on the wire, gateway prefix included
	query  url.Values // the exact query; empty means none at all
	form   url.Values // the exact form body; nil means no body
	// files are the file parts of a multipart body, by field name, as
	// filename and contents; a form with files is sent as multipart.
	files map[string][2]string
	file  string
	want  any
}

// runEndpoints runs each case against its own server, which checks every
// part of the request and answers once.
func runEndpoints(t *testing.T, cases []endpointCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := fixture(t, tc.file)
			c, mux := setup(t)
			var hits atomic.Int32
			mux.HandleFunc(tc.method+" "+tc.path, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				checkRequest(t, r, tc)
				respond(w, http.StatusOK, body)
			})
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("%s %s got %d requests, want 1", tc.method, tc.path, n)
			}
			if diff := cmp.Diff(tc.want, got, rawJSONCmp); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// checkRequest checks what the mux pattern cannot: the path exactly as
// escaped on the wire, the query, the headers and the body.
func checkRequest(t *testing.T, r *http.Request, tc endpointCase) {
	t.Helper()
	if path, _, _ := strings.Cut(r.RequestURI, "?"); path != tc.path {
		t.Errorf("path on the wire %q, want %q", path, tc.path)
	}
	if len(tc.query) == 0 && r.URL.RawQuery != "" {
		t.Errorf("query %q, want none", r.URL.RawQuery)
	} else if diff := cmp.Diff(tc.query, r.URL.Query()); len(tc.query) > 0 && diff != "" {
		t.Errorf("query mismatch (-want +got):\n%s", diff)
	}
	if got, want := r.Header.Get("Authorization"), `Token token="`+testKey+`"`; got != want {
		t.Errorf("Authorization %q, want %q", got, want)
	}
	ct := r.Header.Get("Content-Type")
	if tc.files != nil {
		checkMultipart(t, r, tc)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	if tc.form == nil {
		if len(body) != 0 || ct != "" {
			t.Errorf("body %q with Content-Type %q, want no body", body, ct)
		}
		return
	}
	if ct != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type %q, want application/x-www-form-urlencoded", ct)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		t.Fatalf("body %q is not a form: %v", body, err)
	}
	if diff := cmp.Diff(tc.form, form); diff != "" {
		t.Errorf("form mismatch (-want +got):\n%s", diff)
	}
}

// checkMultipart checks a multipart/form-data body: its values and its
// file parts, each with its filename.
func checkMultipart(t *testing.T, r *http.Request, tc endpointCase) {
	t.Helper()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{}
	files := map[string][2]string{}
	for _, p := range parts(t, r.Header.Get("Content-Type"), body) {
		if p.Filename != "" {
			files[p.Name] = [2]string{p.Filename, p.Body}
		} else {
			form.Add(p.Name, p.Body)
		}
	}
	if diff := cmp.Diff(tc.form, form); diff != "" {
		t.Errorf("multipart values mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tc.files, files); diff != "" {
		t.Errorf("multipart files mismatch (-want +got):\n%s", diff)
	}
}

// spread runs calls calls of call on workers goroutines, call i on worker
// i % workers, and waits for them all, within waitLimit.
func spread(tb testing.TB, workers, calls int, call func(worker, i int)) {
	tb.Helper()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < calls; i += workers {
				call(w, i)
			}
		}()
	}
	waitAll(tb, &wg)
}

// waitLimit bounds every wait of a test on goroutines, a channel or a
// condition, so that a bug fails the test rather than hanging the suite.
// It is a guard, not a measure: generous (a -race run of the concurrency
// tests on a 2-core runner at load 30 took 22 s of the 30 s it once was),
// since a passing run never waits it out and a slow machine must not fail.
const waitLimit = 2 * time.Minute

// waitHangUp holds a handler until the client hangs up (its request's
// context ends), and fails the test if that takes over waitLimit.
func waitHangUp(tb testing.TB, r *http.Request) {
	tb.Helper()
	select {
	case <-r.Context().Done():
	case <-time.After(waitLimit):
		tb.Errorf("%s: the client did not hang up within %v", r.URL.Path, waitLimit)
	}
}

// waitAll waits for wg, and fails the test if that takes over waitLimit.
func waitAll(tb testing.TB, wg *sync.WaitGroup) {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitLimit):
		tb.Fatalf("goroutines still running after %v", waitLimit)
	}
}

// part is one part of a multipart body.
type part struct {
	Name, Filename, ContentType, Body string
}

// parts reads a multipart/form-data request body into its parts.
func parts(t *testing.T, contentType string, body []byte) []part {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		t.Fatalf("Content-Type %q, want multipart/form-data with a boundary", contentType)
	}
	var ps []part
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return ps
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, part{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(b)})
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// offset is a fixed time zone east of UTC.
func offset(hours, minutes int) *time.Location {
	return time.FixedZone("", (hours*60+minutes)*60)
}

// allocated returns the bytes the process allocated on the heap, on
// average, in each of runs calls of f.
func allocated(runs int, f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&after)
	return (after.TotalAlloc - before.TotalAlloc) / uint64(runs)
}

// rawServer answers every request on a bare TCP listener with the bytes
// of response, then closes the connection: for answers net/http would not
// write, such as a body shorter than its Content-Length.
func rawServer(t *testing.T, response string) string {
	return rawServerFunc(t, func(*http.Request) string { return response })
}

// rawServerFunc is rawServer with the response made from each request.
func rawServerFunc(t *testing.T, answer func(*http.Request) string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
				r, err := http.ReadRequest(bufio.NewReader(conn))
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				_, _ = io.WriteString(conn, answer(r))
			}()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	return "http://" + l.Addr().String()
}

// The fuzz targets (each in the test file of the decoder it covers: FuzzQuota,
// FuzzPad, FuzzPadsList, FuzzErrorBody, FuzzEnvironment, FuzzEventsPage,
// FuzzUsersPage, FuzzHistoryFetch) feed server answers through the whole
// pipeline (status check, size cap, decoding, error building) and check what
// comes out: never a panic, never an error holding more than a bounded slice
// of the body, and the same result as encoding/json on the public types. The
// helpers below are theirs.

const (
	// maxErrorBody is the documented cap of APIError.Body.
	maxErrorBody = 64 << 10
	// maxErrorText bounds the text of an error, leaving out a message the
	// service wrote itself: enough for method, path, status and a short
	// description, far less than a body.
	maxErrorText = 1 << 10
)

// addFiles adds the JSON files of testdata matching pattern as seeds, so
// the documented responses and edge cases seed the fuzzers as they change.
func addFiles(f *testing.F, pattern string) {
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no seeds match testdata/%s (%v)", pattern, err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// serviceMessage is the "message" the service wrote in body, if any.
func serviceMessage(body []byte) (string, bool) {
	var w struct {
		Message string `json:"message"`
	}
	if padapi.UnmarshalForTest(body, &w) != nil || w.Message == "" {
		return "", false
	}
	return w.Message, true
}

// checkError checks the bounds every error of a call answered with body
// must keep: an *APIError's Body and Message fit the 64 KiB cap, and the
// error's text is short unless it carries the service's own message.
func checkError(t *testing.T, err error, body []byte) {
	t.Helper()
	if err == nil {
		return
	}
	text := err.Error()
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		if len(text) > maxErrorText {
			t.Fatalf("error text is %d bytes: %.200q...", len(text), text)
		}
		return
	}
	if _, ok := serviceMessage(body); !ok {
		for _, internal := range []string{"Wire", "Alias", "wireStatus"} {
			if strings.Contains(text, internal) {
				t.Fatalf("error text names an internal type: %.300q", text)
			}
		}
	}
	if len(apiErr.Body) > maxErrorBody {
		t.Fatalf("APIError.Body is %d bytes, over 64 KiB", len(apiErr.Body))
	}
	if len(apiErr.Message) > maxErrorBody {
		t.Fatalf("APIError.Message is %d bytes, over 64 KiB", len(apiErr.Message))
	}
	limit := maxErrorText
	for _, b := range [][]byte{apiErr.Body, body} {
		if msg, ok := serviceMessage(b); ok && strings.HasPrefix(msg, apiErr.Message) {
			limit += len(apiErr.Message)
			break
		}
	}
	if len(text) > limit {
		t.Fatalf("error text is %d bytes, over %d: %.200q...", len(text), limit, text)
	}
	if !startsWithScrubbed(body, apiErr.Body) {
		t.Fatalf("APIError.Body %.100q is not the start of the body", apiErr.Body)
	}
}

// startsWithScrubbed reports whether kept is the start of body with the
// key scrubbed: each redact.Mark in kept stands for a run of body that held
// the key or a part of it ("12345678" of testKey, say), and the text
// between the marks is body's, in order, from its first byte.
func startsWithScrubbed(body, kept []byte) bool {
	parts := bytes.Split(kept, []byte(redact.Mark))
	if !bytes.HasPrefix(body, parts[0]) {
		return false
	}
	rest := body[len(parts[0]):]
	for _, p := range parts[1:] {
		i := bytes.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// agree fails the run when the pipeline decoded body as got but
// encoding/json failed on it (directErr) or found direct instead.
func agree[T any](t *testing.T, body []byte, got, direct T, directErr error) {
	t.Helper()
	if directErr != nil {
		t.Fatalf("the pipeline decodes %q, json.Unmarshal fails: %v", body, directErr)
	}
	if diff := cmp.Diff(direct, got); diff != "" {
		t.Fatalf("%q: pipeline and json.Unmarshal differ (-json +pipeline):\n%s", body, diff)
	}
}

// decodesOK decodes body, which the pipeline accepted, into v with
// encoding/json alone, and fails the run unless that works and *status,
// which v's decode fills, is "OK".
func decodesOK(t *testing.T, body []byte, v any, status *string) {
	t.Helper()
	if err := padapi.UnmarshalForTest(body, v); err != nil {
		t.Fatalf("the pipeline decodes %q, json.Unmarshal fails: %v", body, err)
	}
	if *status != "OK" {
		t.Fatalf("the pipeline accepts %q, whose status is %q", body, *status)
	}
}

// roundTrips marshals v, decodes it into fresh, and wants v back.
func roundTrips[T any](t *testing.T, body []byte, v, fresh *T) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%q decodes, but does not marshal back: %v", body, err)
	}
	if err := padapi.UnmarshalForTest(out, fresh); err != nil {
		t.Fatalf("%q decodes and marshals as %s, which does not decode: %v", body, out, err)
	}
	if diff := cmp.Diff(v, fresh); diff != "" {
		t.Fatalf("%q: a trip through %s changes it (-before +after):\n%s", body, out, diff)
	}
}

// handlerTransport is an http.RoundTripper that serves each request with an
// http.Handler in-process: no socket, so a test inside a testing/synctest
// bubble can wait on it while the bubble's fake clock runs (a bubble cannot
// block durably on a real socket). The handler sees what a loopback server
// would show it (RequestURI, a body it may read, a context that ends when
// the client hangs up or closes the body); the client gets the status and
// headers at the handler's first WriteHeader, Write or Flush, and the body
// as the handler writes it. A body shorter than its Content-Length ends in
// io.ErrUnexpectedEOF, as on the wire. Any status, 1xx included, is final.
type handlerTransport struct{ h http.Handler }

// RoundTrip serves r with the handler.
func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	ctx, hangUp := context.WithCancel(r.Context())
	sr := r.Clone(ctx)
	sr.Body = io.NopCloser(bytes.NewReader(body))
	sr.RequestURI = r.URL.RequestURI()
	sr.RemoteAddr = "192.0.2.1:1234"
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	// The client's deadline or cancel ends a body read, as on the wire.
	stop := context.AfterFunc(r.Context(), func() { pr.CloseWithError(r.Context().Err()) })
	go func() {
		defer func() {
			w.WriteHeader(http.StatusOK)
			pw.Close()
		}()
		t.h.ServeHTTP(w, sr)
	}()
	select {
	case <-w.ready:
	case <-r.Context().Done():
		hangUp()
		return nil, r.Context().Err()
	}
	resp := &http.Response{
		Status: http.StatusText(w.status), StatusCode: w.status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.sent, ContentLength: -1, Request: r,
	}
	resp.Body = &pipeBody{r: pr, close: func() { stop(); hangUp(); pr.Close() }, left: -1}
	if n, err := strconv.ParseInt(w.sent.Get("Content-Length"), 10, 64); err == nil {
		resp.ContentLength = n
		resp.Body.(*pipeBody).left = n
	}
	return resp, nil
}

// pipeWriter is the http.ResponseWriter of handlerTransport.
type pipeWriter struct {
	header, sent http.Header
	status       int
	pw           *io.PipeWriter
	ready        chan struct{}
	once         sync.Once
}

func (w *pipeWriter) Header() http.Header { return w.header }

func (w *pipeWriter) WriteHeader(status int) {
	w.once.Do(func() {
		w.status, w.sent = status, w.header.Clone()
		close(w.ready)
	})
}

func (w *pipeWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(b)
}

// Flush sends the status and headers if the handler has not yet.
func (w *pipeWriter) Flush() { w.WriteHeader(http.StatusOK) }

// pipeBody is the response body of handlerTransport: left counts down a
// Content-Length, so a body that ends short is io.ErrUnexpectedEOF.
type pipeBody struct {
	r     *io.PipeReader
	close func()
	left  int64
}

func (b *pipeBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if b.left >= 0 {
		b.left -= int64(n)
		if err == io.EOF && b.left > 0 {
			err = io.ErrUnexpectedEOF
		}
	}
	return n, err
}

func (b *pipeBody) Close() error {
	b.close()
	return nil
}

// inMemory returns a client whose requests h serves in-process (see
// handlerTransport), for tests inside a synctest bubble; the base URL is
// testBase below gwPrefix, so h sees the prefix as setup's servers do.
func inMemory(tb testing.TB, h http.Handler, opts ...padapi.Option) *padapi.Client {
	tb.Helper()
	opts = append([]padapi.Option{padapi.WithHTTPClient(&http.Client{Transport: handlerTransport{h}})}, opts...)
	return newTestClient(tb, testBase+gwPrefix, testKey, opts...)
}

// setupMemory is setup with the mux served in-process by inMemory, for
// tests inside a synctest bubble.
func setupMemory(tb testing.TB, opts ...padapi.Option) (*padapi.Client, *http.ServeMux) {
	tb.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		tb.Errorf("unexpected request %s %s", r.Method, r.RequestURI)
		http.NotFound(w, r)
	})
	return inMemory(tb, mux, opts...), mux
}

// ecdsaCert is a self-signed ECDSA P-256 certificate for the addresses of
// httptest's own (127.0.0.1, ::1, example.com), made once a process. A
// server that opens many TLS connections uses it through useECDSACert: a
// P-256 handshake costs the server a small fraction of what httptest's
// RSA 2048 certificate does, and what the tests look at (connections,
// protocols, trust) does not depend on the key's kind.
var ecdsaCert = sync.OnceValues(func() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{Organization: []string{"padapi test"}},
		NotBefore:             time.Unix(0, 0),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"example.com"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
})

// useECDSACert makes the unstarted server s present ecdsaCert once it
// is started with StartTLS; s.Client() trusts it, as it trusts
// httptest's own.
func useECDSACert(t *testing.T, s *httptest.Server) {
	t.Helper()
	cert, err := ecdsaCert()
	if err != nil {
		t.Fatal(err)
	}
	if s.TLS == nil {
		s.TLS = &tls.Config{}
	}
	s.TLS.Certificates = []tls.Certificate{cert}
}
