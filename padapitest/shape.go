// shape.go: Shape, and rendering resources as the docs or the live service show them.

package padapitest

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"

	"github.com/padinterview/padapi"
)

// Shape is one of the two shapes of the service's answers (see the package
// documentation). A client must read both: run its tests against a fake of
// each.
type Shape int

const (
	// LiveShape is the shape of current live responses as recorded (the
	// shape of the vendor's current collection too), the default: pads
	// with state, type, team, question_ids, pad_environment_ids and
	// active_environment_id (null in a create's answer), events as a link,
	// null for empty texts (notes and a question's solution: null until
	// set, "" when set to ""); the quota with overages_enabled; teams in
	// the organization with UUID string IDs, which users' teams list; an
	// environment's pad_id the pad's internal number; null for an event's
	// missing metadata, user_name and user_email; PUT on a pad or question
	// answered with the status alone.
	LiveShape Shape = iota
	// DocumentedShape is the shape of the examples in the service's older
	// reference pages (not the current Postman collection, whose pads
	// are in the live shape): pads with their events as a list and no
	// live fields, the quota without overages_enabled, the
	// organization's default_language.
	DocumentedShape
)

// String returns "live" or "documented".
func (sh Shape) String() string {
	if sh == DocumentedShape {
		return "documented"
	}
	return "live"
}

// WithShape sets the shape of the fake's answers (default LiveShape).
func WithShape(sh Shape) Option {
	return func(c *config) { c.shape = sh }
}

// Shape returns the shape of the fake's answers.
func (s *Server) Shape() Shape { return s.cfg.shape }

var null = json.RawMessage("null")

// nullIfEmpty sets each key that is absent or "" to null, as live answers
// send texts that were never set.
func nullIfEmpty(m map[string]json.RawMessage, keys ...string) {
	for _, k := range keys {
		if v, ok := m[k]; !ok || string(v) == `""` {
			m[k] = null
		}
	}
}

// renderPad is the pad as the fake answers for it, sharing no memory with
// the state.
func (s *Server) renderPad(ps *padState) padapi.Pad {
	p := clonePad(ps.pad)
	// A pad's history links its active file's, once that file has an
	// edit: live answers send null for a pad never edited.
	if es := s.active(ps); p.History == "" && es != nil {
		if i := mainFile(es.env.Files); len(es.edits[i].Entries) > 0 {
			p.History = es.env.Files[i].History
		}
	}
	if s.cfg.shape == DocumentedShape {
		p.State, p.Type, p.QuestionIDs, p.PadEnvironmentIDs, p.ActiveEnvironmentID = "", "", nil, nil, nil
		p.Team, p.RestrictInterviewerAccess, p.InterviewerNotifications, p.AllowedInterviewerEmails = nil, nil, nil, nil
		p.Events, p.EventsURL = append([]padapi.PadEvent{}, ps.events...), ""
		return p
	}
	if p.EventsURL == "" {
		p.EventsURL = s.URL + "/api/pads/" + url.PathEscape(string(p.ID)) + "/events"
	}
	if p.State == "" {
		p.State = "started"
		if p.EndedAt != nil {
			p.State = "ended"
		}
	}
	if p.Type == "" {
		p.Type = "live"
	}
	if p.QuestionIDs == nil {
		p.QuestionIDs = []padapi.ID{}
	}
	if p.Team == nil {
		p.Team = s.teamOf(p.OwnerEmail)
	}
	return p
}

// teamOf is the first team of the organization's user with that email, or
// nil. A user's teams are team IDs, as live answers list them; a name is
// matched too, for an organization a test set up with names.
func (s *Server) teamOf(email string) *padapi.Team {
	for _, u := range s.org.Users {
		if u.Email != email {
			continue
		}
		for _, ref := range u.Teams {
			if i := slices.IndexFunc(s.org.Teams, func(t padapi.Team) bool { return string(t.ID) == ref }); i >= 0 {
				return padapi.Ptr(s.org.Teams[i])
			}
			if i := slices.IndexFunc(s.org.Teams, func(t padapi.Team) bool { return t.Name == ref }); i >= 0 {
				return padapi.Ptr(s.org.Teams[i])
			}
		}
	}
	return nil
}

// padOut is a pad as the wire carries it.
func (s *Server) padOut(ps *padState) any {
	p := s.renderPad(ps)
	if s.cfg.shape == DocumentedShape {
		return p
	}
	return livePad{p, ps.notesSet}
}

// livePad marshals as live answers do: null for empty texts and for
// settings never made, notes "" only when they were set to "", the team's
// ID a string.
type livePad struct {
	p        padapi.Pad
	notesSet bool
}

func (lp livePad) MarshalJSON() ([]byte, error) {
	return patch(lp.p, func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "language", "contents", "history", "drawing")
		if !lp.notesSet {
			nullIfEmpty(m, "notes")
		}
		for _, k := range []string{"team", "active_environment_id", "restrict_interviewer_access"} {
			if _, ok := m[k]; !ok {
				m[k] = null
			}
		}
		if lp.p.Team != nil {
			m["team"] = mustMarshal(liveTeam(*lp.p.Team))
		}
	})
}

// liveTeam is a team as live answers carry it: its ID always a JSON string
// (a UUID), never a number, whatever it looks like.
type liveTeam padapi.Team

