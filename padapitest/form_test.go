package padapitest_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// state is what a refused request must leave as it was.
type state struct {
	Pads      []padapi.Pad
	Questions []padapi.Question
	Quota     padapi.Quota
	Envs      []padapi.PadEnvironment
	Events    []padapi.PadEvent
}

func stateOf(srv *padapitest.Server, pad padapi.ID) state {
	return state{srv.Pads(), srv.Questions(), srv.Quota(), srv.Environments(pad), srv.Events(pad)}
}

// TestRefusals sends, by hand, requests the service refuses: each gets a
// 400 with the service's error body naming what is wrong, and none changes
// anything. Before v2 the fake accepted every one of them but the
// contents-with-question_id, user_email, bad boolean and bad sort or page
// cases.
func TestRefusals(t *testing.T) {
	srv, _, _ := newFake(t)
	pad := srv.AddPad(padapi.Pad{Title: "kept", Contents: "x = 1"})
	q := srv.AddQuestion(padapi.Question{Title: "kept", Language: "go"})
	padPath, qPath := "/api/pads/"+string(pad.ID), "/api/questions/"+string(q.ID)
	auth := authOf(srv)
	form := func(pairs ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(pairs); i += 2 {
			v.Add(pairs[i], pairs[i+1])
		}
		return v
	}
	post := func(target string, pairs ...string) *http.Request {
		return handMade(t, srv, "POST", target, auth, form(pairs...))
	}
	put := func(target string, pairs ...string) *http.Request {
		return handMade(t, srv, "PUT", target, auth, form(pairs...))
	}
	get := func(target string) *http.Request { return handMade(t, srv, "GET", target, auth, nil) }
	withBody := func(method, target, contentType, body string) *http.Request {
		req := newRequest(t, srv, method, target, auth, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		return req
	}
	title, lang := "question[title]", "question[language]"
	zipPart := func(data []byte) part { return part{"question[zip_file]", "q.zip", string(data)} }

	for _, tc := range []struct {
		name string
		req  *http.Request
		msg  string // a part of the message
	}{
		// Question fields nest, as a Rails form sends them.
		{"flat fields on a question create", post("/api/questions", "title", "Two Sum", "language", "go"), "Unknown field language"},
		{"flat title beside nested ones", post("/api/questions", title, "Two Sum", lang, "go", "title", "x"), "Unknown field title"},
		{"flat title on a question update", put(qPath, "title", "x"), "Unknown field title"},
		{"shared, which no endpoint takes", post("/api/questions", title, "t", lang, "go", "question[shared]", "true"), "Unknown field question[shared]"},
		{"question create without a title", post("/api/questions", lang, "go"), "question[title] and question[language] are required"},
		{"question create without a language", post("/api/questions", title, "t"), "are required"},
		{"question create with an empty title", post("/api/questions", title, "", lang, "go"), "question[title] must not be empty"},
		{"question update with an empty language", put(qPath, lang, ""), "question[language] must not be empty"},
		{"contents and files", post("/api/questions", title, "t", lang, "go", "question[contents]", "x", "question[file_contents]", `[{"path":"a","contents":""}]`), "at most one of"},
		{"contents and a zip", multipartRequest(t, srv, "POST", "/api/questions", part{name: title, value: "t"}, part{name: lang, value: "go"}, part{name: "question[contents]", value: "x"}, zipPart(zipOf(t, "a.go", "x"))), "at most one of"},
		{"files that are not JSON", post("/api/questions", title, "t", lang, "go", "question[file_contents]", "main.go"), "must be a JSON array"},
		{"files with a field the service does not take", post("/api/questions", title, "t", lang, "go", "question[file_contents]", `[{"path":"a","contents":"","mode":"0644"}]`), "must be a JSON array"},
		{"no files", post("/api/questions", title, "t", lang, "go", "question[file_contents]", `[]`), "at least one"},
		{"a file without a path", post("/api/questions", title, "t", lang, "go", "question[file_contents]", `[{"contents":"x"}]`), "has no path"},
		{"a file outside the pad", put(qPath, "question[file_contents]", `[{"path":"../etc/passwd","contents":""}]`), "not a relative file path"},
		{"an absolute file path", put(qPath, "question[file_contents]", `[{"path":"/main.go","contents":""}]`), "not a relative file path"},
		{"a file twice", put(qPath, "question[file_contents]", `[{"path":"a.go"},{"path":"a.go"}]`), "comes twice"},
		{"instructions that are not JSON", put(qPath, "question[candidate_instructions]", "Read carefully."), "must be a JSON array"},
		{"instructions with a field the service does not take", put(qPath, "question[candidate_instructions]", `[{"instructions":"x","visible":true}]`), "must be a JSON array"},
		{"instructions without text", put(qPath, "question[candidate_instructions]", `[{"default_visible":true}]`), "has no instructions"},
		{"a zip sent as a text field", post("/api/questions", title, "t", lang, "go", "question[zip_file]", "PK"), "must be a file upload"},
		{"a zip that is not one", multipartRequest(t, srv, "PUT", qPath, zipPart([]byte("not a zip"))), "not a zip archive"},
		{"a zip with a path outside the pad", multipartRequest(t, srv, "PUT", qPath, zipPart(zipOf(t, "../evil.sh", "rm -rf /"))), "not a relative file path"},
		{"an empty zip", multipartRequest(t, srv, "PUT", qPath, zipPart(zipOf(t))), "holds no files"},
		{"a file upload for a text field", multipartRequest(t, srv, "PUT", qPath, part{"question[contents]", "main.go", "x"}), "is a text field, not a file upload"},
		{"a file upload on a pad", multipartRequest(t, srv, "PUT", padPath, part{"contents", "main.go", "x"}), "is a text field"},
		{"an unknown file upload", multipartRequest(t, srv, "PUT", qPath, part{"attachment", "a.txt", "x"}), "Unknown field attachment"},

		// Pads: flat fields, booleans true or false, integer question IDs.
		{"a question field on a pad", post("/api/pads", title, "x"), "Unknown field question[title]"},
		{"an unknown pad field", post("/api/pads", "shared", "true"), "Unknown field shared"},
		{"deleted on a create", post("/api/pads", "deleted", "true"), "Unknown field deleted"},
		{"a field twice", post("/api/pads", "title", "a", "title", "b"), "title is given 2 times"},
		{"a boolean that is neither", post("/api/pads", "private", "maybe"), "private must be true or false"},
		{"a boolean as 1", put(padPath, "execution_enabled", "1"), "execution_enabled must be true or false"},
		{"an empty language", put(padPath, "language", ""), "language must not be empty"},
		{"an owner outside the organization", post("/api/pads", "user_email", "stranger@example.com"), "not a user of the organization"},
		{"contents with question_id", post("/api/pads", "contents", "x", "question_id", string(q.ID)), "cannot be combined"},
		{"contents with question_id on an update", put(padPath, "contents", "x", "question_id", string(q.ID)), "cannot be combined"},
		{"a question_id that is not an integer", post("/api/pads", "question_id", "two-sum"), "question_id must be an integer ID"},
		{"a question_id with a leading zero", post("/api/pads", "question_id", "0"+string(q.ID)), "must be an integer ID"},
		{"a negative question_id", post("/api/pads", "question_id", "-1"), "must be an integer ID"},
		{"a question_id that names no question", post("/api/pads", "question_id", "999"), "names no question"},
		{"a title that is not UTF-8", put(padPath, "title", "\xff\xfe"), "not valid UTF-8"},

		// Query parameters.
		{"an unknown list parameter", get("/api/pads?per_page=100"), "Unknown parameter per_page"},
		{"a parameter on the quota", get("/api/quota?verbose=true"), "Unknown parameter verbose"},
		{"a user filter by another name", get("/api/organization/users?user_email=a@b.c"), "Unknown parameter user_email"},
		{"a page twice", get("/api/pads?page=1&page=2"), "page is given 2 times"},
		{"an unknown sort", get("/api/questions?sort=title"), "Invalid sort"},
		{"a sort direction alone", get("/api/pads?sort=,asc"), "Invalid sort"},
		{"a sideways sort", get("/api/pads?sort=created_at,sideways"), "Invalid sort"},
		{"page 0", get("/api/pads?page=0"), "Invalid page"},
		{"a negative page", get(padPath + "/events?page=-1"), "Invalid page"},
		{"a page that is no number", get("/api/pads?page=two"), "Invalid page"},
		{"a page past any integer", get("/api/pads?page=99999999999999999999999"), "Invalid page"},
		{"stats with a start alone", get("/api/organization/stats?start_time=2026-10-01T00:00:00Z"), "must be given together"},
		{"stats with times that are not times", get("/api/organization/stats?start_time=yesterday&end_time=today"), "ISO 8601"},
		{"stats that end before they start", get("/api/organization/stats?start_time=2026-10-02T00:00:00Z&end_time=2026-10-01T00:00:00Z"), "before start_time"},

		// Bodies.
		{"a JSON body where no JSON is taken", withBody("POST", "/api/questions", "application/json", `{"title":"x"}`), "Unsupported Content-Type"},
		{"a JSON pad body not under pad", withBody("POST", "/api/pads", "application/json", `{"title":"x"}`), `{"pad": {...}}`},
		{"a JSON pad body with more than pad", withBody("PUT", padPath, "application/json", `{"pad":{},"title":"x"}`), `{"pad": {...}}`},
		{"a JSON pad body with an unknown field", withBody("PUT", padPath, "application/json", `{"pad":{"shared":true}}`), "Unknown field shared"},
		{"a JSON pad update with a create's control", withBody("PUT", padPath, "application/json", `{"pad":{"take_home":true}}`), "Unknown field take_home"},
		{"a JSON access list that is no list", withBody("PUT", padPath, "application/json", `{"pad":{"allowed_interviewer_emails":"a@x"}}`), "JSON array"},
		{"an access list in a form", withBody("PUT", padPath, "application/x-www-form-urlencoded", "allowed_interviewer_emails=a"), "Unknown field"},
		{"a time limit of 0", withBody("POST", "/api/pads", "application/x-www-form-urlencoded", "take_home_time_limit=0"), "more than 0"},
		{"a team that is none", withBody("POST", "/api/pads", "application/x-www-form-urlencoded", "team_id=nope"), "names no team"},
		{"a text body", withBody("PUT", padPath, "text/plain", "title=x"), "Unsupported Content-Type"},
		{"a body without a Content-Type", withBody("POST", "/api/pads", "", "title=x"), "needs a Content-Type"},
		{"a malformed form", withBody("POST", "/api/pads", "application/x-www-form-urlencoded", "title=%zz"), "Malformed request"},
		{"a malformed multipart body", withBody("POST", "/api/questions", "multipart/form-data; boundary=x", "--x\r\nno end"), "Malformed request"},
	} {
		before := stateOf(srv, pad.ID)
		status, body := send(t, tc.req)
		msg, _ := body["message"].(string)
		if status != http.StatusBadRequest || body["status"] != "ERROR" || !strings.Contains(msg, tc.msg) {
			t.Errorf("%s: %d %v, want 400 with a message holding %q", tc.name, status, body, tc.msg)
		}
		if diff := cmp.Diff(before, stateOf(srv, pad.ID)); diff != "" {
			t.Errorf("%s changed the fake (-before +after):\n%s", tc.name, diff)
		}
	}
}

// evidencedLanguages are the languages docs/api-notes.md ("Languages")
// shows the service taking, beyond the usual identifiers.
var evidencedLanguages = []string{
	"gin", "node",
	"multifile_c", "multifile_cpp", "multifile_csharp", "multifile_go", "multifile_java",
	"multifile_kotlin", "multifile_php", "multifile_python", "multifile_ruby", "multifile_rust",
	"multifile_scala", "multifile_swift", "multifile_terraform", "multifile_typescript",
	"kubernetes", "react-native-web", "universal", "gsheets", "hack", "powershell",
}

// TestLanguagesTheServiceTakes: every language the evidence shows is taken
// by pad and question writes, and listed; a name no evidence shows, close
// as it may be to one, is still a 400.
func TestLanguagesTheServiceTakes(t *testing.T) {
	srv, _, _ := newFake(t)
	auth := authOf(srv)
	pad := srv.AddPad(padapi.Pad{})
	for _, lang := range evidencedLanguages {
		if !slices.Contains(padapitest.Languages(), lang) {
			t.Errorf("Languages() lacks %s", lang)
		}
		if status, body := raw(t, srv, "POST", "/api/pads", auth, url.Values{"language": {lang}}); status != 200 {
			t.Errorf("pad create in %s: %d %v", lang, status, body)
		}
		if status, body := raw(t, srv, "PUT", "/api/pads/"+string(pad.ID), auth, url.Values{"language": {lang}}); status != 200 {
			t.Errorf("pad update to %s: %d %v", lang, status, body)
		}
		form := url.Values{"question[title]": {"Q"}, "question[language]": {lang}}
		if status, body := raw(t, srv, "POST", "/api/questions", auth, form); status != 200 {
			t.Errorf("question create in %s: %d %v", lang, status, body)
		}
	}
	for _, lang := range []string{"multifile_", "multifile_cobol", "multifile-go", "Multifile_go", "nodes", "powershell7"} {
		if status, body := raw(t, srv, "POST", "/api/pads", auth, url.Values{"language": {lang}}); status != 400 || !strings.Contains(body["message"].(string), "not a supported language") {
			t.Errorf("pad create in %q: %d %v, want 400", lang, status, body)
		}
	}
	if multi := padapitest.MultiFileLanguages(); !slices.IsSorted(multi) || !slices.Contains(multi, "multifile_go") || !slices.Contains(multi, "react") {
		t.Errorf("MultiFileLanguages() = %v", multi)
	}
	// A multi-file question in a multifile_* language, as the service
	// creates them.
	form := url.Values{"question[title]": {"Q"}, "question[language]": {"multifile_go"},
		"question[file_contents]": {`[{"path":"main.go","contents":"package main"},{"path":"go.mod","contents":"module q"}]`}}
	if status, body := raw(t, srv, "POST", "/api/questions", auth, form); status != 200 || body["language"] != "multifile_go" {
		t.Errorf("a multi-file question: %d %v", status, body)
	}
}

// TestPadUpdateIgnoresOtherThanTrue: ended and deleted with a value other
// than true are ignored, as the service's docs say: no 400, and nothing
// changes.
func TestPadUpdateIgnoresOtherThanTrue(t *testing.T) {
	srv, _, _ := newFake(t)
	pad := srv.AddPad(padapi.Pad{Title: "kept"})
	path := "/api/pads/" + string(pad.ID)
	for _, form := range []url.Values{
		{"ended": {"yes"}}, {"ended": {"false"}}, {"ended": {"1"}}, {"ended": {""}}, {"ended": {"TRUE"}},
		{"deleted": {"no"}}, {"deleted": {"1"}}, {"deleted": {"false"}}, {"deleted": {""}},
	} {
		if status, body := raw(t, srv, "PUT", path, authOf(srv), form); status != 200 || body["status"] != "OK" {
			t.Errorf("PUT %v: %d %v, want 200", form, status, body)
		}
	}
	if pads := srv.Pads(); len(pads) != 1 || pads[0].EndedAt != nil || len(srv.Events(pad.ID)) != 1 {
		t.Errorf("after ignored values the pad is %+v with %d events, want it open, with its creation event", pads, len(srv.Events(pad.ID)))
	}
	// true still ends, and deletes.
	if status, _ := raw(t, srv, "PUT", path, authOf(srv), url.Values{"ended": {"true"}}); status != 200 || srv.Pads()[0].EndedAt == nil {
		t.Errorf("ended=true: %d, the pad %+v", status, srv.Pads()[0])
	}
	if status, _ := raw(t, srv, "PUT", path, authOf(srv), url.Values{"deleted": {"true"}}); status != 200 || len(srv.Pads()) != 0 {
		t.Errorf("deleted=true: %d, %d pads left", status, len(srv.Pads()))
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
