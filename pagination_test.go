// pagination_test.go: tests of pages and the iterators that follow next_page links, prefetching included.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// pageSize is the service's page size.
const pageSize = 50

// pager serves a generated list of n items at an API path below the
// gateway prefix, a page of 50 at a time with the absolute next_page links
// the service sends, and records the query of every request.
type pager struct {
	path string // the API path, such as /api/pads
	key  string // the list's JSON key: "pads", "questions" or "events"
	n    int
	// link returns the next_page link of a page, given the request's host
	// and sort; nil means the service's own link.
	link func(host string, next int, sort string) string
	// fail is a page that answers 500, or 0.
	fail int

	mu      sync.Mutex
	queries []string
}

// start serves the pager on a new loopback server and returns a client for
// it without retries.
func (p *pager) start(t *testing.T) *padapi.Client {
	t.Helper()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("GET "+gwPrefix+p.path, p.serve)
	return c
}

func (p *pager) serve(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.queries = append(p.queries, r.URL.RawQuery)
	p.mu.Unlock()
	q := r.URL.Query()
	page := 1
	if s := q.Get("page"); s != "" {
		var err error
		if page, err = strconv.Atoi(s); err != nil || page < 1 {
			http.Error(w, "bad page", http.StatusBadRequest)
			return
		}
	}
	if page == p.fail {
		respond(w, http.StatusInternalServerError, []byte(`{"status":"ERROR","message":"Internal server error"}`))
		return
	}
	var items []map[string]any
	for i := (page-1)*pageSize + 1; i <= min(page*pageSize, p.n); i++ {
		items = append(items, p.item(i))
	}
	body := map[string]any{"status": "OK", p.key: items, "total": p.n}
	if page*pageSize < p.n {
		link := p.link
		if link == nil {
			link = func(host string, next int, sort string) string {
				v := url.Values{"page": {strconv.Itoa(next)}}
				if sort != "" {
					v.Set("sort", sort)
				}
				return "http://" + host + gwPrefix + p.path + "?" + v.Encode()
			}
		}
		body["next_page"] = link(r.Host, page+1, q.Get("sort"))
	}
	b, err := json.Marshal(body)
	if err != nil {
		panic(err)
	}
	respond(w, http.StatusOK, b)
}

// item is the i-th item (from 1) of the list.
func (p *pager) item(i int) map[string]any {
	switch p.key {
	case "questions":
		return map[string]any{"id": i, "title": fmt.Sprintf("Question %d", i), "created_at": "2024-01-01T00:00:00Z"}
	case "events":
		// An event has no ID; its message stands in for one.
		id := fmt.Sprintf("E%03d", i)
		return map[string]any{"id": id, "message": id, "kind": "joined", "created_at": "2024-01-01T00:00:00Z"}
	}
	return map[string]any{"id": fmt.Sprintf("P%03d", i), "title": fmt.Sprintf("Pad %d", i), "events": "x", "created_at": "2024-01-01T00:00:00Z"}
}

// requests returns the query of each request so far.
func (p *pager) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.queries...)
}

// listIter is one of the library's All iterators, seen as a sequence of IDs.
type listIter struct {
	name, path, key string
	all             func(context.Context, *padapi.Client, padapi.Sort) iter.Seq2[string, error]
}

// idsOf turns a sequence of items into a sequence of their IDs.
func idsOf[T any](seq iter.Seq2[*T, error], id func(*T) string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		for v, err := range seq {
			s := ""
			if err == nil {
				s = id(v)
			}
			if !yield(s, err) {
				return
			}
		}
	}
}

func padID(p *padapi.Pad) string           { return string(p.ID) }
func questionID(q *padapi.Question) string { return string(q.ID) }
func eventID(e *padapi.PadEvent) string    { return e.Message }

var listIters = []listIter{
	{"Pads.All", "/api/pads", "pads", func(ctx context.Context, c *padapi.Client, s padapi.Sort) iter.Seq2[string, error] {
		return idsOf(c.Pads.All(ctx, &padapi.PadListOptions{Sort: s}), padID)
	}},
	{"Questions.All", "/api/questions", "questions", func(ctx context.Context, c *padapi.Client, s padapi.Sort) iter.Seq2[string, error] {
		return idsOf(c.Questions.All(ctx, &padapi.QuestionListOptions{Sort: s}), questionID)
	}},
	{"Organization.AllPads", "/api/organization/pads", "pads", func(ctx context.Context, c *padapi.Client, s padapi.Sort) iter.Seq2[string, error] {
		return idsOf(c.Organization.AllPads(ctx, &padapi.OrganizationPadListOptions{Sort: s}), padID)
	}},
	{"Organization.AllQuestions", "/api/organization/questions", "questions", func(ctx context.Context, c *padapi.Client, s padapi.Sort) iter.Seq2[string, error] {
		return idsOf(c.Organization.AllQuestions(ctx, &padapi.OrganizationQuestionListOptions{Sort: s}), questionID)
	}},
	{"Pads.AllEvents", "/api/pads/P1/events", "events", func(ctx context.Context, c *padapi.Client, s padapi.Sort) iter.Seq2[string, error] {
		return idsOf(c.Pads.AllEvents(ctx, "P1", &padapi.PadEventListOptions{Sort: s}), eventID)
	}},
}

