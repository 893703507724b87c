// concurrency_test.go: tests of one client shared by many goroutines.

package padapi_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// TestConcurrentCalls shares one client among 64 goroutines for 5000 calls,
// reads and creates mixed, against the fake with an unlimited quota. Run
// under -race it checks the client's shared state; then every call must have
// succeeded with one request each, and the fake must hold exactly the pads
// that the creates returned.
func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	const calls, workers, seeded = 5000, 64, 10
	fake := padapitest.NewServer(t)
	fake.SetUnlimited()
	fake.Seed(seeded)
	c := fake.Client()
	seededPads, questions := fake.Pads(), fake.Questions()
	ctx := context.Background()

	var failed atomic.Int32
	created := make([][]string, workers) // pad IDs, per worker
	start := time.Now()
	spread(t, workers, calls, func(w, i int) {
		var err error
		switch i % 8 {
		case 0, 4:
			var pad *padapi.Pad
			pad, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr(fmt.Sprintf("concurrent %d", i))})
			if err == nil {
				created[w] = append(created[w], string(pad.ID))
			}
		case 1:
			_, err = c.Quota.Get(ctx)
		case 2:
			_, err = c.Pads.Get(ctx, seededPads[i%seeded].ID)
		case 3:
			_, err = c.Questions.Get(ctx, questions[i%seeded].ID)
		case 5:
			_, err = c.Organization.Get(ctx)
		case 6:
			_, err = c.Questions.List(ctx, nil)
		case 7:
			_, err = c.Organization.Stats(ctx, nil)
		}
		if err != nil {
			failed.Add(1)
			t.Errorf("call %d: %v", i, err)
		}
	})
	elapsed := time.Since(start)

	ids := map[string]bool{}
	for _, list := range created {
		for _, id := range list {
			if ids[id] {
				t.Errorf("two creates returned pad %s", id)
			}
			ids[id] = true
		}
	}
	pads := fake.Pads()
	t.Logf("%d calls from %d goroutines in %v: %d failed, %d creates succeeded, the fake holds %d pads (%d seeded)",
		calls, workers, elapsed.Round(time.Millisecond), failed.Load(), len(ids), len(pads), seeded)
	if want := calls / 4; len(ids) != want {
		t.Errorf("%d creates succeeded, want %d", len(ids), want)
	}
	if len(pads) != seeded+len(ids) {
		t.Errorf("the fake holds %d pads, want %d seeded + %d created", len(pads), seeded, len(ids))
	}
	for _, p := range pads[seeded:] {
		if !ids[string(p.ID)] {
			t.Errorf("the fake holds pad %s, which no create returned", p.ID)
		}
	}
	if n := len(fake.Requests()); n != calls {
		t.Errorf("the fake got %d requests, want one per call (%d)", n, calls)
	}
}

// TestConnectionPoolBounded sends 100 slow calls at once through one client
// with its own pool. Over HTTP/1.1 the pool opens at most one connection per
// call in flight, and may keep all of them idle: every call succeeds over
// at most 100 connections and none is closed.
func TestConnectionPoolBounded(t *testing.T) {
	const calls = 100
	const poolSize = calls
	var open, most, opened, closed atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond) // long enough for every call to be in flight at once
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"status":"OK","pads_used":1,"quota_reset_at":"2026-11-01T00:00:00Z","unlimited":true}`)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			opened.Add(1)
			n := open.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, testKey)

	errs := make(chan error, calls)
	spread(t, calls, calls, func(_, _ int) {
		if _, err := c.Quota.Get(context.Background()); err != nil {
			errs <- err
		}
	})
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d calls at once: %d connections opened, at most %d open together, %d closed", calls, opened.Load(), most.Load(), closed.Load())
	if most.Load() > poolSize || opened.Load() > poolSize {
		t.Errorf("%d connections opened (%d at once), want at most %d", opened.Load(), most.Load(), poolSize)
	}
	if closed.Load() != 0 {
		t.Errorf("%d connections closed during the run, want 0", closed.Load())
	}
}
