package padapi_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// epOrganizationDocumented is testdata/organization_documented.json, whose
// default language comes as default_language.
func epOrganizationDocumented() *padapi.Organization {
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

// epOrganizationLive is testdata/organization_live.json, whose default
// language comes as organization_default_language, with the live-only fields.
func epOrganizationLive() *padapi.Organization {
	return &padapi.Organization{
		ID:        "901",
		Name:      "Example Corp",
		UserCount: 3,
		Users: []padapi.OrganizationUser{
			{Email: "vincent@example.com", Name: "Vincent Woo", Teams: []string{"Platform", "Hiring"}},
			{Email: "ghislain@example.com", Name: "Ghislain", Teams: []string{"Platform"}},
			{Email: "new@example.com", Name: "New Hire", Teams: []string{}},
		},
		DefaultLanguage:       "go",
		SingleSignOnSupported: true,
		SingleSignInURL:       "https://app.coderpad.io/sso/example",
		Teams: []padapi.Team{
			{ID: "tm_platform", Name: "Platform"},
			{ID: "tm_hiring", Name: "Hiring"},
		},
		ChildOrganizations: json.RawMessage(`[{"id": 902, "organization_name": "Example Corp EU"}]`),
	}
}

// epStats is testdata/stats.json.
func epStats() *padapi.OrganizationStats {
	return &padapi.OrganizationStats{
		StartTime:   time.Date(2024, 1, 1, 0, 0, 0, 0, epOffset(-8, 0)),
		EndTime:     time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC),
		PadsCreated: 12,
		Users: []padapi.UserStats{
			{Email: "vincent@example.com", Name: "Vincent Woo", PadsCreated: 9},
			{Email: "ghislain@example.com", Name: "Ghislain", PadsCreated: 3},
		},
	}
}

func TestOrganizationEndpoints(t *testing.T) {
	runEndpoints(t, []endpointCase{
		{
			name:   "Get documented shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Get(ctx) },
			method: "GET", path: "/gw/api/organization",
			file: "organization_documented.json", want: epOrganizationDocumented(),
		},
		{
			name:   "Get live shape",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Get(ctx) },
			method: "GET", path: "/gw/api/organization",
			file: "organization_live.json", want: epOrganizationLive(),
		},
		{
			name:   "Stats with nil options",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.Stats(ctx, nil) },
			method: "GET", path: "/gw/api/organization/stats",
			file: "stats.json", want: epStats(),
		},
		{
			name: "Stats with zero options",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.Stats(ctx, &padapi.StatsOptions{})
			},
			method: "GET", path: "/gw/api/organization/stats",
			file: "stats.json", want: epStats(),
		},
		{
			name: "Stats with a window",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.Stats(ctx, &padapi.StatsOptions{
					Start: time.Date(2024, 1, 1, 0, 0, 0, 0, epOffset(-8, 0)),
					End:   time.Date(2024, 1, 8, 0, 0, 0, 0, time.UTC),
				})
			},
			method: "GET", path: "/gw/api/organization/stats",
			query: url.Values{"start_time": {"2024-01-01T00:00:00-08:00"}, "end_time": {"2024-01-08T00:00:00Z"}},
			file:  "stats.json", want: epStats(),
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
			file:  "stats.json", want: epStats(),
		},
		{
			name:   "Pads",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.ListPads(ctx, nil) },
			method: "GET", path: "/gw/api/organization/pads",
			file: "pads_page1.json", want: epPadsPage1(),
		},
		{
			name: "Pads sorted page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListPads(ctx, &padapi.OrganizationPadListOptions{Sort: padapi.SortUpdatedDesc, Page: 2})
			},
			method: "GET", path: "/gw/api/organization/pads",
			query: url.Values{"sort": {"updated_at,desc"}, "page": {"2"}},
			file:  "pads_last.json", want: epPadsLast(),
		},
		{
			name: "Questions",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListQuestions(ctx, nil)
			},
			method: "GET", path: "/gw/api/organization/questions",
			file: "questions_list.json", want: epQuestionsList(),
		},
		{
			name: "Questions sorted",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListQuestions(ctx, &padapi.OrganizationQuestionListOptions{Sort: padapi.SortCreatedDesc})
			},
			method: "GET", path: "/gw/api/organization/questions",
			query: url.Values{"sort": {"created_at,desc"}},
			file:  "questions_list.json", want: epQuestionsList(),
		},
	})
}

// A window needs both ends, in order; anything else fails before a request.
func TestOrganizationStatsInvalidWindow(t *testing.T) {
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(7 * 24 * time.Hour)
	for name, opts := range map[string]*padapi.StatsOptions{
		"start only":       {Start: t0},
		"end only":         {End: t1},
		"end before start": {Start: t1, End: t0},
	} {
		t.Run(name, func(t *testing.T) {
			c, n := countingClient(t)
			if _, err := c.Organization.Stats(context.Background(), opts); err == nil {
				t.Errorf("Stats(%+v): no error", opts)
			}
			if got := n.Load(); got != 0 {
				t.Errorf("%d requests, want 0", got)
			}
		})
	}
}
