// chaos_test.go: reads and creates against a fake that fails at random, checked call by call.

package padapi_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// chaosFaults draws a fault for each request that reaches a padapitest fake,
// through Server.SetFaults, from a seeded generator, and counts them. The
// sequence of draws is fixed; which request gets which draw depends on the
// scheduler.
type chaosFaults struct {
	failure int     // the status of a failure
	fail    float64 // the share of requests answered failure before the handler runs
	drop    float64 // the share dropped after the handler ran

	mu     sync.Mutex
	rng    *rand.Rand
	counts map[string]int // per kind: "served", "failed", "dropped"
	titles map[string][]string
}

// Kinds of draw.
const (
	kindServed  = "served"
	kindFailed  = "failed"
	kindDropped = "dropped"
)

func newChaos(fake *padapitest.Server, failure int, fail, drop float64) *chaosFaults {
	ch := &chaosFaults{
		failure: failure, fail: fail, drop: drop,
		rng:    rand.New(rand.NewPCG(5, 20)),
		counts: map[string]int{},
		titles: map[string][]string{},
	}
	fake.SetFaults(ch.draw)
	return ch
}

func (ch *chaosFaults) draw(route string, r padapitest.Request) padapitest.Fault {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	kind, f := kindServed, padapitest.Fault{}
	switch x := ch.rng.Float64(); {
	case x < ch.fail:
		kind, f = kindFailed, padapitest.Fault{Status: ch.failure, Body: `{"status":"ERROR","message":"injected"}`}
	case x < ch.fail+ch.drop:
		kind, f = kindDropped, padapitest.Fault{Drop: true}
	}
	ch.counts[kind]++
	if route == "POST /api/pads" {
		title := r.Form.Get("title")
		ch.titles[title] = append(ch.titles[title], kind)
	}
	return f
}

func (ch *chaosFaults) count(kind string) int {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.counts[kind]
}

// drawn returns the draws of the creates of title, in order.
func (ch *chaosFaults) drawn(title string) []string {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	return ch.titles[title]
}

// chaosRetries is the retry count of the chaos clients. An attempt fails
// with probability q = 0.25 (20 % 503s plus 5 % drops), drawn independently
// for every request, so a call fails only when all 21 of its attempts fail:
// 0.25^21 ≈ 2.3e-13, and one of 1000 calls fails with probability below
// 1000 × 2.3e-13 ≈ 2.3e-10. net/http's own resend of a GET whose reused
// connection closed only lowers it. Waits of 1 to 5 ms keep the run short.
const chaosRetries = 20

// TestChaosReads sends 1000 GETs across seven endpoints from 16 goroutines
// on one client, with 20 % of requests answered 503 and 5 % dropped after
// the fake served them: every call must succeed, and each must have been
// answered by the fake exactly once.
func TestChaosReads(t *testing.T) {
	t.Parallel()
	const calls, workers = 1000, 16
	fake := padapitest.NewServer(t)
	fake.Seed(20)
	chaos := newChaos(fake, http.StatusServiceUnavailable, 0.20, 0.05)
	c := fake.Client(padapi.WithRetry(chaosRetries, time.Millisecond, 5*time.Millisecond))
	pads, questions := fake.Pads(), fake.Questions()
	ctx := context.Background()
	endpoints := []func(i int) error{
		func(int) error { _, err := c.Quota.Get(ctx); return err },
		func(i int) error {
			_, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc, Page: 1 + i%2})
			return err
		},
		func(i int) error { _, err := c.Pads.Get(ctx, pads[i%len(pads)].ID); return err },
		func(int) error { _, err := c.Questions.List(ctx, nil); return err },
		func(i int) error { _, err := c.Questions.Get(ctx, questions[i%len(questions)].ID); return err },
		func(int) error { _, err := c.Organization.Get(ctx); return err },
		func(int) error { _, err := c.Organization.Stats(ctx, nil); return err },
	}

	start := time.Now()
	errs := make(chan error, calls)
	spread(t, workers, calls, func(_, i int) {
		if err := endpoints[i%len(endpoints)](i); err != nil {
			errs <- fmt.Errorf("call %d: %w", i, err)
		}
	})
	close(errs)
	failed := 0
	for err := range errs {
		failed++
		t.Error(err)
	}
	served, fails, drops := chaos.count(kindServed), chaos.count(kindFailed), chaos.count(kindDropped)
	t.Logf("%d GETs in %v: %d failed; the fake saw %d requests: %d served, %d answered 503, %d dropped",
		calls, time.Since(start).Round(time.Millisecond), failed, served+fails+drops, served, fails, drops)
	// A call ends at its first answer that got through.
	if served != calls {
		t.Errorf("%d requests were served and answered, want one per call (%d)", served, calls)
	}
	if got := len(fake.Requests()); got != served+fails+drops {
		t.Errorf("the fake recorded %d requests, %d faults were drawn: want one draw per request", got, served+fails+drops)
	}
	// A run without faults would prove nothing; 1000+ draws at 20 % and 5 %
	// give at least 150 and 20 unless the faults are broken.
	if fails < 150 || drops < 20 {
		t.Errorf("only %d 503s and %d drops were injected", fails, drops)
	}
}

