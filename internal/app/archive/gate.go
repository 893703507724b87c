// gate.go: Gate, the run's one door to the service.

package archive

import (
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/padinterview/padapi/internal/lib/retrypolicy"
)

// maxPause bounds the pause one 429 answer can ask for; the run's context
// bounds it too.
const maxPause = 10 * time.Minute

// The pause after a 429 without a usable Retry-After (none, or one the
// library does not take, such as a wait over a year): the library's own
// backoff between tries, at its defaults (padapi.WithRetry: 100 ms,
// doubled after each such 429 in a row, at most 2 s).
const (
	backoffMin = 100 * time.Millisecond
	backoffMax = 2 * time.Second
)

// Gate is an http.RoundTripper that every request of an archive run goes
// through, history documents included: it lets at most a fixed number of
// requests out at once (Options.Concurrency), and when the service answers
// 429 with Retry-After it pauses every request, not only the one that was
// refused: no request leaves while a pause is in force. It counts the
// requests it lets out.
//
// A Gate serves one run at a time. It takes effect when the client sends
// through it:
//
//	g := archive.NewGate(nil)
//	c, err := padapi.FromEnv(padapi.WithHTTPClient(&http.Client{Transport: g}))
//	sum, err := archive.Run(ctx, c, dir, archive.Options{Gate: g})
type Gate struct {
	base     http.RoundTripper
	requests atomic.Int64

	mu       sync.Mutex
	limit    int           // requests let out at once, now
	adaptive bool          // limit grows with answers, halves on a 429
	most     int           // the most limit grows to
	inFlight int           // requests out, their bodies not yet read
	grown    int           // answers since limit last changed (adaptive)
	wake     chan struct{} // closed when a slot may have come free
	until    time.Time     // no request leaves before this
	refused  int           // 429s in a row without a usable Retry-After
	onPause  func(time.Duration)
}

// NewGate returns a Gate that sends through base; nil means a copy of
// http.DefaultTransport that keeps as many idle connections per host as
// Options.Concurrency allows (16). It lets DefaultConcurrency (8) requests
// out at once until Run sets the run's concurrency.
func NewGate(base http.RoundTripper) *Gate {
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = MaxConcurrency
		base = t
	}
	return &Gate{base: base, limit: DefaultConcurrency, most: DefaultConcurrency, wake: make(chan struct{})}
}

// Requests returns how many requests the gate has let out.
func (g *Gate) Requests() int { return int(g.requests.Load()) }

// configure sets how many requests go out at once (n; with adaptive, n at
// first, then more as answers come, up to MaxConcurrency, and half as many
// after a 429) and whom to tell of a pause. Run calls it before any
// request of the run.
func (g *Gate) configure(n int, adaptive bool, onPause func(time.Duration)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit, g.most, g.grown, g.adaptive, g.onPause = n, n, 0, adaptive, onPause
	if adaptive {
		g.most = MaxConcurrency
	}
	g.wakeAll()
}

// wakeAll tells the requests waiting for a slot to look again; g.mu is
// held.
func (g *Gate) wakeAll() {
	close(g.wake)
	g.wake = make(chan struct{})
}

// acquire waits for a slot, or returns ctx's error.
func (g *Gate) acquire(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.inFlight < g.limit {
			g.inFlight++
			g.mu.Unlock()
			return nil
		}
		wake := g.wake
		g.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// release frees a slot.
func (g *Gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.inFlight--
	g.wakeAll()
}

// RoundTrip waits for a free slot and for the end of any pause, then sends
// r through the base transport. The slot is held until the answer's body
// has been read to its end or closed: an answer still streaming is a
// request in flight. A 429 answer starts (or extends) the pause for every
// request.
func (g *Gate) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := g.acquire(r.Context()); err != nil {
		return nil, err
	}
	release := sync.OnceFunc(g.release)
	if err := g.wait(r); err != nil {
		release()
		return nil, err
	}
	g.requests.Add(1)
	resp, err := g.base.RoundTrip(r)
	if err != nil {
		release()
		return resp, err
	}
	g.answered(resp)
	if resp.Body == nil || resp.Body == http.NoBody {
		release()
		return resp, nil
	}
	resp.Body = &heldBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// answered notes an answer: a 429 pauses every request, for as long as its
// Retry-After asks, or else for the library's backoff; any other answer
// ends a run of 429s.
func (g *Gate) answered(resp *http.Response) {
	g.mu.Lock()
	if resp.StatusCode != http.StatusTooManyRequests {
		g.refused = 0
		// Adaptive: one more slot after each round of answers with no
		// 429 (as many answers as there are slots), up to the most.
		if g.grown++; g.limit < g.most && g.grown >= g.limit {
			g.limit, g.grown = g.limit+1, 0
			g.wakeAll()
		}
		g.mu.Unlock()
		return
	}
	if g.adaptive {
		// Adaptive: the service says too many: half as many slots.
		g.limit, g.grown = max(g.limit/2, 1), 0
	}
	g.mu.Unlock()
	if d, ok := retrypolicy.RetryAfter(resp); ok {
		g.pause(d)
		return
	}
	g.mu.Lock()
	n := g.refused
	g.refused++
	g.mu.Unlock()
	// Backoff is jittered between half its step and the step: half a
	// step more makes the pause at least the step, at most 1.5 times it.
	step := backoffMax
	if n < 16 {
		step = min(backoffMin<<n, backoffMax)
	}
	g.pause(step/2 + retrypolicy.Backoff(backoffMin, backoffMax, n, nil))
}

// heldBody is an answer's body that holds its request's slot until it has
// been read to its end or closed.
type heldBody struct {
	io.ReadCloser
	release func()
}

func (b *heldBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		b.release()
	}
	return n, err
}

func (b *heldBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// wait returns once no pause is in force, or with the request's context's
// error.
func (g *Gate) wait(r *http.Request) error {
	for {
		g.mu.Lock()
		d := time.Until(g.until)
		g.mu.Unlock()
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return r.Context().Err()
		}
	}
}

// pause holds every request back for d from now (at most maxPause).
func (g *Gate) pause(d time.Duration) {
	d = min(d, maxPause)
	g.mu.Lock()
	until := time.Now().Add(d)
	extended := until.After(g.until)
	if extended {
		g.until = until
	}
	onPause := g.onPause
	g.mu.Unlock()
	if extended && onPause != nil {
		onPause(d)
	}
}
