package padapitest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// TestHistoryFollowsContents: every change of a pad's contents adds an
// entry to its file's history, so the history replays to the contents at
// every moment, with characters outside the BMP counted as the editor
// counts them.
func TestHistoryFollowsContents(t *testing.T) {
	srv, c, clk := newFake(t)
	ctx := context.Background()
	versions := []string{"print('hi')\n", "print('hi 😀')\n", "# 😀😁\nprint('hi 😀')\n", "# 😁\nprint('bye')\n", ""}
	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Language: padapi.Ptr("python"), Contents: &versions[0]})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range versions[1:] {
		clk.Advance(time.Minute)
		if _, err := c.Pads.Update(ctx, p.ID, &padapi.PadUpdateParams{Contents: padapi.Ptr(v)}); err != nil {
			t.Fatal(err)
		}
	}
	// The same contents again adds nothing.
	if _, err := c.Pads.Update(ctx, p.ID, &padapi.PadUpdateParams{Contents: padapi.Ptr("")}); err != nil {
		t.Fatal(err)
	}
	env := srv.Environments(p.ID)[0]
	if !strings.HasPrefix(p.History, srv.HistoryURL+"/") || p.History != env.Files[0].History || strings.HasPrefix(p.History, srv.URL) {
		t.Errorf("pad history %q, file history %q: want the same link on the history listener %s", p.History, env.Files[0].History, srv.HistoryURL)
	}
	h := history(t, c, p.History)
	if len(h.Entries) != len(versions) {
		t.Errorf("%d history entries for %d versions", len(h.Entries), len(versions))
	}
	for i, want := range versions {
		got, err := h.ReplayUntil(t0.Add(time.Duration(i) * time.Minute))
		if err != nil || got != want {
			t.Errorf("the text at minute %d: %q, %v; want %q", i, got, err, want)
		}
	}
	if h.Entries[0].Author != "owner@example.com" || !h.Entries[0].Time.Equal(t0) {
		t.Errorf("first entry %+v, want the owner at t0", h.Entries[0])
	}
}

// TestEnvironmentPerLanguage: changing a pad's language switches to its
// environment of that language, or a new one starting with the pad's
// contents; a question_id adds one with the question's files. The pad's
// language and contents are always the active environment's.
func TestEnvironmentPerLanguage(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Language: padapi.Ptr("python"), Contents: padapi.Ptr("a = 1")})
	if err != nil {
		t.Fatal(err)
	}
	update := func(params padapi.PadUpdateParams) *padapi.Pad {
		t.Helper()
		p, err := c.Pads.Update(ctx, p.ID, &params)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := update(padapi.PadUpdateParams{Language: padapi.Ptr("go")}); got.Language != "go" || got.Contents != "a = 1" ||
		!cmp.Equal(got.PadEnvironmentIDs, []padapi.ID{"1001", "1002"}) || *got.ActiveEnvironmentID != "1002" {
		t.Errorf("after switching to go: %+v", got)
	}
	update(padapi.PadUpdateParams{Contents: padapi.Ptr("package main")})
	if got := update(padapi.PadUpdateParams{Language: padapi.Ptr("python")}); got.Contents != "a = 1" || *got.ActiveEnvironmentID != "1001" || len(got.PadEnvironmentIDs) != 2 {
		t.Errorf("back to python: %+v, want its environment with its own contents", got)
	}
	q, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("q"), Language: padapi.Ptr("ruby"),
		Files: []padapi.QuestionFile{{Path: "app.rb", Contents: "puts 1"}, {Path: "spec/app_spec.rb", Contents: "it"}}})
	if err != nil {
		t.Fatal(err)
	}
	raw := handMade(t, srv, "PUT", "/api/pads/"+string(p.ID), authOf(srv), map[string][]string{"question_id": {string(q.ID)}})
	// A live PUT answers the status alone; the pad shows the change.
	if status, body := send(t, raw); status != 200 || len(body) != 1 || body["status"] != "OK" {
		t.Errorf("PUT question_id: %d %v, want the status alone", status, body)
	}
	if got, err := c.Pads.Get(ctx, p.ID); err != nil || got.Language != "ruby" || got.Contents != "puts 1" {
		t.Errorf("after PUT question_id: %+v, %v", got, err)
	}
	envs := srv.Environments(p.ID)
	want := []struct {
		lang, contents string
		question       bool
	}{{"python", "a = 1", false}, {"go", "package main", false}, {"ruby", "puts 1", true}}
	if len(envs) != len(want) {
		t.Fatalf("environments %+v", envs)
	}
	for i, w := range want {
		e := envs[i]
		if e.Language != w.lang || e.Files[0].Contents != w.contents || (e.QuestionID != nil) != w.question || e.PadID != envs[0].PadID || !isNumber(e.PadID) {
			t.Errorf("environment %d: %+v, want %+v", i, e, w)
		}
		for _, f := range e.Files {
			if text, err := history(t, c, f.History).Replay(); err != nil || text != f.Contents {
				t.Errorf("environment %d, %s: history replays to %q, %v; want %q", i, f.Path, text, err, f.Contents)
			}
		}
	}
	if got := srv.Pads()[0]; !cmp.Equal(got.QuestionIDs, []padapi.ID{q.ID}) || srv.Questions()[0].Used != 1 {
		t.Errorf("pad question IDs %v, question used %d times", got.QuestionIDs, srv.Questions()[0].Used)
	}
}

