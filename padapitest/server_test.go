package padapitest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func TestRoutes(t *testing.T) {
	want := []string{
		"DELETE /api/questions/{id}", "GET /api/organization", "GET /api/organization/pads",
		"GET /api/organization/questions", "GET /api/organization/stats", "GET /api/organization/users",
		"GET /api/pad_environments/{id}", "GET /api/pads", "GET /api/pads/{id}", "GET /api/pads/{id}/events",
		"GET /api/questions", "GET /api/questions/{id}", "GET /api/quota", "GET /history/{env}/{file}",
		"POST /api/pads", "POST /api/questions", "PUT /api/pads/{id}", "PUT /api/questions/{id}",
		"GET /api/user", "GET /api/questions/{id}/variants", "POST /api/questions/{id}/variants",
		"GET /api/questions/{id}/variants/{vid}", "PUT /api/questions/{id}/variants/{vid}", "DELETE /api/questions/{id}/variants/{vid}",
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, padapitest.Routes()); diff != "" {
		t.Errorf("Routes() (-want +got):\n%s", diff)
	}
}

func TestAuth(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAPIKey("right-key"))
	c, err := padapi.NewClient(srv.URL, "wrong-key")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.Is(err, padapi.ErrUnauthorized) || !errors.As(err, &apiErr) || apiErr.Message != "Invalid API key" {
		t.Errorf("wrong key: %v, want ErrUnauthorized with the service's message", err)
	}
	if _, err := srv.Client().Quota.Get(context.Background()); err != nil {
		t.Errorf("right key: %v", err)
	}
	for _, header := range []string{"", "Token right-key", `Bearer right-key`, `Token token="right-key`, `Token token="other-key"`, `Token token=right-key`} {
		status, body := raw(t, srv, "GET", "/api/quota", header, nil)
		want := map[string]any{"status": "ERROR", "message": "Invalid API key"}
		if status != 401 || !cmp.Equal(want, body) {
			t.Errorf("Authorization %q: %d %v, want 401 %v", header, status, body, want)
		}
	}
}

func TestRequestsRedactKey(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAPIKey("s3cret-key"))
	c := srv.Client()
	if _, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("t"), Private: padapi.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[0]; got.Method != "POST" || got.Path != "/api/pads" || got.Query != nil ||
		!cmp.Equal(got.Form, url.Values{"title": {"t"}, "private": {"true"}}) {
		t.Errorf("create recorded as %+v", got)
	}
	if got := reqs[1]; got.Method != "GET" || got.Form != nil || !cmp.Equal(got.Query, url.Values{"sort": {"updated_at,asc"}}) {
		t.Errorf("list recorded as %+v", got)
	}
	for _, r := range reqs {
		if got := r.Header.Get("Authorization"); got != "[REDACTED]" {
			t.Errorf("Authorization recorded as %q", got)
		}
		if dump, _ := json.Marshal(r); strings.Contains(string(dump), "s3cret-key") {
			t.Errorf("the key is in a recorded request: %s", dump)
		}
	}
	reqs[0].Header.Set("Authorization", "changed")
	reqs[0].Form.Set("title", "changed")
	if again := srv.Requests()[0]; again.Header.Get("Authorization") != "[REDACTED]" || again.Form.Get("title") != "t" {
		t.Errorf("Requests() returned the fake's own maps: %+v", again)
	}
}

