package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// rlFault is what the chaos proxy does with one request.
type rlFault int

const (
	rlPass       rlFault = iota // forward it and send the fake's answer back
	rlFailBefore                // answer with a 5xx; the fake never sees it
	rlDropBefore                // close the connection; the fake never sees it
	rlFailAfter                 // forward it, then answer 500 instead
	rlDropAfter                 // forward it, then close the connection
)

func (f rlFault) String() string {
	return [...]string{"pass", "5xx before", "drop before", "500 after", "drop after"}[f]
}

// rlChaosProxy stands in front of a padapitest fake on loopback and gives
// each request a fault drawn at random.
//
// padapitest arms faults by count on a route (FailNext, DropNext), used up in
// order by whichever request comes next; that cannot give each of many
// concurrent requests, retries included, an independent 20 % chance of a
// 503. A hook on the fake, such as
// srv.SetFaultFunc(func(*http.Request) padapitest.Fault), would; until then
// the proxy draws the faults and the fake keeps the state.
type rlChaosProxy struct {
	url     string
	fake    *padapitest.Server
	fwd     *http.Client
	failure int // the status of rlFailBefore
	choose  func(x float64, r *http.Request) rlFault

	mu      sync.Mutex
	rng     *rand.Rand
	counts  map[rlFault]int
	created map[string]bool // per pad title: whether the fake made the pad
}

func rlNewChaosProxy(t *testing.T, fake *padapitest.Server, failure int, choose func(float64, *http.Request) rlFault) *rlChaosProxy {
	fwdTransport := &http.Transport{MaxIdleConnsPerHost: 64}
	p := &rlChaosProxy{
		fake:    fake,
		fwd:     &http.Client{Transport: fwdTransport},
		failure: failure,
		choose:  choose,
		rng:     rand.New(rand.NewPCG(5, 20)),
		counts:  map[rlFault]int{},
		created: map[string]bool{},
	}
	srv := httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(func() {
		srv.Close()
		fwdTransport.CloseIdleConnections()
	})
	p.url = srv.URL
	return p
}

