package padapitest_test

import (
	"context"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// fullPad sets every field of a Pad but EventsURL (the other shape of
// events).
func fullPad() padapi.Pad {
	at := time.Date(2026, 10, 14, 9, 30, 0, 123000000, time.FixedZone("", -7*3600))
	return padapi.Pad{
		ID: "DM32JWG2", Title: "Interview", OwnerEmail: "owner@example.com", Language: "go",
		Participants: []string{"Ada"}, Contents: "package main", Notes: "good",
		Events:  []padapi.PadEvent{{Message: "Ada joined", Kind: "joined", Metadata: "m", UserName: "Ada", UserEmail: "ada@example.com", CreatedAt: at}},
		Private: true, ExecutionEnabled: true, CreatedAt: at, UpdatedAt: at.Add(time.Hour), EndedAt: padapi.Ptr(at.Add(2 * time.Hour)),
		URL: "u", Playback: "p", History: "h", Drawing: "d", State: "ended", Type: "live",
		QuestionIDs: []padapi.ID{"1"}, PadEnvironmentIDs: []padapi.ID{"2"}, ActiveEnvironmentID: padapi.Ptr[padapi.ID]("3"),
		Team: &padapi.Team{ID: "4", Name: "core"}, RestrictInterviewerAccess: padapi.Ptr(true),
		AllowedInterviewerEmails: []string{"ian@example.com"},
		InterviewerNotifications: []padapi.InterviewerNotification{{
			ID: "8", Title: "Tab switch", Message: "The candidate left the tab", Priority: "low", RequestID: "r1",
			AutoDismissed: true, DismissedAt: padapi.Ptr(at.Add(time.Minute)), Useful: padapi.Ptr(false), CreatedAt: at, UpdatedAt: at.Add(time.Minute),
		}},
	}
}

func fullQuestion() padapi.Question {
	at := time.Date(2026, 10, 14, 9, 30, 0, 0, time.UTC)
	return padapi.Question{
		ID: "7", Title: "Two Sum", OwnerEmail: "owner@example.com", AuthorName: "Olivia", OrganizationName: "Org",
		Language: "python", Description: "d", CandidateInstructions: []padapi.CandidateInstruction{{Instructions: "i", DefaultVisible: padapi.Ptr(true)}},
		Contents: "c", Solution: "s", Shared: true, TakeHome: true, TestCasesEnabled: true, IsDraft: true, Used: 3, PadType: "live",
		CustomFiles:          []padapi.CustomFile{{ID: "1", Title: "t", Description: "d", Filename: "f.txt", Filesize: "10"}},
		TestCases:            []padapi.TestCase{{ID: "1", Arguments: []string{"1", "2"}, ReturnValue: "3", Visible: true}},
		ContentsForTestCases: "ct", PublicTakeHomeSettingID: padapi.Ptr[padapi.ID]("9"), AIAssistPrompt: "be brief",
		CustomDatabase: &padapi.CustomDatabase{ID: "3", Title: "shop", Description: "orders", Language: "postgresql", Schema: "CREATE TABLE t (id int);",
			SchemaJSON: &padapi.DatabaseSchema{Arrangement: json.RawMessage(`[["t"]]`), Tables: []padapi.DatabaseTable{{Name: "t", Columns: []padapi.DatabaseColumn{{Name: "id", Type: "int", PrimaryKey: true, NotNull: true}}}}}},
		CreatedAt: at, UpdatedAt: at,
	}
}

func fullOrganization() padapi.Organization {
	return padapi.Organization{
		ID: "5", Name: "Org", UserCount: 1, Users: []padapi.OrganizationUser{{Email: "e", Name: "n", Teams: []string{"core"}}},
		DefaultLanguage: "go", SingleSignOnSupported: true, SingleSignInURL: "https://sso.example.com",
		Teams: []padapi.Team{{ID: "4", Name: "core"}}, ChildOrganizations: json.RawMessage(`[{"id":6}]`),
	}
}

// checkFull fails when a field of v is zero, so that a field added to a
// model later is added here too, and to the fake's copies (state.go).
func checkFull(t *testing.T, v any, except ...string) {
	t.Helper()
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		if rv.Field(i).IsZero() && !slices.Contains(except, name) {
			t.Errorf("%T.%s is zero in the fixture: set it, and copy it in the fake's clone", v, name)
		}
	}
}