// TestRequestsRedactKeyEverywhere sends hand-made requests that carry the
// key outside the Authorization header, as is and URL-escaped: Requests, and
// the requests SetFaults hands to its function, show it nowhere.
func TestRequestsRedactKeyEverywhere(t *testing.T) {
	const key = "s3cret key/+&=?" // escapes differently in a query and a path
	srv := padapitest.NewServer(t, padapitest.WithAPIKey(key))
	var drawn []padapitest.Request
	var mu sync.Mutex
	srv.SetFaults(func(_ string, r padapitest.Request) padapitest.Fault {
		mu.Lock()
		defer mu.Unlock()
		drawn = append(drawn, r)
		return padapitest.Fault{}
	})
	query := url.Values{"api_key": {key}, "note": {"before" + key + "after"}, "sort": {"updated_at,asc"}}
	form := url.Values{"title": {"t"}, "notes": {"key: " + key}}
	send := func(method, target string, form url.Values) {
		t.Helper()
		req := handMade(t, srv, method, target, authOf(srv), form)
		req.Header.Set("X-Api-Key", key)
		req.Header.Add("X-Api-Key", "other")
		req.Header.Set("Referer", "https://example.com/?key="+url.QueryEscape(key))
		req.Header.Set("X-Path", "/keys/"+url.PathEscape(key))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send("GET", "/api/pads?"+query.Encode(), nil)
	send("POST", "/api/pads?"+query.Encode(), form)
	send("GET", "/api/pads/"+url.PathEscape(key), nil)
	send("POST", "/api/pads", form)

	reqs := srv.Requests()
	if len(reqs) != 4 || len(drawn) != 4 {
		t.Fatalf("%d requests recorded and %d drawn, want 4 and 4", len(reqs), len(drawn))
	}
	for i, r := range append(reqs, drawn...) {
		dump, _ := json.Marshal(r)
		for _, form := range []string{key, url.QueryEscape(key), url.PathEscape(key), "s3cret"} {
			if strings.Contains(string(dump), form) {
				t.Errorf("request %d holds the key as %q: %s", i, form, dump)
			}
		}
		if !cmp.Equal(r.Header["X-Api-Key"], []string{"[REDACTED]", "other"}) ||
			r.Header.Get("Authorization") != "[REDACTED]" ||
			r.Header.Get("Referer") != "https://example.com/?key=[REDACTED]" ||
			r.Header.Get("X-Path") != "/keys/[REDACTED]" {
			t.Errorf("request %d headers: %v", i, r.Header)
		}
	}
	wantQuery := url.Values{"api_key": {"[REDACTED]"}, "note": {"before[REDACTED]after"}, "sort": {"updated_at,asc"}}
	if !cmp.Equal(reqs[0].Query, wantQuery) || !cmp.Equal(reqs[1].Query, wantQuery) {
		t.Errorf("queries recorded as %v and %v, want %v", reqs[0].Query, reqs[1].Query, wantQuery)
	}
	if want := (url.Values{"title": {"t"}, "notes": {"key: [REDACTED]"}}); !cmp.Equal(reqs[1].Form, want) {
		t.Errorf("form recorded as %v, want %v", reqs[1].Form, want)
	}
	if reqs[2].Path != "/api/pads/[REDACTED]" {
		t.Errorf("path recorded as %q", reqs[2].Path)
	}
	// Only the key is redacted: the create without unknown fields ran with
	// the form as sent.
	if pads := srv.Pads(); len(pads) != 1 || pads[0].Notes != "key: "+key {
		t.Errorf("the fake holds %+v, want the pad with its notes as sent", pads)
	}

	// Refusals that name what was sent never name the key.
	for _, req := range []*http.Request{
		handMade(t, srv, "POST", "/api/pads", authOf(srv), url.Values{key: {"x"}}),
		handMade(t, srv, "GET", "/api/pads?sort="+url.QueryEscape(key), authOf(srv), nil),
		handMade(t, srv, "GET", "/api/pads?page="+url.QueryEscape(key), authOf(srv), nil),
		handMade(t, srv, "PUT", "/api/pads/"+string(srv.Pads()[0].ID), authOf(srv), url.Values{"private": {key}}),
	} {
		status, b := sendBytes(t, req)
		if status != 400 || strings.Contains(string(b), "s3cret") || !strings.Contains(string(b), "[REDACTED]") {
			t.Errorf("%s %s: %d %s, want a 400 whose message shows [REDACTED] for the key", req.Method, req.URL.Path, status, b)
		}
	}
}

func TestDeterministic(t *testing.T) {
	body := func() string {
		srv := padapitest.NewServer(t, padapitest.WithClock(func() time.Time { return t0 }))
		srv.Seed(4)
		if _, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")}); err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("GET", srv.URL+"/api/pads", nil)
		req.Header.Set("Authorization", authOf(srv))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		// Only the port differs between two fakes.
		return strings.NewReplacer(srv.URL, "URL", srv.HistoryURL, "HISTORY").Replace(string(b))
	}
	if a, b := body(), body(); a != b {
		t.Errorf("two fakes with the same clock and seed answer differently:\n%s\n%s", a, b)
	}
}

func TestListenErrors(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAddr("127.0.0.1:0"))
	taken := strings.TrimPrefix(srv.URL, "http://")
	if _, err := padapitest.Listen(padapitest.WithAddr(taken)); err == nil {
		t.Errorf("Listen on %s, which is taken: no error", taken)
	}
	for _, key := range []string{"", `with"quote`, "tab\there", "é"} {
		if srv, err := padapitest.Listen(padapitest.WithAPIKey(key)); err == nil {
			srv.Close()
			t.Errorf("Listen with the key %q, which no client can send: no error", key)
		}
	}
}

