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
