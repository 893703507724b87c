package padapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// pagedServer serves a pad list of total pads (IDs "P1", "P2", ...), per to
// a page, with absolute next_page links. Tests change its answers with
// next (the page a page links to) and answer (a status other than 200 for
// a page), and read what it was asked.
type pagedServer struct {
	*httptest.Server
	total, per int
	next       func(page int) int // 0: no next page; nil: page+1 while there are more
	answer     func(r *http.Request, page int) int
	mu         sync.Mutex
	asked      []int
	inflight   atomic.Int64
	peak       atomic.Int64
}

func newPagedServer(t *testing.T, total, per int) *pagedServer {
	s := &pagedServer{total: total, per: per}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *pagedServer) lastPage() int { return (s.total + s.per - 1) / s.per }

func (s *pagedServer) serve(w http.ResponseWriter, r *http.Request) {
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	s.mu.Lock()
	s.asked = append(s.asked, page)
	s.mu.Unlock()
	if s.answer != nil {
		if status := s.answer(r, page); status != http.StatusOK {
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"status":"ERROR","message":"page %d failed"}`, page)
			return
		}
	}
	next := 0
	switch {
	case s.next != nil:
		next = s.next(page)
	case page < s.lastPage():
		next = page + 1
	}
	var b strings.Builder
	b.WriteString(`{"status":"OK","pads":[`)
	for i := (page-1)*s.per + 1; i <= min(page*s.per, s.total); i++ {
		if i > (page-1)*s.per+1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"P%d"}`, i)
	}
	fmt.Fprintf(&b, `],"total":%d`, s.total)
	if next > 0 {
		fmt.Fprintf(&b, `,"next_page":"%s/api/pads?page=%d"`, s.URL, next)
	}
	b.WriteString("}")
	_, _ = w.Write([]byte(b.String()))
}

func (s *pagedServer) requests() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.asked...)
}

func (s *pagedServer) client(t *testing.T, opts ...padapi.Option) *padapi.Client {
	t.Helper()
	c, err := padapi.NewClient(s.URL, "test-key", append([]padapi.Option{padapi.WithRetry(0, 0, 0)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// collect runs the loop to its end and returns the IDs and the errors.
func collect(c *padapi.Client, ctx context.Context) (ids []string, errs []error) {
	for p, err := range c.Pads.All(ctx, nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, string(p.ID))
	}
	return ids, errs
}

func wantIDs(pages ...int) []string {
	var ids []string
	for _, p := range pages {
		for i := (p-1)*50 + 1; i <= p*50; i++ {
			ids = append(ids, "P"+strconv.Itoa(i))
		}
	}
	return ids
}

// allPagesGoroutines counts the goroutines the iterators started that are
// still running.
func allPagesGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "padapi.allPages[")
}

// checkNoFetchLeft fails when a page fetch outlived the loop: the iterator
// waits for every fetch it started before it returns.
func checkNoFetchLeft(t *testing.T) {
	t.Helper()
	if n := allPagesGoroutines(); n != 0 {
		t.Errorf("%d page fetches still running after the loop", n)
	}
}

func TestAllItemsInOrderOnce(t *testing.T) {
	for _, window := range []int{1, 2, 8, 64} {
		t.Run(fmt.Sprintf("pages=%d", window), func(t *testing.T) {
			s := newPagedServer(t, 10*50+7, 50)
			ids, errs := collect(s.client(t, padapi.WithConcurrentPages(window)), context.Background())
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			want := append(wantIDs(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), "P501", "P502", "P503", "P504", "P505", "P506", "P507")
			if diff := cmp.Diff(want, ids); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			// A stable list costs one request per page, whatever the window.
			asked := map[int]int{}
			for _, p := range s.requests() {
				asked[p]++
			}
			for p := 1; p <= 11; p++ {
				if asked[p] != 1 {
					t.Errorf("page %d requested %d times, want 1", p, asked[p])
				}
			}
			if len(asked) != 11 {
				t.Errorf("requested pages %v, want 1 to 11", s.requests())
			}
			if peak := s.peak.Load(); peak > int64(window) {
				t.Errorf("%d requests at once, want at most %d", peak, window)
			}
			checkNoFetchLeft(t)
		})
	}
}

// TestAllPrefetchesNextPage: by default the next page is fetched while the
// loop is still on the first, and no page beyond it.
func TestAllPrefetchesNextPage(t *testing.T) {
	s := newPagedServer(t, 5*50, 50)
	c := s.client(t)
	n := 0
	for p, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.ID == "P1" {
			deadline := time.Now().Add(5 * time.Second)
			for len(s.requests()) < 2 && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond) // room for a wrong third request
			if got := s.requests(); !cmp.Equal(got, []int{1, 2}) {
				t.Fatalf("on page 1, pages requested: %v, want [1 2]", got)
			}
		}
		// Never more than the page after the loop's.
		page := n/50 + 1
		for _, asked := range s.requests() {
			if asked > page+1 {
				t.Fatalf("on page %d, page %d was already requested", page, asked)
			}
		}
		n++
	}
	if n != 250 {
		t.Errorf("%d pads, want 250", n)
	}
	checkNoFetchLeft(t)
}

