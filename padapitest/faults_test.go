package padapitest_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func TestSetFaults(t *testing.T) {
	srv, _, _ := newFake(t)
	c := srv.Client(padapi.WithRetry(0, 0, 0))
	ctx := context.Background()
	type drawn struct {
		route string
		req   padapitest.Request
	}
	var mu sync.Mutex
	var draws []drawn
	next := padapitest.Fault{}
	srv.SetFaults(func(route string, r padapitest.Request) padapitest.Fault {
		// The fake's lock is not held: its methods can be called.
		_ = srv.Quota()
		mu.Lock()
		defer mu.Unlock()
		draws = append(draws, drawn{route, r})
		return next
	})
	setNext := func(f padapitest.Fault) {
		mu.Lock()
		defer mu.Unlock()
		next = f
	}
	takeDraws := func() []drawn {
		mu.Lock()
		defer mu.Unlock()
		d := draws
		draws = nil
		return d
	}
	create := func(title string) error {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr(title)})
		return err
	}

	// No fault: served as usual, and draw sees the route and the request.
	if err := create("served"); err != nil {
		t.Fatalf("create with the zero Fault: %v", err)
	}
	d := takeDraws()
	if len(d) != 1 || d[0].route != "POST /api/pads" || d[0].req.Form.Get("title") != "served" ||
		d[0].req.Header.Get("Authorization") != "[REDACTED]" {
		t.Errorf("draw was called with %+v, want once with the route and the recorded request", d)
	}

	// Status: answered before the handler runs, with the body given.
	setNext(padapitest.Fault{Status: http.StatusServiceUnavailable, Body: `{"status":"ERROR","message":"Maintenance"}`})
	err := create("failed")
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Message != "Maintenance" || !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("create meeting a 503: %v, want the 503 and its message", err)
	}
	// An empty body is the service's error body with the status text.
	setNext(padapitest.Fault{Status: http.StatusInternalServerError})
	if err := create("failed"); !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || apiErr.Message != "Internal Server Error" {
		t.Errorf("create meeting a 500 without a body: %v, want the service's error body", err)
	}
	// Status comes before Drop: the handler does not run either way.
	setNext(padapitest.Fault{Status: http.StatusBadGateway, Body: "<html>bad gateway</html>", Drop: true})
	if err := create("failed"); !errors.As(err, &apiErr) || apiErr.StatusCode != 502 {
		t.Errorf("create meeting a 502 and a drop: %v, want the 502", err)
	}
	if pads, used := len(srv.Pads()), srv.Quota().PadsUsed; pads != 1 || used != 1 {
		t.Errorf("after three failed creates: %d pads, %d used; want 1 and 1 (the handler must not run)", pads, used)
	}

	// Drop: the handler runs, the answer is lost.
	setNext(padapitest.Fault{Drop: true})
	if err := create("dropped"); !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("dropped create: %v, want ErrOutcomeUnknown", err)
	}
	if pads := srv.Pads(); len(pads) != 2 || pads[1].Title != "dropped" {
		t.Errorf("after a dropped create the fake holds %d pads, want the dropped one too", len(pads))
	}
	if n := len(takeDraws()); n != 4 {
		t.Errorf("draw ran %d times for 4 requests", n)
	}

	// FailNext and DropNext come first: draw is not asked while they last.
	setNext(padapitest.Fault{Status: http.StatusServiceUnavailable})
	srv.FailNext("GET /api/quota", 1, http.StatusForbidden, "")
	// (A POST: Go's transport would resend a dropped GET, which would draw.)
	srv.DropNext("POST /api/questions", 1)
	if _, err := c.Quota.Get(ctx); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("GET with FailNext armed: %v, want its 403", err)
	}
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("q"), Language: padapi.Ptr("go")}); !errors.Is(err, padapi.ErrOutcomeUnknown) || errors.As(err, &apiErr) {
		t.Errorf("create with DropNext armed: %v, want a transport error and ErrOutcomeUnknown", err)
	}
	if d := takeDraws(); len(d) != 0 {
		t.Errorf("draw ran for %d requests that met FailNext or DropNext", len(d))
	}
	if _, err := c.Quota.Get(ctx); !errors.As(err, &apiErr) || apiErr.StatusCode != 503 {
		t.Errorf("GET once FailNext was used up: %v, want draw's 503", err)
	}

	// Unknown paths have no route and meet no fault.
	if status, _ := raw(t, srv, "GET", "/api/nothing", authOf(srv), nil); status != 404 {
		t.Errorf("unknown path with a fault set: %d, want 404", status)
	}
	if d := takeDraws(); len(d) != 1 || d[0].route != "GET /api/quota" {
		t.Errorf("draws %+v, want only the quota read", d)
	}

	// nil removes it.
	srv.SetFaults(nil)
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Errorf("GET after SetFaults(nil): %v", err)
	}
	if d := takeDraws(); len(d) != 0 {
		t.Errorf("draw ran %d times after SetFaults(nil)", len(d))
	}
}

