// reference.go: the calls doctor compares, and the reference shapes from the fake.

package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/shapes"
	"github.com/padinterview/padapi/padapitest"
)

// shapeCall is one read-only call of doctor --shapes: its label, and how
// to make it given the IDs earlier answers gave.
type shapeCall struct {
	label string // "GET /api/pads/:id"
	// path is the request path; "" when an ID it needs is unknown.
	path func(ids) string
	// query is sent with it (nil: none).
	query url.Values
	// model is the padapi type of the answer's items at prefix: the
	// fields it keeps nullable may be null, its optional ones absent.
	prefix string
	model  reflect.Type
	// collapse are the paths of objects keyed by data.
	collapse []string
}

// ids are the IDs doctor --shapes takes from earlier answers.
type ids struct{ pad, env, question string }

// envCall is the index of the environment's call in shapeCalls.
const envCall = 4

func fixed(p string) func(ids) string { return func(ids) string { return p } }

// shapeCalls are the calls doctor --shapes makes, in order: each one a GET
// below the base URL.
var shapeCalls = []shapeCall{
	{label: "GET /api/quota", path: fixed("/api/quota"), model: reflect.TypeFor[padapi.Quota]()},
	{label: "GET /api/pads", path: fixed("/api/pads"), prefix: "pads[]", model: reflect.TypeFor[padapi.Pad]()},
	{label: "GET /api/pads/:id", path: func(i ids) string { return orNone(i.pad, "/api/pads/"+url.PathEscape(i.pad)) },
		model: reflect.TypeFor[padapi.Pad]()},
	{label: "GET /api/pads/:id/events", path: func(i ids) string { return orNone(i.pad, "/api/pads/"+url.PathEscape(i.pad)+"/events") },
		prefix: "events[]", model: reflect.TypeFor[padapi.PadEvent]()},
	{label: "GET /api/pad_environments/:id", path: func(i ids) string { return orNone(i.env, "/api/pad_environments/"+url.PathEscape(i.env)) },
		model: reflect.TypeFor[padapi.PadEnvironment]()},
	{label: "GET /api/organization", path: fixed("/api/organization"), model: reflect.TypeFor[padapi.Organization]()},
	{label: "GET /api/organization/stats", path: fixed("/api/organization/stats"), model: reflect.TypeFor[padapi.OrganizationStats]()},
	{label: "GET /api/organization/users", path: fixed("/api/organization/users"), prefix: "users[]", model: reflect.TypeFor[padapi.OrganizationUser]()},
	{label: "GET /api/questions", path: fixed("/api/questions"), prefix: "questions[]", model: reflect.TypeFor[padapi.Question](),
		collapse: []string{"questions[].custom_database.schema_json.arrangement"}},
	{label: "GET /api/questions/:id", path: func(i ids) string { return orNone(i.question, "/api/questions/"+url.PathEscape(i.question)) },
		model: reflect.TypeFor[padapi.Question](), collapse: []string{"custom_database.schema_json.arrangement"}},
}

func orNone(id, path string) string {
	if id == "" {
		return ""
	}
	return path
}

// learn takes from the answer of call what later calls need: the first
// pad's ID, its environment's, the first question's.
func learn(label string, body []byte, i *ids) {
	var v struct {
		Pads      []struct{ ID padapi.ID } `json:"pads"`
		Questions []struct{ ID padapi.ID } `json:"questions"`
		EnvIDs    []padapi.ID              `json:"pad_environment_ids"`
		Active    *padapi.ID               `json:"active_environment_id"`
	}
	if json.Unmarshal(body, &v) != nil {
		return
	}
	switch label {
	case "GET /api/pads":
		if len(v.Pads) > 0 {
			i.pad = string(v.Pads[0].ID)
		}
	case "GET /api/pads/:id":
		switch {
		case v.Active != nil && *v.Active != "":
			i.env = string(*v.Active)
		case len(v.EnvIDs) > 0:
			i.env = string(v.EnvIDs[0])
		}
	case "GET /api/questions":
		if len(v.Questions) > 0 {
			i.question = string(v.Questions[0].ID)
		}
	}
}

