package padapitest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// collect gathers an iterator's items, failing the test on an error.
func collect[T any](t *testing.T, seq func(func(*T, error) bool)) []T {
	t.Helper()
	var out []T
	for item, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *item)
	}
	return out
}

// TestEveryEndpoint drives every method of the library against the fake,
// in each shape, and checks what each returns against what the fake holds;
// then checks that it reached every route the fake serves.
func TestEveryEndpoint(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, clk *clock) {
		ctx := context.Background()
		live := srv.Shape() == padapitest.LiveShape
		var mu sync.Mutex
		hit := map[string]bool{}
		srv.SetFaults(func(route string, _ padapitest.Request) padapitest.Fault {
			mu.Lock()
			defer mu.Unlock()
			hit[route] = true
			return padapitest.Fault{}
		})

		// The quota.
		srv.SetQuota(10, 2)
		quota, err := c.Quota.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := quota.Remaining(); !ok || n != 8 || quota.PadsUsed != 2 || (quota.OveragesEnabled != nil) != live {
			t.Errorf("Quota.Get: %+v", quota)
		}

		// Questions: a single-file one, a multi-file one, one from a zip.
		instructions := []padapi.CandidateInstruction{{Instructions: "Read the tests first.", DefaultVisible: padapi.Ptr(false)}}
		single, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
			Title: padapi.Ptr("Two Sum"), Language: padapi.Ptr("python"), Description: padapi.Ptr("Find two."),
			Contents: padapi.Ptr("def two_sum(nums, target):\n    pass\n"), Solution: padapi.Ptr("a dict"),
			AIAssistPrompt: padapi.Ptr("Hints only."), CandidateInstructions: instructions,
		})
		if err != nil {
			t.Fatal(err)
		}
		wantPrompt := "Hints only."
		if !live {
			wantPrompt = "" // a field of live answers only
		}
		if single.Title != "Two Sum" || single.Language != "python" || single.Description != "Find two." || single.Solution != "a dict" ||
			single.AIAssistPrompt != wantPrompt || !cmp.Equal(single.CandidateInstructions, instructions) {
			t.Errorf("Questions.Create: %+v", single)
		}
		files := []padapi.QuestionFile{{Path: "main.py", Contents: "from lib import util\n"}, {Path: "lib/util.py", Contents: "def util(): pass\n"}}
		clk.Advance(time.Minute)
		multi, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("Refactor"), Language: padapi.Ptr("python"), Files: files})
		if err != nil {
			t.Fatal(err)
		}
		wantFiles := []padapi.FileContent{{Path: "main.py", Contents: files[0].Contents}, {Path: "lib/util.py", Contents: files[1].Contents}}
		if diff := cmp.Diff(wantFiles, srv.QuestionFiles(multi.ID)); multi.Contents != "" || diff != "" {
			t.Errorf("multi-file question: contents %q, files (-want +got):\n%s", multi.Contents, diff)
		}
		clk.Advance(time.Minute)
		zipped, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
			Title: padapi.Ptr("From a zip"), Language: padapi.Ptr("go"), Zip: zipOf(t, "main.go", "package main\n", "logo.png", "\x89PNG\x00"),
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]padapi.FileContent{{Path: "main.go", Contents: "package main\n"}, {Path: "logo.png", Binary: true}}, srv.QuestionFiles(zipped.ID)); diff != "" {
			t.Errorf("zip question's files (-want +got):\n%s", diff)
		}
		clk.Advance(time.Minute)
		updated, err := c.Questions.Update(ctx, single.ID, &padapi.QuestionUpdateParams{Title: padapi.Ptr("Two Sum II"), Files: files})
		if err != nil {
			t.Fatal(err)
		}
		got, err := c.Questions.Get(ctx, single.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(updated, got); diff != "" || got.Title != "Two Sum II" || got.Contents != "" || !got.UpdatedAt.Equal(t0.Add(3*time.Minute)) {
			t.Errorf("Questions.Update then Get: %+v (-updated +got):\n%s", got, diff)
		}
		if diff := cmp.Diff(wantFiles, srv.QuestionFiles(single.ID)); diff != "" {
			t.Errorf("files replacing the contents (-want +got):\n%s", diff)
		}
		qPage, err := c.Questions.List(ctx, &padapi.QuestionListOptions{Sort: padapi.SortUpdatedDesc})
		if err != nil {
			t.Fatal(err)
		}
		if ids := questionIDs(qPage.Items); qPage.Total != 3 || !cmp.Equal(ids, []padapi.ID{single.ID, zipped.ID, multi.ID}) {
			t.Errorf("Questions.List by update: total %d, %v", qPage.Total, ids)
		}
		if all := collect(t, c.Questions.All(ctx, nil)); !cmp.Equal(questionIDs(all), []padapi.ID{zipped.ID, multi.ID, single.ID}) {
			t.Errorf("Questions.All: %v", questionIDs(all))
		}

		// Pads: one written by hand, one started from the multi-file
		// question.
		clk.Advance(time.Minute)
		pad, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Backend"), Language: padapi.Ptr("go"), Contents: padapi.Ptr("package main\n"), Notes: padapi.Ptr("Ask about tests.")})
		if err != nil {
			t.Fatal(err)
		}
		if pad.Title != "Backend" || pad.Notes != "Ask about tests." || pad.Language != "go" || pad.Contents != "package main\n" || srv.Quota().PadsUsed != 3 {
			t.Errorf("Pads.Create: %+v, %d pads used", pad, srv.Quota().PadsUsed)
		}
		fromQ, err := c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: &multi.ID})
		if err != nil {
			t.Fatal(err)
		}
		if fromQ.Language != "python" || fromQ.Contents != files[0].Contents {
			t.Errorf("pad from a multi-file question: %+v", fromQ)
		}
		clk.Advance(time.Hour)
		final := "package main\n\nfunc main() { println(\"é😀\") }\n"
		ended, err := c.Pads.Update(ctx, pad.ID, &padapi.PadUpdateParams{Contents: padapi.Ptr(final), Ended: padapi.Ptr(true)})
		if err != nil {
			t.Fatal(err)
		}
		gotPad, err := c.Pads.Get(ctx, pad.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ended, gotPad); diff != "" || gotPad.Contents != final || gotPad.EndedAt == nil || !gotPad.EndedAt.Equal(t0.Add(64*time.Minute)) {
			t.Errorf("Pads.Update then Get: %+v (-updated +got):\n%s", gotPad, diff)
		}
		if diff := cmp.Diff(srv.Pads()[0], *gotPad); diff != "" {
			t.Errorf("Pads.Get and srv.Pads() (-fake +client):\n%s", diff)
		}
		page, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortCreatedAsc})
		if err != nil {
			t.Fatal(err)
		}
		if ids := padIDs(page.Items); page.Total != 2 || !cmp.Equal(ids, []padapi.ID{pad.ID, fromQ.ID}) {
			t.Errorf("Pads.List: total %d, %v", page.Total, ids)
		}
		if ids := padIDs(collect(t, c.Pads.All(ctx, nil))); !cmp.Equal(ids, []padapi.ID{fromQ.ID, pad.ID}) {
			t.Errorf("Pads.All: %v", ids)
		}

		// What happened in the pad: its events, environment and history.
		events, err := c.Pads.ListEvents(ctx, pad.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		if kinds := eventKinds(events.Items); events.Total != 2 || !cmp.Equal(kinds, []string{"ended", "created"}) {
			t.Errorf("Pads.ListEvents: total %d, kinds %v", events.Total, kinds)
		}
		allEvents := collect(t, c.Pads.AllEvents(ctx, pad.ID, &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc}))
		if diff := cmp.Diff(srv.Events(pad.ID), allEvents); diff != "" {
			t.Errorf("Pads.AllEvents and srv.Events (-fake +client):\n%s", diff)
		}
		if !live && !cmp.Equal(gotPad.Events, allEvents) {
			t.Errorf("the documented pad's events %v, want its event log", gotPad.Events)
		}
		envIDs := gotPad.PadEnvironmentIDs
		if !live {
			// The documented shape lists no environments: a caller knows
			// their IDs from elsewhere.
			for _, e := range srv.Environments(pad.ID) {
				envIDs = append(envIDs, e.ID)
			}
		}
		if len(envIDs) != 1 {
			t.Fatalf("the pad has environments %v, want one", envIDs)
		}
		env, err := c.Pads.Environment(ctx, envIDs[0])
		if err != nil {
			t.Fatal(err)
		}
		// Live answers carry the pad's internal number as pad_id, the
		// documented shape its ID.
		if diff := cmp.Diff(srv.Environments(pad.ID), []padapi.PadEnvironment{*env}); diff != "" || (env.PadID == pad.ID) == live || env.Language != "go" ||
			len(env.Files) != 1 || env.Files[0].Contents != final {
			t.Errorf("Pads.Environment: %+v (-fake +client):\n%s", env, diff)
		}
		for _, link := range []string{env.Files[0].History, gotPad.History} {
			h, err := c.Pads.History(ctx, link)
			if err != nil {
				t.Fatal(err)
			}
			if text, err := h.Replay(); err != nil || text != final || len(h.Entries) != 2 {
				t.Errorf("Pads.History(%s): %d entries replay to %q, %v; want 2 giving %q", link, len(h.Entries), text, err, final)
			}
		}
		tr, err := c.Pads.Transcript(ctx, fromQ.ID)
		if err != nil {
			t.Fatal(err)
		}
		wantEnvs := srv.Environments(fromQ.ID)
		if !live {
			wantEnvs = []padapi.PadEnvironment{} // nothing listed, nothing fetched
		}
		fromQNow, err := c.Pads.Get(ctx, fromQ.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&padapi.Transcript{Pad: fromQNow, Events: srv.Events(fromQ.ID), Environments: wantEnvs}, tr); diff != "" {
			t.Errorf("Pads.Transcript (-want +got):\n%s", diff)
		}
		if envs := srv.Environments(fromQ.ID); len(envs) != 1 || len(envs[0].Files) != 2 || envs[0].Files[1].Path != "lib/util.py" || *envs[0].QuestionID != multi.ID {
			t.Errorf("the environment of the pad from the question: %+v", envs)
		}

		// Deletes.
		if err := c.Pads.Delete(ctx, fromQ.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Pads.Get(ctx, fromQ.ID); !errors.Is(err, padapi.ErrNotFound) {
			t.Errorf("Pads.Get after Pads.Delete: %v, want ErrNotFound", err)
		}
		if err := c.Questions.Delete(ctx, zipped.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Questions.Get(ctx, zipped.ID); !errors.Is(err, padapi.ErrNotFound) {
			t.Errorf("Questions.Get after Questions.Delete: %v, want ErrNotFound", err)
		}

		// The organization.
		org, err := c.Organization.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if org.Name != "Example Organization" || org.DefaultLanguage != "python" || len(org.Users) != 2 || (len(org.Teams) == 1) != live {
			t.Errorf("Organization.Get: %+v", org)
		}
		stats, err := c.Organization.Stats(ctx, &padapi.StatsOptions{Start: t0, End: t0.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		want := &padapi.OrganizationStats{StartTime: t0, EndTime: t0.Add(time.Hour), PadsCreated: 1, Users: []padapi.UserStats{{Email: "owner@example.com", Name: "Olivia Owner", PadsCreated: 1}}}
		if diff := cmp.Diff(want, stats); diff != "" {
			t.Errorf("Organization.Stats (-want +got):\n%s", diff)
		}
		orgPads, err := c.Organization.ListPads(ctx, nil)
		if err != nil || orgPads.Total != 1 || orgPads.Items[0].ID != pad.ID {
			t.Errorf("Organization.ListPads: %+v, %v", orgPads, err)
		}
		if ids := padIDs(collect(t, c.Organization.AllPads(ctx, nil))); !cmp.Equal(ids, []padapi.ID{pad.ID}) {
			t.Errorf("Organization.AllPads: %v", ids)
		}
		orgQuestions, err := c.Organization.ListQuestions(ctx, nil)
		if err != nil || orgQuestions.Total != 2 {
			t.Errorf("Organization.ListQuestions: %+v, %v", orgQuestions, err)
		}
		if ids := questionIDs(collect(t, c.Organization.AllQuestions(ctx, nil))); !cmp.Equal(ids, []padapi.ID{multi.ID, single.ID}) {
			t.Errorf("Organization.AllQuestions: %v", ids)
		}
		users, err := c.Organization.ListUsers(ctx, nil)
		if err != nil || len(users) != 2 || (users[0].Teams != nil) != live {
			t.Errorf("Organization.ListUsers: %+v, %v", users, err)
		}
		one, err := c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{Email: "Interviewer@Example.com"})
		if err != nil || len(one) != 1 || one[0].Name != "Ian Interviewer" {
			t.Errorf("Organization.ListUsers by email: %+v, %v", one, err)
		}
		none, err := c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{Email: "nobody@example.com"})
		if err != nil || len(none) != 0 {
			t.Errorf("Organization.ListUsers for no such user: %+v, %v", none, err)
		}

		// The routes added in v5.
		checkV5(t, srv, c, single.ID, live)

		mu.Lock()
		defer mu.Unlock()
		for _, route := range padapitest.Routes() {
			if !hit[route] {
				t.Errorf("no call reached %s", route)
			}
		}
	})
}

