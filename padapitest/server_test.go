package padapitest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
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

func TestQuota(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, _ *clock) {
		ctx := context.Background()
		// The live shape says whether overages are on; the documented one
		// does not.
		var overages *bool
		if srv.Shape() == padapitest.LiveShape {
			overages = padapi.Ptr(false)
		}

		got, err := c.Quota.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := &padapi.Quota{
			Status: "OK", PadsUsed: 0, QuotaResetAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
			TrialExpiresAt: padapi.Ptr(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)),
			PadsRemaining:  padapi.Ptr(120), MonthlyPadLimit: padapi.Ptr(120), OveragesEnabled: overages,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("default quota (-want +got):\n%s", diff)
		}

		trial := t0.Add(48 * time.Hour)
		srv.SetQuota(120, 33)
		srv.SetQuotaResetAt(t0.Add(-24 * time.Hour))
		srv.SetTrialExpiresAt(&trial)
		got, err = c.Quota.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want = &padapi.Quota{
			Status: "OK", TrialExpiresAt: &trial, PadsUsed: 33, QuotaResetAt: t0.Add(-24 * time.Hour),
			PadsRemaining: padapi.Ptr(87), MonthlyPadLimit: padapi.Ptr(120), OveragesEnabled: overages,
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("quota 120/33 (-want +got):\n%s", diff)
		}
		if q := srv.Quota(); !cmp.Equal(*want, q) {
			t.Errorf("srv.Quota() = %+v, want what the client read", q)
		}

		srv.SetUnlimited()
		srv.SetTrialExpiresAt(nil)
		status, body := raw(t, srv, "GET", "/api/quota", authOf(srv), nil)
		wantBody := map[string]any{"status": "OK", "pads_used": 33.0, "quota_reset_at": "2026-10-13T09:30:00Z", "unlimited": true}
		if overages != nil {
			wantBody["overages_enabled"] = false
		}
		if status != 200 {
			t.Errorf("status %d", status)
		}
		if diff := cmp.Diff(wantBody, body); diff != "" {
			t.Errorf("unlimited quota on the wire (-want +got):\n%s", diff)
		}
		got, err = c.Quota.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := got.Remaining(); ok || n != 0 || !got.CanCreate(1000) {
			t.Errorf("unlimited: Remaining() = %d, %v; want 0, false", n, ok)
		}
	})
}

// TestQuotaOveragesAndOmittedCounts: with overages on, creates pass the
// limit and the quota says so; told to omit its counts, the live quota
// leaves them out (the limit still holds), and the client then cannot
// prove there is no room.
func TestQuotaOveragesAndOmittedCounts(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	srv.SetQuota(1, 1)
	srv.SetOmitQuotaCounts(true)
	status, body := raw(t, srv, "GET", "/api/quota", authOf(srv), nil)
	want := map[string]any{"status": "OK", "pads_used": 1.0, "quota_reset_at": "2026-10-01T00:00:00Z", "unlimited": false, "overages_enabled": false,
		"trial_expires_at": "2026-09-01T00:00:00Z"}
	if diff := cmp.Diff(want, body); status != 200 || diff != "" {
		t.Errorf("quota without counts: %d (-want +got):\n%s", status, diff)
	}
	q, err := c.Quota.Get(ctx)
	if err != nil || !q.CanCreate(1) {
		t.Errorf("a quota without counts: %+v, %v; want CanCreate(1) (the limit is unknown)", q, err)
	}
	if _, err := c.Pads.Create(ctx, nil); !errors.Is(err, padapi.ErrOverQuota) {
		t.Errorf("create past a hidden limit: %v, want ErrOverQuota", err)
	}

	srv.SetOveragesEnabled(true)
	srv.SetOmitQuotaCounts(false)
	if _, err := c.Pads.Create(ctx, nil); err != nil {
		t.Fatalf("create past the limit with overages on: %v", err)
	}
	q, err = c.Quota.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if q.PadsUsed != 2 || *q.PadsRemaining != 0 || *q.MonthlyPadLimit != 1 || !*q.OveragesEnabled || !q.CanCreate(5) {
		t.Errorf("quota after an overage: %+v", q)
	}

	doc := padapitest.NewServer(t, padapitest.WithShape(padapitest.DocumentedShape))
	doc.SetOmitQuotaCounts(true)
	if q := doc.Quota(); q.PadsRemaining == nil || q.MonthlyPadLimit == nil || q.OveragesEnabled != nil {
		t.Errorf("documented quota: %+v, want the counts (the documented shape always has them) and no overages_enabled", q)
	}
}