// Every field the fake stores reaches the client as it was, in each shape
// with that shape's fields: the fake writes with the models' own
// marshalling, the client reads with their own unmarshalling.
func TestRoundTripEveryField(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, _ *clock) {
		ctx := context.Background()
		documented := srv.Shape() == padapitest.DocumentedShape

		pad := fullPad()
		checkFull(t, pad, "EventsURL")
		srv.AddPad(pad)
		linked := fullPad()
		linked.ID, linked.Events, linked.EventsURL = "EVENTSLK", nil, "https://app.coderpad.io/api/pads/EVENTSLK/events"
		linked.PadEnvironmentIDs, linked.ActiveEnvironmentID = []padapi.ID{"12"}, padapi.Ptr[padapi.ID]("13")
		srv.AddPad(linked)

		wantPad, wantLinked := pad, linked
		if documented {
			for _, p := range []*padapi.Pad{&wantPad, &wantLinked} {
				p.State, p.Type, p.QuestionIDs, p.PadEnvironmentIDs, p.ActiveEnvironmentID = "", "", nil, nil, nil
				p.Team, p.RestrictInterviewerAccess, p.InterviewerNotifications, p.EventsURL = nil, nil, nil, ""
				p.AllowedInterviewerEmails = nil
			}
			// A pad added without events has a creation event.
			wantLinked.Events = []padapi.PadEvent{{Message: "Olivia Owner created the pad", Kind: "created", UserName: "Olivia Owner", UserEmail: "owner@example.com", CreatedAt: linked.CreatedAt}}
		} else {
			wantPad.Events, wantPad.EventsURL = nil, srv.URL+"/api/pads/DM32JWG2/events"
		}
		for _, want := range []padapi.Pad{wantPad, wantLinked} {
			got, err := c.Pads.Get(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, *got); diff != "" {
				t.Errorf("pad %s through the fake (-want +got):\n%s", want.ID, diff)
			}
		}
		events, err := c.Pads.ListEvents(ctx, pad.ID, &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(pad.Events, events.Items); diff != "" {
			t.Errorf("the events of the added pad (-want +got):\n%s", diff)
		}

		q := fullQuestion()
		checkFull(t, q)
		srv.AddQuestion(q)
		gotQ, err := c.Questions.Get(ctx, "7")
		if err != nil {
			t.Fatal(err)
		}
		if documented {
			q.AIAssistPrompt, q.CustomDatabase = "", nil
		}
		if diff := cmp.Diff(q, *gotQ); diff != "" {
			t.Errorf("question through the fake (-want +got):\n%s", diff)
		}

		o := fullOrganization()
		checkFull(t, o)
		srv.SetOrganization(o)
		gotO, err := c.Organization.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if documented {
			o.ID, o.Teams, o.ChildOrganizations, o.Users[0].Teams = "", nil, nil, nil
		}
		if diff := cmp.Diff(o, *gotO); diff != "" {
			t.Errorf("organization through the fake (-want +got):\n%s", diff)
		}
	})
}

// wantJSON fails the test unless got is the JSON want, after replacing
// URL and HISTORY in want by the fake's URLs and ID by id.
func wantJSON(t *testing.T, srv *padapitest.Server, what string, got []byte, want string, id padapi.ID) {
	t.Helper()
	want = strings.NewReplacer("HISTORY", srv.HistoryURL, "URL", srv.URL, "ID", string(id), "TEAM", padapitest.DefaultTeamID).Replace(want)
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v: %s", what, err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("%s: the test's JSON: %v", what, err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s on the wire (-want +got):\n%s", what, diff)
	}
}

// get sends a GET with the key (or, for the history listener, without)
// and returns the body as sent, failing the test unless it is a 200.
func get(t *testing.T, srv *padapitest.Server, target string) []byte {
	t.Helper()
	auth := authOf(srv)
	if strings.HasPrefix(target, srv.HistoryURL) {
		auth = ""
	}
	status, b := sendBytes(t, handMade(t, srv, "GET", target, auth, nil))
	if status != 200 {
		t.Fatalf("GET %s: %d %s", target, status, b)
	}
	return b
}