// TestTrailingSlash: list and create paths, like every path, are served
// with a trailing slash too, as the service serves them.
func TestTrailingSlash(t *testing.T) {
	srv, _, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{})
	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/pads/"}, {"POST", "/api/pads/"}, {"GET", "/api/questions/"}, {"GET", "/api/organization/"},
		{"GET", "/api/organization/pads/"}, {"GET", "/api/organization/questions/"}, {"GET", "/api/organization/users/"},
		{"GET", "/api/organization/stats/"}, {"GET", "/api/quota/"}, {"GET", "/api/pads/" + string(p.ID) + "/"},
		{"GET", "/api/pads/" + string(p.ID) + "/events/"}, {"GET", "/api/pad_environments/1001/"},
	} {
		if status, body := raw(t, srv, tc.method, tc.path, authOf(srv), nil); status != 200 || body["status"] != "OK" {
			t.Errorf("%s %s: %d %v", tc.method, tc.path, status, body)
		}
	}
	if status, body := send(t, multipartRequest(t, srv, "POST", "/api/questions/", part{name: "question[title]", value: "t"}, part{name: "question[language]", value: "go"})); status != 200 || body["title"] != "t" {
		t.Errorf("POST /api/questions/: %d %v", status, body)
	}
	if page := srv.Requests()[0]; page.Path != "/api/pads/" {
		t.Errorf("recorded path %q, want the path as sent", page.Path)
	}
}

// TestListenOnAllAddresses: a fake on all addresses names a loopback
// address in its URLs, which the client accepts.
func TestListenOnAllAddresses(t *testing.T) {
	// ":0" listens on [::] where the machine has IPv6: the URL the issue
	// saw, http://[::]:PORT.
	for _, addr := range []string{":0", "0.0.0.0:0"} {
		srv, err := padapitest.Listen(padapitest.WithAddr(addr))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{srv.URL, srv.HistoryURL} {
			if !strings.HasPrefix(u, "http://127.0.0.1:") {
				t.Errorf("listening on %s: URL %q, want a loopback one", addr, u)
			}
		}
		p, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Contents: padapi.Ptr("x")})
		if err == nil {
			_, err = srv.Client().Pads.History(context.Background(), p.History)
		}
		if err != nil {
			t.Errorf("listening on %s: %v", addr, err)
		}
		srv.Close()
	}
}

// panicky is a clock that panics while armed: a panic inside a handler,
// with the fake's lock held.
type panicky struct{ armed atomic.Bool }

// TestPanicInHandler: a handler that panics with the state locked answers
// 500 with the service's error body, and releases the lock: the fake goes
// on serving every request after it.
func TestPanicInHandler(t *testing.T) {
	clk := &panicky{}
	srv := padapitest.NewServer(t, padapitest.WithClock(clk.Now))
	p := srv.AddPad(padapi.Pad{Title: "x"})
	q := srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	clk.armed.Store(true)
	// Each of these reads the clock with the lock held.
	for _, req := range []*http.Request{
		handMade(t, srv, "POST", "/api/pads", authOf(srv), url.Values{}),
		handMade(t, srv, "PUT", "/api/pads/"+string(p.ID), authOf(srv), url.Values{"title": {"y"}}),
		handMade(t, srv, "POST", "/api/questions", authOf(srv), url.Values{"question[title]": {"t"}, "question[language]": {"go"}}),
		handMade(t, srv, "PUT", "/api/questions/"+string(q.ID), authOf(srv), url.Values{"question[title]": {"t"}}),
		handMade(t, srv, "GET", "/api/organization/stats", authOf(srv), nil),
	} {
		status, body := send(t, req)
		if status != 500 || body["status"] != "ERROR" || body["message"] != "Internal server error" {
			t.Errorf("%s %s with a panicking clock: %d %v, want 500 with the service's error body", req.Method, req.URL.Path, status, body)
		}
	}
	clk.armed.Store(false)
	stillServes(t, srv)
	if pads := srv.Pads(); len(pads) != 2 || pads[0].Title != "x" {
		t.Errorf("after the panics the fake holds %+v, want the pad as it was and the new one", pads)
	}
}