// wantIDs returns the IDs of items from..to (counting from 1) of the list.
func (it listIter) wantIDs(from, to int) []string {
	p := pager{key: it.key}
	var ids []string
	for i := from; i <= to; i++ {
		ids = append(ids, fmt.Sprint(p.item(i)["id"]))
	}
	return ids
}

// yielded is one value an iterator yielded: an ID or an error.
type yielded struct {
	ID  string
	Err error
}

// collectUpTo runs seq to its end, or until it has yielded limit values (so a
// broken iterator cannot loop forever), and returns what it yielded.
func collectUpTo(seq iter.Seq2[string, error], limit int) []yielded {
	var got []yielded
	for id, err := range seq {
		got = append(got, yielded{id, err})
		if len(got) == limit {
			break
		}
	}
	return got
}

// drain counts the items seq yields before its first error, which it
// returns; past limit items it stops and says so (over), so that a list
// that never ends fails its test rather than hanging it.
func drain[T any](seq iter.Seq2[*T, error], limit int) (n int, err error, over bool) {
	for _, err := range seq {
		if err != nil {
			return n, err, false
		}
		if n++; n > limit {
			return n, nil, true
		}
	}
	return n, nil, false
}

// split separates the IDs yielded before the first error from the errors.
func split(got []yielded) (ids []string, errs []error) {
	for _, y := range got {
		if y.Err != nil {
			errs = append(errs, y.Err)
		} else if len(errs) == 0 {
			ids = append(ids, y.ID)
		}
	}
	return ids, errs
}

func TestAllThreePages(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 107}
			c := p.start(t)
			got := collectUpTo(it.all(context.Background(), c, padapi.SortUpdatedAsc), 1000)
			ids, errs := split(got)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(it.wantIDs(1, 107), ids); diff != "" {
				t.Errorf("IDs mismatch (-want +got):\n%s", diff)
			}
			want := []string{"sort=updated_at%2Casc", "page=2&sort=updated_at%2Casc", "page=3&sort=updated_at%2Casc"}
			if diff := cmp.Diff(want, p.requests()); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Pages are fetched only when the loop reaches them, or the page before.
func TestAllBreakEarly(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 107}
			c := p.start(t)
			got := collectUpTo(it.all(context.Background(), c, ""), 10)
			ids, errs := split(got)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(it.wantIDs(1, 10), ids); diff != "" {
				t.Errorf("IDs mismatch (-want +got):\n%s", diff)
			}
			if got := p.requests(); len(got) > 2 || got[0] != "" {
				t.Errorf("requests %q, want page 1 and at most page 2", got)
			}
		})
	}
}

func TestAllErrorOnSecondPage(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 107, fail: 2}
			c := p.start(t)
			got := collectUpTo(it.all(context.Background(), c, ""), 1000)
			if len(got) != pageSize+1 {
				t.Fatalf("yielded %d values, want %d items and then one error", len(got), pageSize)
			}
			ids, errs := split(got)
			if diff := cmp.Diff(it.wantIDs(1, pageSize), ids); diff != "" {
				t.Errorf("IDs mismatch (-want +got):\n%s", diff)
			}
			if last := got[len(got)-1].Err; !errors.Is(last, padapi.ErrServer) || len(errs) != 1 {
				t.Errorf("errors %v, want exactly one, last, matching ErrServer", errs)
			}
			if got := p.requests(); len(got) != 2 {
				t.Errorf("requests %q, want exactly 2", got)
			}
		})
	}
}

// A next_page link on another host is never requested: its page is fetched
// from the base URL, so the other host never sees the key.
func TestAllNextPageOnAnotherHost(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			var elsewhere atomic.Int32
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				elsewhere.Add(1)
				http.NotFound(w, r)
			}))
			t.Cleanup(other.Close)
			p := &pager{path: it.path, key: it.key, n: 107, link: func(_ string, next int, _ string) string {
				return other.URL + gwPrefix + it.path + "?page=" + strconv.Itoa(next)
			}}
			c := p.start(t)
			ids, errs := split(collectUpTo(it.all(context.Background(), c, ""), 1000))
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(it.wantIDs(1, 107), ids); diff != "" {
				t.Errorf("IDs mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"", "page=2", "page=3"}, p.requests()); diff != "" {
				t.Errorf("requests to the base URL mismatch (-want +got):\n%s", diff)
			}
			if n := elsewhere.Load(); n != 0 {
				t.Errorf("the other host got %d requests, want 0", n)
			}
		})
	}
}

// A backend that does not know about the gateway links to its own paths;
// paging still goes below the prefix. (The pager's server fails the test on
// any request outside the prefix.)
func TestAllNextPageWithoutPrefix(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 107, link: func(host string, next int, _ string) string {
				return "http://" + host + it.path + "?page=" + strconv.Itoa(next)
			}}
			c := p.start(t)
			ids, errs := split(collectUpTo(it.all(context.Background(), c, ""), 1000))
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			if diff := cmp.Diff(it.wantIDs(1, 107), ids); diff != "" {
				t.Errorf("IDs mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"", "page=2", "page=3"}, p.requests()); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A next_page that names a page already fetched ends the loop with an
// error instead of looping forever.
func TestAllNextPageRepeats(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 107, link: func(host string, next int, _ string) string {
				return "http://" + host + gwPrefix + it.path + "?page=2" // page 2 names itself
			}}
			checkLoopCaught(t, it, p)
		})
	}
}