func TestPads(t *testing.T) {
	srv, c, clk := newFake(t)
	ctx := context.Background()

	created, err := c.Pads.Create(ctx, &padapi.PadCreateParams{
		Title: padapi.Ptr("Interview"), Language: padapi.Ptr("go"), Contents: padapi.Ptr("package main"),
		Private: padapi.Ptr(true), ExecutionEnabled: padapi.Ptr(false), UserEmail: padapi.Ptr("interviewer@example.com"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !padID.MatchString(string(created.ID)) {
		t.Errorf("pad ID %q is not 8 uppercase letters or digits", created.ID)
	}
	link := srv.URL + "/" + string(created.ID)
	want := padapi.Pad{
		ID: created.ID, Title: "Interview", OwnerEmail: "interviewer@example.com", Language: "go",
		Participants: []string{}, Contents: "package main", Private: true, ExecutionEnabled: false,
		CreatedAt: t0, UpdatedAt: t0, URL: link, Playback: link + "/playback", History: srv.HistoryURL + "/history/1001/0.json",
		EventsURL: srv.URL + "/api/pads/" + string(created.ID) + "/events", State: "started", Type: "live",
		QuestionIDs: []padapi.ID{}, PadEnvironmentIDs: []padapi.ID{"1001"}, ActiveEnvironmentID: padapi.Ptr[padapi.ID]("1001"),
		Team: &padapi.Team{ID: padapitest.DefaultTeamID, Name: "Hiring"},
	}
	// A live answer to a create carries no active environment yet.
	wantCreated := want
	wantCreated.ActiveEnvironmentID = nil
	if diff := cmp.Diff(wantCreated, *created); diff != "" {
		t.Errorf("Create (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]padapi.Pad{want}, srv.Pads()); diff != "" {
		t.Errorf("srv.Pads() after Create (-want +got):\n%s", diff)
	}

	got, err := c.Pads.Get(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}

	clk.Advance(time.Hour)
	updated, err := c.Pads.Update(ctx, created.ID, &padapi.PadUpdateParams{
		Title: padapi.Ptr("Interview, round 2"), Notes: padapi.Ptr("strong"), Ended: padapi.Ptr(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	want.Title, want.Notes, want.UpdatedAt, want.EndedAt = "Interview, round 2", "strong", t0.Add(time.Hour), padapi.Ptr(t0.Add(time.Hour))
	want.State = "ended"
	if diff := cmp.Diff(want, *updated); diff != "" {
		t.Errorf("Update (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]padapi.Pad{want}, srv.Pads()); diff != "" {
		t.Errorf("srv.Pads() after Update (-want +got):\n%s", diff)
	}

	for name, list := range map[string]func() (*padapi.Page[padapi.Pad], error){
		"Pads.List":             func() (*padapi.Page[padapi.Pad], error) { return c.Pads.List(ctx, nil) },
		"Organization.ListPads": func() (*padapi.Page[padapi.Pad], error) { return c.Organization.ListPads(ctx, nil) },
	} {
		page, err := list()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(&padapi.Page[padapi.Pad]{Items: []padapi.Pad{want}, Total: 1}, page); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	if q := srv.Quota(); q.PadsUsed != 1 {
		t.Errorf("pads_used = %d after one create, want 1", q.PadsUsed)
	}
}

func TestPadDefaults(t *testing.T) {
	srv, c, _ := newFake(t)
	p, err := c.Pads.Create(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Title != "Untitled Pad "+string(p.ID) || p.Language != "python" || p.OwnerEmail != "owner@example.com" || !p.ExecutionEnabled || p.Private {
		t.Errorf("defaults: title %q, language %q, owner %q, execution %v, private %v",
			p.Title, p.Language, p.OwnerEmail, p.ExecutionEnabled, p.Private)
	}
	status, body := raw(t, srv, "GET", "/api/pads/"+string(p.ID), authOf(srv), nil)
	for _, key := range []string{"participants", "ended_at", "private", "execution_enabled", "created_at"} {
		if _, ok := body[key]; !ok {
			t.Errorf("GET pad: %d, no %q in %v", status, key, body)
		}
	}
}

func TestPadFromQuestion(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	q := srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "ruby", Contents: "def two_sum; end"})

	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: padapi.Ptr(q.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if p.Language != "ruby" || p.Contents != "def two_sum; end" || !cmp.Equal(p.QuestionIDs, []padapi.ID{"1"}) {
		t.Errorf("pad from question: language %q, contents %q, question IDs %v", p.Language, p.Contents, p.QuestionIDs)
	}
	if used := srv.Questions()[0].Used; used != 1 {
		t.Errorf("question used %d times, want 1", used)
	}

	_, err = c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: padapi.Ptr[padapi.ID]("999")})
	if !errors.Is(err, padapi.ErrBadRequest) {
		t.Errorf("create from an unknown question: %v, want ErrBadRequest", err)
	}

	if n := len(srv.Pads()); n != 1 {
		t.Errorf("%d pads after one good and one bad create, want 1", n)
	}
	if used := srv.Quota().PadsUsed; used != 1 {
		t.Errorf("pads_used %d, want 1: failed creates must not count", used)
	}
}

func TestQuestions(t *testing.T) {
	srv, c, clk := newFake(t)
	ctx := context.Background()

	created, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
		Title: padapi.Ptr("LRU Cache"), Language: padapi.Ptr("java"), Description: padapi.Ptr("Build one."),
		Contents: padapi.Ptr("class LRU {}"), Solution: padapi.Ptr("use a map and a list"),
		AIAssistPrompt: padapi.Ptr("Give hints, not answers."),
		CandidateInstructions: []padapi.CandidateInstruction{
			{Instructions: "Implement get and put.", DefaultVisible: padapi.Ptr(true)}, {Instructions: "Then evict."},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := padapi.Question{
		ID: "1", Title: "LRU Cache", OwnerEmail: "owner@example.com", AuthorName: "Olivia Owner",
		OrganizationName: "Example Organization", Language: "java", Description: "Build one.",
		CandidateInstructions: []padapi.CandidateInstruction{
			{Instructions: "Implement get and put.", DefaultVisible: padapi.Ptr(true)}, {Instructions: "Then evict."},
		},
		Contents: "class LRU {}", Solution: "use a map and a list", AIAssistPrompt: "Give hints, not answers.",
		Shared:  true, // a new question is shared, as live answers show
		PadType: "live", CustomFiles: []padapi.CustomFile{}, CreatedAt: t0, UpdatedAt: t0,
	}
	if diff := cmp.Diff(want, *created); diff != "" {
		t.Errorf("Create (-want +got):\n%s", diff)
	}
	got, err := c.Questions.Get(ctx, "1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}

	clk.Advance(time.Minute)
	updated, err := c.Questions.Update(ctx, "1", &padapi.QuestionUpdateParams{Title: padapi.Ptr("LFU Cache")})
	if err != nil {
		t.Fatal(err)
	}
	want.Title, want.UpdatedAt = "LFU Cache", t0.Add(time.Minute)
	if diff := cmp.Diff(want, *updated); diff != "" {
		t.Errorf("Update (-want +got):\n%s", diff)
	}

	second, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("Two Sum"), Language: padapi.Ptr("python")})
	if err != nil {
		t.Fatal(err)
	}
	if second.ID != "2" {
		t.Errorf("second question ID %q, want 2", second.ID)
	}
	for name, list := range map[string]func() (*padapi.Page[padapi.Question], error){
		"Questions.List":             func() (*padapi.Page[padapi.Question], error) { return c.Questions.List(ctx, nil) },
		"Organization.ListQuestions": func() (*padapi.Page[padapi.Question], error) { return c.Organization.ListQuestions(ctx, nil) },
	} {
		page, err := list()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(&padapi.Page[padapi.Question]{Items: []padapi.Question{*second, want}, Total: 2}, page); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}

	if err := c.Questions.Delete(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]padapi.Question{*second}, srv.Questions()); diff != "" {
		t.Errorf("srv.Questions() after Delete (-want +got):\n%s", diff)
	}
	if err := c.Questions.Delete(ctx, "1"); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("second Delete: %v, want ErrNotFound", err)
	}
}

func TestNotFound(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	calls := map[string]func() error{
		"Pads.Get":         func() error { _, err := c.Pads.Get(ctx, "NOPE1234"); return err },
		"Pads.Update":      func() error { _, err := c.Pads.Update(ctx, "NOPE1234", nil); return err },
		"Questions.Get":    func() error { _, err := c.Questions.Get(ctx, "7"); return err },
		"Questions.Update": func() error { _, err := c.Questions.Update(ctx, "7", nil); return err },
		"Questions.Delete": func() error { return c.Questions.Delete(ctx, "7") },
	}
	for name, call := range calls {
		var apiErr *padapi.APIError
		if err := call(); !errors.Is(err, padapi.ErrNotFound) || !errors.As(err, &apiErr) || apiErr.Status != "ERROR" || apiErr.Message == "" {
			t.Errorf("%s of an unknown ID: %v, want a 404 APIError with the service's body", name, err)
		}
	}
	status, body := raw(t, srv, "GET", "/api/nothing-here", authOf(srv), nil)
	if status != 404 || body["status"] != "ERROR" {
		t.Errorf("unknown path: %d %v, want 404 with an error body", status, body)
	}
}

func TestOrganization(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()

	org, err := c.Organization.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := padapi.Organization{
		ID: "1", Name: "Example Organization", UserCount: 2, DefaultLanguage: "python",
		Users: []padapi.OrganizationUser{
			{Email: "owner@example.com", Name: "Olivia Owner", Teams: []string{padapitest.DefaultTeamID}},
			{Email: "interviewer@example.com", Name: "Ian Interviewer", Teams: []string{padapitest.DefaultTeamID}},
		},
		Teams: []padapi.Team{{ID: padapitest.DefaultTeamID, Name: "Hiring"}}, ChildOrganizations: json.RawMessage(`[]`),
	}
	if diff := cmp.Diff(want, *org); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}

	mine := padapi.Organization{Name: "Acme", UserCount: 1, Users: []padapi.OrganizationUser{{Email: "me@acme.test", Name: "Me", Teams: []string{"core"}}}}
	srv.SetOrganization(mine)
	mine.Users[0].Name = "changed after SetOrganization"
	org, err = c.Organization.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if org.Name != "Acme" || org.Users[0].Name != "Me" {
		t.Errorf("after SetOrganization: %+v", org)
	}
	p, err := c.Pads.Create(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.OwnerEmail != "me@acme.test" || p.Language != "plaintext" {
		t.Errorf("pad owner %q language %q, want the new organization's first user and plaintext", p.OwnerEmail, p.Language)
	}
}

func TestStats(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	for _, p := range []padapi.Pad{
		{Title: "old", OwnerEmail: "owner@example.com", CreatedAt: t0.Add(-8 * 24 * time.Hour)},
		{Title: "a", OwnerEmail: "owner@example.com", CreatedAt: t0.Add(-3 * 24 * time.Hour)},
		{Title: "b", OwnerEmail: "interviewer@example.com", CreatedAt: t0.Add(-2 * time.Hour)},
		{Title: "c", OwnerEmail: "owner@example.com", CreatedAt: t0.Add(-time.Hour)},
		{Title: "d", OwnerEmail: "", CreatedAt: t0.Add(-time.Minute)},
	} {
		srv.AddPad(p)
	}

	got, err := c.Organization.Stats(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &padapi.OrganizationStats{
		StartTime: t0.Add(-7 * 24 * time.Hour), EndTime: t0, PadsCreated: 4,
		Users: []padapi.UserStats{
			{Email: "interviewer@example.com", Name: "Ian Interviewer", PadsCreated: 1},
			{Email: "owner@example.com", Name: "Olivia Owner", PadsCreated: 2},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stats(nil) (-want +got):\n%s", diff)
	}

	got, err = c.Organization.Stats(ctx, &padapi.StatsOptions{Start: t0.Add(-3 * time.Hour), End: t0.Add(-30 * time.Minute)})
	if err != nil {
		t.Fatal(err)
	}
	want = &padapi.OrganizationStats{
		StartTime: t0.Add(-3 * time.Hour), EndTime: t0.Add(-30 * time.Minute), PadsCreated: 2,
		Users: []padapi.UserStats{
			{Email: "interviewer@example.com", Name: "Ian Interviewer", PadsCreated: 1},
			{Email: "owner@example.com", Name: "Olivia Owner", PadsCreated: 1},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Stats(window) (-want +got):\n%s", diff)
	}

	for _, query := range []string{"start_time=2026-10-01T00:00:00Z", "end_time=2026-10-01T00:00:00Z", "start_time=yesterday&end_time=today"} {
		if status, body := raw(t, srv, "GET", "/api/organization/stats?"+query, authOf(srv), nil); status != 400 || body["status"] != "ERROR" {
			t.Errorf("stats?%s: %d %v, want 400", query, status, body)
		}
	}
}

func TestListPagingAndSort(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	var added []padapi.Pad
	for i := range 120 {
		// Created in order; updated in reverse order.
		added = append(added, srv.AddPad(padapi.Pad{
			CreatedAt: t0.Add(time.Duration(i) * time.Minute),
			UpdatedAt: t0.Add(time.Duration(240-i) * time.Minute),
		}))
	}
	ids := func(ps []padapi.Pad) []padapi.ID {
		var out []padapi.ID
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	reversed := func(ps []padapi.Pad) []padapi.Pad {
		out := make([]padapi.Pad, len(ps))
		for i, p := range ps {
			out[len(ps)-1-i] = p
		}
		return out
	}

	page, err := c.Pads.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ids(reversed(added)[:50]), ids(page.Items)); diff != "" {
		t.Errorf("first page, default sort (newest first) (-want +got):\n%s", diff)
	}
	if page.Total != 120 || page.NextPage != srv.URL+"/api/pads?page=2" || page.PrevPage != "" {
		t.Errorf("first page: total %d, next %q, prev %q", page.Total, page.NextPage, page.PrevPage)
	}

	for _, tc := range []struct {
		sort padapi.Sort
		want []padapi.Pad
	}{
		{padapi.SortCreatedAsc, added},
		{padapi.SortCreatedDesc, reversed(added)},
		{padapi.SortUpdatedAsc, reversed(added)},
		{padapi.SortUpdatedDesc, added},
	} {
		page, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: tc.sort, Page: 3})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ids(tc.want[100:]), ids(page.Items)); diff != "" {
			t.Errorf("page 3 by %s (-want +got):\n%s", tc.sort, diff)
		}
		wantPrev := srv.URL + "/api/pads?page=2&sort=" + url.QueryEscape(string(tc.sort))
		if page.NextPage != "" || page.PrevPage != wantPrev {
			t.Errorf("page 3 by %s: next %q, prev %q (want %q)", tc.sort, page.NextPage, page.PrevPage, wantPrev)
		}
	}

	past, err := c.Pads.List(ctx, &padapi.PadListOptions{Page: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(past.Items) != 0 || past.Items == nil || past.Total != 120 || past.NextPage != "" || past.PrevPage != srv.URL+"/api/pads?page=3" {
		t.Errorf("page past the end: %d items, total %d, next %q, prev %q", len(past.Items), past.Total, past.NextPage, past.PrevPage)
	}

	_, err = c.Pads.List(ctx, &padapi.PadListOptions{Sort: "title,asc"})
	if !errors.Is(err, padapi.ErrBadRequest) {
		t.Errorf("unknown sort: %v, want ErrBadRequest", err)
	}
	for _, q := range []string{"sort=created_at,sideways", "sort=,asc", "page=0", "page=two"} {
		if status, _ := raw(t, srv, "GET", "/api/pads?"+q, authOf(srv), nil); status != 400 {
			t.Errorf("?%s: %d, want 400", q, status)
		}
	}
}

// TestListTies: items with equal times come in the order they were stored
// for ,asc and in the reverse order for ,desc, on every page, for pads and
// questions alike.
func TestListTies(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	// 60 pads in two groups of equal times, stored out of time order.
	var later, earlier []padapi.ID
	for i := range 60 {
		at := t0
		if i%2 == 0 {
			at = t0.Add(time.Hour)
		}
		p := srv.AddPad(padapi.Pad{CreatedAt: at, UpdatedAt: at})
		if i%2 == 0 {
			later = append(later, p.ID)
		} else {
			earlier = append(earlier, p.ID)
		}
	}
	reversed := func(ids []padapi.ID) []padapi.ID {
		out := slices.Clone(ids)
		slices.Reverse(out)
		return out
	}
	asc := append(slices.Clone(earlier), later...)
	desc := append(reversed(later), reversed(earlier)...)
	for _, tc := range []struct {
		sort padapi.Sort
		want []padapi.ID
	}{
		{"", desc},
		{padapi.SortCreatedAsc, asc},
		{padapi.SortCreatedDesc, desc},
		{padapi.SortUpdatedAsc, asc},
		{padapi.SortUpdatedDesc, desc},
	} {
		var got []padapi.ID
		for p, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: tc.sort}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.ID)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("pads by %q (-want +got):\n%s", tc.sort, diff)
		}
	}

	// Questions: all created at the same time, IDs 1 to 3 in creation order.
	for range 3 {
		srv.AddQuestion(padapi.Question{CreatedAt: t0, UpdatedAt: t0})
	}
	for sort, want := range map[padapi.Sort][]padapi.ID{
		padapi.SortCreatedAsc:  {"1", "2", "3"},
		padapi.SortCreatedDesc: {"3", "2", "1"},
		padapi.SortUpdatedAsc:  {"1", "2", "3"},
		padapi.SortUpdatedDesc: {"3", "2", "1"},
	} {
		page, err := c.Questions.List(ctx, &padapi.QuestionListOptions{Sort: sort})
		if err != nil {
			t.Fatal(err)
		}
		var got []padapi.ID
		for _, q := range page.Items {
			got = append(got, q.ID)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("questions by %s (-want +got):\n%s", sort, diff)
		}
	}
}

func TestAllPages(t *testing.T) {
	srv, c, _ := newFake(t)
	want := map[padapi.ID]bool{}
	for range 120 {
		want[srv.AddPad(padapi.Pad{}).ID] = true
	}
	got := map[padapi.ID]bool{}
	for p, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if got[p.ID] {
			t.Errorf("pad %s came twice", p.ID)
		}
		got[p.ID] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pads.All (-want +got):\n%s", diff)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d list requests for 120 pads, want 3", n)
	}
}

func TestQuotaAccounting(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.SetQuota(50, 0)
	ctx := context.Background()
	var ok, over int
	for i := range 60 {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("pad")})
		switch {
		case err == nil:
			ok++
		case errors.Is(err, padapi.ErrOverQuota):
			over++
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.Message != "Over quota" || apiErr.Status != "ERROR" {
				t.Errorf("create %d: %#v, want the service's 429 body", i, err)
			}
		default:
			t.Fatalf("create %d: %v", i, err)
		}
	}
	if ok != 50 || over != 10 {
		t.Errorf("%d created and %d over quota, want 50 and 10", ok, over)
	}
	if n := len(srv.Pads()); n != 50 {
		t.Errorf("fake holds %d pads, want 50", n)
	}
	q, err := c.Quota.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if remaining, ok := q.Remaining(); remaining != 0 || !ok || q.PadsUsed != 50 || q.CanCreate(1) {
		t.Errorf("quota after 60 creates: used %d, remaining %d (known %v)", q.PadsUsed, remaining, ok)
	}
}

