package archive

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/padinterview/padapi"
)

// eventPages serves a pad's events one per page: pages pages whose total
// says total, each linking to the next.
func eventPages(t *testing.T, pages, total int) (*padapi.Client, *atomic.Int64) {
	t.Helper()
	var served atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		n, _ := strconv.Atoi(r.URL.Query().Get("page"))
		n = max(n, 1)
		next := ""
		if n < pages {
			next = fmt.Sprintf(`,"next_page":"http://%s%s?page=%d"`, r.Host, r.URL.Path, n+1)
		}
		fmt.Fprintf(w, `{"status":"OK","events":[ {"kind":"ran","message":"event %d","created_at":"2026-01-01T00:00:00Z"}],"total":%d%s}`, n, total, next)
	}))
	t.Cleanup(srv.Close)
	c, err := padapi.NewClient(srv.URL, "k", padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, &served
}

func TestEventsFollowEveryPageAsSent(t *testing.T) {
	t.Parallel()
	c, served := eventPages(t, 3, 3)
	r := &run{c: c}
	got, err := r.events(deadline(t), "P1")
	if err != nil {
		t.Fatal(err)
	}
	// Each event's bytes as sent (the space before the first is the
	// array's, not the event's).
	want := `[{"kind":"ran","message":"event 1","created_at":"2026-01-01T00:00:00Z"},{"kind":"ran","message":"event 2","created_at":"2026-01-01T00:00:00Z"},{"kind":"ran","message":"event 3","created_at":"2026-01-01T00:00:00Z"}]`
	if string(got) != want || served.Load() != 3 {
		t.Errorf("events (%d pages):\n%s\nwant\n%s", served.Load(), got, want)
	}
}

func TestEventsStopWhereTheTotalSays(t *testing.T) {
	t.Parallel()
	// Pages link on and on, though the total says 2 events of 1 a page.
	c, served := eventPages(t, 1000, 2)
	r := &run{c: c}
	// The library's pager stops it, naming the total.
	if _, err := r.events(deadline(t), "P1"); err == nil || !strings.Contains(err.Error(), "total of 2") {
		t.Fatalf("events: %v", err)
	}
	if n := served.Load(); n < 3 || n > 4 {
		t.Errorf("%d pages read, want 3 or 4 (the total's 2, one more, and at most the one that shows it)", n)
	}
}

// manyEvents serves a pad's events, n of them, in pages of 1 000, to a
// client whose own list limit (default 100 000) is above maxEvents.
func manyEvents(t *testing.T, n int) *padapi.Client {
	t.Helper()
	const per = 1000
	event := `{"kind":"ran","message":"e","created_at":"2026-01-01T00:00:00Z"}`
	full := strings.Repeat(event+",", per-1) + event
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		items := min(per, n-(page-1)*per)
		next := ""
		if page*per < n {
			next = fmt.Sprintf(`,"next_page":"http://%s%s?page=%d"`, r.Host, r.URL.Path, page+1)
		}
		fmt.Fprintf(w, `{"status":"OK","events":[%s],"total":%d%s}`, full[:items*(len(event)+1)-1], n, next)
	}))
	t.Cleanup(srv.Close)
	c, err := padapi.NewClient(srv.URL, "k", padapi.WithRetry(0, 0, 0), padapi.WithListLimit(2*maxEvents))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestEventsAreBoundedAtMaxEvents(t *testing.T) {
	if raceDetector {
		t.Skip("200 000 events, 15 MB of JSON: run by the plain go test")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	r := &run{c: manyEvents(t, maxEvents)}
	got, err := r.events(ctx, "P1")
	if err != nil || bytes.Count(got, []byte(`"kind"`)) != maxEvents {
		t.Fatalf("%d events: %d read, %v", maxEvents, bytes.Count(got, []byte(`"kind"`)), err)
	}
	r = &run{c: manyEvents(t, maxEvents+1)}
	if _, err := r.events(ctx, "P1"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d", maxEvents)) {
		t.Errorf("%d events: %v", maxEvents+1, err)
	}
}