// TestHistoryListener: edit histories are on another host, which refuses
// any request that carries an Authorization header, as a client must
// never send the API key there; the client sends none.
func TestHistoryListener(t *testing.T) {
	srv, c, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{Contents: "x"})
	if srv.HistoryURL == srv.URL || !strings.HasPrefix(p.History, srv.HistoryURL+"/history/") {
		t.Fatalf("history link %q, history listener %q, API %q", p.History, srv.HistoryURL, srv.URL)
	}
	for _, auth := range []string{authOf(srv), "Bearer other", ""} {
		req := handMade(t, srv, "GET", p.History, "", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		status, body := sendBytes(t, req)
		switch {
		case auth != "" && (status != 401 || !strings.Contains(string(body), `"error":`) || strings.Contains(string(body), srv.APIKey)):
			t.Errorf("history with Authorization %q: %d %s, want 401 with an error", auth, status, body)
		case auth == "" && (status != 200 || !strings.Contains(string(body), `"o":["x"]`)):
			t.Errorf("history without Authorization: %d %s, want the document", status, body)
		}
	}
	if status, _ := sendBytes(t, handMade(t, srv, "GET", srv.HistoryURL+"/history/9999/0.json", "", nil)); status != 404 {
		t.Errorf("an unknown history: %d, want 404", status)
	}
	if status, _ := sendBytes(t, handMade(t, srv, "GET", srv.HistoryURL+"/api/quota", authOf(srv), nil)); status != 404 {
		t.Errorf("the API on the history listener: %d, want 404", status)
	}

	// The client's fetch is retried like a GET, and carries no key.
	srv.FailNext("GET /history/{env}/{file}", 1, http.StatusServiceUnavailable, "")
	if text, err := history(t, c, p.History).Replay(); err != nil || text != "x" {
		t.Errorf("replay %q, %v", text, err)
	}
	reqs := srv.Requests()
	for _, r := range reqs[len(reqs)-2:] {
		if r.Path != "/history/1001/0.json" || r.Header.Get("Authorization") != "" {
			t.Errorf("the client's history request: %s with Authorization %q", r.Path, r.Header.Get("Authorization"))
		}
	}
}

// TestEventLog: a pad's log starts with its creation and grows as it ends
// and as AddEvent adds events; it pages and sorts like every list.
func TestEventLog(t *testing.T) {
	srv, c, clk := newFake(t)
	ctx := context.Background()
	p, err := c.Pads.Create(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		clk.Advance(time.Second)
		srv.AddEvent(p.ID, padapi.PadEvent{Message: "Ada ran the code", Kind: "ran", Metadata: "python", UserName: "Ada", CreatedAt: t0.Add(time.Duration(i+1) * time.Second)})
	}
	clk.Advance(time.Second)
	if _, err := c.Pads.Update(ctx, p.ID, &padapi.PadUpdateParams{Ended: padapi.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	page, err := c.Pads.ListEvents(ctx, p.ID, &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc, Page: 3})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 102 || len(page.Items) != 2 || page.Items[1].Kind != "ended" || page.NextPage != "" ||
		page.PrevPage != srv.URL+"/api/pads/"+string(p.ID)+"/events?page=2&sort=created_at%2Casc" {
		t.Errorf("page 3 of 102 events: %+v", page)
	}
	all := collect(t, c.Pads.AllEvents(ctx, p.ID, nil))
	want := padapi.PadEvent{Message: "Olivia Owner created the pad", Kind: "created", UserName: "Olivia Owner", UserEmail: "owner@example.com", CreatedAt: t0}
	if len(all) != 102 || all[0].Kind != "ended" || !cmp.Equal(all[101], want) {
		t.Errorf("AllEvents, newest first: %d events, first %+v, last %+v", len(all), all[0], all[len(all)-1])
	}
	if _, err := c.Pads.ListEvents(ctx, "NOSUCHPD", nil); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("events of an unknown pad: %v, want ErrNotFound", err)
	}
}

// TestDeletePad: deleted=true removes the pad with everything it had; the
// answer is the status alone, and a second delete is a 404.
func TestDeletePad(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	keep := srv.AddPad(padapi.Pad{Title: "keep", Contents: "k"})
	p := srv.AddPad(padapi.Pad{Title: "gone", Contents: "g"})
	env := *p.ActiveEnvironmentID
	status, body := raw(t, srv, "PUT", "/api/pads/"+string(p.ID), authOf(srv), map[string][]string{"deleted": {"true"}})
	if status != 200 || !cmp.Equal(body, map[string]any{"status": "OK"}) {
		t.Errorf("delete: %d %v, want 200 and the status alone", status, body)
	}
	if pads := srv.Pads(); len(pads) != 1 || pads[0].ID != keep.ID {
		t.Errorf("after a delete the fake holds %+v", pads)
	}
	for name, call := range map[string]func() error{
		"Get":         func() error { _, err := c.Pads.Get(ctx, p.ID); return err },
		"Update":      func() error { _, err := c.Pads.Update(ctx, p.ID, nil); return err },
		"Delete":      func() error { return c.Pads.Delete(ctx, p.ID) },
		"ListEvents":  func() error { _, err := c.Pads.ListEvents(ctx, p.ID, nil); return err },
		"Environment": func() error { _, err := c.Pads.Environment(ctx, env); return err },
		"History":     func() error { _, err := c.Pads.History(ctx, p.History); return err },
	} {
		if err := call(); !errors.Is(err, padapi.ErrNotFound) {
			t.Errorf("%s of a deleted pad: %v, want ErrNotFound", name, err)
		}
	}
	// deleted=false deletes nothing.
	if status, _ := raw(t, srv, "PUT", "/api/pads/"+string(keep.ID), authOf(srv), map[string][]string{"deleted": {"false"}}); status != 200 || len(srv.Pads()) != 1 {
		t.Errorf("deleted=false: %d, %d pads", status, len(srv.Pads()))
	}
	if text, err := history(t, c, keep.History).Replay(); err != nil || text != "k" {
		t.Errorf("the other pad's history: %q, %v", text, err)
	}
}
