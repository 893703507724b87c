// reference.go: the reference shapes padctl doctor --shapes compares the service's answers with.

package padapitest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/reference"
	"github.com/padinterview/padapi/internal/lib/shapes"
)

// ReferenceShapes returns, as indented JSON, the shape of the fake's
// answer to each read-only call padctl doctor --shapes makes, by the
// call's label ("GET /api/pads/:id"): each field's path and the JSON kinds
// it may have, "absent" among them when it may be left out, as
// "string|null|absent". It is what the fake sends whatever data it holds:
// the shapes of two fakes' answers, one with every field set and every
// list longer than a page, one with every field it can leave unset unset,
// merged, then widened by padapi's models (a field a model keeps nullable
// may be null, an optional one absent).
//
// The fakes run in process, on loopback, and are closed before it
// returns. padctl does not call it: it embeds the result, stored in the
// module and checked against this function by padapitest's tests, so that
// the padctl binary links no fake.
func ReferenceShapes(ctx context.Context) ([]byte, error) {
	ref := map[string]shapes.Shape{}
	add := func(call reference.Call, body []byte) error {
		s, err := call.Shape(body)
		if err != nil {
			return err
		}
		if ref[call.Label] == nil {
			ref[call.Label] = shapes.Shape{}
		}
		ref[call.Label].Merge(s)
		return nil
	}
	for _, seed := range []func(*Server){seedSet, seedUnset} {
		if err := referenceWalk(ctx, seed, add); err != nil {
			return nil, fmt.Errorf("padapitest: the reference fake: %w", err)
		}
	}
	for _, call := range reference.Calls() {
		if s := ref[call.Label]; s != nil {
			s.Widen(call.Prefix, call.Model)
		}
	}
	// The peers' fixtures show a pad's access list null on older pads
	// (docs/api-notes.md, the v5 routes), where the fake leaves it out.
	ref["GET /api/pads"].AllowNull("pads[].allowed_interviewer_emails")
	ref["GET /api/pads/:id"].AllowNull("allowed_interviewer_emails")
	return json.MarshalIndent(ref, "", "  ")
}

// referenceTime is when the reference's data happened: any fixed time
// will do.
var referenceTime = time.Date(2026, 3, 5, 10, 0, 0, 0, time.UTC)

// referenceWalk starts a fake, seeds it, and hands add its answer to every
// call, and to the environment call for every environment of its first
// pad (each kind of file and environment the fake sends).
func referenceWalk(ctx context.Context, seed func(*Server), add func(reference.Call, []byte) error) error {
	// The stats count the pads of the 7 days up to the fake's clock.
	srv, err := Listen(WithClock(func() time.Time { return referenceTime.Add(2 * time.Hour) }))
	if err != nil {
		return err
	}
	defer srv.Close()
	seed(srv)
	c := srv.Client()
	defer c.Close()
	get := func(call reference.Call, path string) (json.RawMessage, error) {
		var body json.RawMessage
		if err := c.Do(ctx, "GET", path, nil, &body); err != nil {
			return nil, fmt.Errorf("%s: %w", call.Label, err)
		}
		return body, add(call, body)
	}
	var known reference.IDs
	for _, call := range reference.Calls() {
		path := call.Path(known)
		if path == "" {
			continue
		}
		body, err := get(call, path)
		if err != nil {
			return err
		}
		reference.Learn(call.Label, body, &known)
	}
	envCall := reference.Calls()[reference.EnvCall]
	for _, env := range srv.Environments(srv.Pads()[0].ID) {
		if _, err := get(envCall, envCall.Path(reference.IDs{Env: string(env.ID)})); err != nil {
			return err
		}
	}
	return nil
}

