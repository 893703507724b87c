// pads_events_test.go: tests of a pad's event log: pages, iterators, shapes, refusals.

package padapi_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// eventServer serves testdata/events_page1.json for the first page of
// pad K3P9ZR2A's events and events_last.json for page 2, and records each
// request's query.
func eventServer(t *testing.T) (*padapi.Client, func() []string) {
	t.Helper()
	c, mux := setup(t, noRetry)
	first, last := fixture(t, "events_page1.json"), fixture(t, "events_last.json")
	var mu sync.Mutex
	var queries []string
	mux.HandleFunc("GET /gw/api/pads/K3P9ZR2A/events", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		switch r.URL.Query().Get("page") {
		case "", "1":
			respond(w, http.StatusOK, first)
		case "2":
			respond(w, http.StatusOK, last)
		default:
			t.Errorf("unexpected page %q", r.URL.RawQuery)
			respond(w, http.StatusNotFound, []byte(`{"status":"ERROR","message":"Not found"}`))
		}
	})
	return c, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), queries...)
	}
}

// AllEvents reads every page in order, asking for the next page by the
// number and sort its next_page link names, below the client's base URL.
func TestAllEventsPages(t *testing.T) {
	t.Parallel()
	want := append(eventsPage1().Items, eventsLast().Items...)
	for _, tc := range []struct {
		name    string
		opts    *padapi.PadEventListOptions
		queries []string
	}{
		{"nil options", nil, []string{"", "page=2&sort=created_at%2Casc"}},
		{"sorted", &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc}, []string{"sort=created_at%2Casc", "page=2&sort=created_at%2Casc"}},
		{"from page 2", &padapi.PadEventListOptions{Page: 2}, []string{"page=2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, queries := eventServer(t)
			var got []padapi.PadEvent
			for ev, err := range c.Pads.AllEvents(context.Background(), "K3P9ZR2A", tc.opts) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, *ev)
			}
			wantEvents := want
			if tc.opts != nil && tc.opts.Page == 2 {
				wantEvents = eventsLast().Items
			}
			if diff := cmp.Diff(wantEvents, got); diff != "" {
				t.Errorf("events mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.queries, queries()); diff != "" {
				t.Errorf("queries mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A loop that stops early fetches no further page.
func TestAllEventsStopsEarly(t *testing.T) {
	t.Parallel()
	c, queries := eventServer(t)
	n := 0
	for _, err := range c.Pads.AllEvents(context.Background(), "K3P9ZR2A", nil) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3 {
			break
		}
	}
	if got := queries(); len(got) != 1 {
		t.Errorf("requests %q, want only the first page", got)
	}
}

// An events page must carry its "events" list: a page without the key, or
// with something else under it, is a decode error, never an empty log.
// An empty or null list is an empty page.
func TestEventsPageShapes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		wantErr    string // "" for success
		wantItems  int
	}{
		{"no events key", `{"status":"OK","total":3}`, `the answer has no "events" list`, 0},
		{"status only", `{"status":"OK"}`, `the answer has no "events" list`, 0},
		{"pads instead of events", `{"status":"OK","pads":[],"total":0}`, `the answer has no "events" list`, 0},
		{"events as a link", `{"status":"OK","events":"https://app.coderpad.io/api/pads/X/events","total":1}`, "events", 0},
		{"events as an object", `{"status":"OK","events":{"message":"x"},"total":1}`, "events", 0},
		{"an event of the wrong type", `{"status":"OK","events":[7],"total":1}`, "events", 0},
		{"a bad timestamp", `{"status":"OK","events":[{"created_at":"yesterday"}],"total":1}`, "yesterday", 0},
		{"status ERROR", `{"status":"ERROR","message":"Pad is private","events":[]}`, "Pad is private", 0},
		{"empty list", `{"status":"OK","events":[],"total":0}`, "", 0},
		{"null list", `{"status":"OK","events":null,"total":0}`, "", 0},
		{"a null event", `{"status":"OK","events":[null,{"kind":"ran"}],"total":2}`, "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := memoryClient(t)
			page, err := c.Pads.ListEvents(answering(http.StatusOK, []byte(tc.body)), "P1", nil)
			var iterErrs int
			for _, ierr := range c.Pads.AllEvents(answering(http.StatusOK, []byte(tc.body)), "P1", nil) {
				if ierr != nil {
					iterErrs++
					if ierr.Error() != err.Error() {
						t.Errorf("AllEvents error %q, ListEvents error %q", ierr, err)
					}
				}
			}
			if tc.wantErr == "" {
				if err != nil || iterErrs != 0 {
					t.Fatalf("error %v (%d from AllEvents), want a page", err, iterErrs)
				}
				if page.Items == nil || len(page.Items) != tc.wantItems {
					t.Errorf("items %#v, want %d", page.Items, tc.wantItems)
				}
				return
			}
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusOK || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("error %v, want an *APIError with 200 saying %q", err, tc.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "padapi: GET /api/pads/P1/events: ") {
				t.Errorf("error %q does not name the request", err)
			}
			if page != nil {
				t.Errorf("page %+v with the error", page)
			}
			if iterErrs != 1 {
				t.Errorf("AllEvents yielded %d errors, want 1", iterErrs)
			}
		})
	}
}

