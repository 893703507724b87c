package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/padinterview/padapi"
)

// The helpers below (prefix ep) serve the endpoint tests of pads_test.go,
// questions_test.go, organization_test.go and pagination_test.go.

// epKey is the API key of every test client.
const epKey = "test-key"

// epPrefix is the gateway prefix of every test client's base URL, so that
// every endpoint test also checks that requests go below it.
const epPrefix = "/gw"

// epCmp compares raw JSON by meaning: the service's spacing survives in a
// json.RawMessage, but json.Marshal compacts it.
var epCmp = cmp.Comparer(func(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && cmp.Equal(x, y)
})

// epTestdata returns the contents of testdata/name.
func epTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// epRespond writes a JSON answer.
func epRespond(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// epServer starts a loopback server for mux. Any request that no pattern of
// mux matches fails the test, so a request to a wrong method or path is
// caught even when the call under test reports no error.
func epServer(t *testing.T, mux *http.ServeMux) *httptest.Server {
	t.Helper()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s %s", r.Method, r.RequestURI)
		http.NotFound(w, r)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// epClient returns a client for srv whose base URL has the gateway prefix.
func epClient(t *testing.T, srv *httptest.Server, opts ...padapi.Option) *padapi.Client {
	t.Helper()
	c, err := padapi.NewClient(srv.URL+epPrefix, epKey, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// epCounter starts a server that answers every request with a 500 and
// counts them, for calls that must fail before sending anything.
func epCounter(t *testing.T) (*padapi.Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/gw/", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.Error(w, "should not be called", http.StatusInternalServerError)
	})
	return epClient(t, epServer(t, mux), padapi.WithRetry(0, 0, 0)), &n
}

// epFixed starts a server whose pattern answers status with a testdata file,
// and counts the requests to it.
func epFixed(t *testing.T, pattern string, status int, file string, opts ...padapi.Option) (*padapi.Client, *atomic.Int32) {
	t.Helper()
	body := epTestdata(t, file)
	var n atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		epRespond(w, status, body)
	})
	return epClient(t, epServer(t, mux), opts...), &n
}

// epCase is one call of an endpoint method: the request it must send, the
// testdata file the server answers with, and the value it must return.
type epCase struct {
	name   string
	call   func(context.Context, *padapi.Client) (any, error)
	method string
	path   string     // the escaped path on the wire, gateway prefix included
	query  url.Values // the exact query; empty means none at all
	form   url.Values // the exact form body; nil means no body
	file   string
	want   any
}

// epRun runs each case against its own server, which checks every part of
// the request and answers once.
func epRun(t *testing.T, cases []epCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := epTestdata(t, tc.file)
			var hits atomic.Int32
			mux := http.NewServeMux()
			mux.HandleFunc(tc.method+" "+tc.path, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				epCheckRequest(t, r, tc)
				epRespond(w, http.StatusOK, body)
			})
			c := epClient(t, epServer(t, mux))
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("%s %s got %d requests, want 1", tc.method, tc.path, n)
			}
			if diff := cmp.Diff(tc.want, got, epCmp); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// epCheckRequest checks what the mux pattern cannot: the path exactly as
