package padapitest

import (
	"encoding/json"
	"net/url"
	"slices"

	"github.com/padinterview/padapi"
)

// Shape is one of the two shapes of the service's answers (see the package
// documentation). A client must read both: run its tests against a fake of
// each.
type Shape int

const (
	// LiveShape is the shape of current live responses, the default: pads
	// with state, type, team, question_ids, pad_environment_ids and
	// active_environment_id, events as a link, null for empty texts; the
	// quota with overages_enabled; teams in the organization.
	LiveShape Shape = iota
	// DocumentedShape is the shape of the service's documented examples:
	// pads with their events as a list and no live fields, the quota
	// without overages_enabled, the organization's default_language.
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
	if es := s.active(ps); p.History == "" && es != nil {
		p.History = es.env.Files[mainFile(es.env.Files)].History
	}
	if s.cfg.shape == DocumentedShape {
		p.State, p.Type, p.QuestionIDs, p.PadEnvironmentIDs, p.ActiveEnvironmentID = "", "", nil, nil, nil
		p.Team, p.RestrictInterviewerAccess, p.InterviewerNotifications = nil, nil, nil
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
// nil.
func (s *Server) teamOf(email string) *padapi.Team {
	for _, u := range s.org.Users {
		if u.Email != email {
			continue
		}
		for _, name := range u.Teams {
			if i := slices.IndexFunc(s.org.Teams, func(t padapi.Team) bool { return t.Name == name }); i >= 0 {
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
	return livePad(p)
}

// livePad marshals as live answers do: null for empty texts and for
// settings never made.
type livePad padapi.Pad

func (p livePad) MarshalJSON() ([]byte, error) {
	return patch(padapi.Pad(p), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "language", "contents", "notes", "history", "drawing")
		for _, k := range []string{"team", "active_environment_id", "restrict_interviewer_access"} {
			if _, ok := m[k]; !ok {
				m[k] = null
			}
		}
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
	return liveQuestion(q)
}

// liveQuestion marshals as live answers do: null for texts never set.
type liveQuestion padapi.Question

func (q liveQuestion) MarshalJSON() ([]byte, error) {
	return patch(padapi.Question(q), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "language", "description", "contents", "solution", "contents_for_test_cases",
			"ai_assist_custom_system_prompt", "custom_database")
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

type liveOrganization padapi.Organization

func (o liveOrganization) MarshalJSON() ([]byte, error) {
	return patch(padapi.Organization(o), func(m map[string]json.RawMessage) {
		nullIfEmpty(m, "single_sign_in_url")
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