// TestSetFaultsDelayFirst: a Delay runs before draw, and a request given up
// during the delay draws nothing. It runs in a synctest bubble: the hour's
// delay and the 20ms deadline take no real time.
func TestSetFaultsDelayFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := padapitest.NewInMemoryForTest(t, nil)
		var draws atomic.Int32
		srv.SetFaults(func(string, padapitest.Request) padapitest.Fault {
			draws.Add(1)
			return padapitest.Fault{}
		})
		srv.Delay("GET /api/quota", time.Hour)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := c.Quota.Get(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("delayed GET: %v, want DeadlineExceeded", err)
		}
		srv.Delay("GET /api/quota", 0)
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if n := draws.Load(); n != 1 {
			t.Errorf("draw ran %d times, want once (the request given up in its delay draws nothing)", n)
		}
	})
}

// TestSetFaultsConcurrent draws a fault for each of many concurrent
// requests while SetFaults is called again: run under -race.
func TestSetFaultsConcurrent(t *testing.T) {
	srv, _, _ := newFake(t)
	c := srv.Client(padapi.WithRetry(30, 0, 0))
	var (
		mu     sync.Mutex
		rng    = rand.New(rand.NewPCG(3, 4))
		counts = map[string]int{}
	)
	draw := func(route string, r padapitest.Request) padapitest.Fault {
		mu.Lock()
		defer mu.Unlock()
		switch x := rng.Float64(); {
		case x < 0.3:
			counts["503"]++
			return padapitest.Fault{Status: http.StatusServiceUnavailable}
		case x < 0.4:
			counts["drop"]++
			return padapitest.Fault{Drop: true}
		}
		counts["none"]++
		return padapitest.Fault{}
	}
	srv.SetFaults(draw)
	const workers, calls = 8, 25
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				if _, err := c.Quota.Get(context.Background()); err != nil {
					t.Error(err)
				}
				srv.SetFaults(draw)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	total := counts["503"] + counts["drop"] + counts["none"]
	if n := len(srv.Requests()); n != total {
		t.Errorf("the fake recorded %d requests, draw ran %d times: want one draw each", n, total)
	}
	if counts["none"] != workers*calls || counts["503"] == 0 || counts["drop"] == 0 {
		t.Errorf("draws %v, want %d served and some of each fault", counts, workers*calls)
	}
}

func TestFaultBodyIsJSONOnlyWhenJSON(t *testing.T) {
	srv, _, _ := newFake(t)
	srv.SetFaults(func(string, padapitest.Request) padapitest.Fault {
		return padapitest.Fault{Status: http.StatusBadGateway, Body: "<html>bad gateway</html>"}
	})
	resp, err := http.Get(srv.URL + "/api/quota")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 502 || !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("HTML fault body: %d %q, want 502 text/plain", resp.StatusCode, ct)
	}
}

// TestFailNextWhileServing arms FailNext while other requests use up what
// was armed before; under -race it checks that arming and taking a fault
// share no unguarded state. Each call either succeeds or meets an armed
// 503 or 504. The armers arm as often as the callers call, rather than
// spinning until they end: spinning goroutines starved the callers on a
// busy machine and made the test take seconds.
func TestFailNextWhileServing(t *testing.T) {
	srv := padapitest.NewServer(t)
	c := srv.Client(padapi.WithRetry(0, 0, 0))
	var wg sync.WaitGroup
	var failed atomic.Int32
	for i := range 4 {
		wg.Go(func() {
			for range 50 {
				srv.FailNext("GET /api/quota", 1, http.StatusServiceUnavailable+i%2, "")
			}
		})
		wg.Go(func() {
			for range 50 {
				_, err := c.Quota.Get(context.Background())
				var apiErr *padapi.APIError
				switch {
				case err == nil:
				case errors.As(err, &apiErr) && (apiErr.StatusCode == 503 || apiErr.StatusCode == 504):
					failed.Add(1)
				default:
					t.Errorf("a call while FailNext is armed: %v, want success or an armed 503 or 504", err)
				}
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n > 200 {
		t.Errorf("%d of 200 calls failed, want no more than the 200 faults armed", n)
	}
	// What the race left armed, if anything, is used up; then one armed
	// fault fails one call, as before.
	_, _ = c.Quota.Get(context.Background())
	srv.FailNext("GET /api/quota", 1, http.StatusServiceUnavailable, "")
	if _, err := c.Quota.Get(context.Background()); !errors.Is(err, padapi.ErrServer) {
		t.Errorf("after the race, an armed 503: %v", err)
	}
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("after the race, the call after the armed fault: %v", err)
	}
}

func TestDropNextCreate(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.DropNext("POST /api/pads", 1)
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("lost answer")})
	if !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Fatalf("dropped create: %v, want ErrOutcomeUnknown", err)
	}
	pads := srv.Pads()
	if len(pads) != 1 || pads[0].Title != "lost answer" {
		t.Errorf("fake holds %+v, want exactly the one pad", pads)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: a create whose answer was lost must not be resent", n)
	}
	if _, err := c.Pads.Create(context.Background(), nil); err != nil {
		t.Errorf("create after the drop was used up: %v", err)
	}
}