// TestAllNextPageBackToFirst: page 2 links back to page 1. The link may
// spell out the sort that page 1 was fetched with by default, or name
// another sort at every turn; either way page 1 is not fetched, nor its
// items yielded, a second time.
func TestAllNextPageBackToFirst(t *testing.T) {
	t.Parallel()
	sorts := map[string]func(sent string, next int) string{
		"no sort":           func(string, int) string { return "" },
		"default spelt out": func(string, int) string { return string(padapi.SortCreatedDesc) },
		"sort changes":      func(_ string, next int) string { return "created_at,desc" + strings.Repeat(" ", next) },
	}
	for _, it := range listIters {
		for name, sortOf := range sorts {
			t.Run(it.name+"/"+name, func(t *testing.T) {
				p := &pager{path: it.path, key: it.key, n: 107, link: func(host string, next int, sent string) string {
					if next == 3 {
						next = 1
					}
					v := url.Values{"page": {strconv.Itoa(next)}}
					if s := sortOf(sent, next); s != "" {
						v.Set("sort", s)
					}
					return "http://" + host + gwPrefix + it.path + "?" + v.Encode()
				}}
				checkLoopCaught(t, it, p)
			})
		}
	}
}

// checkLoopCaught lists with p, whose page 2 links back to a page already
// fetched: the iterator yields the two pages' items once, then one error,
// after exactly two requests.
func checkLoopCaught(t *testing.T, it listIter, p *pager) {
	t.Helper()
	c := p.start(t)
	got := collectUpTo(it.all(context.Background(), c, ""), 1000)
	ids, errs := split(got)
	if diff := cmp.Diff(it.wantIDs(1, 2*pageSize), ids); diff != "" {
		t.Errorf("IDs mismatch (-want +got):\n%s", diff)
	}
	if len(errs) != 1 || got[len(got)-1].Err == nil {
		t.Errorf("errors %v, want exactly one, last", errs)
	}
	if got := p.requests(); len(got) != 2 {
		t.Errorf("requests %q, want exactly 2", got)
	}
}

// TestAllEmptyPageWithNextPage: a page with no items that still links to a
// next one would let a service page the iterator forever with ever larger
// page numbers; the iterator stops with an error instead.
func TestAllEmptyPageWithNextPage(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	c, mux := setup(t, noRetry)
	mux.HandleFunc("GET "+gwPrefix+"/api/pads", func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		respond(w, http.StatusOK, []byte(`{"status":"OK","pads":[],"total":5,"next_page":"http://`+r.Host+gwPrefix+
			`/api/pads?page=`+strconv.FormatInt(n+1, 10)+`"}`))
	})
	got := collectUpTo(idsOf(c.Pads.All(context.Background(), nil), padID), 1000)
	ids, errs := split(got)
	if len(ids) != 0 || len(errs) != 1 {
		t.Errorf("got IDs %v and errors %v, want no IDs and one error", ids, errs)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestAllEmptyPageMidList: an empty page after a full one, still linking
// onward, ends the list with an error at once, although the total would
// allow hundreds more pages: the iterator sends 2 requests, not 500.
func TestAllEmptyPageMidList(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	c, mux := setupMemory(t, noRetry)
	mux.HandleFunc("GET "+gwPrefix+"/api/pads", func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		items := `[]`
		if n == 1 {
			items = `[{"id":"A"},{"id":"B"}]`
		}
		respond(w, http.StatusOK, []byte(`{"status":"OK","pads":`+items+`,"total":1000,"next_page":"`+testBase+gwPrefix+
			`/api/pads?page=`+strconv.FormatInt(n+1, 10)+`"}`))
	})
	ids, errs := split(collectUpTo(idsOf(c.Pads.All(context.Background(), nil), padID), 1000))
	if len(ids) != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "page 2 is empty but has a next_page link") {
		t.Errorf("got IDs %v and errors %v, want A, B and the empty page's error", ids, errs)
	}
	if n := requests.Load(); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

// TestAllFollowsTheLinksSort: the next_page link's sort is the one the next
// request sends, even when it differs from the caller's (the service knows
// which order its page numbers count in).
func TestAllFollowsTheLinksSort(t *testing.T) {
	t.Parallel()
	for _, it := range listIters {
		t.Run(it.name, func(t *testing.T) {
			p := &pager{path: it.path, key: it.key, n: 60, link: func(host string, next int, _ string) string {
				return "http://" + host + gwPrefix + it.path + "?page=" + strconv.Itoa(next) + "&sort=created_at%2Casc"
			}}
			c := p.start(t)
			ids, errs := split(collectUpTo(it.all(context.Background(), c, padapi.SortUpdatedDesc), 1000))
			if len(errs) > 0 || len(ids) != 60 {
				t.Fatalf("%d items, errors %v; want 60 items", len(ids), errs)
			}
			want := []string{"sort=updated_at%2Cdesc", "page=2&sort=created_at%2Casc"}
			if diff := cmp.Diff(want, p.requests()); diff != "" {
				t.Errorf("queries (-want +got):\n%s", diff)
			}
		})
	}
}