func (t liveTeam) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}{string(t.ID), t.Name})
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("padapitest: " + err.Error()) // answered as a 500 by serve
	}
	return b
}

// eventOut is an event as the wire carries it: in the live shape, null
// for the metadata, user name and email it does not have.
func (s *Server) eventOut(e padapi.PadEvent) any {
	if s.cfg.shape == DocumentedShape {
		return e
	}
	return liveEvent(e)
}

type liveEvent padapi.PadEvent

func (e liveEvent) MarshalJSON() ([]byte, error) {
	return patch(padapi.PadEvent(e), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "metadata", "user_name", "user_email")
	})
}

// renderEnvironment is the environment as the fake answers for it: in the
// live shape its pad_id is the pad's internal number, in the documented
// shape the pad's ID.
func (s *Server) renderEnvironment(es *envState) padapi.PadEnvironment {
	env := cloneEnvironment(es.env)
	if ps := s.pad(env.PadID); ps != nil && s.cfg.shape == LiveShape {
		env.PadID = padapi.ID(strconv.FormatInt(ps.number, 10))
	}
	return env
}

// environmentOut is an environment as the wire carries it: in the live
// shape, null for a file's contents and history when it has none (an empty
// or binary file).
func (s *Server) environmentOut(es *envState) any {
	env := s.renderEnvironment(es)
	if s.cfg.shape == DocumentedShape {
		return env
	}
	files := make([]liveFile, len(env.Files))
	for i, f := range env.Files {
		files[i] = liveFile(f)
	}
	return liveEnvironment{env, files}
}

type liveEnvironment struct {
	env   padapi.PadEnvironment
	files []liveFile
}

func (e liveEnvironment) MarshalJSON() ([]byte, error) {
	return patch(e.env, func(m map[string]json.RawMessage) {
		m["file_contents"] = mustMarshal(e.files)
	})
}

type liveFile padapi.FileContent

func (f liveFile) MarshalJSON() ([]byte, error) {
	return patch(padapi.FileContent(f), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "contents", "history")
	})
}

func (s *Server) renderQuestion(qs *questionState) padapi.Question {
	q := cloneQuestion(qs.q)
	if s.cfg.shape == DocumentedShape {
		q.AIAssistPrompt, q.CustomDatabase = "", nil
	}
	return q
}

func (s *Server) questionOut(qs *questionState) any {
	q := s.renderQuestion(qs)
	if s.cfg.shape == DocumentedShape {
		return q
	}
	return liveQuestion{q, qs.solutionSet}
}

// liveQuestion marshals as live answers do: null for texts never set, the
// solution "" only when it was set to "".
type liveQuestion struct {
	q           padapi.Question
	solutionSet bool
}

func (lq liveQuestion) MarshalJSON() ([]byte, error) {
	return patch(lq.q, func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "language", "description", "contents", "contents_for_test_cases",
			"ai_assist_custom_system_prompt", "custom_database")
		if !lq.solutionSet {
			nullIfEmpty(m, "solution")
		}
	})
}

func (s *Server) renderQuota() padapi.Quota {
	q := s.quota
	m := padapi.Quota{
		Status:         "OK",
		TrialExpiresAt: clonePtr(q.trialExpiresAt),
		PadsUsed:       q.used,
		QuotaResetAt:   q.resetAt,
		Unlimited:      q.unlimited,
	}
	if !q.unlimited && (!q.omitCounts || s.cfg.shape == DocumentedShape) {
		m.PadsRemaining, m.MonthlyPadLimit = padapi.Ptr(q.remaining()), padapi.Ptr(q.limit)
	}
	if s.cfg.shape == LiveShape {
		m.OveragesEnabled = padapi.Ptr(q.overages)
	}
	return m
}

func (s *Server) renderUsers() []padapi.OrganizationUser {
	users := cloneOrganization(s.org).Users
	if s.cfg.shape == DocumentedShape {
		for i := range users {
			users[i].Teams = nil
		}
	}
	return users
}

// organizationOut is the organization as the wire carries it: in the
// documented shape without the live fields, its default language as
// default_language.
func (s *Server) organizationOut() any {
	o := cloneOrganization(s.org)
	o.Users = s.renderUsers()
	if s.cfg.shape == LiveShape {
		return liveOrganization(o)
	}
	o.ID, o.Teams, o.ChildOrganizations = "", nil, nil
	return documentedOrganization(o)
}

// liveOrganization marshals as live answers do: the teams' IDs strings.
type liveOrganization padapi.Organization

func (o liveOrganization) MarshalJSON() ([]byte, error) {
	return patch(padapi.Organization(o), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "single_sign_in_url")
		if o.Teams != nil {
			teams := make([]liveTeam, len(o.Teams))
			for i, t := range o.Teams {
				teams[i] = liveTeam(t)
			}
			m["teams"] = mustMarshal(teams)
		}
	})
}

type documentedOrganization padapi.Organization

func (o documentedOrganization) MarshalJSON() ([]byte, error) {
	return patch(padapi.Organization(o), func(m map[string]json.RawMessage) {
		m["default_language"] = m["organization_default_language"]
		delete(m, "organization_default_language")
		nullIfEmpty(m, "single_sign_in_url")
	})
}