// A dropped create on a connection already used must not be resent either
// (Go's transport resends only idempotent requests).
func TestDropNextCreateWarmConnection(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatal(err)
	}
	srv.DropNext("POST /api/pads", 1)
	if _, err := c.Pads.Create(ctx, nil); !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Fatalf("dropped create: %v, want ErrOutcomeUnknown", err)
	}
	if pads, reqs := len(srv.Pads()), len(srv.Requests()); pads != 1 || reqs != 2 {
		t.Errorf("%d pads and %d requests, want 1 and 2", pads, reqs)
	}
}

func TestDropNextGet(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.DropNext("GET /api/quota", 1)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("a GET whose answer was dropped once is retried: %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	srv.DropNext("GET /api/quota", 1)
	_, err := srv.Client(padapi.WithRetry(0, 0, 0)).Quota.Get(context.Background())
	if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("dropped GET without retries: %v, want a transport error (not ErrOutcomeUnknown, which is for creates)", err)
	}
}

func TestFailNextThenSuccess(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.FailNext("GET /api/quota", 2, http.StatusServiceUnavailable, `{"status":"ERROR","message":"Maintenance"}`)
	q, err := c.Quota.Get(context.Background())
	if err != nil {
		t.Fatalf("GET after two 503s: %v", err)
	}
	if q.PadsUsed != 0 {
		t.Errorf("quota %+v", q)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (two failures and the success)", n)
	}
}

func TestFailNextBody(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.FailNext("POST /api/pads", 1, http.StatusForbidden, "")
	_, err := c.Pads.Create(context.Background(), nil)
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Message != "Forbidden" || !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("FailNext with an empty body: %v, want 403 with the service's error body", err)
	}
	if n := len(srv.Pads()); n != 0 {
		t.Errorf("a failed create stored %d pads", n)
	}

	srv.FailNext("GET /api/organization", 1, http.StatusBadGateway, "<html>bad gateway</html>")
	_, err = c.Organization.Get(context.Background())
	if err != nil {
		t.Errorf("a 502 is retried: %v", err)
	}
}

// TestDelay runs in a synctest bubble, on a fake served in memory: the
// delay and the deadline are the bubble's, so each call takes exactly what
// it should, however busy the machine.
func TestDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := padapitest.NewInMemoryForTest(t, nil)
		srv.Delay("GET /api/quota", 10*time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Quota.Get(ctx)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("delayed GET with a deadline: %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("the call took %v, want the 50ms of its deadline", d)
		}

		srv.Delay("GET /api/quota", 20*time.Millisecond)
		start = time.Now()
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 20*time.Millisecond {
			t.Errorf("a 20ms delay took %v", d)
		}
	})
}

// TestCloseEndsDelay: Close returns at once with a request waiting in an
// hour's delay, and the request ends. It needs the real listeners (what it
// checks is that httptest's Close, which waits for the handlers, is not
// kept waiting), so its bounds are generous: nothing but the bug makes
// Close take 30s when the delay is an hour.
func TestCloseEndsDelay(t *testing.T) {
	recorded := make(chan struct{}, 1)
	srv := padapitest.Start(padapitest.WithRecordHookForTest(func() {
		select {
		case recorded <- struct{}{}:
		default:
		}
	}))
	srv.Delay("GET /api/quota", time.Hour)
	done := make(chan error, 1)
	go func() {
		_, err := srv.Client(padapi.WithRetry(0, 0, 0)).Quota.Get(context.Background())
		done <- err
	}()
	select {
	case <-recorded: // the request has reached the fake, and goes on to its delay
	case <-time.After(30 * time.Second):
		srv.Close()
		t.Fatal("the request did not reach the fake")
	}
	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return within 30s with a request waiting in a delay")
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the delayed request succeeded after Close")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the delayed request did not end after Close")
	}
	srv.Close() // a second Close is harmless
}

func TestFaultOnUnknownRoutePanics(t *testing.T) {
	srv := padapitest.NewServer(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "GET /api/quota,") {
			t.Errorf("recovered %v, want a panic that lists the routes", r)
		}
	}()
	srv.FailNext("GET /api/quotas", 1, 500, "")
}