// TestPanicOnEveryRoute: on every route, a panic (here from a SetFaults
// function) answers 500, and the fake goes on serving that route and the
// others.
func TestPanicOnEveryRoute(t *testing.T) {
	srv, _, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{Contents: "x"})
	q := srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	env := *p.ActiveEnvironmentID
	v := srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "ruby"})
	var panicOn atomic.Value
	panicOn.Store("")
	srv.SetFaults(func(route string, _ padapitest.Request) padapitest.Fault {
		if route == panicOn.Load() {
			panic("fault function broke on " + route)
		}
		return padapitest.Fault{}
	})
	paths := map[string]string{"{id}": string(p.ID), "{env}": string(env), "{file}": "0.json"}
	for _, route := range padapitest.Routes() {
		method, path, _ := strings.Cut(route, " ")
		for k, v := range paths {
			path = strings.ReplaceAll(path, k, v)
		}
		if strings.HasPrefix(path, "/api/questions/") {
			path = strings.NewReplacer(string(p.ID), string(q.ID), "{vid}", string(v.ID)).Replace(path)
		}
		if strings.HasPrefix(path, "/api/pad_environments/") {
			path = "/api/pad_environments/" + string(env)
		}
		auth := authOf(srv)
		if strings.HasPrefix(path, "/history/") {
			path, auth = srv.HistoryURL+path, ""
		}
		panicOn.Store(route)
		status, body := send(t, handMade(t, srv, method, path, auth, nil))
		if status != 500 || body["status"] != "ERROR" {
			t.Errorf("%s with a panic: %d %v, want 500", route, status, body)
		}
		panicOn.Store("")
		if method == "GET" {
			if status, body := send(t, handMade(t, srv, method, path, auth, nil)); status != 200 {
				t.Errorf("%s after a panic: %d %v, want 200", route, status, body)
			}
		}
	}
	stillServes(t, srv)
}

// TestHostileRequests: odd paths, IDs and parameters get an answer that is
// not a 500, and leave the fake serving.
func TestHostileRequests(t *testing.T) {
	srv, _, _ := newFake(t)
	long := strings.Repeat("A", 1<<16)
	for _, target := range []string{
		"/api/pads/" + long, "/api/pads/%00", "/api/pads/%2e%2e", "/api/pads/%F0%9F%98%80/events",
		"/api/pad_environments/-1", "/api/pad_environments/99999999999999999999999", "/api/questions/1e3",
		"/api/pads?sort=" + long, "/api/pads?page=%00", "/api/organization/users?email=%FF",
		"/api/organization/stats?start_time=0000-01-01T00:00:00Z&end_time=9999-12-31T23:59:59Z",
		"/api//pads", "/api/pads//", "/api/pads/x/events/", "/nowhere",
		srv.HistoryURL + "/history/1001/-1.json", srv.HistoryURL + "/history/1001/9999999999999999999999.json",
		srv.HistoryURL + "/history/%00/0.json", srv.HistoryURL + "/history/1001/0",
	} {
		auth := authOf(srv)
		if strings.HasPrefix(target, srv.HistoryURL) {
			auth = ""
		}
		resp, err := http.DefaultClient.Do(handMade(t, srv, "GET", target, auth, nil))
		if err != nil {
			t.Fatalf("GET %.80s: %v", target, err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("GET %.80s: %d", target, resp.StatusCode)
		}
	}
	for i, body := range []string{strings.Repeat("a=b&", 1<<15), "title=" + long + "&contents=" + long, fmt.Sprintf("title=%s", strings.Repeat("%", 3))} {
		req := newRequest(t, srv, "POST", "/api/pads", authOf(srv), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("hostile body %d: %d", i, resp.StatusCode)
		}
	}
	stillServes(t, srv)
}

// TestNotOwnerForbidden: for a caller who is not an owner, every
// organization endpoint answers 403 with the service's error body, and the
// client reports padapi.ErrForbidden; the caller's own endpoints still
// answer.
func TestNotOwnerForbidden(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	srv.SetCallerIsOwner(false)
	for _, path := range []string{"/api/organization", "/api/organization/stats", "/api/organization/pads",
		"/api/organization/questions", "/api/organization/users", "/api/organization/users/"} {
		status, body := raw(t, srv, "GET", path, authOf(srv), nil)
		if msg, _ := body["message"].(string); status != http.StatusForbidden || body["status"] != "ERROR" || msg == "" {
			t.Errorf("GET %s: %d %v, want 403 with the service's error body", path, status, body)
		}
	}
	// Unauthenticated is still 401: the key is checked first.
	if status, _ := raw(t, srv, "GET", "/api/organization", "", nil); status != http.StatusUnauthorized {
		t.Errorf("no key: %d, want 401", status)
	}
	if _, err := c.Organization.Get(ctx); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("Organization.Get: %v, want a 403", err)
	}
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Errorf("the quota of a caller who is not an owner: %v", err)
	}
	srv.SetCallerIsOwner(true)
	if _, err := c.Organization.Get(ctx); err != nil {
		t.Errorf("an owner again: %v", err)
	}
}

func (p *panicky) Now() time.Time {
	if p.armed.Load() {
		panic("clock broke")
	}
	return t0
}