func padIDs(pads []padapi.Pad) []padapi.ID {
	ids := []padapi.ID{}
	for _, p := range pads {
		ids = append(ids, p.ID)
	}
	return ids
}

func questionIDs(qs []padapi.Question) []padapi.ID {
	ids := []padapi.ID{}
	for _, q := range qs {
		ids = append(ids, q.ID)
	}
	return ids
}

func eventKinds(events []padapi.PadEvent) []string {
	kinds := []string{}
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	return slices.Clip(kinds)
}

// TestExecutionToggleEvents: switching code execution off and on adds a
// disabled and an enabled event, by the key's user; a PUT that leaves it
// as it was adds none.
func TestExecutionToggleEvents(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, clk *clock) {
		ctx := context.Background()
		p, err := c.Pads.Create(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		path := "/api/pads/" + string(p.ID)
		for _, v := range []string{"false", "false", "true", "true"} {
			clk.Advance(time.Minute)
			if status, body := raw(t, srv, "PUT", path, authOf(srv), url.Values{"execution_enabled": {v}}); status != 200 {
				t.Fatalf("execution_enabled=%s: %d %v", v, status, body)
			}
		}
		var kinds []string
		for _, e := range srv.Events(p.ID) {
			kinds = append(kinds, e.Kind)
			if (e.Kind == "disabled" || e.Kind == "enabled") && (e.UserEmail != "owner@example.com" || !strings.Contains(e.Message, "code execution")) {
				t.Errorf("%s event %+v, want the key's user switching code execution", e.Kind, e)
			}
		}
		if want := []string{"created", "disabled", "enabled"}; !slices.Equal(kinds, want) {
			t.Errorf("events %v, want %v", kinds, want)
		}
	})
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