// seedSet gives a fake every field set: a limited plan with a trial and
// overages, an organization with teams, users in them, a sign-in URL and
// a child organization, 60 pads (more than a page) with notes, a drawing,
// an end, notifications, events with metadata and users, environments
// started from a question with a text and a binary file, and 60 questions
// with everything a question can carry.
func seedSet(srv *Server) {
	srv.SetQuota(120, 33)
	srv.SetTrialExpiresAt(padapi.Ptr(referenceTime.AddDate(0, 1, 0)))
	srv.SetOveragesEnabled(true)
	team := padapi.Team{ID: "68264172-5a54-4ac3-962b-cb8d1ad15d05", Name: "Platform"}
	srv.SetOrganization(padapi.Organization{
		ID: "901", Name: "Org", UserCount: 1, DefaultLanguage: "go",
		Users:                 []padapi.OrganizationUser{{Email: "a@example.com", Name: "A", Teams: []string{string(team.ID)}}},
		SingleSignOnSupported: true, SingleSignInURL: "https://example.com/sso",
		Teams:              []padapi.Team{team},
		ChildOrganizations: json.RawMessage(`[{"id":902,"organization_name":"Child"}]`),
	})
	var first padapi.Question
	for i := range 60 {
		added := srv.AddQuestion(fullQuestion())
		if i == 0 {
			first = added
		}
	}
	for i := range 60 {
		p := srv.AddPad(fullPad(first.ID, referenceTime.Add(time.Duration(i)*time.Minute)))
		for j := range 60 {
			srv.AddEvent(p.ID, padapi.PadEvent{Message: "m", Kind: "joined", Metadata: "x", UserName: "C", UserEmail: "c@example.com",
				CreatedAt: referenceTime.Add(time.Duration(j) * time.Second)})
		}
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{
			QuestionID: padapi.Ptr(first.ID), ExampleQuestionID: padapi.Ptr[padapi.ID]("78"), Language: "python3",
			Files: []padapi.FileContent{{Path: "main.py", Contents: "x"}, {Path: "logo.png", Binary: true}},
		})
	}
}

// fullQuestion is a question with every field set.
func fullQuestion() padapi.Question {
	return padapi.Question{
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
		CreatedAt: referenceTime,
	}
}

// fullPad is an ended pad started from question q, with every field set.
func fullPad(q padapi.ID, created time.Time) padapi.Pad {
	return padapi.Pad{
		Title: "P", OwnerEmail: "a@example.com", Language: "python3", Participants: []string{"C"}, Contents: "c",
		Notes: "n", Private: true, ExecutionEnabled: true, CreatedAt: created,
		EndedAt: padapi.Ptr(referenceTime.Add(time.Hour)), Drawing: "https://example.com/d", State: "ended", Type: "live",
		QuestionIDs: []padapi.ID{q}, RestrictInterviewerAccess: padapi.Ptr(true), AllowedInterviewerEmails: []string{"b@example.com"},
		Events: []padapi.PadEvent{{Message: "m", Kind: "ran", Metadata: "python3", UserName: "A", UserEmail: "a@example.com", CreatedAt: referenceTime}},
		InterviewerNotifications: []padapi.InterviewerNotification{
			{ID: "31", Title: "t", Message: "m", Priority: "high", RequestID: "r", AutoDismissed: true,
				DismissedAt: padapi.Ptr(referenceTime), Useful: padapi.Ptr(true), CreatedAt: referenceTime, UpdatedAt: referenceTime},
			{ID: "32", Title: "t", Message: "m", Priority: "low", RequestID: "r", CreatedAt: referenceTime, UpdatedAt: referenceTime},
		},
	}
}

// seedUnset gives a fake what it can leave unset: an unlimited plan
// without a trial, an organization without teams or a sign-in URL, one
// pad with nothing set and a system event, one question with nothing set.
// A pad's environments and the stats come as they come.
func seedUnset(srv *Server) {
	srv.SetUnlimited()
	srv.SetTrialExpiresAt(nil)
	srv.SetOrganization(padapi.Organization{ID: "1", Name: "Org", Users: []padapi.OrganizationUser{{Email: "a@example.com", Teams: []string{}}}})
	p := srv.AddPad(padapi.Pad{CreatedAt: referenceTime})
	srv.AddEvent(p.ID, padapi.PadEvent{Message: "m", Kind: "archived"})
	srv.AddEnvironment(p.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "empty.txt"}}})
	srv.AddQuestion(padapi.Question{CreatedAt: referenceTime})
}
