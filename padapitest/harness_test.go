// harness_test.go: the one test harness of the package's tests: a fake with a clock that moves only when told, both shapes, requests built by hand for what the client will not send, and the helpers more than one test file uses.

package padapitest_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// t0 is the fixed time of the tests' clock.
var t0 = time.Date(2026, 10, 14, 9, 30, 0, 0, time.UTC)

// clock is a test clock that moves only when told.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newFake starts a fake whose clock stands at t0 until advanced.
func newFake(t *testing.T, opts ...padapitest.Option) (*padapitest.Server, *padapi.Client, *clock) {
	t.Helper()
	clk := &clock{now: t0}
	srv := padapitest.NewServer(t, append([]padapitest.Option{padapitest.WithClock(clk.Now)}, opts...)...)
	return srv, srv.Client(), clk
}

// shapes are the fake's two shapes: the tests of what the endpoints answer
// run against both.
var shapes = []padapitest.Shape{padapitest.LiveShape, padapitest.DocumentedShape}

// eachShape runs test as a subtest against a fresh fake of each shape.
func eachShape(t *testing.T, test func(t *testing.T, srv *padapitest.Server, c *padapi.Client, clk *clock)) {
	t.Helper()
	for _, shape := range shapes {
		t.Run(shape.String(), func(t *testing.T) {
			srv, c, clk := newFake(t, padapitest.WithShape(shape))
			test(t, srv, c, clk)
		})
	}
}

// handMade builds a request to the fake by hand, for what the client will
// not send: auth ("" for none) as the Authorization header and, when form
// is not nil, a form body. target is a path on the fake, or an absolute
// URL (on the history listener, say).
func handMade(t *testing.T, srv *padapitest.Server, method, target, auth string, form url.Values) *http.Request {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req := newRequest(t, srv, method, target, auth, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return req
}

// part is one part of a hand-made multipart body: a text field, or a file
// when filename is not "".
type part struct{ name, filename, value string }

// multipartRequest builds a multipart/form-data request with the key.
func multipartRequest(t *testing.T, srv *padapitest.Server, method, target string, parts ...part) *http.Request {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		var err error
		if p.filename == "" {
			err = w.WriteField(p.name, p.value)
		} else {
			var fw io.Writer
			if fw, err = w.CreateFormFile(p.name, p.filename); err == nil {
				_, err = io.WriteString(fw, p.value)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	req := newRequest(t, srv, method, target, authOf(srv), &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return req
}

func newRequest(t *testing.T, srv *padapitest.Server, method, target, auth string, body io.Reader) *http.Request {
	t.Helper()
	if !strings.HasPrefix(target, "http") {
		target = srv.URL + target
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return req
}

// raw sends a hand-made request and returns the status and the decoded
// JSON body.
func raw(t *testing.T, srv *padapitest.Server, method, target, auth string, form url.Values) (int, map[string]any) {
	t.Helper()
	return send(t, handMade(t, srv, method, target, auth, form))
}

// send sends req and returns the status and the decoded JSON object it
// answered with.
func send(t *testing.T, req *http.Request) (int, map[string]any) {
	t.Helper()
	status, b := sendBytes(t, req)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s %s: body is not a JSON object: %v: %s", req.Method, req.URL, err, b)
	}
	return status, m
}

// sendBytes sends req and returns the status and the JSON body as sent.
func sendBytes(t *testing.T, req *http.Request) (int, []byte) {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type %q, want JSON", req.Method, req.URL, ct)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

func authOf(srv *padapitest.Server) string { return `Token token="` + srv.APIKey + `"` }

var padID = regexp.MustCompile(`^[A-Z0-9]{8}$`)

// zipOf returns a zip archive of the files, given as path and contents
// pairs.
func zipOf(t *testing.T, pathsAndContents ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(pathsAndContents); i += 2 {
		w, err := zw.Create(pathsAndContents[i])
		if err == nil {
			_, err = io.WriteString(w, pathsAndContents[i+1])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// history fetches and decodes an edit-history link with the client.
func history(t *testing.T, c *padapi.Client, link string) *padapi.History {
	t.Helper()
	h, err := c.Pads.History(context.Background(), link)
	if err != nil {
		t.Fatalf("History(%s): %v", link, err)
	}
	return h
}

// isNumber reports whether id is what live answers carry as an
// environment's pad_id: the pad's internal number, not its string key.
func isNumber(id padapi.ID) bool {
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n > 0
}

// stillServes fails the test unless the fake answers a quota read and a
// create within 30s: a lock held by an earlier request would make them
// wait forever, and a busy machine under -race can take seconds.
func stillServes(t *testing.T, srv *padapitest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := srv.Client(padapi.WithRetry(0, 0, 0))
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatalf("the fake no longer answers a read: %v", err)
	}
	if _, err := c.Pads.Create(ctx, nil); err != nil {
		t.Fatalf("the fake no longer answers a create: %v", err)
	}
	_ = srv.Requests() // takes the lock too
}
