package archive

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeService answers every request at once, but 429 with Retry-After:
// 2 to one request in ten, and records when each request arrived and
// when each pause began.
type fakeService struct {
	mu       sync.Mutex
	n        int
	sent     []time.Time
	refused  []time.Time
	inFlight int
	most     int
	hold     time.Duration // how long an answer takes
}

func (s *fakeService) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.n++
	n := s.n
	now := time.Now()
	s.sent = append(s.sent, now)
	s.inFlight++
	s.most = max(s.most, s.inFlight)
	s.mu.Unlock()
	// Fake time: synctest advances it.
	select {
	case <-time.After(s.hold):
	case <-r.Context().Done():
	}
	s.mu.Lock()
	s.inFlight--
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: r}
	if n%10 == 0 {
		resp.StatusCode = http.StatusTooManyRequests
		resp.Header.Set("Retry-After", "2")
		s.refused = append(s.refused, time.Now())
	}
	s.mu.Unlock()
	return resp, nil
}

// TestGateLetsRequestsOutWhenAPauseEnds comes first of the Gate's tests:
// with the wait's end condition mutated, it fails at once, where the fake
// time of TestGatePausesEveryRequestOn429 would stand still for ever (a
// timer of 0 fires with no time passing), and -failfast (as gremlins runs
// the tests) starts no test after it.
func TestGateLetsRequestsOutWhenAPauseEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(&fakeService{})
		// The pause ends now (fake time stands still): nothing waits, so
		// even a request whose context is done goes out.
		g.until = time.Now()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://service/x", nil)
		if err := g.wait(req); err != nil {
			t.Errorf("wait at the end of a pause: %v", err)
		}
	})
}

func TestGatePausesEveryRequestOn429(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &fakeService{hold: 20 * time.Millisecond}
		g := NewGate(svc)
		var pauses []time.Duration
		var mu sync.Mutex
		g.configure(8, false, func(d time.Duration) { mu.Lock(); pauses = append(pauses, d); mu.Unlock() })
		ctx, cancel := context.WithTimeout(t.Context(), time.Hour)
		defer cancel()
		var wg sync.WaitGroup
		const calls = 200
		for range calls {
			wg.Go(func() {
				// Each caller tries again until it is answered 200, as the
				// client's retries do.
				for {
					req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://service/x", nil)
					resp, err := g.RoundTrip(req)
					if err != nil {
						t.Error(err)
						return
					}
					resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						return
					}
				}
			})
		}
		wg.Wait()
		svc.mu.Lock()
		defer svc.mu.Unlock()
		if len(svc.refused) == 0 || len(pauses) == 0 || pauses[0] != 2*time.Second {
			t.Fatalf("refused %d, pauses %v", len(svc.refused), pauses)
		}
		for _, at := range svc.refused {
			for _, sent := range svc.sent {
				if sent.After(at) && sent.Before(at.Add(2*time.Second)) {
					t.Fatalf("a request left at %v, during the pause from %v", sent, at)
				}
			}
		}
		if svc.most > 8 {
			t.Errorf("%d requests in flight at once, want at most 8", svc.most)
		}
		if g.Requests() != len(svc.sent) || len(svc.sent) != calls+len(svc.refused) {
			t.Errorf("Requests %d, sent %d, refused %d", g.Requests(), len(svc.sent), len(svc.refused))
		}
	})
}

func TestGateWaitEndsWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(&fakeService{})
		g.pause(time.Minute)
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://service/x", nil)
		start := time.Now()
		if _, err := g.RoundTrip(req); err != context.DeadlineExceeded {
			t.Fatalf("RoundTrip during a pause: %v", err)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("waited %v, want the context's 1s", waited)
		}
		if g.Requests() != 0 {
			t.Errorf("%d requests sent during the pause", g.Requests())
		}
	})
}

func TestGateSlotWaitEndsWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &fakeService{hold: time.Hour}
		g := NewGate(svc)
		g.configure(1, false, nil)
		ctx, cancel := context.WithCancel(t.Context())
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://service/a", nil)
			_, _ = g.RoundTrip(req)
		}()
		synctest.Wait()
		ctx2, cancel2 := context.WithTimeout(t.Context(), time.Second)
		defer cancel2()
		req, _ := http.NewRequestWithContext(ctx2, http.MethodGet, "http://service/b", nil)
		if _, err := g.RoundTrip(req); err != context.DeadlineExceeded {
			t.Errorf("RoundTrip with no free slot: %v", err)
		}
		cancel()
	})
}

func TestGatePauseIsBoundedAndOnlyExtends(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(&fakeService{})
		var got []time.Duration
		g.configure(1, false, func(d time.Duration) { got = append(got, d) })
		g.pause(time.Hour)
		g.pause(time.Second) // shorter: no new pause
		if len(got) != 1 || got[0] != maxPause {
			t.Errorf("pauses %v, want one of %v", got, maxPause)
		}
		if until := time.Until(g.until); until != maxPause {
			t.Errorf("paused for %v", until)
		}
	})
}

// refuser answers 429 with the Retry-After header it is given (none when
// "") to the first request, then 200 to every other; it records when each
// request arrived.
type refuser struct {
	retryAfter string
	mu         sync.Mutex
	sent       []time.Time
}

func (s *refuser) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, time.Now())
	resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: r}
	if len(s.sent) == 1 {
		resp.StatusCode = http.StatusTooManyRequests
		if s.retryAfter != "" {
			resp.Header.Set("Retry-After", s.retryAfter)
		}
	}
	return resp, nil
}