// escaped on the wire, the query, the headers and the body.
func epCheckRequest(t *testing.T, r *http.Request, tc epCase) {
	t.Helper()
	if path, _, _ := strings.Cut(r.RequestURI, "?"); path != tc.path {
		t.Errorf("path on the wire %q, want %q", path, tc.path)
	}
	if len(tc.query) == 0 && r.URL.RawQuery != "" {
		t.Errorf("query %q, want none", r.URL.RawQuery)
	} else if diff := cmp.Diff(tc.query, r.URL.Query()); len(tc.query) > 0 && diff != "" {
		t.Errorf("query mismatch (-want +got):\n%s", diff)
	}
	if got, want := r.Header.Get("Authorization"), `Token token="`+epKey+`"`; got != want {
		t.Errorf("Authorization %q, want %q", got, want)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	ct := r.Header.Get("Content-Type")
	if tc.form == nil {
		if len(body) != 0 || ct != "" {
			t.Errorf("body %q with Content-Type %q, want no body", body, ct)
		}
		return
	}
	if ct != "application/x-www-form-urlencoded" {
		t.Errorf("Content-Type %q, want application/x-www-form-urlencoded", ct)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		t.Fatalf("body %q is not a form: %v", body, err)
	}
	if diff := cmp.Diff(tc.form, form); diff != "" {
		t.Errorf("form mismatch (-want +got):\n%s", diff)
	}
}

// epOffset is a fixed time zone east of UTC.
func epOffset(hours, minutes int) *time.Location {
	return time.FixedZone("", (hours*60+minutes)*60)
}

// epPadDocumented is testdata/pad_documented.json: the documented shape, with
// the events as a list.
func epPadDocumented() *padapi.Pad {
	return &padapi.Pad{
		ID:           "DM32JWG2",
		Title:        "Frontend interview: Jane Doe",
		OwnerEmail:   "vincent@example.com",
		Language:     "ruby",
		Participants: []string{"Vincent Woo", "Jane Doe"},
		Contents:     "def fizzbuzz(n)\n  (1..n).map { |i| i }\nend\n",
		Notes:        "Strong start; ran out of time on part 2.",
		Events: []padapi.PadEvent{
			{Message: "Vincent Woo joined the pad", Kind: "joined", UserName: "Vincent Woo", UserEmail: "vincent@example.com", CreatedAt: time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC)},
			{Message: "Jane Doe ran the code", Kind: "ran", Metadata: "ruby", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2014, 11, 14, 3, 10, 2, 0, time.UTC)},
			{Message: "Jane Doe left the pad", Kind: "left", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2014, 11, 14, 3, 31, 57, 0, time.UTC)},
		},
		ExecutionEnabled: true,
		CreatedAt:        time.Date(2014, 11, 14, 3, 2, 45, 0, time.UTC),
		UpdatedAt:        time.Date(2014, 11, 14, 3, 32, 45, 0, time.UTC),
		EndedAt:          padapi.Ptr(time.Date(2014, 11, 14, 3, 32, 45, 0, time.UTC)),
		URL:              "https://coderpad.io/DM32JWG2",
		Playback:         "https://coderpad.io/DM32JWG2/playback",
		History:          "https://coderpad.io/DM32JWG2/history",
		Drawing:          "https://coderpad.io/DM32JWG2/drawing",
	}
}

// epPadLive is testdata/pad_live.json: the live shape, with the events as a
// link, the live-only fields, and nulls where strings were documented.
func epPadLive() *padapi.Pad {
	return &padapi.Pad{
		ID:                  "K3P9ZR2A",
		Title:               "Backend screen",
		OwnerEmail:          "ops@example.com",
		Participants:        []string{},
		EventsURL:           "https://app.coderpad.io/api/pads/K3P9ZR2A/events",
		Private:             true,
		CreatedAt:           time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC),
		UpdatedAt:           time.Date(2024, 3, 5, 11, 0, 0, 0, time.UTC),
		URL:                 "https://app.coderpad.io/K3P9ZR2A",
		Playback:            "https://app.coderpad.io/K3P9ZR2A/playback",
		State:               "started",
		Type:                "live",
		QuestionIDs:         []padapi.ID{"1234", "5678"},
		PadEnvironmentIDs:   []padapi.ID{"98765"},
		ActiveEnvironmentID: padapi.Ptr[padapi.ID]("98765"),
		Team:                &padapi.Team{ID: "42", Name: "Platform"},
	}
}

// epPadEdge is testdata/pad_edge.json: an open pad, an unknown language and
// event kinds, null event fields, unknown fields (nested, with brackets inside
// strings), escaped strings, and timestamps with offsets.
func epPadEdge() *padapi.Pad {
	return &padapi.Pad{
		ID:           "EDGE0001",
		Title:        "Edge cases",
		Language:     "zig-0.14",
		Participants: []string{"Anonymous"},
		Events: []padapi.PadEvent{
			{Message: "Anonymous joined the pad", Kind: "joined", UserName: "Anonymous", CreatedAt: time.Date(2018, 1, 30, 16, 16, 0, 0, epOffset(-8, 0))},
			{Message: "Anonymous shared their screen", Kind: "screen_shared", Metadata: "display 1", UserName: "Anonymous", CreatedAt: time.Date(2018, 1, 31, 0, 20, 0, 0, time.UTC)},
			{Message: `René said "hi" \o/`, Kind: "chat", Metadata: `{"lines": 1}`, UserName: "René", UserEmail: "rene@example.com", CreatedAt: time.Date(2018, 1, 31, 0, 21, 0, 0, time.UTC)},
		},
		ExecutionEnabled: true,
		CreatedAt:        time.Date(2018, 1, 25, 14, 51, 37, 84_000_000, epOffset(-8, 0)),
		UpdatedAt:        time.Date(2018, 1, 31, 5, 50, 0, 123_456_789, epOffset(5, 30)),
		URL:              "https://coderpad.io/EDGE0001",
	}
}

