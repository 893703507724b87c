// organization_test.go: tests of the organization endpoints, its stats and users.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// organizationDocumented is testdata/organization_documented.json, whose
// default language comes as default_language.
func organizationDocumented() *padapi.Organization {
	return &padapi.Organization{
		Name:      "Example Corp",
		UserCount: 2,
		Users: []padapi.OrganizationUser{
			{Email: "vincent@example.com", Name: "Vincent Woo"},
			{Email: "ghislain@example.com", Name: "Ghislain"},
		},
		DefaultLanguage: "python3",
	}
}

// Team IDs are UUID strings, live, and users' teams are those IDs, not
// names (docs/api-notes.md, "Organization").
const (
	platformTeamID = "68264172-5a54-4ac3-962b-cb8d1ad15d05"
	hiringTeamID   = "0b7f2c1e-8d4a-4e5b-9c3f-1a2b3c4d5e6f"
)

// organizationLive is testdata/organization_live.json, whose default
// language comes as organization_default_language, with the live-only fields.
func organizationLive() *padapi.Organization {
	return &padapi.Organization{
		ID:        "901",
		Name:      "Example Corp",
		UserCount: 3,
		Users: []padapi.OrganizationUser{
			{Email: "vincent@example.com", Name: "Vincent Woo", Teams: []string{platformTeamID, hiringTeamID}},
			{Email: "ghislain@example.com", Name: "Ghislain", Teams: []string{platformTeamID}},
			{Email: "new@example.com", Name: "New Hire", Teams: []string{}},
		},
		DefaultLanguage:       "go",
		SingleSignOnSupported: true,
		SingleSignInURL:       "https://app.coderpad.io/sso/example",
		Teams: []padapi.Team{
			{ID: platformTeamID, Name: "Platform"},
			{ID: hiringTeamID, Name: "Hiring"},
		},
		ChildOrganizations: json.RawMessage(`[{"id": 902, "organization_name": "Example Corp EU"}]`),
	}
}

// stats is testdata/stats.json.
func stats() *padapi.OrganizationStats {
	return &padapi.OrganizationStats{
		StartTime:   time.Date(2024, 1, 1, 0, 0, 0, 0, offset(-8, 0)),
		EndTime:     time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC),
		PadsCreated: 12,
		Users: []padapi.UserStats{
			{Email: "vincent@example.com", Name: "Vincent Woo", PadsCreated: 9},
			{Email: "ghislain@example.com", Name: "Ghislain", PadsCreated: 3},
		},
	}
}