// TestChaosCreates sends 200 creates, each with its own title, from 16
// goroutines while the quota runs out; 15 % of requests are answered 500
// before the fake acts, and 20 % are dropped after it acted. No create may
// be sent twice; a create that succeeded made exactly one pad, one that
// failed with another error made none, and one whose outcome is unknown
// made at most one.
func TestChaosCreates(t *testing.T) {
	t.Parallel()
	const creates, workers = 200, 16
	fake := padapitest.NewServer(t)
	// Fewer pads than creates reach the fake, so some creates meet a
	// definite no (429) as well.
	fake.SetQuota(120, 0)
	chaos := newChaos(fake, http.StatusInternalServerError, 0.15, 0.20)
	c := fake.Client(padapi.WithRetry(chaosRetries, time.Millisecond, 5*time.Millisecond))

	type result struct {
		pad *padapi.Pad
		err error
	}
	start := time.Now()
	results := make([]result, creates)
	spread(t, workers, creates, func(_, i int) {
		pad, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr(titleOf(i))})
		results[i] = result{pad, err}
	})

	byTitle := map[string][]padapi.Pad{}
	for _, p := range fake.Pads() {
		byTitle[p.Title] = append(byTitle[p.Title], p)
	}
	var succeeded, unknown, unknownMade, refused int
	for i, r := range results {
		title := titleOf(i)
		made := byTitle[title]
		switch {
		case r.err == nil:
			succeeded++
			if len(made) != 1 || made[0].ID != r.pad.ID {
				t.Errorf("%s succeeded as pad %s; the fake holds %d pads with its title", title, r.pad.ID, len(made))
			}
		case errors.Is(r.err, padapi.ErrOutcomeUnknown):
			unknown++
			unknownMade += len(made)
			if len(made) > 1 {
				t.Errorf("%s (%v) made %d pads", title, r.err, len(made))
			}
		default:
			refused++
			if len(made) != 0 || !errors.Is(r.err, padapi.ErrOverQuota) {
				t.Errorf("%s failed with %v, want ErrOverQuota and no pad; it made %d", title, r.err, len(made))
			}
		}
		// Each create reached the fake once, and its outcome is the one
		// its fault allows.
		drawn := chaos.drawn(title)
		if len(drawn) != 1 {
			t.Errorf("%s was sent %d times (%v), want once", title, len(drawn), drawn)
			continue
		}
		switch drawn[0] {
		case kindFailed:
			if len(made) != 0 || !errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s met a 500 before the fake acted: %v and %d pads, want ErrOutcomeUnknown and none", title, r.err, len(made))
			}
		case kindDropped:
			if !errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s was dropped after the fake acted: %v, want ErrOutcomeUnknown", title, r.err)
			}
		case kindServed:
			if errors.Is(r.err, padapi.ErrOutcomeUnknown) {
				t.Errorf("%s was answered, yet its outcome is unknown: %v", title, r.err)
			}
		}
	}
	total := len(fake.Pads())
	served, fails, drops := chaos.count(kindServed), chaos.count(kindFailed), chaos.count(kindDropped)
	t.Logf("%d creates in %v: %d succeeded, %d outcome unknown (%d of them made a pad), %d refused; the fake holds %d pads; faults: %d served, %d answered 500, %d dropped",
		creates, time.Since(start).Round(time.Millisecond), succeeded, unknown, unknownMade, refused, total, served, fails, drops)
	if total != succeeded+unknownMade {
		t.Errorf("the fake holds %d pads, want %d successes + %d unknown that made one", total, succeeded, unknownMade)
	}
	if total > creates {
		t.Errorf("%d pads from %d creates", total, creates)
	}
	if n := len(fake.Requests()); n != creates || served+fails+drops != creates {
		t.Errorf("the fake recorded %d create requests and drew %d faults, want one per create (%d): a create was retried", n, served+fails+drops, creates)
	}
	// Each fault and each outcome must have happened, or the test proved
	// less than it says. 200 draws at 15 % and 20 % give at least 15 and 20
	// unless the faults are broken.
	if fails < 15 || drops < 20 {
		t.Errorf("only %d 500s and %d drops were injected", fails, drops)
	}
	if succeeded == 0 || unknown == 0 || unknownMade == 0 || unknownMade == unknown || refused == 0 {
		t.Errorf("an outcome never happened: %d succeeded, %d unknown (%d made a pad), %d refused", succeeded, unknown, unknownMade, refused)
	}
}

func titleOf(i int) string { return fmt.Sprintf("chaos create %03d", i) }