func TestAddPadDoesNotCount(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.SetQuota(1, 0)
	srv.Seed(3)
	if _, err := c.Pads.Create(context.Background(), nil); err != nil {
		t.Fatalf("create with one pad left after seeding: %v", err)
	}
	if q := srv.Quota(); *q.PadsRemaining != 0 || q.PadsUsed != 1 {
		t.Errorf("quota: used %d, remaining %d; want 1 and 0", q.PadsUsed, *q.PadsRemaining)
	}
}

func TestDropNextCreate(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.DropNext("POST /api/pads", 1)
	_, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("lost answer")})
	if !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Fatalf("dropped create: %v, want ErrOutcomeUnknown", err)
	}
	pads := srv.Pads()
	if len(pads) != 1 || pads[0].Title != "lost answer" {
		t.Errorf("fake holds %+v, want exactly the one pad", pads)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: a create whose answer was lost must not be resent", n)
	}
	if _, err := c.Pads.Create(context.Background(), nil); err != nil {
		t.Errorf("create after the drop was used up: %v", err)
	}
}

// A dropped create on a connection already used must not be resent either
// (Go's transport resends only idempotent requests).
func TestDropNextCreateWarmConnection(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatal(err)
	}
	srv.DropNext("POST /api/pads", 1)
	if _, err := c.Pads.Create(ctx, nil); !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Fatalf("dropped create: %v, want ErrOutcomeUnknown", err)
	}
	if pads, reqs := len(srv.Pads()), len(srv.Requests()); pads != 1 || reqs != 2 {
		t.Errorf("%d pads and %d requests, want 1 and 2", pads, reqs)
	}
}