// Every organization endpoint, users included, sends exactly the request
// the service takes and decodes each shape of its answer, documented and live.
func TestOrganizationEndpoints(t *testing.T) {
	t.Parallel()
	runEndpoints(t, []endpointCase{
		{
			name:   "Get documented shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Get(ctx) },
			method: "GET", path: "/gw/api/organization",
			file: "organization_documented.json", want: organizationDocumented(),
		},
		{
			name:   "Get live shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Get(ctx) },
			method: "GET", path: "/gw/api/organization",
			file: "organization_live.json", want: organizationLive(),
		},
		{
			name:   "Stats with nil options",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Stats(ctx, nil) },
			method: "GET", path: "/gw/api/organization/stats",
			file: "stats.json", want: stats(),
		},
		{
			name: "Stats with zero options",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.Stats(ctx, &padapi.StatsOptions{})
			},
			method: "GET", path: "/gw/api/organization/stats",
			file: "stats.json", want: stats(),
		},
		{
			name: "Stats with a window",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.Stats(ctx, &padapi.StatsOptions{
					Start: time.Date(2024, 1, 1, 0, 0, 0, 0, offset(-8, 0)),
					End:   time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC),
				})
			},
			method: "GET", path: "/gw/api/organization/stats",
			query: url.Values{"start_time": {"2024-01-01T00:00:00-08:00"}, "end_time": {"2024-01-08T00:00:00Z"}},
			file:  "stats.json", want: stats(),
		},
		{
			name: "Stats with a window to the millisecond",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.Stats(ctx, &padapi.StatsOptions{
					Start: time.Date(2024, 1, 1, 0, 0, 0, 250e6, time.UTC),
					End:   time.Date(2024, 1, 8, 0, 0, 0, 900e6, time.UTC),
				})
			},
			method: "GET", path: "/gw/api/organization/stats",
			query: url.Values{"start_time": {"2024-01-01T00:00:00.25Z"}, "end_time": {"2024-01-08T00:00:00.9Z"}},
			file:  "stats.json", want: stats(),
		},
		{
			name:   "Pads",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.ListPads(ctx, nil) },
			method: "GET", path: "/gw/api/organization/pads",
			file: "pads_page1.json", want: padsPage1(),
		},
		{
			name: "Pads sorted page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListPads(ctx, &padapi.OrganizationPadListOptions{Sort: padapi.SortUpdatedDesc, Page: 2})
			},
			method: "GET", path: "/gw/api/organization/pads",
			query: url.Values{"sort": {"updated_at,desc"}, "page": {"2"}},
			file:  "pads_last.json", want: padsLast(),
		},
		{
			name: "Questions",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListQuestions(ctx, nil)
			},
			method: "GET", path: "/gw/api/organization/questions",
			file: "questions_list.json", want: questionsList(),
		},
		{
			name: "Questions sorted",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListQuestions(ctx, &padapi.OrganizationQuestionListOptions{Sort: padapi.SortCreatedDesc})
			},
			method: "GET", path: "/gw/api/organization/questions",
			query: url.Values{"sort": {"created_at,desc"}},
			file:  "questions_list.json", want: questionsList(),
		},
		{
			name:   "Users",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.ListUsers(ctx, nil) },
			method: "GET", path: "/gw/api/organization/users",
			file: "users_all.json", want: usersAll(),
		},
		{
			name: "Users with empty options",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{})
			},
			method: "GET", path: "/gw/api/organization/users",
			file: "users_all.json", want: usersAll(),
		},
		{
			name: "Users by email",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{Email: "sam+pads@example.com"})
			},
			method: "GET", path: "/gw/api/organization/users",
			query: url.Values{"email": {"sam+pads@example.com"}},
			file:  "users_one.json", want: usersOne(),
		},
	})
}

// A window needs both ends, in order; anything else fails before a request.
func TestOrganizationStatsInvalidWindow(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(7 * 24 * time.Hour)
	for name, opts := range map[string]*padapi.StatsOptions{
		"start only":       {Start: t0},
		"end only":         {End: t1},
		"end before start": {Start: t1, End: t0},
	} {
		t.Run(name, func(t *testing.T) {
			c, mux := setup(t, noRetry)
			n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
			if _, err := c.Organization.Stats(context.Background(), opts); err == nil {
				t.Errorf("Stats(%+v): no error", opts)
			}
			if got := n.Load(); got != 0 {
				t.Errorf("%d requests, want 0", got)
			}
		})
	}
}

// The email goes in the query escaped, so that a '+' in it stays a plus
// rather than becoming a space on the server; an empty email sends no
// query at all.
func TestListUsersEmailQuery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		email, rawQuery string
	}{
		{"sam+pads@example.com", "email=sam%2Bpads%40example.com"},
		{"a&b=c@example.com", "email=a%26b%3Dc%40example.com"},
		{"", ""},
	} {
		c, mux := setup(t, noRetry)
		var raw, email string
		mux.HandleFunc("GET /gw/api/organization/users", func(w http.ResponseWriter, r *http.Request) {
			raw, email = r.URL.RawQuery, r.URL.Query().Get("email")
			respond(w, http.StatusOK, fixture(t, "users_one.json"))
		})
		if _, err := c.Organization.ListUsers(context.Background(), &padapi.OrganizationUserListOptions{Email: tc.email}); err != nil {
			t.Fatal(err)
		}
		if raw != tc.rawQuery || email != tc.email {
			t.Errorf("Email %q: query %q (email %q), want %q", tc.email, raw, email, tc.rawQuery)
		}
	}
}