// A 429 whose Retry-After is missing, or asks for more than the library
// takes (over a year), or is no number or date, pauses every request for
// at least the library's first backoff (100 ms) all the same.
func TestGatePausesOn429WithoutAUsableRetryAfter(t *testing.T) {
	for _, ra := range []string{"", "31536001", "99999999999", "soon"} {
		synctest.Test(t, func(t *testing.T) {
			svc := &refuser{retryAfter: ra}
			g := NewGate(svc)
			var pauses []time.Duration
			g.configure(8, false, func(d time.Duration) { pauses = append(pauses, d) })
			// The refused request first, then every worker at once.
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://service/x", nil)
			resp, err := g.RoundTrip(req)
			if err != nil || resp.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("first request: %v, %v", resp, err)
			}
			resp.Body.Close()
			var wg sync.WaitGroup
			for range 16 {
				wg.Go(func() {
					for {
						req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://service/x", nil)
						resp, err := g.RoundTrip(req)
						if err != nil {
							t.Error(err)
							return
						}
						resp.Body.Close()
						if resp.StatusCode == http.StatusOK {
							return
						}
					}
				})
			}
			wg.Wait()
			if len(svc.sent) != 17 || len(pauses) != 1 || pauses[0] < 100*time.Millisecond {
				t.Fatalf("Retry-After %q: %d requests, pauses %v", ra, len(svc.sent), pauses)
			}
			refused := svc.sent[0]
			for _, at := range svc.sent[1:] {
				if at.Sub(refused) < 100*time.Millisecond {
					t.Fatalf("Retry-After %q: a request %v after the 429, want none for %v", ra, at.Sub(refused), 100*time.Millisecond)
				}
			}
		})
	}
}

// 429s in a row without Retry-After pause for longer each time, up to the
// library's cap; an answer that is not a 429 starts again from the first
// backoff.
func TestGateBackoffGrowsWhile429sFollow(t *testing.T) {
	g := NewGate(&fakeService{})
	var pauses []time.Duration
	g.configure(1, false, func(d time.Duration) { pauses = append(pauses, d) })
	refused := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{}}
	for range 8 {
		g.until = time.Time{}
		g.answered(refused)
	}
	g.answered(&http.Response{StatusCode: http.StatusOK, Header: http.Header{}})
	g.until = time.Time{}
	g.answered(refused)
	if len(pauses) != 9 {
		t.Fatalf("pauses %v", pauses)
	}
	for i, d := range pauses[:8] {
		step := min(backoffMin<<i, backoffMax)
		if d < step || d > step*3/2 {
			t.Errorf("pause %d: %v, want %v to %v", i, d, step, step*3/2)
		}
	}
	if last := pauses[8]; last < backoffMin || last > backoffMin*3/2 {
		t.Errorf("after a 200: pause %v, want the first backoff again", last)
	}
}

// slowBodies answers every request at once, with a body that takes a
// second to arrive; it counts the answers whose bodies are being read.
type slowBodies struct {
	mu              sync.Mutex
	streaming, most int
}

func (s *slowBodies) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.streaming++
	s.most = max(s.most, s.streaming)
	s.mu.Unlock()
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r, Body: &slowBody{s: s}}, nil
}

type slowBody struct {
	s    *slowBodies
	done bool
}

func (b *slowBody) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	time.Sleep(time.Second) // fake time
	b.done = true
	b.s.mu.Lock()
	b.s.streaming--
	b.s.mu.Unlock()
	return copy(p, "{}"), io.EOF
}

func (b *slowBody) Close() error { return nil }

// A slot is held until the answer's body has been read: with 4 slots and
// slow bodies, at most 4 answers stream at once.
func TestGateHoldsASlotUntilTheBodyIsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &slowBodies{}
		g := NewGate(svc)
		g.configure(4, false, nil)
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://service/x", nil)
				resp, err := g.RoundTrip(req)
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				if b, err := io.ReadAll(resp.Body); err != nil || string(b) != "{}" {
					t.Errorf("body %q, %v", b, err)
				}
			})
		}
		wg.Wait()
		if svc.most != 4 {
			t.Errorf("%d answers streaming at once, want 4 (the slots)", svc.most)
		}
		// Every slot is free again.
		if n := g.inFlight; n != 0 {
			t.Errorf("%d slots still held", n)
		}
	})
}

// Adaptive, the gate lets one more request out after each round of
// answers with no 429, up to MaxConcurrency, and half as many after a 429;
// fixed, it keeps its number whatever the answers.
func TestGateAdaptsToThe429s(t *testing.T) {
	ok := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}}
	refused := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"0"}}}
	g := NewGate(&fakeService{})
	g.configure(DefaultConcurrency, true, nil)
	for range DefaultConcurrency - 1 {
		g.answered(ok)
	}
	if g.limit != DefaultConcurrency {
		t.Fatalf("after %d answers: %d at once", DefaultConcurrency-1, g.limit)
	}
	g.answered(ok)
	if g.limit != DefaultConcurrency+1 {
		t.Fatalf("after a round of answers: %d at once, want %d", g.limit, DefaultConcurrency+1)
	}
	for range 1000 {
		g.answered(ok)
	}
	if g.limit != MaxConcurrency {
		t.Fatalf("after many answers: %d at once, want %d", g.limit, MaxConcurrency)
	}
	g.answered(refused)
	if g.limit != MaxConcurrency/2 {
		t.Errorf("after a 429: %d at once, want %d", g.limit, MaxConcurrency/2)
	}
	for range 5 {
		g.answered(refused)
	}
	if g.limit != 1 {
		t.Errorf("after 429s: %d at once, want 1", g.limit)
	}
	g.configure(4, false, nil)
	for range 100 {
		g.answered(ok)
	}
	g.answered(refused)
	if g.limit != 4 {
		t.Errorf("fixed at 4: %d at once", g.limit)
	}
}