// TestConcurrentPagesWindow: with n pages at once, no more than n requests
// run together, and none runs more than n pages past the loop's.
func TestConcurrentPagesWindow(t *testing.T) {
	const window = 4
	s := newPagedServer(t, 30*50, 50)
	var loopPage atomic.Int64
	var beyond atomic.Int64
	s.answer = func(r *http.Request, page int) int {
		if int64(page) > loopPage.Load()+window {
			beyond.Store(int64(page))
		}
		time.Sleep(2 * time.Millisecond)
		return http.StatusOK
	}
	c := s.client(t, padapi.WithConcurrentPages(window))
	n := 0
	for _, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		loopPage.Store(int64(n/50 + 1))
		n++
	}
	if n != 1500 {
		t.Errorf("%d pads, want 1500", n)
	}
	if p := s.peak.Load(); p > window || p < 2 {
		t.Errorf("%d requests at once, want 2 to %d", p, window)
	}
	if b := beyond.Load(); b != 0 {
		t.Errorf("page %d requested more than %d pages past the loop's", b, window)
	}
}

// TestConcurrentPagesFollowsLinks: pages fetched ahead by number are used
// only where a link leads to them; a list whose links skip a page (it
// changed meanwhile) reads as following the links does.
func TestConcurrentPagesFollowsLinks(t *testing.T) {
	s := newPagedServer(t, 8*50, 50)
	s.next = func(page int) int {
		switch page {
		case 2:
			return 4 // page 3 went away
		case 8:
			return 0
		}
		return page + 1
	}
	for _, window := range []int{1, 8} {
		ids, errs := collect(s.client(t, padapi.WithConcurrentPages(window)), context.Background())
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		if diff := cmp.Diff(wantIDs(1, 2, 4, 5, 6, 7, 8), ids); diff != "" {
			t.Errorf("pages=%d: items (-want +got):\n%s", window, diff)
		}
	}
	checkNoFetchLeft(t)
}

// TestConcurrentPagesLoopLink: a link back to a page already read ends the
// loop with an error, as it does one page at a time.
func TestConcurrentPagesLoopLink(t *testing.T) {
	s := newPagedServer(t, 8*50, 50)
	s.next = func(page int) int {
		if page == 3 {
			return 2
		}
		return page + 1
	}
	ids, errs := collect(s.client(t, padapi.WithConcurrentPages(8)), context.Background())
	if diff := cmp.Diff(wantIDs(1, 2, 3), ids); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "links back to page 2") {
		t.Errorf("errors %v, want one about the link back to page 2", errs)
	}
	checkNoFetchLeft(t)
}

