package padapi_test

import (
	"context"
	"fmt"
	"sync"
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
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < calls; i += workers {
				var err error
				switch i % 8 {
				case 0, 4:
					var pad *padapi.Pad
					pad, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr(fmt.Sprintf("concurrent %d", i))})
					if err == nil {
						created[w] = append(created[w], pad.ID)
					}
				case 1:
					_, err = c.Quota.Get(ctx)
				case 2:
					_, err = c.Pads.Get(ctx, seededPads[i%seeded].ID)
				case 3:
					_, err = c.Questions.Get(ctx, string(questions[i%seeded].ID))
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
			}
		}()
	}
	wg.Wait()
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
		if !ids[p.ID] {
			t.Errorf("the fake holds pad %s, which no create returned", p.ID)
		}
	}
	if n := len(fake.Requests()); n != calls {
		t.Errorf("the fake got %d requests, want one per call (%d)", n, calls)
	}
}