// TestWireShapes: the exact bodies of each shape, as the service's
// documentation and its live responses (docs/api-notes.md) show them.
func TestWireShapes(t *testing.T) {
	live, c, _ := newFake(t)
	p, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview"), Language: padapi.Ptr("go"), Contents: padapi.Ptr("package main")})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, live, "live pad", get(t, live, "/api/pads/"+string(p.ID)), `{
		"status": "OK", "id": "ID", "title": "Interview", "owner_email": "owner@example.com", "language": "go",
		"participants": [], "contents": "package main", "notes": null, "events": "URL/api/pads/ID/events",
		"private": false, "execution_enabled": true, "created_at": "2026-10-14T09:30:00Z",
		"updated_at": "2026-10-14T09:30:00Z", "ended_at": null, "url": "URL/ID", "playback": "URL/ID/playback",
		"history": "HISTORY/history/1001/0.json", "drawing": null, "state": "started", "type": "live",
		"question_ids": [], "pad_environment_ids": [1001], "active_environment_id": 1001,
		"team": {"id": "TEAM", "name": "Hiring"}, "restrict_interviewer_access": null}`, p.ID)
	wantJSON(t, live, "live quota", get(t, live, "/api/quota"), `{"status": "OK", "pads_used": 1, "trial_expires_at": "2026-09-01T00:00:00Z",
		"quota_reset_at": "2026-10-01T00:00:00Z", "unlimited": false, "pads_remaining": 119,
		"monthly_pad_limit": 120, "overages_enabled": false}`, "")
	wantJSON(t, live, "live organization", get(t, live, "/api/organization"), `{"status": "OK", "id": 1,
		"organization_name": "Example Organization", "user_count": 2, "users": [
			{"email": "owner@example.com", "name": "Olivia Owner", "teams": ["TEAM"]},
			{"email": "interviewer@example.com", "name": "Ian Interviewer", "teams": ["TEAM"]}],
		"organization_default_language": "python", "single_sign_on_supported": false,
		"single_sign_in_url": null, "teams": [{"id": "TEAM", "name": "Hiring"}], "child_organizations": []}`, "")
	wantJSON(t, live, "environment", get(t, live, "/api/pad_environments/1001"), `{"status": "OK", "id": 1001,
		"pad_id": 88112233, "question_id": null, "example_question_id": null, "language": "go",
		"file_contents": [{"path": "main.go", "contents": "package main", "history": "HISTORY/history/1001/0.json"}],
		"created_at": "2026-10-14T09:30:00Z", "updated_at": "2026-10-14T09:30:00Z"}`, p.ID)
	wantJSON(t, live, "edit history", get(t, live, p.History),
		`{"-Fk000000000001": {"a": "owner@example.com", "o": ["package main"], "t": 1791970200000}}`, "")
	wantJSON(t, live, "events", get(t, live, "/api/pads/"+string(p.ID)+"/events"), `{"status": "OK", "total": 1,
		"events": [{"message": "Olivia Owner created the pad", "kind": "created", "metadata": null,
		"user_name": "Olivia Owner", "user_email": "owner@example.com", "created_at": "2026-10-14T09:30:00Z"}]}`, "")
	wantJSON(t, live, "users", get(t, live, "/api/organization/users?email=owner%40example.com"),
		`{"status": "OK", "users": [{"email": "owner@example.com", "name": "Olivia Owner", "teams": ["TEAM"]}]}`, "")
	// A pad with no owner has no team, which live answers send as null.
	lone := live.AddPad(padapi.Pad{})
	_, owned := raw(t, live, "GET", "/api/pads/"+string(p.ID), authOf(live), nil)
	if _, body := raw(t, live, "GET", "/api/pads/"+string(lone.ID), authOf(live), nil); body["team"] != nil || len(body) != len(owned) {
		t.Errorf("a live pad without an owner: %v, want the same keys as any live pad, team null", body)
	}
	q := live.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", CreatedAt: t0})
	wantJSON(t, live, "live question", get(t, live, "/api/questions/"+string(q.ID)), `{"status": "OK", "id": 1,
		"title": "Two Sum", "owner_email": "", "author_name": "", "organization_name": "", "language": "python",
		"description": null, "candidate_instructions": null, "contents": null, "solution": null,
		"ai_assist_custom_system_prompt": null, "shared": false, "take_home": false, "test_cases_enabled": false,
		"is_draft": false, "used": 0, "pad_type": "", "custom_files": null, "test_cases": null,
		"contents_for_test_cases": null, "public_take_home_setting_id": null, "custom_database": null,
		"created_at": "2026-10-14T09:30:00Z", "updated_at": "2026-10-14T09:30:00Z"}`, "")

	doc, c, _ := newFake(t, padapitest.WithShape(padapitest.DocumentedShape))
	p, err = c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview"), Language: padapi.Ptr("go"), Contents: padapi.Ptr("package main")})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, doc, "documented pad", get(t, doc, "/api/pads/"+string(p.ID)), `{
		"status": "OK", "id": "ID", "title": "Interview", "owner_email": "owner@example.com", "language": "go",
		"participants": [], "contents": "package main", "notes": "", "events": [{"message": "Olivia Owner created the pad",
		"kind": "created", "metadata": "", "user_name": "Olivia Owner", "user_email": "owner@example.com",
		"created_at": "2026-10-14T09:30:00Z"}], "private": false, "execution_enabled": true,
		"created_at": "2026-10-14T09:30:00Z", "updated_at": "2026-10-14T09:30:00Z", "ended_at": null,
		"url": "URL/ID", "playback": "URL/ID/playback", "history": "HISTORY/history/1001/0.json"}`, p.ID)
	wantJSON(t, doc, "documented quota", get(t, doc, "/api/quota"), `{"status": "OK", "pads_used": 1, "trial_expires_at": "2026-09-01T00:00:00Z",
		"quota_reset_at": "2026-10-01T00:00:00Z", "unlimited": false, "pads_remaining": 119, "monthly_pad_limit": 120}`, "")
	wantJSON(t, doc, "documented organization", get(t, doc, "/api/organization"), `{"status": "OK",
		"organization_name": "Example Organization", "user_count": 2, "users": [
			{"email": "owner@example.com", "name": "Olivia Owner"}, {"email": "interviewer@example.com", "name": "Ian Interviewer"}],
		"default_language": "python", "single_sign_on_supported": false, "single_sign_in_url": null}`, "")
	// A pad page carries its pads in the shape, and the page's links.
	for range 50 {
		doc.AddPad(padapi.Pad{})
	}
	b := get(t, doc, "/api/pads/?sort=created_at,asc")
	var page struct {
		Pads     []map[string]any `json:"pads"`
		Total    int              `json:"total"`
		NextPage string           `json:"next_page"`
	}
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if _, ok := page.Pads[0]["state"]; ok || len(page.Pads) != 50 || page.Total != 51 || page.NextPage != doc.URL+"/api/pads?page=2&sort=created_at%2Casc" {
		t.Errorf("documented page: %d pads, total %d, next %q, first %v", len(page.Pads), page.Total, page.NextPage, page.Pads[0])
	}
}

// TestLiveFidelity: each live difference of docs/api-notes.md that the fake
// reproduces by default, one check each.
func TestLiveFidelity(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	auth := authOf(srv)

	// A create answers no active environment yet, though it lists one.
	_, created := raw(t, srv, "POST", "/api/pads", auth, url.Values{"language": {"go"}})
	id := created["id"].(string)
	if created["active_environment_id"] != nil || len(created["pad_environment_ids"].([]any)) != 1 {
		t.Errorf("create: active_environment_id %v, pad_environment_ids %v; want null and one", created["active_environment_id"], created["pad_environment_ids"])
	}
	// Notes never set are null; notes set to "" are "".
	if _, body := raw(t, srv, "GET", "/api/pads/"+id, auth, nil); body["notes"] != nil {
		t.Errorf("notes never set: %#v, want null", body["notes"])
	}
	// A PUT answers the status alone.
	if status, body := raw(t, srv, "PUT", "/api/pads/"+id, auth, url.Values{"notes": {""}}); status != 200 || len(body) != 1 || body["status"] != "OK" {
		t.Errorf("PUT /api/pads/ID: %d %v, want the status alone", status, body)
	}
	_, pad := raw(t, srv, "GET", "/api/pads/"+id, auth, nil)
	if pad["notes"] != "" {
		t.Errorf("notes set to \"\": %#v", pad["notes"])
	}
	// The team's ID is a string, even one that looks like a number, and a
	// user's teams are team IDs.
	org := padapi.Organization{Name: "Org", Users: []padapi.OrganizationUser{{Email: "a@example.com", Name: "A", Teams: []string{"42"}}},
		Teams: []padapi.Team{{ID: "42", Name: "Platform"}}}
	srv.SetOrganization(org)
	other := srv.AddPad(padapi.Pad{OwnerEmail: "a@example.com"})
	if b := get(t, srv, "/api/pads/"+string(other.ID)); !strings.Contains(string(b), `"team":{"id":"42","name":"Platform"}`) {
		t.Errorf("a team with a numeric-looking ID: %s", b)
	}
	if b := get(t, srv, "/api/organization"); !strings.Contains(string(b), `"teams":[{"id":"42","name":"Platform"}]`) ||
		!strings.Contains(string(b), `"teams":["42"]`) {
		t.Errorf("organization: %s", b)
	}
	// An environment's pad_id is the pad's internal number; an empty or
	// binary file has null contents and history.
	env := srv.AddEnvironment(other.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "a.txt"}, {Path: "b.bin", Binary: true}}})
	_, envBody := raw(t, srv, "GET", "/api/pad_environments/"+string(env.ID), auth, nil)
	files := envBody["file_contents"].([]any)
	if n, ok := envBody["pad_id"].(float64); !ok || n < 1 || string(env.PadID) != strconv.Itoa(int(n)) {
		t.Errorf("pad_id %#v, want the pad's number %q", envBody["pad_id"], env.PadID)
	}
	for _, f := range files {
		if f := f.(map[string]any); f["contents"] != nil || (f["path"] == "b.bin" && f["history"] != nil) {
			t.Errorf("an empty or binary file: %v, want null contents (and history, binary)", f)
		}
	}
	// Event fields an event does not have are null.
	srv.AddEvent(other.ID, padapi.PadEvent{Message: "The pad was archived", Kind: "archived"})
	_, events := raw(t, srv, "GET", "/api/pads/"+string(other.ID)+"/events", auth, nil)
	if e := events["events"].([]any)[0].(map[string]any); e["metadata"] != nil || e["user_name"] != nil || e["user_email"] != nil {
		t.Errorf("a system event: %v, want null metadata, user_name and user_email", e)
	}
	// A new question is shared; its solution is null until set, then "".
	status, q := raw(t, srv, "POST", "/api/questions", auth, url.Values{"question[title]": {"Q"}, "question[language]": {"python3"}})
	if status != 200 || q["shared"] != true || q["solution"] != nil {
		t.Errorf("new question: %d %v, want shared, solution null", status, q)
	}
	qid := strconv.Itoa(int(q["id"].(float64)))
	if status, body := raw(t, srv, "PUT", "/api/questions/"+qid, auth, url.Values{"question[solution]": {""}}); status != 200 || len(body) != 1 {
		t.Errorf("PUT /api/questions/ID: %d %v, want the status alone", status, body)
	}
	if got, err := c.Questions.Get(ctx, padapi.ID(qid)); err != nil || !got.Shared {
		t.Errorf("the question after the update: %+v, %v", got, err)
	}
	if b := get(t, srv, "/api/questions/"+qid); !strings.Contains(string(b), `"solution":""`) {
		t.Errorf("a solution set to \"\": %s", b)
	}
	// An unknown language is a 400 with the service's error body, on every
	// write that takes one; the known ones, multi-file ones included, pass.
	for _, w := range []struct {
		method, path string
		form         url.Values
	}{
		{"POST", "/api/pads", url.Values{"language": {"klingon"}}},
		{"PUT", "/api/pads/" + id, url.Values{"language": {"klingon"}}},
		{"POST", "/api/questions", url.Values{"question[title]": {"Q"}, "question[language]": {"klingon"}}},
		{"PUT", "/api/questions/" + qid, url.Values{"question[language]": {"klingon"}}},
	} {
		if status, body := raw(t, srv, w.method, w.path, auth, w.form); status != 400 || body["status"] != "ERROR" || !strings.Contains(body["message"].(string), "klingon") {
			t.Errorf("%s %s with an unknown language: %d %v", w.method, w.path, status, body)
		}
	}
	for _, lang := range []string{"python3", "plaintext", padapitest.MultiFileLanguages()[0]} {
		if status, body := raw(t, srv, "PUT", "/api/pads/"+id, auth, url.Values{"language": {lang}}); status != 200 {
			t.Errorf("language %s: %d %v", lang, status, body)
		}
	}
	if langs := padapitest.Languages(); !slices.IsSorted(langs) || !slices.Contains(langs, "go") || !slices.Contains(langs, "react") {
		t.Errorf("Languages() = %v", langs)
	}
}