func (p *rlChaosProxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	p.mu.Lock()
	fault := p.choose(p.rng.Float64(), r)
	p.counts[fault]++
	p.mu.Unlock()

	switch fault {
	case rlFailBefore:
		http.Error(w, `{"status":"ERROR","message":"injected"}`, p.failure)
		return
	case rlDropBefore:
		rlDrop(w)
		return
	}
	resp, err := p.forward(r, body)
	if err != nil {
		http.Error(w, "proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		http.Error(w, "proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	if r.Method == http.MethodPost {
		form, _ := url.ParseQuery(string(body))
		p.mu.Lock()
		p.created[form.Get("title")] = resp.StatusCode == http.StatusOK
		p.mu.Unlock()
	}
	switch fault {
	case rlFailAfter:
		http.Error(w, `{"status":"ERROR","message":"injected"}`, http.StatusInternalServerError)
		return
	case rlDropAfter:
		rlDrop(w)
		return
	}
	w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

func (p *rlChaosProxy) forward(r *http.Request, body []byte) (*http.Response, error) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, p.fake.URL+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	out.Header = r.Header.Clone()
	return p.fwd.Do(out)
}

// rlDrop closes the connection without an answer.
func rlDrop(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// madePad reports whether the fake answered the create of title with success.
func (p *rlChaosProxy) madePad(title string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.created[title]
}

func (p *rlChaosProxy) count(f rlFault) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[f]
}

// rlChaosRetries is the retry count of the chaos clients. An attempt fails
// with probability q = 0.25 (20 % 503s plus 5 % drops), drawn independently
// for every request, so a call fails only when all 21 of its attempts fail:
// 0.25^21 ≈ 2.3e-13, and one of 1000 calls fails with probability below
// 1000 × 2.3e-13 ≈ 2.3e-10. net/http's own resend of a GET whose reused
// connection closed only lowers it. Waits of 1 to 5 ms keep the run short.
const rlChaosRetries = 20

// TestChaosReads sends 1000 GETs across seven endpoints from 16 goroutines
// on one client, with 20 % of requests answered 503 and 5 % dropped: every
// call must succeed, and each must have reached the fake exactly once.
func TestChaosReads(t *testing.T) {
	const calls, workers = 1000, 16
	fake := padapitest.NewServer(t)
	fake.Seed(20)
	proxy := rlNewChaosProxy(t, fake, http.StatusServiceUnavailable, func(x float64, _ *http.Request) rlFault {
		switch {
		case x < 0.20:
			return rlFailBefore
		case x < 0.25:
			return rlDropBefore
		}
		return rlPass
	})
	c, err := padapi.NewClient(proxy.url, fake.APIKey, padapi.WithRetry(rlChaosRetries, time.Millisecond, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
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
		func(i int) error { _, err := c.Questions.Get(ctx, string(questions[i%len(questions)].ID)); return err },
		func(int) error { _, err := c.Organization.Get(ctx); return err },
		func(int) error { _, err := c.Organization.Stats(ctx, nil); return err },
	}

	start := time.Now()
	errs := make(chan error, calls)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < calls; i += workers {
				if err := endpoints[i%len(endpoints)](i); err != nil {
					errs <- fmt.Errorf("call %d: %w", i, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	failed := 0
	for err := range errs {
		failed++
		t.Error(err)
	}
	passed, fails, drops := proxy.count(rlPass), proxy.count(rlFailBefore), proxy.count(rlDropBefore)
	t.Logf("%d GETs in %v: %d failed; the proxy saw %d requests: %d passed, %d answered 503, %d dropped",
		calls, time.Since(start).Round(time.Millisecond), failed, passed+fails+drops, passed, fails, drops)
	if passed != calls {
		t.Errorf("%d requests reached the fake and were answered, want one per call (%d)", passed, calls)
	}
	if got := len(fake.Requests()); got != passed {
		t.Errorf("the fake recorded %d requests, the proxy passed %d", got, passed)
	}
	// A run without faults would prove nothing; 1000+ draws at 20 % and 5 %
	// give at least 150 and 20 unless the proxy is broken.
	if fails < 150 || drops < 20 {
		t.Errorf("only %d 503s and %d drops were injected", fails, drops)
	}
}

// TestChaosCreates sends 200 creates, each with its own title, from 16
// goroutines through a proxy that answers 500 before or after the fake made
// the pad, or drops the connection before or after, while the quota runs
// out. No create may be sent twice; a create that succeeded made exactly
// one pad, one that failed with another error made none, and one whose
// outcome is unknown made at most one.
func TestChaosCreates(t *testing.T) {
	const creates, workers = 200, 16
	fake := padapitest.NewServer(t)
	// Fewer pads than creates reach the fake, so some creates meet a
	// definite no (429) as well.
	fake.SetQuota(120, 0)
	proxy := rlNewChaosProxy(t, fake, http.StatusInternalServerError, func(x float64, _ *http.Request) rlFault {
		switch {
		case x < 0.10:
			return rlFailBefore
		case x < 0.15:
			return rlDropBefore
		case x < 0.25:
			return rlFailAfter
		case x < 0.35:
			return rlDropAfter
		}
		return rlPass
	})
	c, err := padapi.NewClient(proxy.url, fake.APIKey, padapi.WithRetry(rlChaosRetries, time.Millisecond, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}

	type result struct {
		pad *padapi.Pad
		err error
	}
	results := make([]result, creates)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < creates; i += workers {
				pad, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr(rlTitle(i))})
				results[i] = result{pad, err}
			}
		}()
	}
	wg.Wait()

	byTitle := map[string][]padapi.Pad{}
	for _, p := range fake.Pads() {
		byTitle[p.Title] = append(byTitle[p.Title], p)
	}
	var succeeded, unknown, unknownMade, refused int
	for i, r := range results {
		title := rlTitle(i)
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
		if ok := proxy.madePad(title); ok != (len(made) == 1) {
			t.Errorf("%s: the fake answered success %v, but it holds %d pads with the title", title, ok, len(made))
		}
	}
	total := len(fake.Pads())
	var counts []string
	for f := rlPass; f <= rlDropAfter; f++ {
		counts = append(counts, fmt.Sprintf("%s %d", f, proxy.count(f)))
	}
	sort.Strings(counts)
	t.Logf("%d creates: %d succeeded, %d outcome unknown (%d of them made a pad), %d refused; the fake holds %d pads; faults: %s",
		creates, succeeded, unknown, unknownMade, refused, total, strings.Join(counts, ", "))
	if total != succeeded+unknownMade {
		t.Errorf("the fake holds %d pads, want %d successes + %d unknown that made one", total, succeeded, unknownMade)
	}
	if total > creates {
		t.Errorf("%d pads from %d creates", total, creates)
	}
	if n := len(fake.Requests()) + proxy.count(rlFailBefore) + proxy.count(rlDropBefore); n != creates {
		t.Errorf("%d create requests were sent, want one per create (%d): a create was retried", n, creates)
	}
	// Each outcome must have happened, or the test proved less than it says.
	if succeeded == 0 || unknown == 0 || unknownMade == 0 || unknownMade == unknown || refused == 0 {
		t.Errorf("an outcome never happened: %d succeeded, %d unknown (%d made a pad), %d refused", succeeded, unknown, unknownMade, refused)
	}
}

func rlTitle(i int) string { return fmt.Sprintf("chaos create %03d", i) }