// A next_page link's paging parameters (a cursor, per_page, sort) go back
// to the same endpoint below the base URL, whatever host the link names;
// the repeat guard reads the whole query, so two cursors on "page 2" are
// two pages.
func TestAllFollowsCursors(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	var queries []string
	mux.HandleFunc("GET /gw/api/questions", func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		next := map[string]string{
			"sort=created_at%2Casc":                      `"https://elsewhere.example/api/questions?cursor=c1&per_page=1&sort=created_at%2Casc"`,
			"cursor=c1&per_page=1&sort=created_at%2Casc": `"https://elsewhere.example/api/questions?cursor=c2&page=2&per_page=1"`,
		}[r.URL.RawQuery]
		if next == "" {
			next = `null`
		}
		respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","questions":[{"id":%d}],"total":3,"next_page":%s}`, len(queries), next)))
	})
	var ids []padapi.ID
	for q, err := range c.Questions.All(context.Background(), &padapi.QuestionListOptions{Sort: padapi.SortCreatedAsc}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, q.ID)
	}
	want := []string{"sort=created_at%2Casc", "cursor=c1&per_page=1&sort=created_at%2Casc", "cursor=c2&page=2&per_page=1&sort=created_at%2Casc"}
	if diff := cmp.Diff(want, queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]padapi.ID{"1", "2", "3"}, ids); diff != "" {
		t.Errorf("IDs (-want +got):\n%s", diff)
	}
}

// A next_page link without a page number or a cursor, or with a page
// number that is not a positive integer, ends the list with an error that
// says so, after the items of the page that carried it.
func TestAllRefusesUnusableNextPage(t *testing.T) {
	t.Parallel()
	for link, want := range map[string]string{
		"https://x.example/api/pads":            "neither a page number nor a cursor",
		"https://x.example/api/pads?sort=x":     "neither a page number nor a cursor",
		"https://x.example/api/pads?page=0":     "not a positive integer (0)",
		"https://x.example/api/pads?page=-2":    "not a positive integer (-2)",
		"https://x.example/api/pads?page=two":   "not a positive integer (two)",
		"https://x.example/api/pads?cursor=&x=": "neither a page number nor a cursor",
	} {
		c, mux := setup(t, noRetry)
		handle(mux, gwPrefix+"/", http.StatusOK, []byte(`{"status":"OK","pads":[{"id":"P1"}],"total":9,"next_page":"`+link+`"}`))
		items, last, over := drain(c.Pads.All(context.Background(), nil), 10)
		if over {
			t.Fatalf("%s: still paging", link)
		}
		if items != 1 || last == nil || !strings.Contains(last.Error(), want) {
			t.Errorf("%s: %d items, error %v; want 1 item and an error saying %q", link, items, last, want)
		}
	}
}

// pagedServer serves a pad list of total pads (IDs "P1", "P2", ...), per to
// a page, with absolute next_page links. Tests change its answers with
// next (the page a page links to) and answer (a status other than 200 for
// a page), and read what it was asked. Made by newMemoryPagedServer, it
// has no socket: its clients call it in-process, inside a synctest bubble.
type pagedServer struct {
	*httptest.Server // nil in memory
	base             string
	total, per       int
	next             func(page int) int // 0: no next page; nil: page+1 while there are more
	answer           func(r *http.Request, page int) int
	mu               sync.Mutex
	asked            []int
	inflight         atomic.Int64
	peak             atomic.Int64
}

func newPagedServer(t *testing.T, total, per int) *pagedServer {
	s := &pagedServer{total: total, per: per}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	s.base = s.URL
	t.Cleanup(s.Close)
	return s
}

// newMemoryPagedServer is newPagedServer served in-process (see
// handlerTransport), for tests inside a synctest bubble.
func newMemoryPagedServer(total, per int) *pagedServer {
	return &pagedServer{total: total, per: per, base: testBase}
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
		fmt.Fprintf(&b, `,"next_page":"%s/api/pads?page=%d"`, s.base, next)
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
	opts = append([]padapi.Option{noRetry}, opts...)
	if s.Server == nil {
		opts = append(opts, padapi.WithHTTPClient(&http.Client{Transport: handlerTransport{http.HandlerFunc(s.serve)}}))
	}
	return newTestClient(t, s.base, testKey, opts...)
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
	t.Parallel()
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
// loop is still on the first, and no page beyond it. In the bubble,
// synctest.Wait on the first item lets every fetch started reach the
// server, so a wrong third request would be seen.
func TestAllPrefetchesNextPage(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testAllPrefetchesNextPage)
}