func TestDropNextGet(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.DropNext("GET /api/quota", 1)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Errorf("a GET whose answer was dropped once is retried: %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	srv.DropNext("GET /api/quota", 1)
	_, err := srv.Client(padapi.WithRetry(0, 0, 0)).Quota.Get(context.Background())
	if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("dropped GET without retries: %v, want a transport error (not ErrOutcomeUnknown, which is for creates)", err)
	}
}

func TestFailNextThenSuccess(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.FailNext("GET /api/quota", 2, http.StatusServiceUnavailable, `{"status":"ERROR","message":"Maintenance"}`)
	q, err := c.Quota.Get(context.Background())
	if err != nil {
		t.Fatalf("GET after two 503s: %v", err)
	}
	if q.PadsUsed != 0 {
		t.Errorf("quota %+v", q)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (two failures and the success)", n)
	}
}

func TestFailNextBody(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.FailNext("POST /api/pads", 1, http.StatusForbidden, "")
	_, err := c.Pads.Create(context.Background(), nil)
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Message != "Forbidden" || !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("FailNext with an empty body: %v, want 403 with the service's error body", err)
	}
	if n := len(srv.Pads()); n != 0 {
		t.Errorf("a failed create stored %d pads", n)
	}

	srv.FailNext("GET /api/organization", 1, http.StatusBadGateway, "<html>bad gateway</html>")
	_, err = c.Organization.Get(context.Background())
	if err != nil {
		t.Errorf("a 502 is retried: %v", err)
	}
}

