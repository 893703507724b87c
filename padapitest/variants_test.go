package padapitest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// checkV5 calls every route added in v5 through the client, and checks
// the service's semantics: whose key, the variants' starters and files,
// the pad controls with the JSON body's quirk. TestEveryEndpoint runs it.
func checkV5(t *testing.T, srv *padapitest.Server, c *padapi.Client, qid padapi.ID, live bool) {
	t.Helper()
	ctx := context.Background()

	u, err := c.User.Get(ctx)
	if err != nil || u.Name == nil || *u.Name != "Olivia Owner" || !u.AllowPadCreation || u.AnalyticsID != "analytics-1" {
		t.Errorf("User.Get: %+v, %v", u, err)
	}
	srv.SetUser(padapi.User{AnalyticsID: "a-2"})
	var resp padapi.Response
	if u, err := c.User.Get(padapi.WithResponse(ctx, &resp)); err != nil || u.Name != nil || u.AllowPadCreation || u.AnalyticsID != "a-2" ||
		string(resp.Body) != `{"name":null,"allow_pad_creation":false,"analytics_id":"a-2"}` {
		t.Errorf("User.Get after SetUser: %+v, %v, %s", u, err, resp.Body)
	}

	// A language variant: its starter null (the default) until given; a
	// language change clears it unless one comes with it.
	ruby, err := c.Questions.CreateVariant(padapi.WithResponse(ctx, &resp), qid, &padapi.QuestionVariantParams{Language: padapi.Ptr("ruby")})
	if err != nil || ruby.Contents != nil || ruby.Display != "Ruby" || ruby.Files != nil || ruby.QuestionID != qid || strings.Contains(string(resp.Body), `"status"`) {
		t.Fatalf("CreateVariant: %+v, %v, %s", ruby, err, resp.Body)
	}
	if _, err := c.Questions.CreateVariant(ctx, qid, &padapi.QuestionVariantParams{Language: padapi.Ptr("ruby")}); err == nil {
		t.Error("a second ruby variant: no error")
	}
	steps := []struct {
		p    padapi.QuestionVariantParams
		want *string
		lang string
	}{
		{padapi.QuestionVariantParams{Contents: padapi.Ptr("puts 1")}, padapi.Ptr("puts 1"), "ruby"},
		{padapi.QuestionVariantParams{Language: padapi.Ptr("go")}, nil, "go"},
		{padapi.QuestionVariantParams{Language: padapi.Ptr("rust"), Contents: padapi.Ptr("")}, padapi.Ptr(""), "rust"},
		{padapi.QuestionVariantParams{Solution: padapi.Ptr("s")}, padapi.Ptr(""), "rust"},
		{padapi.QuestionVariantParams{DefaultContents: true}, nil, "rust"},
	}
	for i, st := range steps {
		v, err := c.Questions.UpdateVariant(ctx, qid, ruby.ID, &st.p)
		if err != nil || !cmp.Equal(v.Contents, st.want) || v.Language != st.lang {
			t.Errorf("UpdateVariant step %d: %+v, %v; want contents %v, language %s", i, v, err, st.want, st.lang)
		}
	}

	// A template variant: files overlay the template's on create; an
	// update replaces the overlay; [] is the template's files again.
	tmpl := padapitest.ProjectTemplateIDs()[0]
	tv, err := c.Questions.CreateVariant(padapi.WithResponse(ctx, &resp), qid, &padapi.QuestionVariantParams{ProjectTemplateID: &tmpl, Files: []padapi.VariantFile{
		{Path: "Gemfile", Contents: "x"}, {Path: "new.rb", Contents: "n", Hidden: true}, {Path: "app/models/user.rb", Deleted: true}}})
	if err != nil || tv.ProjectTemplateSlug == nil || tv.Language != "rails" || !strings.Contains(string(resp.Body), `"hidden":false`) ||
		!cmp.Equal(tv.Files, []padapi.VariantFile{{Path: "Gemfile", Contents: "x"}, {Path: "new.rb", Contents: "n", Hidden: true}}) {
		t.Fatalf("CreateVariant from a template: %+v, %v", tv, err)
	}
	template, err := c.Questions.UpdateVariant(ctx, qid, tv.ID, &padapi.QuestionVariantParams{Files: []padapi.VariantFile{}})
	if err != nil || len(template.Files) != 2 || template.Files[0].Contents == "x" {
		t.Errorf("UpdateVariant with []: %+v, %v", template, err)
	}
	v, err := c.Questions.UpdateVariant(ctx, qid, tv.ID, &padapi.QuestionVariantParams{Files: []padapi.VariantFile{{Path: "Gemfile", Deleted: true}, {Path: "b.rb"}}})
	if err != nil || !cmp.Equal(v.Files, []padapi.VariantFile{template.Files[1], {Path: "b.rb"}}) {
		t.Errorf("UpdateVariant replacing the files: %+v, %v", v, err)
	}
	if last := srv.Requests()[len(srv.Requests())-1]; string(last.JSON) != `{"file_contents":[{"path":"Gemfile","deleted":true},{"path":"b.rb","contents":""}]}` {
		t.Errorf("the request log's JSON: %s", last.JSON)
	}

	list, err := c.Questions.ListVariants(ctx, qid)
	if err != nil || !cmp.Equal(list, srv.Variants(qid)) || len(list) != 2 {
		t.Errorf("ListVariants: %+v, %v; the fake holds %+v", list, err, srv.Variants(qid))
	}
	other := srv.AddQuestion(padapi.Question{Title: "other", Language: "go"})
	if _, err := c.Questions.GetVariant(ctx, other.ID, ruby.ID); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("GetVariant under another question: %v", err)
	}
	if err := c.Questions.DeleteVariant(padapi.WithResponse(ctx, &resp), qid, ruby.ID); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Errorf("DeleteVariant: %v, %d", err, resp.StatusCode)
	}
	if err := c.Questions.DeleteVariant(ctx, qid, ruby.ID); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("DeleteVariant again: %v", err)
	}
	if got, err := c.Questions.GetVariant(ctx, qid, tv.ID); err != nil || got.ID != tv.ID {
		t.Errorf("GetVariant: %+v, %v", got, err)
	}

	// The pad controls: the JSON body, with execution_enabled a string.
	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("restricted"), ExecutionEnabled: padapi.Ptr(false),
		TeamID: padapi.Ptr[padapi.ID](padapitest.DefaultTeamID), RestrictInterviewerAccess: padapi.Ptr(true),
		AllowedInterviewerEmails: []string{"ian@example.com"}, TakeHome: padapi.Ptr(true), TakeHomeMinutes: padapi.Ptr(60)})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := c.Pads.Get(ctx, p.ID)
	if got.ExecutionEnabled || got.Title != "restricted" ||
		(live && (!cmp.Equal(got.AllowedInterviewerEmails, []string{"ian@example.com"}) || *got.RestrictInterviewerAccess != true || got.Team.ID != padapitest.DefaultTeamID)) {
		t.Errorf("Pads.Create restricted: %+v", got)
	}
	// A JSON boolean execution_enabled: 2xx, the rest applied, that
	// setting unchanged.
	req := newRequest(t, srv, "PUT", "/api/pads/"+string(p.ID), authOf(srv), strings.NewReader(`{"pad":{"execution_enabled":true,"title":"renamed","allowed_interviewer_emails":[]}}`))
	req.Header.Set("Content-Type", "application/json")
	if status, body := send(t, req); status != http.StatusOK {
		t.Errorf("a JSON boolean execution_enabled: %d %v", status, body)
	}
	got, _ = c.Pads.Get(ctx, p.ID)
	if got.ExecutionEnabled || got.Title != "renamed" || (live && (got.AllowedInterviewerEmails == nil || len(got.AllowedInterviewerEmails) != 0)) {
		t.Errorf("after a JSON boolean execution_enabled: %+v", got)
	}
	got, err = c.Pads.Update(ctx, p.ID, &padapi.PadUpdateParams{ExecutionEnabled: padapi.Ptr(true), AllowedInterviewerEmails: []string{"a@example.com"},
		UserEmail: padapi.Ptr("interviewer@example.com"), DisableCoachingTips: padapi.Ptr(true)})
	if err != nil || !got.ExecutionEnabled || got.OwnerEmail != "interviewer@example.com" || (live && len(got.AllowedInterviewerEmails) != 1) {
		t.Errorf("Pads.Update with the string execution_enabled: %+v, %v", got, err)
	}
}