func testAllPrefetchesNextPage(t *testing.T) {
	s := newMemoryPagedServer(5*50, 50)
	c := s.client(t)
	n := 0
	for p, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if p.ID == "P1" {
			synctest.Wait()
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
// run together, and none runs more than n pages past the loop's. Each
// answer takes 2 ms of the bubble's fake time, so the fetches overlap
// however slow the machine.
func TestConcurrentPagesWindow(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testConcurrentPagesWindow)
}

func testConcurrentPagesWindow(t *testing.T) {
	const window = 4
	s := newMemoryPagedServer(30*50, 50)
	var loopPage atomic.Int64
	var beyond atomic.Int64
	s.answer = func(r *http.Request, page int) int {
		if int64(page) > loopPage.Load()+window {
			beyond.Store(int64(page))
		}
		// Fake time: every fetch in flight is then blocked here. No
		// event can replace it: nothing says the pager has sent all
		// the fetches it will, which is what the peak counts.
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
	t.Parallel()
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
	t.Parallel()
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
// later page failed first (page 4's answer waits for page 6's).
func TestConcurrentPagesFirstError(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testConcurrentPagesFirstError)
}

func testConcurrentPagesFirstError(t *testing.T) {
	s := newMemoryPagedServer(12*50, 50)
	page6 := make(chan struct{})
	s.answer = func(r *http.Request, page int) int {
		switch page {
		case 4:
			// Fails only once page 6's failure is in and the rest
			// of the bubble is blocked; the bubble reports a deadlock
			// if page 6 is never asked for.
			select {
			case <-page6:
				synctest.Wait()
			case <-r.Context().Done():
				t.Error("page 4 canceled before page 6 failed")
			}
			return http.StatusNotFound
		case 6:
			defer close(page6)
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
	t.Parallel()
	for _, window := range []int{1, 8} {
		t.Run(fmt.Sprintf("pages=%d", window), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { testAllBreakCancelsFetches(t, window) })
		})
	}
}

func testAllBreakCancelsFetches(t *testing.T, window int) {
	s := newMemoryPagedServer(20*50, 50)
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
		synctest.Wait() // the fetches ahead are all in the server
		if n := s.inflight.Load(); n != int64(window) {
			t.Errorf("%d requests in flight, want %d", n, window)
		}
		break
	}
	if d := time.Since(start); d != 0 {
		t.Errorf("break took %v of fake time, want none", d)
	}
	checkNoFetchLeft(t)
	synctest.Wait() // the cancelled handlers have counted
	if got := cancelled.Load(); got != int64(window) {
		t.Errorf("server saw %d of %d requests cancelled", got, window)
	}
}

// TestAllContextCancelled: cancelling the caller's context ends the loop
// with the context's error, and no fetch outlives it.
func TestAllContextCancelled(t *testing.T) {
	t.Parallel()
	s := newPagedServer(t, 20*50, 50)
	s.answer = func(r *http.Request, page int) int {
		if page > 1 {
			waitHangUp(t, r)
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

// A list whose next_page links carry a cursor is never guessed ahead, even
// with concurrent pages allowed: page k+1's cursor is known only from page
// k. The bubble's synctest.Wait lets every fetch the iterator started reach
// the server before each item is looked at, so a guessed request (a cursor
// with the wrong page) is seen, not lost to a race.
func TestConcurrentPagesNeverGuessCursors(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var queries []string
		c, mux := setupMemory(t, noRetry, padapi.WithConcurrentPages(4))
		mux.HandleFunc("GET "+gwPrefix+"/api/pads", func(w http.ResponseWriter, r *http.Request) {
			q := r.URL.Query()
			mu.Lock()
			queries = append(queries, r.URL.RawQuery)
			mu.Unlock()
			n := 1
			if q.Has("page") {
				n, _ = strconv.Atoi(q.Get("page"))
			}
			if want := "c" + strconv.Itoa(n); n > 1 && q.Get("cursor") != want {
				t.Errorf("query %q: page %d with cursor %q, want %q: a guess", r.URL.RawQuery, n, q.Get("cursor"), want)
			}
			next := ""
			if n < 5 {
				next = testBase + gwPrefix + "/api/pads?cursor=c" + strconv.Itoa(n+1) + "&page=" + strconv.Itoa(n+1)
			}
			respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","pads":[{"id":"P%da"},{"id":"P%db"}],"total":10,"next_page":%q}`, n, n, next)))
		})
		var ids []string
		for id, err := range idsOf(c.Pads.All(context.Background(), nil), padID) {
			synctest.Wait() // every fetch started so far has been served
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if len(ids) != 10 {
			t.Errorf("%d items %v, want 10", len(ids), ids)
		}
		if len(queries) != 5 {
			t.Errorf("%d requests %q, want one per page (5)", len(queries), queries)
		}
	})
}

func TestWithConcurrentPagesRefusesZero(t *testing.T) {
	t.Parallel()
	if _, err := padapi.NewClient("http://127.0.0.1", "k", padapi.WithConcurrentPages(0)); err == nil {
		t.Error("WithConcurrentPages(0) accepted")
	}
}

// TestConcurrentPagesFake: against the fake service, every sort reads the
// same with 8 pages at once as page by page with List. The fake pages 10
// at a time: 86 pads are 9 pages, the last one short, as 420 are at the
// service's 50.
func TestConcurrentPagesFake(t *testing.T) {
	t.Parallel()
	const pads = 86
	srv := padapitest.NewServer(t, padapitest.WithPageSize(10))
	srv.Seed(pads)
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
		if len(want) != pads || !cmp.Equal(want, got) {
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
	c := newTestClient(t, srv.URL, testKey, noRetry, padapi.WithConcurrentPages(8))
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

// DoAll yields every item of a list as the service sent it (nulls, unknown
// fields, spacing), following next_page as the typed All methods do; a key
// no list has is refused before any request.
func TestDoAllRawItems(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	var queries []string
	mux.HandleFunc("GET /gw/api/pads", func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.RawQuery)
		if r.URL.Query().Get("cursor") == "" {
			respond(w, http.StatusOK, []byte(`{"status":"OK","pads":[{"id":"A","notes":null},{"id":"B","x":1}],"total":3,"next_page":"https://elsewhere.example/api/pads?cursor=c2"}`))
			return
		}
		respond(w, http.StatusOK, []byte(`{"status":"OK","pads":[{"id": "C", "notes": ""}],"total":3}`))
	})
	var got []string
	for item, err := range c.DoAll(context.Background(), "/api/pads", "pads", url.Values{"sort": {"created_at,asc"}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(item))
	}
	want := []string{`{"id":"A","notes":null}`, `{"id":"B","x":1}`, `{"id": "C", "notes": ""}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"sort=created_at%2Casc", "cursor=c2&sort=created_at%2Casc"}, queries); diff != "" {
		t.Errorf("queries (-want +got):\n%s", diff)
	}
	for _, key := range []string{"items", ""} {
		for _, err := range c.DoAll(context.Background(), "/api/pads", key, nil) {
			if !errors.Is(err, padapi.ErrInvalidArgument) {
				t.Errorf("key %q: %v, want ErrInvalidArgument", key, err)
			}
		}
	}
}

// TestPageNext checks that Next turns a next_page link into the options of
// the next call: the link's page, cursor and sort, the caller's sort where
// the link names none, and false on the last page or a link it cannot use.
func TestPageNext(t *testing.T) {
	t.Parallel()
	cur := padapi.ListOptions{Sort: padapi.SortUpdatedAsc, Page: 1}
	for _, tt := range []struct {
		link   string
		want   padapi.ListOptions
		wantOK bool
	}{
		{"https://x.test/api/pads?page=2", padapi.ListOptions{Sort: padapi.SortUpdatedAsc, Page: 2}, true},
		{"https://x.test/api/pads?page=3&sort=created_at%2Casc", padapi.ListOptions{Sort: padapi.SortCreatedAsc, Page: 3}, true},
		{"https://x.test/api/pads?cursor=abc", padapi.ListOptions{Sort: padapi.SortUpdatedAsc, Cursor: "abc"}, true},
		{"/api/pads?page=4&cursor=c%26d", padapi.ListOptions{Sort: padapi.SortUpdatedAsc, Page: 4, Cursor: "c&d"}, true},
		{"", padapi.ListOptions{}, false},
		{"https://x.test/api/pads", padapi.ListOptions{}, false},
		{"https://x.test/api/pads?page=0", padapi.ListOptions{}, false},
		{"https://x.test/api/pads?page=x", padapi.ListOptions{}, false},
		{"%zz", padapi.ListOptions{}, false},
	} {
		p := &padapi.Page[padapi.Pad]{NextPage: tt.link}
		got, ok := p.Next(cur)
		if ok != tt.wantOK || got != tt.want {
			t.Errorf("Next(%q) = %+v, %v; want %+v, %v", tt.link, got, ok, tt.want, tt.wantOK)
		}
	}
}

// TestPageNextWalksAList checks that List with the options Next gives
// reaches every item of a list once, in order, as All does.
func TestPageNextWalksAList(t *testing.T) {
	t.Parallel()
	srv := padapitest.NewServer(t)
	srv.Seed(120)
	c := srv.Client()
	ctx := context.Background()
	var want []padapi.ID
	for p, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc}) {
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p.ID)
	}
	opts := padapi.PadListOptions{Sort: padapi.SortUpdatedAsc}
	var got []padapi.ID
	for range 10 {
		page, err := c.Pads.List(ctx, &opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range page.Items {
			got = append(got, p.ID)
		}
		next, ok := page.Next(padapi.ListOptions(opts))
		if !ok {
			break
		}
		opts = padapi.PadListOptions(next)
	}
	if len(want) != 120 {
		t.Fatalf("All gave %d pads, want 120", len(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("walk with Next (-All +Next):\n%s", diff)
	}
}

// TestListLimitEndsAnEndlessList checks that a list whose first page
// claims a total of 1e9 and that serves pages without end stops at the
// caller's WithListLimit, with an error that names the limit, for the
// typed iterators and DoAll, page by page and several pages at once.
func TestListLimitEndsAnEndlessList(t *testing.T) {
	t.Parallel()
	for _, window := range []int{1, 4} {
		for _, raw := range []bool{false, true} {
			t.Run(fmt.Sprintf("pages %d raw %v", window, raw), func(t *testing.T) {
				t.Parallel()
				p := &pager{path: "/api/pads", key: "pads", n: 1e9}
				c, mux := setup(t, noRetry, padapi.WithListLimit(120), padapi.WithConcurrentPages(window))
				mux.HandleFunc("GET "+gwPrefix+p.path, p.serve)
				var items int
				var errs []error
				seq := func(yield func(error) bool) {
					if raw {
						for _, err := range c.DoAll(context.Background(), "/api/pads", "pads", nil) {
							if !yield(err) {
								return
							}
						}
						return
					}
					for _, err := range c.Pads.All(context.Background(), nil) {
						if !yield(err) {
							return
						}
					}
				}
				for err := range seq {
					if err != nil {
						errs = append(errs, err)
						continue
					}
					items++
					if items > 1000 {
						t.Fatal("the list went on past its limit")
					}
				}
				if items != 120 || len(errs) != 1 || !errors.Is(errs[0], padapi.ErrListLimit) || !strings.Contains(errs[0].Error(), "120") {
					t.Fatalf("got %d items and errors %v, want 120 and one ErrListLimit naming 120", items, errs)
				}
				p.mu.Lock()
				defer p.mu.Unlock()
				if len(p.queries) > 3+window {
					t.Errorf("fetched %d pages for 120 items", len(p.queries))
				}
			})
		}
	}
}

// TestListLimitExactFit checks that a list of exactly the limit's length
// ends without an error.
func TestListLimitExactFit(t *testing.T) {
	t.Parallel()
	p := &pager{path: "/api/pads", key: "pads", n: 100}
	c, mux := setup(t, noRetry, padapi.WithListLimit(100))
	mux.HandleFunc("GET "+gwPrefix+p.path, p.serve)
	n := 0
	for _, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 100 {
		t.Errorf("got %d items, want 100", n)
	}
}

// TestWithListLimitRefusesZero checks that a limit below 1 is a
// configuration error.
func TestWithListLimitRefusesZero(t *testing.T) {
	t.Parallel()
	if _, err := padapi.NewClient(testBase, testKey, padapi.WithListLimit(0)); err == nil {
		t.Error("WithListLimit(0) was accepted")
	}
}

// TestExportedSignaturesNameJSONPlainly checks that no exported function's
// signature names encoding/json by an import alias: go doc shows the
// alias, and a reader sees stdjson.RawMessage where json.RawMessage is meant.
func TestExportedSignaturesNameJSONPlainly(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			var b strings.Builder
			if err := printer.Fprint(&b, fset, fd.Type); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "stdjson") {
				t.Errorf("%s: %s's signature shows the alias: %s", name, fd.Name.Name, b.String())
			}
		}
	}
}

// TestListReadsEveryTimestampForm checks that a page whose timestamps come
// in the service's other forms (+0000, a space for T), which the one-pass
// decode of a streamed page does not read, decodes as before, and that a
// page with "status" twice is still refused.
func TestListReadsEveryTimestampForm(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "GET /gw/api/pads", http.StatusOK, []byte(`{"status":"OK","total":2,"pads":[`+
		`{"id":"A","created_at":"2014-11-14 03:02:45+0000"},{"id":"B","created_at":"2014-11-14T03:02:45Z"}]}`))
	handle(mux, "GET /gw/api/questions", http.StatusOK, []byte(`{"status":"OK","total":0,"questions":[],"status":"OK"}`))
	page, err := c.Pads.List(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)
	if len(page.Items) != 2 || !page.Items[0].CreatedAt.Equal(want) || !page.Items[1].CreatedAt.Equal(want) || page.Total != 2 {
		t.Errorf("page = %+v, want two pads created at %v", page, want)
	}
	if _, err := c.Questions.List(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a page with status twice: err = %v, want it refused", err)
	}
}

// A server whose every page claims total 120 and links a new page cannot
// make All page forever: it stops after ⌈120 ÷ 50⌉ + 1 pages.
func TestAllBoundedByTotal(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		var pads []string
		for i := range 50 {
			pads = append(pads, fmt.Sprintf(`{"id":"P%d-%d"}`, page, i))
		}
		respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","pads":[%s],"total":120,"next_page":"https://x.example/api/pads?page=%d"}`, strings.Join(pads, ","), max(page, 1)+1)))
		if n > 100 {
			t.Error("over 100 requests")
		}
	}))
	t.Cleanup(srv.Close)
	for _, window := range []int{1, 4} {
		requests.Store(0)
		c := newTestClient(t, srv.URL, testKey, noRetry, padapi.WithConcurrentPages(window))
		items, last, over := drain(c.Pads.All(context.Background(), nil), 1000)
		if over {
			t.Fatalf("window %d: still paging after 1000 items", window)
		}
		if last == nil || !strings.Contains(last.Error(), "more than a total of 120 allows") {
			t.Errorf("window %d: error %v, want one about the total", window, last)
		}
		// 3 pages hold 120 items; one page more is allowed for a list
		// that grew while it was read.
		if items != 200 {
			t.Errorf("window %d: %d items, want the 200 of the 4 pages the total allows", window, items)
		}
		if n := requests.Load(); n > 4 {
			t.Errorf("window %d: %d requests, want at most 4", window, n)
		}
	}
}