// TestDelay runs in a synctest bubble, on a fake served in memory: the
// delay and the deadline are the bubble's, so each call takes exactly what
// it should, however busy the machine.
func TestDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := padapitest.NewInMemoryForTest(t, nil)
		srv.Delay("GET /api/quota", 10*time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := c.Quota.Get(ctx)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("delayed GET with a deadline: %v, want context.DeadlineExceeded", err)
		}
		if d := time.Since(start); d != 50*time.Millisecond {
			t.Errorf("the call took %v, want the 50ms of its deadline", d)
		}

		srv.Delay("GET /api/quota", 20*time.Millisecond)
		start = time.Now()
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d != 20*time.Millisecond {
			t.Errorf("a 20ms delay took %v", d)
		}
	})
}

// TestCloseEndsDelay: Close returns at once with a request waiting in an
// hour's delay, and the request ends. It needs the real listeners (what it
// checks is that httptest's Close, which waits for the handlers, is not
// kept waiting), so its bounds are generous: nothing but the bug makes
// Close take 30s when the delay is an hour.
func TestCloseEndsDelay(t *testing.T) {
	recorded := make(chan struct{}, 1)
	srv := padapitest.Start(padapitest.WithRecordHookForTest(func() {
		select {
		case recorded <- struct{}{}:
		default:
		}
	}))
	srv.Delay("GET /api/quota", time.Hour)
	done := make(chan error, 1)
	go func() {
		_, err := srv.Client(padapi.WithRetry(0, 0, 0)).Quota.Get(context.Background())
		done <- err
	}()
	select {
	case <-recorded: // the request has reached the fake, and goes on to its delay
	case <-time.After(30 * time.Second):
		srv.Close()
		t.Fatal("the request did not reach the fake")
	}
	closed := make(chan struct{})
	go func() {
		srv.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close did not return within 30s with a request waiting in a delay")
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the delayed request succeeded after Close")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the delayed request did not end after Close")
	}
	srv.Close() // a second Close is harmless
}

func TestFaultOnUnknownRoutePanics(t *testing.T) {
	srv := padapitest.NewServer(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "GET /api/quota,") {
			t.Errorf("recovered %v, want a panic that lists the routes", r)
		}
	}()
	srv.FailNext("GET /api/quotas", 1, 500, "")
}

func TestRoutes(t *testing.T) {
	want := []string{
		"DELETE /api/questions/{id}", "GET /api/organization", "GET /api/organization/pads",
		"GET /api/organization/questions", "GET /api/organization/stats", "GET /api/organization/users",
		"GET /api/pad_environments/{id}", "GET /api/pads", "GET /api/pads/{id}", "GET /api/pads/{id}/events",
		"GET /api/questions", "GET /api/questions/{id}", "GET /api/quota", "GET /history/{env}/{file}",
		"POST /api/pads", "POST /api/questions", "PUT /api/pads/{id}", "PUT /api/questions/{id}",
	}
	if diff := cmp.Diff(want, padapitest.Routes()); diff != "" {
		t.Errorf("Routes() (-want +got):\n%s", diff)
	}
}

func TestAuth(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAPIKey("right-key"))
	c, err := padapi.NewClient(srv.URL, "wrong-key")
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.Is(err, padapi.ErrUnauthorized) || !errors.As(err, &apiErr) || apiErr.Message != "Invalid API key" {
		t.Errorf("wrong key: %v, want ErrUnauthorized with the service's message", err)
	}
	if _, err := srv.Client().Quota.Get(context.Background()); err != nil {
		t.Errorf("right key: %v", err)
	}
	for _, header := range []string{"", "Token right-key", `Bearer right-key`, `Token token="right-key`, `Token token="other-key"`, `Token token=right-key`} {
		status, body := raw(t, srv, "GET", "/api/quota", header, nil)
		want := map[string]any{"status": "ERROR", "message": "Invalid API key"}
		if status != 401 || !cmp.Equal(want, body) {
			t.Errorf("Authorization %q: %d %v, want 401 %v", header, status, body, want)
		}
	}
}

