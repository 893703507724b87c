// pads_test.go: tests of the pad endpoints: reads, writes and deletes.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// padDocumented is testdata/pad_documented.json: the documented shape, with
// the events as a list.
func padDocumented() *padapi.Pad {
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

// padLive is testdata/pad_live.json: the live shape, with the events as a
// link, the live-only fields, and nulls where strings were documented.
func padLive() *padapi.Pad {
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
		Team:                &padapi.Team{ID: platformTeamID, Name: "Platform"},
	}
}

// padEdge is testdata/pad_edge.json: an open pad, an unknown language and
// event kinds, null event fields, unknown fields (nested, with brackets inside
// strings), escaped strings, timestamps with offsets, and a team ID as a
// number (live team IDs are UUID strings; a number must still decode).
func padEdge() *padapi.Pad {
	return &padapi.Pad{
		ID:           "EDGE0001",
		Title:        "Edge cases",
		Language:     "zig-0.14",
		Participants: []string{"Anonymous"},
		Events: []padapi.PadEvent{
			{Message: "Anonymous joined the pad", Kind: "joined", UserName: "Anonymous", CreatedAt: time.Date(2018, 1, 30, 16, 16, 0, 0, offset(-8, 0))},
			{Message: "Anonymous shared their screen", Kind: "screen_shared", Metadata: "display 1", UserName: "Anonymous", CreatedAt: time.Date(2018, 1, 31, 0, 20, 0, 0, time.UTC)},
			{Message: `René said "hi" \o/`, Kind: "chat", Metadata: `{"lines": 1}`, UserName: "René", UserEmail: "rene@example.com", CreatedAt: time.Date(2018, 1, 31, 0, 21, 0, 0, time.UTC)},
		},
		ExecutionEnabled: true,
		CreatedAt:        time.Date(2018, 1, 25, 14, 51, 37, 84_000_000, offset(-8, 0)),
		UpdatedAt:        time.Date(2018, 1, 31, 5, 50, 0, 123_456_789, offset(5, 30)),
		URL:              "https://coderpad.io/EDGE0001",
		Team:             &padapi.Team{ID: "42", Name: "Platform"},
	}
}

// padsPage1 is testdata/pads_page1.json.
func padsPage1() *padapi.Page[padapi.Pad] {
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

// padsLast is testdata/pads_last.json: a last page, without next_page.
func padsLast() *padapi.Page[padapi.Pad] {
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

// Every pad endpoint sends exactly the request the service takes, reads and
// writes alike, and decodes each shape of its answer, documented and live.
func TestPadsEndpoints(t *testing.T) {
	t.Parallel()
	runEndpoints(t, []endpointCase{
		{
			name:   "List first page",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.List(ctx, nil) },
			method: "GET", path: "/gw/api/pads",
			file: "pads_page1.json", want: padsPage1(),
		},
		{
			name: "List sorted last page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc, Page: 2})
			},
			method: "GET", path: "/gw/api/pads",
			query: url.Values{"sort": {"updated_at,asc"}, "page": {"2"}},
			file:  "pads_last.json", want: padsLast(),
		},
		{
			name:   "Get documented shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "DM32JWG2") },
			method: "GET", path: "/gw/api/pads/DM32JWG2",
			file: "pad_documented.json", want: padDocumented(),
		},
		{
			name:   "Get live shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "K3P9ZR2A") },
			method: "GET", path: "/gw/api/pads/K3P9ZR2A",
			file: "pad_live.json", want: padLive(),
		},
		{
			name:   "Get edge cases",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "EDGE0001") },
			method: "GET", path: "/gw/api/pads/EDGE0001",
			file: "pad_edge.json", want: padEdge(),
		},
		{
			// The ID stays one path segment: never GET /api/quota.
			name:   "Get with a dot-dot ID",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "../quota") },
			method: "GET", path: "/gw/api/pads/..%2Fquota",
			file: "pad_documented.json", want: padDocumented(),
		},
		{
			name:   "Get with an ID that needs escaping",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "a b?c#d") },
			method: "GET", path: "/gw/api/pads/a%20b%3Fc%23d",
			file: "pad_documented.json", want: padDocumented(),
		},
		{
			name: "Create with title and private",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Backend screen"), Private: padapi.Ptr(true)})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"title": {"Backend screen"}, "private": {"true"}},
			file: "pad_live.json", want: padLive(),
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
			file: "pad_live.json", want: padLive(),
		},
		{
			name: "Create from a question",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: padapi.Ptr[padapi.ID]("1234")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"question_id": {"1234"}},
			file: "pad_live.json", want: padLive(),
		},
		{
			name:   "Create with nil params",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Create(ctx, nil) },
			method: "POST", path: "/gw/api/pads",
			form: url.Values{},
			file: "pad_live.json", want: padLive(),
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
			file: "pad_live.json", want: padLive(),
		},
		{
			name:   "Pad with interviewer notifications",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "N0T1F1ED") },
			method: "GET", path: "/gw/api/pads/N0T1F1ED",
			file: "pad_notifications.json", want: padNotifications(),
		},
		{
			name:   "Delete a pad",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Pads.Delete(ctx, "DM32JWG2") },
			method: "PUT", path: "/gw/api/pads/DM32JWG2",
			form: url.Values{"deleted": {"true"}},
			file: "delete_ok.json", want: nil,
		},
		{
			// The service may answer a delete with the pad: still success.
			name:   "Delete a pad answered with the pad",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Pads.Delete(ctx, "a/b") },
			method: "PUT", path: "/gw/api/pads/a%2Fb",
			form: url.Values{"deleted": {"true"}},
			file: "pad_live.json", want: nil,
		},
		{
			name: "Create a pad with notes",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Backend screen"), Notes: padapi.Ptr("Ask about queues & caching\n- retries")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"title": {"Backend screen"}, "notes": {"Ask about queues & caching\n- retries"}},
			file: "pad_live.json", want: padLive(),
		},
		{
			// Empty notes are set, so they are sent.
			name: "Create a pad with empty notes",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Notes: padapi.Ptr("")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"notes": {""}},
			file: "pad_live.json", want: padLive(),
		},
	})
}