// TestConcurrentPagesFirstError: the loop yields every item before the
// first failed page, then that page's error once, and ends, even when a
// later page failed first.
func TestConcurrentPagesFirstError(t *testing.T) {
	s := newPagedServer(t, 12*50, 50)
	s.answer = func(r *http.Request, page int) int {
		switch page {
		case 4:
			time.Sleep(50 * time.Millisecond) // fails after page 6 did
			return http.StatusNotFound
		case 6:
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}
	ids, errs := collect(s.client(t, padapi.WithConcurrentPages(8)), context.Background())
	if diff := cmp.Diff(wantIDs(1, 2, 3), ids); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || !errors.Is(errs[0], padapi.ErrNotFound) {
		t.Errorf("errors %v, want page 4's ErrNotFound once", errs)
	}
	checkNoFetchLeft(t)
}

// TestAllBreakCancelsFetches: breaking out of the loop cancels the pages
// still being fetched, and waits for them: no goroutine outlives the loop.
func TestAllBreakCancelsFetches(t *testing.T) {
	for _, window := range []int{1, 8} {
		t.Run(fmt.Sprintf("pages=%d", window), func(t *testing.T) {
			s := newPagedServer(t, 20*50, 50)
			var cancelled atomic.Int64
			s.answer = func(r *http.Request, page int) int {
				if page == 1 {
					return http.StatusOK
				}
				select { // hang until the client gives up
				case <-r.Context().Done():
					cancelled.Add(1)
				case <-time.After(10 * time.Second):
				}
				return http.StatusOK
			}
			c := s.client(t, padapi.WithConcurrentPages(window))
			start := time.Now()
			for _, err := range c.Pads.All(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				deadline := time.Now().Add(5 * time.Second)
				for s.inflight.Load() < int64(window) && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				break
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("break took %v", d)
			}
			checkNoFetchLeft(t)
			deadline := time.Now().Add(5 * time.Second)
			for cancelled.Load() < int64(window) && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
			if got := cancelled.Load(); got != int64(window) {
				t.Errorf("server saw %d of %d requests cancelled", got, window)
			}
		})
	}
}

// TestAllContextCancelled: cancelling the caller's context ends the loop
// with the context's error, and no fetch outlives it.
func TestAllContextCancelled(t *testing.T) {
	s := newPagedServer(t, 20*50, 50)
	s.answer = func(r *http.Request, page int) int {
		if page > 1 {
			<-r.Context().Done()
		}
		return http.StatusOK
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := s.client(t, padapi.WithConcurrentPages(8))
	n := 0
	var last error
	for _, err := range c.Pads.All(ctx, nil) {
		if err != nil {
			last = err
			continue
		}
		if n++; n == 50 {
			cancel()
		}
	}
	if n != 50 || !errors.Is(last, context.Canceled) {
		t.Errorf("%d pads, then %v; want 50, then context.Canceled", n, last)
	}
	checkNoFetchLeft(t)
}

func TestWithConcurrentPagesRefusesZero(t *testing.T) {
	if _, err := padapi.NewClient("http://127.0.0.1", "k", padapi.WithConcurrentPages(0)); err == nil {
		t.Error("WithConcurrentPages(0) accepted")
	}
}

// TestConcurrentPagesFake: against the fake service, every sort reads the
// same with 8 pages at once as page by page with List.
func TestConcurrentPagesFake(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.Seed(420)
	ctx := context.Background()
	one, eight := srv.Client(), srv.Client(padapi.WithConcurrentPages(8))
	for _, sort := range []padapi.Sort{"", padapi.SortCreatedAsc, padapi.SortUpdatedDesc} {
		var want []padapi.ID
		opts := &padapi.PadListOptions{Sort: sort}
		for page := 1; ; page++ {
			opts.Page = page
			p, err := one.Pads.List(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, pad := range p.Items {
				want = append(want, pad.ID)
			}
			if p.NextPage == "" {
				break
			}
		}
		var got []padapi.ID
		for pad, err := range eight.Pads.All(ctx, &padapi.PadListOptions{Sort: sort}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, pad.ID)
		}
		if len(want) != 420 || !cmp.Equal(want, got) {
			t.Errorf("sort %q: %d pads with 8 at once, %d page by page, or another order", sort, len(got), len(want))
		}
	}
}

// With room for them, the pages up to the last one the total names are all
// requested while an earlier page is still on its way: none is left for
// later.
func TestConcurrentPagesReachTheLastPage(t *testing.T) {
	t.Parallel()
	lastAsked := make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		switch page {
		case 2:
			select {
			case <-lastAsked:
			case <-time.After(2 * time.Second):
				t.Error("page 5 was not requested while page 2 was on its way")
			}
		case 5:
			once.Do(func() { close(lastAsked) })
		}
		var pads []string
		for i := range 50 {
			pads = append(pads, fmt.Sprintf(`{"id":"P%d-%d"}`, page, i))
		}
		next := "null"
		if page < 5 {
			next = fmt.Sprintf(`"%s/api/pads?page=%d"`, "https://x.example", page+1)
		}
		respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","pads":[%s],"total":250,"next_page":%s}`, strings.Join(pads, ","), next)))
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, noRetry, padapi.WithConcurrentPages(8))
	n := 0
	for _, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 250 {
		t.Errorf("%d pads, want 250", n)
	}
}