// epPadsPage1 is testdata/pads_page1.json.
func epPadsPage1() *padapi.Page[padapi.Pad] {
	return &padapi.Page[padapi.Pad]{
		Items: []padapi.Pad{
			{
				ID: "K3P9ZR2A", Title: "Backend screen", OwnerEmail: "ops@example.com", Language: "go",
				Participants: []string{"Ops"},
				EventsURL:    "https://app.coderpad.io/api/pads/K3P9ZR2A/events",
				Private:      true, ExecutionEnabled: true,
				CreatedAt: time.Date(2024, 3, 5, 10, 15, 30, 0, time.UTC),
				UpdatedAt: time.Date(2024, 3, 5, 11, 0, 0, 0, time.UTC),
				URL:       "https://app.coderpad.io/K3P9ZR2A",
				Playback:  "https://app.coderpad.io/K3P9ZR2A/playback",
			},
			{
				ID: "DM32JWG2", Title: "Frontend interview: Jane Doe", OwnerEmail: "vincent@example.com", Language: "ruby",
				Participants:     []string{"Vincent Woo", "Jane Doe"},
				Contents:         "puts 1",
				EventsURL:        "https://app.coderpad.io/api/pads/DM32JWG2/events",
				ExecutionEnabled: true,
				CreatedAt:        time.Date(2024, 3, 4, 9, 0, 0, 0, time.UTC),
				UpdatedAt:        time.Date(2024, 3, 4, 9, 45, 0, 0, time.UTC),
				EndedAt:          padapi.Ptr(time.Date(2024, 3, 4, 9, 45, 0, 0, time.UTC)),
				URL:              "https://app.coderpad.io/DM32JWG2",
				Playback:         "https://app.coderpad.io/DM32JWG2/playback",
				History:          "https://app.coderpad.io/DM32JWG2/history",
			},
		},
		Total:    52,
		NextPage: "https://app.coderpad.io/api/pads?page=2&sort=created_at,desc",
	}
}

// epPadsLast is testdata/pads_last.json: a last page, without next_page.
func epPadsLast() *padapi.Page[padapi.Pad] {
	return &padapi.Page[padapi.Pad]{
		Items: []padapi.Pad{{
			ID: "AB12CD34", Title: "Untitled Pad AB12CD34", Language: "plaintext",
			Participants: []string{},
			EventsURL:    "https://app.coderpad.io/api/pads/AB12CD34/events",
			CreatedAt:    time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC),
			UpdatedAt:    time.Date(2023, 12, 31, 23, 59, 59, 0, time.UTC),
			URL:          "https://app.coderpad.io/AB12CD34",
		}},
		Total:    51,
		PrevPage: "https://app.coderpad.io/api/pads?page=1&sort=updated_at,asc",
	}
}

func TestPadsEndpoints(t *testing.T) {
	epRun(t, []epCase{
		{
			name:   "List first page",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.List(ctx, nil) },
			method: "GET", path: "/gw/api/pads",
			file: "pads_page1.json", want: epPadsPage1(),
		},
		{
			name: "List sorted last page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc, Page: 2})
			},
			method: "GET", path: "/gw/api/pads",
			query: url.Values{"sort": {"updated_at,asc"}, "page": {"2"}},
			file:  "pads_last.json", want: epPadsLast(),
		},
		{
			name:   "Get documented shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "DM32JWG2") },
			method: "GET", path: "/gw/api/pads/DM32JWG2",
			file: "pad_documented.json", want: epPadDocumented(),
		},
		{
			name:   "Get live shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "K3P9ZR2A") },
			method: "GET", path: "/gw/api/pads/K3P9ZR2A",
			file: "pad_live.json", want: epPadLive(),
		},
		{
			name:   "Get edge cases",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "EDGE0001") },
			method: "GET", path: "/gw/api/pads/EDGE0001",
			file: "pad_edge.json", want: epPadEdge(),
		},
		{
			// The ID stays one path segment: never GET /api/quota.
			name:   "Get with a dot-dot ID",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "../quota") },
			method: "GET", path: "/gw/api/pads/..%2Fquota",
			file: "pad_documented.json", want: epPadDocumented(),
		},
		{
			name:   "Get with an ID that needs escaping",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "a b?c#d") },
			method: "GET", path: "/gw/api/pads/a%20b%3Fc%23d",
			file: "pad_documented.json", want: epPadDocumented(),
		},
		{
			name: "Create with title and private",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Backend screen"), Private: padapi.Ptr(true)})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"title": {"Backend screen"}, "private": {"true"}},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			// False is set, so it is sent: only nil means "not set".
			name: "Create with every field but question",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{
					Title:            padapi.Ptr("Backend screen"),
					Language:         padapi.Ptr("go"),
					Contents:         padapi.Ptr("package main\n\nfunc main() {}\n"),
					Private:          padapi.Ptr(false),
					ExecutionEnabled: padapi.Ptr(true),
					UserEmail:        padapi.Ptr("ops@example.com"),
				})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{
				"title":             {"Backend screen"},
				"language":          {"go"},
				"contents":          {"package main\n\nfunc main() {}\n"},
				"private":           {"false"},
				"execution_enabled": {"true"},
				"user_email":        {"ops@example.com"},
			},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			name: "Create from a question",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: padapi.Ptr[padapi.ID]("1234")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"question_id": {"1234"}},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			name:   "Create with nil params",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Create(ctx, nil) },
			method: "POST", path: "/gw/api/pads",
			form: url.Values{},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			name: "Update returns the pad",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Update(ctx, "K3P9ZR2A", &padapi.PadUpdateParams{
					Notes: padapi.Ptr("Hire"), Private: padapi.Ptr(false), Ended: padapi.Ptr(true),
				})
			},
			method: "PUT", path: "/gw/api/pads/K3P9ZR2A",
			form: url.Values{"notes": {"Hire"}, "private": {"false"}, "ended": {"true"}},
			file: "pad_live.json", want: epPadLive(),
		},
	})
}