// When the service answers an update with its status only, Update fetches
// the pad: one PUT, then one GET.
func TestPadsUpdateStatusOnly(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	record := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.Method+" "+r.RequestURI)
			mu.Unlock()
			respond(w, http.StatusOK, body)
		}
	}
	c, mux := setup(t)
	mux.HandleFunc("PUT /gw/api/pads/K3P9ZR2A", record(fixture(t, "delete_ok.json")))
	mux.HandleFunc("GET /gw/api/pads/K3P9ZR2A", record(fixture(t, "pad_live.json")))

	got, err := c.Pads.Update(context.Background(), "K3P9ZR2A", &padapi.PadUpdateParams{Title: padapi.Ptr("Backend screen")})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(padLive(), got); diff != "" {
		t.Errorf("pad mismatch (-want +got):\n%s", diff)
	}
	want := []string{"PUT /gw/api/pads/K3P9ZR2A", "GET /gw/api/pads/K3P9ZR2A"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
}

// The service rejects contents with question_id, so the client does not ask.
func TestPadsCreateContentsWithQuestionID(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
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
	t.Parallel()
	for _, id := range []padapi.ID{"", ".", ".."} {
		t.Run(string(id), func(t *testing.T) {
			c, mux := setup(t, noRetry)
			n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
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
	t.Parallel()
	c, mux := setup(t)
	n := handle(mux, "GET /gw/api/pads/NOPE0000", http.StatusNotFound, fixture(t, "error_pad_not_found.json"))
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
// ErrOverQuota alone, not retried, and does not claim an unknown outcome.
func TestPadsCreateOverQuota(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	n := handle(mux, "POST /gw/api/pads", http.StatusTooManyRequests, fixture(t, "error_over_quota.json"))
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")})
	if !errors.Is(err, padapi.ErrOverQuota) {
		t.Fatalf("error %v, want ErrOverQuota", err)
	}
	// The quota, not a rate limit: a caller that waits and retries on
	// ErrRateLimited would wait for nothing.
	if errors.Is(err, padapi.ErrRateLimited) {
		t.Errorf("error %v matches ErrRateLimited too, want ErrOverQuota alone", err)
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
	t.Parallel()
	c, mux := setup(t)
	mux.HandleFunc("GET /gw/api/pads/BAD", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":"BAD","created_at":"yesterday"}`))
	})
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

// Every answer the service gives a delete that means "done" is success:
// the status alone, an empty body, a 204, the pad. Anything else is an
// error that keeps its sentinel.
func TestPadsDeleteAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		is     error // nil: success
		errAny bool  // an error without a sentinel
	}{
		{"status only", 200, `{"status":"OK"}`, nil, false},
		{"empty 200", 200, ``, nil, false},
		{"white space", 200, " \n", nil, false},
		{"204", 204, ``, nil, false},
		{"the pad", 200, okPad, nil, false},
		{"status ERROR", 200, `{"status":"ERROR","message":"Pad is locked"}`, nil, true},
		{"not JSON", 200, `<html>ok</html>`, nil, true},
		{"not found", 404, `{"status":"ERROR","message":"Pad not found"}`, padapi.ErrNotFound, false},
		{"forbidden", 403, `{"status":"ERROR","message":"Not your pad"}`, padapi.ErrForbidden, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mux := setup(t, noRetry)
			mux.HandleFunc("PUT /gw/api/pads/DM32JWG2", func(w http.ResponseWriter, r *http.Request) {
				if err := r.ParseForm(); err != nil || r.PostForm.Encode() != "deleted=true" {
					t.Errorf("form %q (%v), want deleted=true", r.PostForm.Encode(), err)
				}
				if tc.body == "" {
					w.WriteHeader(tc.status)
					return
				}
				respond(w, tc.status, []byte(tc.body))
			})
			err := c.Pads.Delete(context.Background(), "DM32JWG2")
			switch {
			case tc.is == nil && !tc.errAny:
				if err != nil {
					t.Errorf("error %v, want success", err)
				}
			case tc.errAny:
				var apiErr *padapi.APIError
				if !errors.As(err, &apiErr) {
					t.Errorf("error %v, want an *APIError", err)
				}
			default:
				if !errors.Is(err, tc.is) {
					t.Errorf("error %v, want %v", err, tc.is)
				}
			}
		})
	}
}

// A delete is retried after a 5xx with the same body, and a refused ID
// sends nothing.
func TestPadsDeleteRetriedAndRefused(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	var mu sync.Mutex
	var bodies []string
	record := func(status int, body string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			bodies = append(bodies, r.Header.Get("Content-Type")+" "+string(b))
			mu.Unlock()
			return httpmock.NewStringResponse(status, body), nil
		}
	}
	mt.RegisterResponder("PUT", padsURL+"/DM32JWG2", record(503, "busy").Then(record(200, `{"status":"OK"}`)))
	if err := c.Pads.Delete(context.Background(), "DM32JWG2"); err != nil {
		t.Fatal(err)
	}
	want := []string{"application/x-www-form-urlencoded deleted=true", "application/x-www-form-urlencoded deleted=true"}
	if diff := cmp.Diff(want, bodies); diff != "" {
		t.Errorf("attempts mismatch (-want +got):\n%s", diff)
	}

	c2, mux := setup(t, noRetry)
	n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
	for _, id := range []padapi.ID{"", ".", ".."} {
		if err := c2.Pads.Delete(context.Background(), id); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Delete(%q): %v, want ErrInvalidArgument", id, err)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

// padNotifications is testdata/pad_notifications.json: a live pad with
// pad_interviewer_notifications.
func padNotifications() *padapi.Pad {
	ended := time.Date(2024, 3, 5, 11, 2, 10, 987_000_000, time.UTC)
	return &padapi.Pad{
		ID:                        "N0T1F1ED",
		Title:                     "Senior backend loop",
		OwnerEmail:                "ops@example.com",
		Language:                  "python3",
		Participants:              []string{"Jane Doe", "Candidate"},
		Contents:                  "print('hi')\n",
		Notes:                     "Asked good questions.",
		EventsURL:                 "https://app.coderpad.io/api/pads/N0T1F1ED/events",
		ExecutionEnabled:          true,
		CreatedAt:                 time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC),
		UpdatedAt:                 ended,
		EndedAt:                   &ended,
		URL:                       "https://app.coderpad.io/N0T1F1ED",
		Playback:                  "https://app.coderpad.io/N0T1F1ED/playback",
		History:                   "https://pad-history.example.firebaseio.com/pads/N0T1F1ED.json",
		Drawing:                   "https://app.coderpad.io/N0T1F1ED/drawing",
		State:                     "ended",
		Type:                      "live",
		QuestionIDs:               []padapi.ID{},
		PadEnvironmentIDs:         []padapi.ID{"98765", "98766"},
		ActiveEnvironmentID:       padapi.Ptr[padapi.ID]("98766"),
		RestrictInterviewerAccess: padapi.Ptr(false),
		InterviewerNotifications: []padapi.InterviewerNotification{
			{
				ID: "31", Title: "Possible AI assistance", Message: "A large paste was detected at 10:32.",
				Priority: "high", RequestID: "req_7f3a",
				DismissedAt: padapi.Ptr(time.Date(2024, 3, 5, 10, 35, 0, 0, offset(-5, 0))),
				Useful:      padapi.Ptr(true),
				CreatedAt:   time.Date(2024, 3, 5, 10, 32, 0, 0, time.UTC),
				UpdatedAt:   time.Date(2024, 3, 5, 15, 35, 0, 0, time.UTC),
			},
			{
				ID: "32", Title: "Candidate left the tab", Message: "The candidate's tab lost focus for 2 minutes.",
				Priority: "low", RequestID: "req_80b1", AutoDismissed: true,
				CreatedAt: time.Date(2024, 3, 5, 10, 50, 0, 0, time.UTC),
				UpdatedAt: time.Date(2024, 3, 5, 10, 50, 0, 0, time.UTC),
			},
		},
	}
}

// An empty list of events survives a round trip: it is not the absent
// list, which marshals to no "events" at all.
func TestPadEmptyEventsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"id":"X","events":[]}`, `{"id":"X"}`, `{"id":"X","events":"https://x.example/e"}`} {
		var p, q padapi.Pad
		if err := padapi.UnmarshalForTest([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		b, err := p.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := padapi.UnmarshalForTest(b, &q); err != nil {
			t.Fatal(err)
		}
		if (p.Events == nil) != (q.Events == nil) || p.EventsURL != q.EventsURL {
			t.Errorf("%s: events %#v %q -> %s -> %#v %q", body, p.Events, p.EventsURL, b, q.Events, q.EventsURL)
		}
	}
}

// FuzzPad decodes a pad with encoding/json and through Pads.Get: neither
// panics, both agree, and a decoded pad survives a trip through its JSON.
func FuzzPad(f *testing.F) {
	addFiles(f, "pad_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var direct padapi.Pad
		directErr := padapi.UnmarshalForTest(body, &direct)
		got, err := c.Pads.Get(answering(http.StatusOK, body), "P1")
		checkError(t, err, body)
		if err == nil {
			agree(t, body, got, &direct, directErr)
		}
		if directErr == nil {
			roundTrips(t, body, &direct, new(padapi.Pad))
		}
	})
}

// padPage is a pad list in its wire shape, decoded with encoding/json
// alone.
type padPage struct {
	Status   string       `json:"status"`
	Pads     []padapi.Pad `json:"pads"`
	Total    int          `json:"total"`
	NextPage string       `json:"next_page"`
	PrevPage string       `json:"prev_page"`
}

// FuzzPadsList sends a list page through Pads.List: no panic, bounded
// errors, and a page that decodes holds what encoding/json finds in it.
func FuzzPadsList(f *testing.F) {
	addFiles(f, "pads_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.List(answering(http.StatusOK, body), nil)
		checkError(t, err, body)
		if err != nil {
			return
		}
		var direct padPage
		decodesOK(t, body, &direct, &direct.Status)
		if direct.Pads == nil {
			// The pipeline reads a list under "questions" too, which
			// the service never sends for pads; only "pads" is
			// compared.
			return
		}
		want := &padapi.Page[padapi.Pad]{Items: direct.Pads, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		agree(t, body, page, want, nil)
	})
}

// The interview controls: without the access list the body is the flat
// form; with it (even empty) JSON {"pad":{…}} holding exactly the fields
// set, execution_enabled as the string "true"/"false", question_id and the
// time limit as numbers. A pad's access list reads nil, empty or full.
func TestPadControlsWire(t *testing.T) {
	t.Parallel()
	const js = "application/json"
	answer := `{"status":"OK","id":"DM32JWG2","allowed_interviewer_emails":["a@x.io"],"restrict_interviewer_access":true}`
	want := &padapi.Pad{ID: "DM32JWG2", AllowedInterviewerEmails: []string{"a@x.io"}, RestrictInterviewerAccess: padapi.Ptr(true)}
	runWire(t, []wireCase{
		{name: "Create restricted is JSON", method: "POST", path: "/gw/api/pads", status: 200, contentType: js, answer: answer, want: want,
			body: `{"pad":{"title":"t","question_id":12,"execution_enabled":"false","team_id":"9f1c-team","restrict_interviewer_access":true,"allowed_interviewer_emails":["a@x.io","b@x.io"],"take_home":true,"take_home_time_limit":30,"ai_assist_enabled":false}}`,
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t"), QuestionID: padapi.Ptr[padapi.ID]("12"),
					ExecutionEnabled: padapi.Ptr(false), TeamID: padapi.Ptr[padapi.ID]("9f1c-team"), RestrictInterviewerAccess: padapi.Ptr(true),
					AllowedInterviewerEmails: []string{"a@x.io", "b@x.io"}, TakeHome: padapi.Ptr(true), TakeHomeMinutes: padapi.Ptr(30),
					AIAssistEnabled: padapi.Ptr(false)})
			}},
		{name: "Create controls without the list is a form", method: "POST", path: "/gw/api/pads", status: 200,
			contentType: "application/x-www-form-urlencoded", answer: answer, want: want,
			body: "execution_enabled=true&team_id=7&disable_coaching_tips=true&take_home=false&take_home_time_limit=45&ai_assist_enabled=true",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{ExecutionEnabled: padapi.Ptr(true), TeamID: padapi.Ptr[padapi.ID]("7"),
					DisableCoachingTips: padapi.Ptr(true), TakeHome: padapi.Ptr(false), TakeHomeMinutes: padapi.Ptr(45), AIAssistEnabled: padapi.Ptr(true)})
			}},
		{name: "Update clearing the list", method: "PUT", path: "/gw/api/pads/DM32JWG2", status: 200, contentType: js, answer: answer, want: want,
			body: `{"pad":{"execution_enabled":"true","allowed_interviewer_emails":[]}}`,
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Update(ctx, "DM32JWG2", &padapi.PadUpdateParams{ExecutionEnabled: padapi.Ptr(true), AllowedInterviewerEmails: []string{}})
			}},
		{name: "Update owner and tips is a form", method: "PUT", path: "/gw/api/pads/DM32JWG2", status: 200,
			contentType: "application/x-www-form-urlencoded", answer: answer, want: want,
			body: "user_email=new%40x.io&restrict_interviewer_access=false&disable_coaching_tips=true",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Update(ctx, "DM32JWG2", &padapi.PadUpdateParams{UserEmail: padapi.Ptr("new@x.io"),
					RestrictInterviewerAccess: padapi.Ptr(false), DisableCoachingTips: padapi.Ptr(true)})
			}},
		{name: "Get: null list is nil", method: "GET", path: "/gw/api/pads/DM32JWG2", status: 200,
			answer: `{"status":"OK","id":"DM32JWG2","allowed_interviewer_emails":null}`, want: &padapi.Pad{ID: "DM32JWG2"},
			call: func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "DM32JWG2") }},
		{name: "Get: empty list is empty", method: "GET", path: "/gw/api/pads/DM32JWG2", status: 200,
			answer: `{"status":"OK","id":"DM32JWG2","allowed_interviewer_emails":[]}`, want: &padapi.Pad{ID: "DM32JWG2", AllowedInterviewerEmails: []string{}},
			call: func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "DM32JWG2") }},
	})
	c, _ := setup(t) // any request fails the test
	for _, p := range []*padapi.PadCreateParams{
		{TakeHomeMinutes: padapi.Ptr(0)}, {TakeHomeMinutes: padapi.Ptr(-5), AllowedInterviewerEmails: []string{}},
		{TeamID: padapi.Ptr[padapi.ID]("")}, {AllowedInterviewerEmails: []string{"\xff"}},
	} {
		if _, err := c.Pads.Create(context.Background(), p); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Create(%+v): err = %v, want ErrInvalidArgument", p, err)
		}
	}
	// The JSON pad marshals its list back: absent when nil, [] when empty.
	for _, tt := range []struct {
		list []string
		want string
	}{{nil, ""}, {[]string{}, `"allowed_interviewer_emails":[]`}} {
		b, _ := json.Marshal(padapi.Pad{AllowedInterviewerEmails: tt.list})
		if got := strings.Contains(string(b), "allowed_interviewer_emails"); got != (tt.want != "") || !strings.Contains(string(b), tt.want) {
			t.Errorf("Marshal(%#v) = %s", tt.list, b)
		}
	}
}