// stallingBody serves data up to stallAt (-1: no stall), says so on
// stalled, and serves the rest once gate closes (or the request's context
// ends).
type stallingBody struct {
	ctx           context.Context
	data          []byte
	stallAt       int
	gate, stalled chan struct{}
}

func (b *stallingBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	if b.stallAt == 0 {
		b.stallAt = -1
		b.stalled <- struct{}{}
		select {
		case <-b.gate:
		case <-b.ctx.Done():
			return 0, b.ctx.Err()
		}
	}
	if b.stallAt > 0 {
		p = p[:min(len(p), b.stallAt)]
		b.stallAt -= min(len(p), len(b.data))
	}
	n := copy(p, b.data)
	b.data = b.data[n:]
	return n, nil
}

func (b *stallingBody) Close() error { return nil }

// With WithConcurrentPages(8), the live heap of Pads.All is the page the
// loop reads and the 8 pages being fetched, each counted once: a page that
// has all but its last byte in holds its decoded pads and its request, not
// its body's bytes beside them (issue 28: "8-at-once paging holds ≤ 9 pages
// live"; 18.2 pages before, when a page in flight kept its whole body;
// 10.87 now, with a page of 60.5 KB).
//
// A request in flight holds 13.5-14 KB beside its pads (a heap profile at
// the peak, window 8 against window 1). 8 KiB of it is json v2's decoder,
// sized by the module itself: jsontext's read buffer, which doubles up to
// its 4 KiB maximum once 4 KiB of input have passed, and json's cache of
// short strings, a [256]string made on the first string a decoder reads
// and kept while it decodes; no streaming decode with json v2 holds less.
// Then what is kept for APIError.Body (maxPageErrorBody and 8 bytes a key
// byte: 1.25 KiB), and the request itself, about 2.5 KiB (the http.Request
// and its header map, the call, the query, the pooled decoder, the fetch's
// context and goroutine). So the bound is window+1 pages and 16 KiB a
// request, not window+1 pages flat.
func TestConcurrentPagingHoldsFewPages(t *testing.T) {
	// Not parallel: it reads the process's live heap.
	const window, perRequest = 8, 16 << 10
	held, pageBytes := pagingPeak(t, window)
	t.Logf("page %.0f bytes, live heap with %d fetches ahead %.2f pages", pageBytes, window, held)
	if limit := window + 1 + window*perRequest/pageBytes; held > limit {
		t.Errorf("live heap with %d fetches ahead is %.2f pages, want at most %d and 16 KiB a request (%.2f)", window, held, window+1, limit)
	}
}

