package padapitest_test

import (
	"context"
	"reflect"
	"strings"
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
