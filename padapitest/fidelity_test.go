package padapitest_test

// The fake takes what the service takes and answers as it answers
// (issue 30, items 1 to 6): each test here failed before the fake learnt
// the service's behaviour it checks.

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// evidencedLanguages are the languages API-REFERENCE.md's v4 section lists
// as taken by the service, beyond the usual identifiers.
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

// TestQuotaTrialAlwaysSent: in both shapes the quota carries
// trial_expires_at, a timestamp, whatever the plan; SetTrialExpiresAt sets
// it, and nil leaves it out, for a client's test of its absence.
func TestQuotaTrialAlwaysSent(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, _ *clock) {
		ctx := context.Background()
		for _, setup := range []func(){func() {}, srv.SetUnlimited, func() { srv.SetOmitQuotaCounts(true) }} {
			setup()
			_, body := raw(t, srv, "GET", "/api/quota", authOf(srv), nil)
			s, _ := body["trial_expires_at"].(string)
			if _, err := time.Parse(time.RFC3339, s); err != nil {
				t.Errorf("trial_expires_at = %#v, want a timestamp: %v", body["trial_expires_at"], err)
			}
		}
		q, err := c.Quota.Get(ctx)
		if err != nil || q.TrialExpiresAt == nil || !q.TrialExpiresAt.Before(q.QuotaResetAt) {
			t.Errorf("default quota %+v, %v: want a trial that ended before the last reset", q, err)
		}
		end := t0.Add(72 * time.Hour)
		srv.SetTrialExpiresAt(&end)
		if q, err := c.Quota.Get(ctx); err != nil || q.TrialExpiresAt == nil || !q.TrialExpiresAt.Equal(end) {
			t.Errorf("after SetTrialExpiresAt: %+v, %v; want %s", q, err, end)
		}
		srv.SetTrialExpiresAt(nil)
		if _, body := raw(t, srv, "GET", "/api/quota", authOf(srv), nil); body["trial_expires_at"] != nil {
			t.Errorf("SetTrialExpiresAt(nil): trial_expires_at = %v, want it left out", body["trial_expires_at"])
		}
		if q, err := c.Quota.Get(ctx); err != nil || q.TrialExpiresAt != nil {
			t.Errorf("a quota without a trial: %+v, %v", q, err)
		}
	})
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

// TestSeedInvisibleObserver: a seeded pad has an interviewer who joined
// invisibly, an event whose metadata is "invisible".
func TestSeedInvisibleObserver(t *testing.T) {
	srv, _, _ := newFake(t)
	srv.Seed(4)
	found := 0
	for _, p := range srv.Pads() {
		for _, e := range srv.Events(p.ID) {
			if e.Metadata == "invisible" {
				found++
				if e.Kind != "joined" || e.UserEmail == "" {
					t.Errorf("invisible event %+v, want an interviewer's join", e)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no seeded event has metadata invisible")
	}
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

// TestSeededQuestionsLikeCreated: seeded questions carry an owner, an
// author, the organization and a pad type, as questions created through
// the API do.
func TestSeededQuestionsLikeCreated(t *testing.T) {
	eachShape(t, func(t *testing.T, srv *padapitest.Server, c *padapi.Client, _ *clock) {
		created, err := c.Questions.Create(context.Background(), &padapi.QuestionCreateParams{Title: padapi.Ptr("Q"), Language: padapi.Ptr("go")})
		if err != nil {
			t.Fatal(err)
		}
		srv.Seed(4)
		users := map[string]string{"owner@example.com": "Olivia Owner", "interviewer@example.com": "Ian Interviewer"}
		for _, q := range srv.Questions()[1:] {
			if users[q.OwnerEmail] == "" || q.AuthorName != users[q.OwnerEmail] || q.OrganizationName != created.OrganizationName || q.PadType != created.PadType {
				t.Errorf("seeded question %s: owner %q, author %q, organization %q, pad type %q; want a user of the organization, %q, %q",
					q.ID, q.OwnerEmail, q.AuthorName, q.OrganizationName, q.PadType, created.OrganizationName, created.PadType)
			}
		}
	})
}