func TestRequestsRedactKey(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAPIKey("s3cret-key"))
	c := srv.Client()
	if _, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("t"), Private: padapi.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Sort: padapi.SortUpdatedAsc}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got := reqs[0]; got.Method != "POST" || got.Path != "/api/pads" || got.Query != nil ||
		!cmp.Equal(got.Form, url.Values{"title": {"t"}, "private": {"true"}}) {
		t.Errorf("create recorded as %+v", got)
	}
	if got := reqs[1]; got.Method != "GET" || got.Form != nil || !cmp.Equal(got.Query, url.Values{"sort": {"updated_at,asc"}}) {
		t.Errorf("list recorded as %+v", got)
	}
	for _, r := range reqs {
		if got := r.Header.Get("Authorization"); got != "[REDACTED]" {
			t.Errorf("Authorization recorded as %q", got)
		}
		if dump, _ := json.Marshal(r); strings.Contains(string(dump), "s3cret-key") {
			t.Errorf("the key is in a recorded request: %s", dump)
		}
	}
	reqs[0].Header.Set("Authorization", "changed")
	reqs[0].Form.Set("title", "changed")
	if again := srv.Requests()[0]; again.Header.Get("Authorization") != "[REDACTED]" || again.Form.Get("title") != "t" {
		t.Errorf("Requests() returned the fake's own maps: %+v", again)
	}
}

// TestRequestsRedactKeyEverywhere sends hand-made requests that carry the
// key outside the Authorization header, as is and URL-escaped: Requests, and
// the requests SetFaults hands to its function, show it nowhere.
func TestRequestsRedactKeyEverywhere(t *testing.T) {
	const key = "s3cret key/+&=?" // escapes differently in a query and a path
	srv := padapitest.NewServer(t, padapitest.WithAPIKey(key))
	var drawn []padapitest.Request
	var mu sync.Mutex
	srv.SetFaults(func(_ string, r padapitest.Request) padapitest.Fault {
		mu.Lock()
		defer mu.Unlock()
		drawn = append(drawn, r)
		return padapitest.Fault{}
	})
	query := url.Values{"api_key": {key}, "note": {"before" + key + "after"}, "sort": {"updated_at,asc"}}
	form := url.Values{"title": {"t"}, "notes": {"key: " + key}}
	send := func(method, target string, form url.Values) {
		t.Helper()
		req := handMade(t, srv, method, target, authOf(srv), form)
		req.Header.Set("X-Api-Key", key)
		req.Header.Add("X-Api-Key", "other")
		req.Header.Set("Referer", "https://example.com/?key="+url.QueryEscape(key))
		req.Header.Set("X-Path", "/keys/"+url.PathEscape(key))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send("GET", "/api/pads?"+query.Encode(), nil)
	send("POST", "/api/pads?"+query.Encode(), form)
	send("GET", "/api/pads/"+url.PathEscape(key), nil)
	send("POST", "/api/pads", form)

	reqs := srv.Requests()
	if len(reqs) != 4 || len(drawn) != 4 {
		t.Fatalf("%d requests recorded and %d drawn, want 4 and 4", len(reqs), len(drawn))
	}
	for i, r := range append(reqs, drawn...) {
		dump, _ := json.Marshal(r)
		for _, form := range []string{key, url.QueryEscape(key), url.PathEscape(key), "s3cret"} {
			if strings.Contains(string(dump), form) {
				t.Errorf("request %d holds the key as %q: %s", i, form, dump)
			}
		}
		if !cmp.Equal(r.Header["X-Api-Key"], []string{"[REDACTED]", "other"}) ||
			r.Header.Get("Authorization") != "[REDACTED]" ||
			r.Header.Get("Referer") != "https://example.com/?key=[REDACTED]" ||
			r.Header.Get("X-Path") != "/keys/[REDACTED]" {
			t.Errorf("request %d headers: %v", i, r.Header)
		}
	}
	wantQuery := url.Values{"api_key": {"[REDACTED]"}, "note": {"before[REDACTED]after"}, "sort": {"updated_at,asc"}}
	if !cmp.Equal(reqs[0].Query, wantQuery) || !cmp.Equal(reqs[1].Query, wantQuery) {
		t.Errorf("queries recorded as %v and %v, want %v", reqs[0].Query, reqs[1].Query, wantQuery)
	}
	if want := (url.Values{"title": {"t"}, "notes": {"key: [REDACTED]"}}); !cmp.Equal(reqs[1].Form, want) {
		t.Errorf("form recorded as %v, want %v", reqs[1].Form, want)
	}
	if reqs[2].Path != "/api/pads/[REDACTED]" {
		t.Errorf("path recorded as %q", reqs[2].Path)
	}
	// Only the key is redacted: the create without unknown fields ran with
	// the form as sent.
	if pads := srv.Pads(); len(pads) != 1 || pads[0].Notes != "key: "+key {
		t.Errorf("the fake holds %+v, want the pad with its notes as sent", pads)
	}

	// Refusals that name what was sent never name the key.
	for _, req := range []*http.Request{
		handMade(t, srv, "POST", "/api/pads", authOf(srv), url.Values{key: {"x"}}),
		handMade(t, srv, "GET", "/api/pads?sort="+url.QueryEscape(key), authOf(srv), nil),
		handMade(t, srv, "GET", "/api/pads?page="+url.QueryEscape(key), authOf(srv), nil),
		handMade(t, srv, "PUT", "/api/pads/"+string(srv.Pads()[0].ID), authOf(srv), url.Values{"private": {key}}),
	} {
		status, b := sendBytes(t, req)
		if status != 400 || strings.Contains(string(b), "s3cret") || !strings.Contains(string(b), "[REDACTED]") {
			t.Errorf("%s %s: %d %s, want a 400 whose message shows [REDACTED] for the key", req.Method, req.URL.Path, status, b)
		}
	}
}

func TestAddPadAndQuestion(t *testing.T) {
	srv, _, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{Title: "given"})
	if !padID.MatchString(string(p.ID)) || p.URL != srv.URL+"/"+string(p.ID) || !p.CreatedAt.Equal(t0) || !p.UpdatedAt.Equal(t0) {
		t.Errorf("AddPad filled %+v", p)
	}
	kept := srv.AddPad(padapi.Pad{ID: "DM32JWG2", URL: "https://app.coderpad.io/DM32JWG2", CreatedAt: t0.Add(-time.Hour)})
	if kept.ID != "DM32JWG2" || kept.URL != "https://app.coderpad.io/DM32JWG2" || !kept.UpdatedAt.Equal(t0.Add(-time.Hour)) {
		t.Errorf("AddPad changed given fields: %+v", kept)
	}
	if q := srv.AddQuestion(padapi.Question{ID: "41"}); q.ID != "41" {
		t.Errorf("AddQuestion kept ID %q", q.ID)
	}
	if q := srv.AddQuestion(padapi.Question{}); q.ID != "42" {
		t.Errorf("the next question ID is %q, want 42", q.ID)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("AddPad with a taken ID did not panic")
			}
		}()
		srv.AddPad(padapi.Pad{ID: "DM32JWG2"})
	}()
}