// When the service answers an update with its status only, Update fetches
// the pad: one PUT, then one GET.
func TestPadsUpdateStatusOnly(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Method+" "+r.RequestURI)
			mu.Unlock()
			epRespond(w, http.StatusOK, body)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /gw/api/pads/K3P9ZR2A", record(epTestdata(t, "delete_ok.json")))
	mux.HandleFunc("GET /gw/api/pads/K3P9ZR2A", record(epTestdata(t, "pad_live.json")))
	c := epClient(t, epServer(t, mux))

	got, err := c.Pads.Update(context.Background(), "K3P9ZR2A", &padapi.PadUpdateParams{Title: padapi.Ptr("Backend screen")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(epPadLive(), got); diff != "" {
		t.Errorf("pad mismatch (-want +got):\n%s", diff)
	}
	want := []string{"PUT /gw/api/pads/K3P9ZR2A", "GET /gw/api/pads/K3P9ZR2A"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
}

// The service rejects contents with question_id, so the client does not ask.
func TestPadsCreateContentsWithQuestionID(t *testing.T) {
	c, n := epCounter(t)
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{
		Contents: padapi.Ptr("print(1)"), QuestionID: padapi.Ptr[padapi.ID]("1234"),
	})
	if err == nil {
		t.Error("Create with Contents and QuestionID: no error")
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

func TestPadsInvalidID(t *testing.T) {
	for _, id := range []padapi.ID{"", ".", ".."} {
		t.Run(string(id), func(t *testing.T) {
			c, n := epCounter(t)
			ctx := context.Background()
			if _, err := c.Pads.Get(ctx, id); err == nil {
				t.Errorf("Get(%q): no error", id)
			}
			if _, err := c.Pads.Update(ctx, id, &padapi.PadUpdateParams{Title: padapi.Ptr("x")}); err == nil {
				t.Errorf("Update(%q): no error", id)
			}
			if got := n.Load(); got != 0 {
				t.Errorf("%d requests, want 0", got)
			}
		})
	}
}

func TestPadsGetNotFound(t *testing.T) {
	c, n := epFixed(t, "GET /gw/api/pads/NOPE0000", http.StatusNotFound, "error_pad_not_found.json")
	_, err := c.Pads.Get(context.Background(), "NOPE0000")
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %T, want *APIError", err)
	}
	want := &padapi.APIError{
		StatusCode: http.StatusNotFound, Status: "ERROR", Message: "Pad not found",
		Method: "GET", Path: "/api/pads/NOPE0000", Attempts: 1,
	}
	ignore := cmp.Options{cmpopts.IgnoreUnexported(padapi.APIError{}), cmpopts.IgnoreFields(padapi.APIError{}, "Body")}
	if diff := cmp.Diff(want, apiErr, ignore); diff != "" {
		t.Errorf("APIError mismatch (-want +got):\n%s", diff)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1 (a 404 is not retried)", got)
	}
}

// A 429 on create is the definite answer that nothing was created: it is
// not retried and does not claim an unknown outcome.
func TestPadsCreateOverQuota(t *testing.T) {
	c, n := epFixed(t, "POST /gw/api/pads", http.StatusTooManyRequests, "error_over_quota.json")
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")})
	if !errors.Is(err, padapi.ErrOverQuota) {
		t.Fatalf("error %v, want ErrOverQuota", err)
	}
	if errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("error %v matches ErrOutcomeUnknown after a definite 429", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
}

// A timestamp that is no ISO 8601 form is an error naming field and value.
func TestPadsGetMalformedTimestamp(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gw/api/pads/BAD", func(w http.ResponseWriter, r *http.Request) {
		epRespond(w, http.StatusOK, []byte(`{"status":"OK","id":"BAD","created_at":"yesterday"}`))
	})
	c := epClient(t, epServer(t, mux))
	_, err := c.Pads.Get(context.Background(), "BAD")
	if err == nil {
		t.Fatal("no error for created_at \"yesterday\"")
	}
	for _, want := range []string{"created_at", "yesterday"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}
