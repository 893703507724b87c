package padapitest_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// TestAddEnvironment: a test can give a pad more environments, each with a
// history for each text file.
func TestAddEnvironment(t *testing.T) {
	srv, c, _ := newFake(t)
	p := srv.AddPad(padapi.Pad{Language: "go", Contents: "package main"})
	for i := range 9 {
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{Language: "python", Files: []padapi.FileContent{{Path: "main.py", Contents: strings.Repeat("#", i)}, {Path: "x.bin", Binary: true, Contents: "ignored"}}})
	}
	tr, err := c.Pads.Transcript(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Environments) != 10 || *tr.Pad.ActiveEnvironmentID != "1001" || tr.Pad.Contents != "package main" {
		t.Fatalf("transcript of a pad with 10 environments: %d environments, pad %+v", len(tr.Environments), tr.Pad)
	}
	for i, e := range tr.Environments[1:] {
		if e.Files[0].Contents != strings.Repeat("#", i) || e.Files[1].History != "" || e.Files[1].Contents != "" || e.PadID != tr.Environments[0].PadID || !isNumber(e.PadID) {
			t.Errorf("environment %s: %+v", e.ID, e)
		}
		if text, err := history(t, c, e.Files[0].History).Replay(); err != nil || text != e.Files[0].Contents {
			t.Errorf("environment %s: replay %q, %v", e.ID, text, err)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("AddEnvironment with a taken ID did not panic")
			}
		}()
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{ID: "1001"})
	}()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("AddPad listing another pad's environment did not panic")
			}
		}()
		srv.AddPad(padapi.Pad{PadEnvironmentIDs: []padapi.ID{"1001"}})
	}()
}

// What the fake returns and stores shares no memory with what the caller
// holds: changing every slice and pointer of a value given to it or
// returned by it changes nothing in the fake.
func TestCopiesEveryField(t *testing.T) {
	srv, c, _ := newFake(t)
	pad, q, o := fullPad(), fullQuestion(), fullOrganization()
	srv.AddPad(pad)
	srv.AddQuestion(q)
	srv.SetOrganization(o)
	env := srv.AddEnvironment(pad.ID, padapi.PadEnvironment{QuestionID: padapi.Ptr[padapi.ID]("7"), Files: []padapi.FileContent{{Path: "a.go", Contents: "package a"}}})
	id := pad.ID
	wantPads, wantQuestions, wantEnvs, wantEvents := srv.Pads(), srv.Questions(), srv.Environments(id), srv.Events(id)
	for _, v := range []any{&pad, &q, &o, &env, &srv.Pads()[0], &srv.Questions()[0], &srv.Environments(id)[0], &srv.Events(id)[0]} {
		scribble(reflect.ValueOf(v).Elem())
	}
	if diff := cmp.Diff(wantPads, srv.Pads()); diff != "" {
		t.Errorf("changing a pad changed the fake (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantQuestions, srv.Questions()); diff != "" {
		t.Errorf("changing a question changed the fake (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantEnvs, srv.Environments(id)); diff != "" {
		t.Errorf("changing an environment changed the fake (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantEvents, srv.Events(id)); diff != "" {
		t.Errorf("changing an event changed the fake (-want +got):\n%s", diff)
	}
	got, err := c.Organization.Get(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fullOrganization(), *got); diff != "" {
		t.Errorf("changing the organization after SetOrganization changed the fake (-want +got):\n%s", diff)
	}
}

// scribble changes every value reachable through v's slices and pointers.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Unix(1, 0)))
			return
		}
		for i := range v.NumField() {
			scribble(v.Field(i))
		}
	case reflect.String:
		v.SetString("scribbled")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int64:
		v.SetInt(v.Int() + 100)
	case reflect.Uint8:
		v.SetUint(v.Uint() + 1)
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