func TestDeterministic(t *testing.T) {
	body := func() string {
		srv := padapitest.NewServer(t, padapitest.WithClock(func() time.Time { return t0 }))
		srv.Seed(4)
		if _, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("x")}); err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("GET", srv.URL+"/api/pads", nil)
		req.Header.Set("Authorization", authOf(srv))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		// Only the port differs between two fakes.
		return strings.NewReplacer(srv.URL, "URL", srv.HistoryURL, "HISTORY").Replace(string(b))
	}
	if a, b := body(), body(); a != b {
		t.Errorf("two fakes with the same clock and seed answer differently:\n%s\n%s", a, b)
	}
}

func TestConcurrentCreates(t *testing.T) {
	srv, c, _ := newFake(t)
	srv.SetQuota(40, 0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ok, over int
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 6 {
				_, err := c.Pads.Create(context.Background(), nil)
				_ = srv.Requests()
				mu.Lock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, padapi.ErrOverQuota):
					over++
				default:
					t.Error(err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if ok != 40 || over != 8 || len(srv.Pads()) != 40 {
		t.Errorf("48 concurrent creates with 40 left: %d created, %d over quota, %d stored", ok, over, len(srv.Pads()))
	}
}

func TestListenErrors(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithAddr("127.0.0.1:0"))
	taken := strings.TrimPrefix(srv.URL, "http://")
	if _, err := padapitest.Listen(padapitest.WithAddr(taken)); err == nil {
		t.Errorf("Listen on %s, which is taken: no error", taken)
	}
	for _, key := range []string{"", `with"quote`, "tab\there", "é"} {
		if srv, err := padapitest.Listen(padapitest.WithAPIKey(key)); err == nil {
			srv.Close()
			t.Errorf("Listen with the key %q, which no client can send: no error", key)
		}
	}
}

// TestTrailingSlash: list and create paths, like every path, are served
// with a trailing slash too, as the service serves them.
func TestTrailingSlash(t *testing.T) {
	srv, _, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{})
	for _, tc := range []struct{ method, path string }{
		{"GET", "/api/pads/"}, {"POST", "/api/pads/"}, {"GET", "/api/questions/"}, {"GET", "/api/organization/"},
		{"GET", "/api/organization/pads/"}, {"GET", "/api/organization/questions/"}, {"GET", "/api/organization/users/"},
		{"GET", "/api/organization/stats/"}, {"GET", "/api/quota/"}, {"GET", "/api/pads/" + string(p.ID) + "/"},
		{"GET", "/api/pads/" + string(p.ID) + "/events/"}, {"GET", "/api/pad_environments/1001/"},
	} {
		if status, body := raw(t, srv, tc.method, tc.path, authOf(srv), nil); status != 200 || body["status"] != "OK" {
			t.Errorf("%s %s: %d %v", tc.method, tc.path, status, body)
		}
	}
	if status, body := send(t, multipartRequest(t, srv, "POST", "/api/questions/", part{name: "question[title]", value: "t"}, part{name: "question[language]", value: "go"})); status != 200 || body["title"] != "t" {
		t.Errorf("POST /api/questions/: %d %v", status, body)
	}
	if page := srv.Requests()[0]; page.Path != "/api/pads/" {
		t.Errorf("recorded path %q, want the path as sent", page.Path)
	}
}

// TestListenOnAllAddresses: a fake on all addresses names a loopback
// address in its URLs, which the client accepts.
func TestListenOnAllAddresses(t *testing.T) {
	// ":0" listens on [::] where the machine has IPv6: the URL the issue
	// saw, http://[::]:PORT.
	for _, addr := range []string{":0", "0.0.0.0:0"} {
		srv, err := padapitest.Listen(padapitest.WithAddr(addr))
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{srv.URL, srv.HistoryURL} {
			if !strings.HasPrefix(u, "http://127.0.0.1:") {
				t.Errorf("listening on %s: URL %q, want a loopback one", addr, u)
			}
		}
		p, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Contents: padapi.Ptr("x")})
		if err == nil {
			_, err = srv.Client().Pads.History(context.Background(), p.History)
		}
		if err != nil {
			t.Errorf("listening on %s: %v", addr, err)
		}
		srv.Close()
	}
}

// panicky is a clock that panics while armed: a panic inside a handler,
// with the fake's lock held.
type panicky struct{ armed atomic.Bool }

