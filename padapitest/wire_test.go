package padapitest_test

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

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
// documentation and its live responses (API-REFERENCE.md) show them.
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

// TestClientRequests: what the client sends for the question writes and a
// pad delete, as the fake records and takes it.
func TestClientRequests(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	archive := zipOf(t, "main.go", "package main\n")
	q, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{
		Title: padapi.Ptr("Zip"), Language: padapi.Ptr("go"), Zip: archive,
		CandidateInstructions: []padapi.CandidateInstruction{{Instructions: "Go.", DefaultVisible: padapi.Ptr(true)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Questions.Update(ctx, q.ID, &padapi.QuestionUpdateParams{Files: []padapi.QuestionFile{{Path: "a.go", Contents: "package a"}}}); err != nil {
		t.Fatal(err)
	}
	if files := srv.QuestionFiles(q.ID); len(files) != 1 || files[0].Path != "a.go" {
		t.Errorf("files after the update: %+v", files)
	}
	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{QuestionID: &q.ID, Private: padapi.Ptr(true), ExecutionEnabled: padapi.Ptr(false),
		UserEmail: padapi.Ptr("interviewer@example.com"), Notes: padapi.Ptr("n")})
	if err != nil {
		t.Fatal(err)
	}
	// Every field of an update at once: the fake takes them all.
	if _, err := c.Pads.Update(ctx, p.ID, &padapi.PadUpdateParams{Title: padapi.Ptr("t"), Language: padapi.Ptr("go"), Contents: padapi.Ptr("x"),
		Notes: padapi.Ptr("n"), Private: padapi.Ptr(false), ExecutionEnabled: padapi.Ptr(true), Ended: padapi.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if err := c.Pads.Delete(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	// Each update answered {"status":"OK"} alone, as live answers do, so
	// the client read the resource back with a GET.
	var reqs []padapitest.Request
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			reqs = append(reqs, r)
		}
	}
	if len(reqs) != 5 || len(srv.Requests()) != 7 {
		t.Fatalf("%d requests, %d of them writes; want 7 and 5", len(srv.Requests()), len(reqs))
	}
	create := reqs[0]
	if !strings.HasPrefix(create.Header.Get("Content-Type"), "multipart/form-data") ||
		!cmp.Equal(create.Form, url.Values{"question[title]": {"Zip"}, "question[language]": {"go"}, "question[candidate_instructions]": {`[{"instructions":"Go.","default_visible":true}]`}}) {
		t.Errorf("question create: %s, form %v", create.Header.Get("Content-Type"), create.Form)
	}
	if diff := cmp.Diff(map[string][]padapitest.File{"question[zip_file]": {{Filename: "question.zip", ContentType: "application/zip", Data: archive}}}, create.Files); diff != "" {
		t.Errorf("the zip upload (-want +got):\n%s", diff)
	}
	if got := reqs[1].Form; !cmp.Equal(got, url.Values{"question[file_contents]": {`[{"path":"a.go","contents":"package a"}]`}}) {
		t.Errorf("question update: %v", got)
	}
	if got := reqs[2].Form; !cmp.Equal(got, url.Values{"question_id": {string(q.ID)}, "private": {"true"}, "execution_enabled": {"false"},
		"user_email": {"interviewer@example.com"}, "notes": {"n"}}) {
		t.Errorf("pad create: %v", got)
	}
	if got := reqs[4]; got.Method != "PUT" || !cmp.Equal(got.Form, url.Values{"deleted": {"true"}}) {
		t.Errorf("pad delete: %s %v", got.Method, got.Form)
	}
	if env := srv.Environments(p.ID); env != nil {
		t.Errorf("the deleted pad still has environments %+v", env)
	}
	// One file's contents replace the files.
	q, err = c.Questions.Update(ctx, q.ID, &padapi.QuestionUpdateParams{Contents: padapi.Ptr("package main")})
	if err != nil || q.Contents != "package main" || srv.QuestionFiles(q.ID) != nil {
		t.Errorf("contents after files: %+v, %v; files %+v", q, err, srv.QuestionFiles(q.ID))
	}
}

// TestLiveFidelity: each live difference of API-REFERENCE.md that the fake
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