// A refused pad ID sends nothing, from ListEvents or AllEvents.
func TestEventsInvalidID(t *testing.T) {
	t.Parallel()
	for _, id := range []padapi.ID{"", ".", ".."} {
		c, mux := setup(t, noRetry)
		n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
		if _, err := c.Pads.ListEvents(context.Background(), id, nil); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("ListEvents(%q): %v, want ErrInvalidArgument", id, err)
		}
		var errs []error
		for ev, err := range c.Pads.AllEvents(context.Background(), id, nil) {
			if ev != nil {
				t.Errorf("AllEvents(%q) yielded an event", id)
			}
			errs = append(errs, err)
		}
		if len(errs) != 1 || !errors.Is(errs[0], padapi.ErrInvalidArgument) {
			t.Errorf("AllEvents(%q) yielded %v, want one ErrInvalidArgument", id, errs)
		}
		if got := n.Load(); got != 0 {
			t.Errorf("%q: %d requests, want 0", id, got)
		}
	}
}

// A pad that is not there is ErrNotFound, read once (a 404 is not retried).
func TestEventsNotFound(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, fastRetry)
	n := handle(mux, "GET /gw/api/pads/NOPE/events", http.StatusNotFound, fixture(t, "error_pad_not_found.json"))
	_, err := c.Pads.ListEvents(context.Background(), "NOPE", nil)
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
}

// Each live shape decodes through its endpoint, which sends exactly the
// request the service takes.
func TestEventsLiveShapes(t *testing.T) {
	t.Parallel()
	runEndpoints(t, []endpointCase{
		{
			name: "Events first page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "K3P9ZR2A", nil)
			},
			method: "GET", path: "/gw/api/pads/K3P9ZR2A/events",
			file: "events_page1.json", want: eventsPage1(),
		},
		{
			name: "Events sorted last page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "K3P9ZR2A", &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc, Page: 2})
			},
			method: "GET", path: "/gw/api/pads/K3P9ZR2A/events",
			query: url.Values{"sort": {"created_at,asc"}, "page": {"2"}},
			file:  "events_last.json", want: eventsLast(),
		},
		{
			name: "Events of a pad ID that needs escaping",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "a/b c", &padapi.PadEventListOptions{})
			},
			method: "GET", path: "/gw/api/pads/a%2Fb%20c/events",
			file: "events_page1.json", want: eventsPage1(),
		},
	})
}

// eventsPage1 and eventsLast are testdata/events_page1.json and
// events_last.json: one log of five events in two pages.
func eventsPage1() *padapi.Page[padapi.PadEvent] {
	return &padapi.Page[padapi.PadEvent]{
		Items: []padapi.PadEvent{
			{Message: "Jane Doe joined the pad", Kind: "joined", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC)},
			{Message: "Candidate joined the pad", Kind: "joined", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 10, 16, 2, 0, time.UTC)},
			{Message: "Candidate ran the code", Kind: "ran", Metadata: "python3", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 2, 20, 0, 500_000_000, offset(-8, 0))},
		},
		Total:    5,
		NextPage: "https://app.coderpad.io/api/pads/K3P9ZR2A/events?page=2&sort=created_at%2Casc",
	}
}

func eventsLast() *padapi.Page[padapi.PadEvent] {
	return &padapi.Page[padapi.PadEvent]{
		Items: []padapi.PadEvent{
			{Message: "Jane Doe switched the language to Go", Kind: "language_changed", Metadata: "go", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2024, 3, 5, 10, 40, 0, 0, offset(1, 0))},
			{Message: "Candidate left the pad", Kind: "left", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 11, 1, 59, 999_999_000, time.UTC)},
		},
		Total:    5,
		PrevPage: "https://app.coderpad.io/api/pads/K3P9ZR2A/events?page=1&sort=created_at%2Casc",
	}
}

// eventsPage is an events page in its wire shape, decoded with
// encoding/json alone.
type eventsPage struct {
	Status   string            `json:"status"`
	Events   []padapi.PadEvent `json:"events"`
	Total    int               `json:"total"`
	NextPage string            `json:"next_page"`
	PrevPage string            `json:"prev_page"`
}

// FuzzEventsPage sends any body as the answer to Pads.ListEvents: no
// panic, bounded errors, and a page that decodes holds what encoding/json
// finds under "events".
func FuzzEventsPage(f *testing.F) {
	addFiles(f, "events_*.json")
	f.Add([]byte(`{"status":"OK","events":[null,{"KIND":"ran","metadata":null}],"total":"1"}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.ListEvents(answering(http.StatusOK, body), "P1", nil)
		checkError(t, err, body)
		if err != nil {
			return
		}
		var direct eventsPage
		decodesOK(t, body, &direct, &direct.Status)
		items := direct.Events
		if items == nil {
			items = []padapi.PadEvent{}
		}
		want := &padapi.Page[padapi.PadEvent]{Items: items, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		agree(t, body, page, want, nil)
	})
}