// The users list is one answer, not pages: every user comes back, however
// many, and an empty list is no error.
func TestListUsersSizes(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 50, 51, 240} {
		users := make([]string, n)
		want := make([]padapi.OrganizationUser, n)
		for i := range n {
			users[i] = fmt.Sprintf(`{"email":"u%d@example.com","name":"User %d","teams":["T%d"]}`, i, i, i%3)
			want[i] = padapi.OrganizationUser{Email: fmt.Sprintf("u%d@example.com", i), Name: fmt.Sprintf("User %d", i), Teams: []string{fmt.Sprintf("T%d", i%3)}}
		}
		body := `{"status":"OK","users":[` + strings.Join(users, ",") + `]}`
		got, err := memoryClient(t).Organization.ListUsers(answering(http.StatusOK, []byte(body)), nil)
		if err != nil {
			t.Fatalf("%d users: %v", n, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d users: mismatch (-want +got):\n%s", n, diff)
		}
	}
}

// A users answer must carry its "users" list; a list of the wrong shape
// is a decode error; the service's refusals keep their sentinels.
func TestListUsersErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		is     error
		want   string
	}{
		{"no users key", 200, `{"status":"OK"}`, nil, `the answer has no "users" list`},
		{"users as an object", 200, `{"status":"OK","users":{"email":"a"}}`, nil, "users"},
		{"teams as a string", 200, `{"status":"OK","users":[{"email":"a","teams":"Platform"}]}`, nil, "teams"},
		{"forbidden", 403, `{"status":"ERROR","message":"Only organization owners can do that","code":"Forbidden"}`, padapi.ErrForbidden, "Only organization owners"},
		{"unauthorized", 401, `{"status":"ERROR","message":"Invalid API key"}`, padapi.ErrUnauthorized, "Invalid API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := memoryClient(t).Organization.ListUsers(answering(tc.status, []byte(tc.body)), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an *APIError %d saying %q", err, tc.status, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if apiErr.Path != "/api/organization/users" || strings.Contains(err.Error(), "a@example.com") {
				t.Errorf("error %q (path %q): want the path without its query", err, apiErr.Path)
			}
			if got != nil {
				t.Errorf("users %+v with the error", got)
			}
		})
	}
}

// usersAll and usersOne are testdata/users_all.json and users_one.json.
func usersAll() []padapi.OrganizationUser {
	return []padapi.OrganizationUser{
		{Email: "vincent@example.com", Name: "Vincent Woo", Teams: []string{platformTeamID, hiringTeamID}},
		{Email: "jane@example.com", Name: "Jane Doe", Teams: []string{}},
		{Email: "sam+pads@example.com", Name: "Sam"},
	}
}

func usersOne() []padapi.OrganizationUser {
	return []padapi.OrganizationUser{{Email: "sam+pads@example.com", Name: "Sam", Teams: []string{hiringTeamID}}}
}

// FuzzUsersPage sends any body as the answer to Organization.ListUsers: no
// panic, bounded errors, and the users encoding/json finds.
func FuzzUsersPage(f *testing.F) {
	addFiles(f, "users_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := c.Organization.ListUsers(answering(http.StatusOK, body), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
		checkError(t, err, body)
		if err != nil {
			if strings.Contains(err.Error(), "a@example.com") {
				t.Fatalf("error quotes the query: %q", err)
			}
			return
		}
		var direct struct {
			Status string                    `json:"status"`
			Users  []padapi.OrganizationUser `json:"users"`
		}
		decodesOK(t, body, &direct, &direct.Status)
		agree(t, body, users, direct.Users, nil)
	})
}