// TestPanicInHandler: a handler that panics with the state locked answers
// 500 with the service's error body, and releases the lock: the fake goes
// on serving every request after it.
func TestPanicInHandler(t *testing.T) {
	clk := &panicky{}
	srv := padapitest.NewServer(t, padapitest.WithClock(clk.Now))
	p := srv.AddPad(padapi.Pad{Title: "x"})
	q := srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	clk.armed.Store(true)
	// Each of these reads the clock with the lock held.
	for _, req := range []*http.Request{
		handMade(t, srv, "POST", "/api/pads", authOf(srv), url.Values{}),
		handMade(t, srv, "PUT", "/api/pads/"+string(p.ID), authOf(srv), url.Values{"title": {"y"}}),
		handMade(t, srv, "POST", "/api/questions", authOf(srv), url.Values{"question[title]": {"t"}, "question[language]": {"go"}}),
		handMade(t, srv, "PUT", "/api/questions/"+string(q.ID), authOf(srv), url.Values{"question[title]": {"t"}}),
		handMade(t, srv, "GET", "/api/organization/stats", authOf(srv), nil),
	} {
		status, body := send(t, req)
		if status != 500 || body["status"] != "ERROR" || body["message"] != "Internal server error" {
			t.Errorf("%s %s with a panicking clock: %d %v, want 500 with the service's error body", req.Method, req.URL.Path, status, body)
		}
	}
	clk.armed.Store(false)
	stillServes(t, srv)
	if pads := srv.Pads(); len(pads) != 2 || pads[0].Title != "x" {
		t.Errorf("after the panics the fake holds %+v, want the pad as it was and the new one", pads)
	}
}

// TestPanicOnEveryRoute: on every route, a panic (here from a SetFaults
// function) answers 500, and the fake goes on serving that route and the
// others.
func TestPanicOnEveryRoute(t *testing.T) {
	srv, _, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{Contents: "x"})
	q := srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	env := *p.ActiveEnvironmentID
	var panicOn atomic.Value
	panicOn.Store("")
	srv.SetFaults(func(route string, _ padapitest.Request) padapitest.Fault {
		if route == panicOn.Load() {
			panic("fault function broke on " + route)
		}
		return padapitest.Fault{}
	})
	paths := map[string]string{"{id}": string(p.ID), "{env}": string(env), "{file}": "0.json"}
	for _, route := range padapitest.Routes() {
		method, path, _ := strings.Cut(route, " ")
		for k, v := range paths {
			path = strings.ReplaceAll(path, k, v)
		}
		if strings.HasPrefix(path, "/api/questions/") {
			path = "/api/questions/" + string(q.ID)
		}
		if strings.HasPrefix(path, "/api/pad_environments/") {
			path = "/api/pad_environments/" + string(env)
		}
		auth := authOf(srv)
		if strings.HasPrefix(path, "/history/") {
			path, auth = srv.HistoryURL+path, ""
		}
		panicOn.Store(route)
		status, body := send(t, handMade(t, srv, method, path, auth, nil))
		if status != 500 || body["status"] != "ERROR" {
			t.Errorf("%s with a panic: %d %v, want 500", route, status, body)
		}
		panicOn.Store("")
		if method == "GET" {
			if status, body := send(t, handMade(t, srv, method, path, auth, nil)); status != 200 {
				t.Errorf("%s after a panic: %d %v, want 200", route, status, body)
			}
		}
	}
	stillServes(t, srv)
}

// TestHostileRequests: odd paths, IDs and parameters get an answer that is
// not a 500, and leave the fake serving.
func TestHostileRequests(t *testing.T) {
	srv, _, _ := newFake(t)
	long := strings.Repeat("A", 1<<16)
	for _, target := range []string{
		"/api/pads/" + long, "/api/pads/%00", "/api/pads/%2e%2e", "/api/pads/%F0%9F%98%80/events",
		"/api/pad_environments/-1", "/api/pad_environments/99999999999999999999999", "/api/questions/1e3",
		"/api/pads?sort=" + long, "/api/pads?page=%00", "/api/organization/users?email=%FF",
		"/api/organization/stats?start_time=0000-01-01T00:00:00Z&end_time=9999-12-31T23:59:59Z",
		"/api//pads", "/api/pads//", "/api/pads/x/events/", "/nowhere",
		srv.HistoryURL + "/history/1001/-1.json", srv.HistoryURL + "/history/1001/9999999999999999999999.json",
		srv.HistoryURL + "/history/%00/0.json", srv.HistoryURL + "/history/1001/0",
	} {
		auth := authOf(srv)
		if strings.HasPrefix(target, srv.HistoryURL) {
			auth = ""
		}
		resp, err := http.DefaultClient.Do(handMade(t, srv, "GET", target, auth, nil))
		if err != nil {
			t.Fatalf("GET %.80s: %v", target, err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("GET %.80s: %d", target, resp.StatusCode)
		}
	}
	for i, body := range []string{strings.Repeat("a=b&", 1<<15), "title=" + long + "&contents=" + long, fmt.Sprintf("title=%s", strings.Repeat("%", 3))} {
		req := newRequest(t, srv, "POST", "/api/pads", authOf(srv), strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("hostile body %d: %d", i, resp.StatusCode)
		}
	}
	stillServes(t, srv)
}

// TestNotOwnerForbidden: for a caller who is not an owner, every
// organization endpoint answers 403 with the service's error body, and the
// client reports padapi.ErrForbidden; the caller's own endpoints still
// answer.
func TestNotOwnerForbidden(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	srv.SetCallerIsOwner(false)
	for _, path := range []string{"/api/organization", "/api/organization/stats", "/api/organization/pads",
		"/api/organization/questions", "/api/organization/users", "/api/organization/users/"} {
		status, body := raw(t, srv, "GET", path, authOf(srv), nil)
		if msg, _ := body["message"].(string); status != http.StatusForbidden || body["status"] != "ERROR" || msg == "" {
			t.Errorf("GET %s: %d %v, want 403 with the service's error body", path, status, body)
		}
	}
	// Unauthenticated is still 401: the key is checked first.
	if status, _ := raw(t, srv, "GET", "/api/organization", "", nil); status != http.StatusUnauthorized {
		t.Errorf("no key: %d, want 401", status)
	}
	if _, err := c.Organization.Get(ctx); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("Organization.Get: %v, want a 403", err)
	}
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Errorf("the quota of a caller who is not an owner: %v", err)
	}
	srv.SetCallerIsOwner(true)
	if _, err := c.Organization.Get(ctx); err != nil {
		t.Errorf("an owner again: %v", err)
	}
}

func (p *panicky) Now() time.Time {
	if p.armed.Load() {
		panic("clock broke")
	}
	return t0
}