// Faults arm on the new routes as on the others: a create failed by a
// proxy creates nothing, one dropped after it ran created once, and a 404
// armed on the list reads as ErrNotFound.
func TestVariantFaults(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	q := srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	params := &padapi.QuestionVariantParams{Language: padapi.Ptr("go")}
	srv.FailNext("POST /api/questions/{id}/variants", 1, http.StatusBadGateway, "")
	if _, err := c.Questions.CreateVariant(ctx, q.ID, params); !errors.Is(err, padapi.ErrOutcomeUnknown) || len(srv.Variants(q.ID)) != 0 {
		t.Errorf("a failed create: %v, %d variants", err, len(srv.Variants(q.ID)))
	}
	srv.DropNext("POST /api/questions/{id}/variants", 1)
	if _, err := c.Questions.CreateVariant(ctx, q.ID, params); !errors.Is(err, padapi.ErrOutcomeUnknown) || len(srv.Variants(q.ID)) != 1 {
		t.Errorf("a dropped create: %v, %d variants", err, len(srv.Variants(q.ID)))
	}
	srv.FailNext("GET /api/questions/{id}/variants", 1, http.StatusNotFound, "")
	if _, err := c.Questions.ListVariants(ctx, q.ID); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("a 404 armed on the list: %v", err)
	}
	srv.FailNext("GET /api/user", 1, http.StatusServiceUnavailable, "")
	if u, err := c.User.Get(ctx); err != nil || u.AnalyticsID == "" {
		t.Errorf("a 503 then an answer: %+v, %v (the GET is retried)", u, err)
	}
	if vs := srv.Variants("999"); vs != nil {
		t.Errorf("Variants of no question: %v", vs)
	}
	added := srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "ruby", Contents: padapi.Ptr("")})
	if got, err := c.Questions.GetVariant(ctx, q.ID, added.ID); err != nil || !cmp.Equal(got, &added) || added.Display != "Ruby" {
		t.Errorf("AddVariant then GetVariant: %+v, %+v, %v", added, got, err)
	}
}