// pagingPeak is the live heap of Pads.All with WithConcurrentPages(window)
// at its worst moment, in pages of 50 pads (with their events), and the
// live heap of one decoded page, in bytes.
//
// Method: an in-memory transport serves page 1 whole, and every page after
// it but for its last byte, which it holds back until the loop, on page 1,
// has seen all window fetches ahead reach that point. Then every page in
// flight is decoded but for its end, at once, and nothing allocates: the
// live heap (after a forced collection) is read then, above a baseline
// read before the loop, and divided by the live heap one decoded page
// takes (Pads.List, held across a collection, after a first List has
// set up the codec's caches). No server runs in the process, so no
// server's memory is counted as the client's.
func pagingPeak(tb testing.TB, window int) (held, pageBytes float64) {
	const pages = 12
	pads := benchPads(tb, 50)
	bodies := make([][]byte, pages+1)
	for p := 1; p <= pages; p++ {
		next := ""
		if p < pages {
			next = padsURL + "?page=" + strconv.Itoa(p+1)
		}
		body, err := json.Marshal(padPage{Status: "OK", Pads: pads, Total: pages * 50, NextPage: next})
		if err != nil {
			tb.Fatal(err)
		}
		bodies[p] = body
	}
	gate, stalled := make(chan struct{}), make(chan struct{}, pages)
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		p, _ := strconv.Atoi(r.URL.Query().Get("page"))
		body := &stallingBody{ctx: r.Context(), data: bodies[max(p, 1)], stallAt: -1, gate: gate, stalled: stalled}
		if p > 1 {
			body.stallAt = len(body.data) - 1
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: body, ContentLength: int64(len(body.data)), Request: r}, nil
	})
	c := newTestClient(tb, testBase, testKey, padapi.WithHTTPClient(&http.Client{Transport: rt}), padapi.WithConcurrentPages(window), noRetry)
	ctx := context.Background()
	if _, err := c.Pads.List(ctx, nil); err != nil {
		tb.Fatal(err)
	}
	before := benchLiveHeap()
	page, err := c.Pads.List(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	pageBytes = float64(benchLiveHeap() - before)
	runtime.KeepAlive(page)
	page = nil

	base := benchLiveHeap()
	n := 0
	for pad, err := range c.Pads.All(ctx, nil) {
		if err != nil {
			tb.Fatal(err)
		}
		if n == 0 {
			deadline := time.After(10 * time.Second)
			for range window {
				select {
				case <-stalled:
				case <-deadline:
					tb.Fatal("the fetches ahead did not all start")
				}
			}
			held = float64(benchLiveHeap()-base) / pageBytes
			close(gate)
		}
		runtime.KeepAlive(pad)
		n++
	}
	if n != pages*50 {
		tb.Fatalf("%d pads, want %d", n, pages*50)
	}
	return held, pageBytes
}