// shapeOf records the shape of one answer to call.
func shapeOf(call shapeCall, body []byte) (shapes.Shape, error) {
	s := shapes.Shape{}
	if err := s.Add(body); err != nil {
		return nil, err
	}
	for _, p := range call.collapse {
		s.Collapse(p)
	}
	return s, nil
}

// reference is what padapitest sends for each call, whatever data it
// holds: the shapes of its answers in two fakes, one with every field set
// and every list longer than a page, one with every field it can leave
// unset unset, merged and widened by the models. It runs the fakes in
// process: nothing leaves the machine.
func reference(ctx context.Context) (map[string]shapes.Shape, error) {
	ref := map[string]shapes.Shape{}
	add := func(call shapeCall, body []byte) error {
		s, err := shapeOf(call, body)
		if err != nil {
			return err
		}
		if ref[call.label] == nil {
			ref[call.label] = shapes.Shape{}
		}
		ref[call.label].Merge(s)
		return nil
	}
	// The stats count the pads of the 7 days up to the fake's clock.
	clock := padapitest.WithClock(func() time.Time { return refTime.Add(2 * time.Hour) })
	for _, seed := range []func(*padapitest.Server){seedSet, seedUnset} {
		srv := padapitest.Start(clock)
		seed(srv)
		c := srv.Client()
		err := walkCalls(ctx, c, add)
		// Every environment of a pad, not only the one the walk takes:
		// each kind of file and environment the fake sends.
		for _, p := range srv.Pads()[:1] {
			for _, env := range srv.Environments(p.ID) {
				var body json.RawMessage
				if err == nil {
					err = c.Do(ctx, "GET", "/api/pad_environments/"+url.PathEscape(string(env.ID)), nil, &body)
				}
				if err == nil {
					err = add(shapeCalls[envCall], body)
				}
			}
		}
		c.Close()
		srv.Close()
		if err != nil {
			return nil, fmt.Errorf("the reference fake: %w", err)
		}
	}
	for _, call := range shapeCalls {
		if s := ref[call.label]; s != nil {
			s.Widen(call.prefix, call.model)
		}
	}
	return ref, nil
}

// walkCalls makes each call in order with c, handing each answer to got.
// A call whose ID is unknown is skipped; a failed call stops the walk.
func walkCalls(ctx context.Context, c *padapi.Client, got func(shapeCall, []byte) error) error {
	var known ids
	for _, call := range shapeCalls {
		path := call.path(known)
		if path == "" {
			continue
		}
		var body json.RawMessage
		if err := c.Do(ctx, "GET", path, call.query, &body); err != nil {
			return fmt.Errorf("%s: %w", call.label, err)
		}
		learn(call.label, body, &known)
		if err := got(call, body); err != nil {
			return fmt.Errorf("%s: %w", call.label, err)
		}
	}
	return nil
}

// refTime is when the reference's data happened: any fixed time will do.
var refTime = time.Date(2026, 3, 5, 10, 0, 0, 0, time.UTC)

