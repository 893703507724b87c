package padapitest_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// stillServes fails the test unless the fake answers a quota read and a
// create within a few seconds: a lock held by an earlier request would
// make them wait forever.
func stillServes(t *testing.T, srv *padapitest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
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

// TestHugePageNumbers: a page number of any size is an empty page (or a
// 400 past any integer), never an overflow. Before, page=184467440737095518
// overflowed, panicked with the lock held and hung the fake for good.
func TestHugePageNumbers(t *testing.T) {
	srv, c, _ := newFake(t)
	for range 60 {
		srv.AddPad(padapi.Pad{})
	}
	pad := srv.Pads()[0].ID
	q := srv.AddQuestion(padapi.Question{Title: "q"})
	_ = q
	for _, page := range []string{"184467440737095518", strconv.Itoa(math.MaxInt), strconv.Itoa(math.MaxInt - 1), strconv.Itoa(math.MaxInt / 50), strconv.Itoa(math.MaxInt/50 + 2)} {
		for _, path := range []string{"/api/pads", "/api/organization/pads", "/api/questions", "/api/organization/questions", "/api/pads/" + string(pad) + "/events"} {
			status, body := raw(t, srv, "GET", path+"?page="+page, authOf(srv), nil)
			key := path[strings.LastIndex(path, "/")+1:]
			items, _ := body[key].([]any)
			if status != 200 || items == nil || len(items) != 0 || body["next_page"] != nil || body["prev_page"] == nil {
				t.Errorf("%s?page=%s: %d %v, want an empty page with a prev_page link", path, page, status, body)
			}
		}
	}
	page, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Page: math.MaxInt})
	if err != nil || len(page.Items) != 0 || page.Total != 60 || page.PrevPage != srv.URL+"/api/pads?page=2" {
		t.Errorf("Pads.List at the largest page: %+v, %v", page, err)
	}
	stillServes(t, srv)
}

// panicky is a clock that panics while armed: a panic inside a handler,
// with the fake's lock held.
type panicky struct{ armed atomic.Bool }

func (p *panicky) Now() time.Time {
	if p.armed.Load() {
		panic("clock broke")
	}
	return t0
}

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
			path = "/api/questions/" + string(q.ID)
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
