package padapitest_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
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