// seedSet gives a fake every field set: a limited plan with a trial and
// overages, an organization with teams, users in them, a sign-in URL and
// a child organization, 60 pads (more than a page) with notes, a drawing,
// an end, notifications, events with metadata and users, environments
// started from a question with a text and a binary file, and 60 questions
// with everything a question can carry.
func seedSet(srv *padapitest.Server) {
	srv.SetQuota(120, 33)
	srv.SetTrialExpiresAt(padapi.Ptr(refTime.AddDate(0, 1, 0)))
	srv.SetOveragesEnabled(true)
	team := padapi.Team{ID: "68264172-5a54-4ac3-962b-cb8d1ad15d05", Name: "Platform"}
	srv.SetOrganization(padapi.Organization{
		ID: "901", Name: "Org", UserCount: 1, DefaultLanguage: "go",
		Users:                 []padapi.OrganizationUser{{Email: "a@example.com", Name: "A", Teams: []string{string(team.ID)}}},
		SingleSignOnSupported: true, SingleSignInURL: "https://example.com/sso",
		Teams:              []padapi.Team{team},
		ChildOrganizations: json.RawMessage(`[{"id":902,"organization_name":"Child"}]`),
	})
	q := padapi.Question{
		Title: "Q", OwnerEmail: "a@example.com", AuthorName: "A", OrganizationName: "Org", Language: "python3",
		Description: "d", Contents: "c", Solution: "s", AIAssistPrompt: "p", Shared: true, TakeHome: true,
		TestCasesEnabled: true, IsDraft: true, Used: 1, PadType: "interview", ContentsForTestCases: "t",
		CandidateInstructions:   []padapi.CandidateInstruction{{Instructions: "i", DefaultVisible: padapi.Ptr(true)}, {Instructions: "j"}},
		CustomFiles:             []padapi.CustomFile{{ID: "cf_1", Title: "t", Description: "d", Filename: "f", Filesize: "1"}},
		TestCases:               []padapi.TestCase{{ID: "1", Arguments: []string{"a"}, ReturnValue: "r", Visible: true}},
		PublicTakeHomeSettingID: padapi.Ptr[padapi.ID]("77"),
		CustomDatabase: &padapi.CustomDatabase{ID: "9", Title: "t", Description: "d", Language: "postgresql", Schema: "s",
			SchemaJSON: &padapi.DatabaseSchema{Arrangement: json.RawMessage(`{"t":{"x":0,"y":0}}`),
				Tables: []padapi.DatabaseTable{{Name: "t", Columns: []padapi.DatabaseColumn{{Name: "c", Type: "int", PrimaryKey: true, NotNull: true}}}}}},
		CreatedAt: refTime,
	}
	var first padapi.Question
	for i := range 60 {
		added := srv.AddQuestion(q)
		if i == 0 {
			first = added
		}
	}
	for i := range 60 {
		p := srv.AddPad(padapi.Pad{
			Title: "P", OwnerEmail: "a@example.com", Language: "python3", Participants: []string{"C"}, Contents: "c",
			Notes: "n", Private: true, ExecutionEnabled: true, CreatedAt: refTime.Add(time.Duration(i) * time.Minute),
			EndedAt: padapi.Ptr(refTime.Add(time.Hour)), Drawing: "https://example.com/d", State: "ended", Type: "live",
			QuestionIDs: []padapi.ID{first.ID}, RestrictInterviewerAccess: padapi.Ptr(true),
			Events: []padapi.PadEvent{{Message: "m", Kind: "ran", Metadata: "python3", UserName: "A", UserEmail: "a@example.com", CreatedAt: refTime}},
			InterviewerNotifications: []padapi.InterviewerNotification{
				{ID: "31", Title: "t", Message: "m", Priority: "high", RequestID: "r", AutoDismissed: true,
					DismissedAt: padapi.Ptr(refTime), Useful: padapi.Ptr(true), CreatedAt: refTime, UpdatedAt: refTime},
				{ID: "32", Title: "t", Message: "m", Priority: "low", RequestID: "r", CreatedAt: refTime, UpdatedAt: refTime},
			},
		})
		for j := range 60 {
			srv.AddEvent(p.ID, padapi.PadEvent{Message: "m", Kind: "joined", Metadata: "x", UserName: "C", UserEmail: "c@example.com",
				CreatedAt: refTime.Add(time.Duration(j) * time.Second)})
		}
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{
			QuestionID: padapi.Ptr(first.ID), ExampleQuestionID: padapi.Ptr[padapi.ID]("78"), Language: "python3",
			Files: []padapi.FileContent{{Path: "main.py", Contents: "x"}, {Path: "logo.png", Binary: true}},
		})
	}
}

// seedUnset gives a fake what it can leave unset: an unlimited plan
// without a trial, an organization without teams or a sign-in URL, one
// pad with nothing set and a system event, one question with nothing set.
// A pad's environments and the stats come as they come.
func seedUnset(srv *padapitest.Server) {
	srv.SetUnlimited()
	srv.SetOrganization(padapi.Organization{ID: "1", Name: "Org", Users: []padapi.OrganizationUser{{Email: "a@example.com", Teams: []string{}}}})
	p := srv.AddPad(padapi.Pad{CreatedAt: refTime})
	srv.AddEvent(p.ID, padapi.PadEvent{Message: "m", Kind: "archived"})
	srv.AddEnvironment(p.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "empty.txt"}}})
	srv.AddQuestion(padapi.Question{CreatedAt: refTime})
}
