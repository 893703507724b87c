// endpoints.go: the handlers of quota, pads, questions and the organization.

package padapitest

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
)

// The handlers below run with s.mu held (see Server.locked). Each checks the
// whole request, and reads the clock (a test's function, which may panic),
// before it changes anything, so a refused request leaves the state as it
// was.

func (s *Server) getQuota(*http.Request) (any, error) {
	return s.renderQuota(), nil
}

func padTimes(ps *padState) (time.Time, time.Time) { return ps.pad.CreatedAt, ps.pad.UpdatedAt }

func (s *Server) listPads(r *http.Request) (any, error) {
	return listPage(s, r, "pads", s.pads, padTimes, s.padOut)
}

func (s *Server) getPad(r *http.Request) (any, error) {
	ps := s.pad(padapi.ID(r.PathValue("id")))
	if ps == nil {
		return nil, errorf(http.StatusNotFound, "Pad not found")
	}
	return s.padOut(ps), nil
}

func (s *Server) createPad(r *http.Request) (any, error) {
	ch, err := s.readPadInput(r, padCreateFields)
	if err != nil {
		return nil, err
	}
	// Checked after the form, so a malformed request is a 400 whatever the
	// quota.
	if s.quota.spent() {
		return nil, errorf(http.StatusTooManyRequests, "Over quota")
	}
	now := s.now()
	actor := s.user()
	ps := &padState{pad: padapi.Pad{
		ID:               s.newPadID(),
		OwnerEmail:       actor.Email,
		Language:         s.org.DefaultLanguage,
		Participants:     []string{},
		ExecutionEnabled: true,
		CreatedAt:        now,
		UpdatedAt:        now,
	}}
	p := &ps.pad
	ch.setFields(p)
	ps.notesSet = ch.notes != nil
	ps.number = s.newPadNumber()
	if ch.language != nil {
		p.Language = *ch.language
	}
	if p.Language == "" {
		p.Language = "plaintext"
	}
	if ch.contents != nil {
		p.Contents = *ch.contents
	}
	if p.Title == "" {
		p.Title = "Untitled Pad " + string(p.ID)
	}
	s.fillLinks(p)
	if ch.question != nil {
		s.startQuestion(ps, ch.question, now)
	} else {
		s.activate(ps, s.newEnvironment(ps, padapi.PadEnvironment{
			ID: s.newEnvID(), Language: p.Language, CreatedAt: now, UpdatedAt: now,
			Files: []padapi.FileContent{{Path: fileName(p.Language), Contents: p.Contents}},
		}))
	}
	ps.events = []padapi.PadEvent{s.event("created", "created the pad", actor, now)}
	s.quota.used++
	s.pads = append(s.pads, ps)
	if s.cfg.shape == LiveShape {
		// Live answers to a create carry no active environment yet, though
		// pad_environment_ids lists one; a GET soon after does.
		return livePad{clearActive(s.renderPad(ps)), ps.notesSet}, nil
	}
	return s.padOut(ps), nil
}

// readPadInput reads a pad create's or update's fields, from its form or
// its JSON body (see padInput).
func (s *Server) readPadInput(r *http.Request, fields []string) (padChange, error) {
	form, list, err := padInput(r, fields)
	if err != nil {
		return padChange{}, err
	}
	ch, err := s.readPadChange(form)
	ch.allowed = list
	return ch, err
}

func clearActive(p padapi.Pad) padapi.Pad {
	p.ActiveEnvironmentID = nil
	return p
}

func (s *Server) updatePad(r *http.Request) (any, error) {
	ps := s.pad(padapi.ID(r.PathValue("id")))
	if ps == nil {
		return nil, errorf(http.StatusNotFound, "Pad not found")
	}
	ch, err := s.readPadInput(r, padUpdateFields)
	if err != nil {
		return nil, err
	}
	now := s.now()
	if ch.del != nil {
		s.deletePad(ps)
		return struct{}{}, nil // the status alone, as the service answers a delete
	}
	p := &ps.pad
	if ch.executionEnabled != nil && *ch.executionEnabled != p.ExecutionEnabled {
		ps.events = append(ps.events, s.toggleEvent(*ch.executionEnabled, now))
	}
	ch.setFields(p)
	ps.notesSet = ps.notesSet || ch.notes != nil
	if ch.language != nil && *ch.language != p.Language {
		s.switchLanguage(ps, *ch.language, now)
	}
	if ch.question != nil {
		s.startQuestion(ps, ch.question, now)
	}
	if es := s.active(ps); ch.contents != nil && es != nil {
		s.setContents(ps, es, *ch.contents, now)
		s.activate(ps, es)
	}
	// Only ended=true ends a pad; an ended pad stays ended.
	if ch.ended != nil && p.EndedAt == nil {
		p.EndedAt = padapi.Ptr(now)
		if p.State != "" {
			p.State = "ended"
		}
		ps.events = append(ps.events, s.event("ended", "ended the pad", s.user(), now))
	}
	p.UpdatedAt = now
	return s.writeAnswer(s.padOut(ps)), nil
}

// toggleEvent is the event of the key's user switching code execution
// on (kind "enabled") or off ("disabled").
func (s *Server) toggleEvent(enabled bool, now time.Time) padapi.PadEvent {
	if enabled {
		return s.event("enabled", "enabled code execution", s.user(), now)
	}
	return s.event("disabled", "disabled code execution", s.user(), now)
}

// writeAnswer is the answer to a PUT that succeeded: in the live shape the
// status alone ({"status":"OK"}), as live answers to PUT /api/pads/ID and
// PUT /api/questions/ID are; in the documented shape the resource.
func (s *Server) writeAnswer(resource any) any {
	if s.cfg.shape == LiveShape {
		return struct{}{}
	}
	return resource
}

func questionTimes(qs *questionState) (time.Time, time.Time) { return qs.q.CreatedAt, qs.q.UpdatedAt }

func (s *Server) listQuestions(r *http.Request) (any, error) {
	return listPage(s, r, "questions", s.questions, questionTimes, s.questionOut)
}

func (s *Server) getQuestion(r *http.Request) (any, error) {
	qs := s.question(padapi.ID(r.PathValue("id")))
	if qs == nil {
		return nil, errorf(http.StatusNotFound, "Question not found")
	}
	return s.questionOut(qs), nil
}

func (s *Server) createQuestion(r *http.Request) (any, error) {
	ch, err := readQuestionChange(r, true)
	if err != nil {
		return nil, err
	}
	now := s.now()
	user := s.user()
	qs := &questionState{q: padapi.Question{
		OwnerEmail:            user.Email,
		AuthorName:            user.Name,
		OrganizationName:      s.org.Name,
		CandidateInstructions: []padapi.CandidateInstruction{},
		CustomFiles:           []padapi.CustomFile{},
		PadType:               "live",
		Shared:                true, // as live answers to a create show
		CreatedAt:             now,
		UpdatedAt:             now,
	}}
	ch.apply(qs)
	qs.q.ID = s.newQuestionID()
	s.questions = append(s.questions, qs)
	return s.questionOut(qs), nil
}

func (s *Server) updateQuestion(r *http.Request) (any, error) {
	qs := s.question(padapi.ID(r.PathValue("id")))
	if qs == nil {
		return nil, errorf(http.StatusNotFound, "Question not found")
	}
	ch, err := readQuestionChange(r, false)
	if err != nil {
		return nil, err
	}
	now := s.now()
	ch.apply(qs)
	qs.q.UpdatedAt = now
	return s.writeAnswer(s.questionOut(qs)), nil
}

func (s *Server) deleteQuestion(r *http.Request) (any, error) {
	qs := s.question(padapi.ID(r.PathValue("id")))
	if qs == nil {
		return nil, errorf(http.StatusNotFound, "Question not found")
	}
	s.questions = slices.DeleteFunc(s.questions, func(q *questionState) bool { return q == qs }) // its variants with it
	return struct{}{}, nil
}

func (s *Server) getOrganization(*http.Request) (any, error) {
	return s.organizationOut(), nil
}

// listUsers answers GET /api/organization/users: every user, or with
// ?email= only the user with that email (none when there is no such user).
func (s *Server) listUsers(r *http.Request) (any, error) {
	users := s.renderUsers()
	if r.Form.Has("email") {
		email := r.Form.Get("email")
		users = slices.DeleteFunc(users, func(u padapi.OrganizationUser) bool { return !strings.EqualFold(u.Email, email) })
	}
	return map[string]any{"users": users}, nil
}

// statsWindow is the default window of GET /api/organization/stats.
const statsWindow = 7 * 24 * time.Hour

func (s *Server) getStats(r *http.Request) (any, error) {
	q := r.Form
	end := s.now()
	start := end.Add(-statsWindow)
	switch {
	case q.Has("start_time") && q.Has("end_time"):
		var err1, err2 error
		start, err1 = time.Parse(time.RFC3339, q.Get("start_time"))
		end, err2 = time.Parse(time.RFC3339, q.Get("end_time"))
		if err1 != nil || err2 != nil {
			return nil, badRequest("start_time and end_time must be ISO 8601 times")
		}
		if end.Before(start) {
			return nil, badRequest("end_time is before start_time")
		}
	case q.Has("start_time") || q.Has("end_time"):
		return nil, badRequest("start_time and end_time must be given together")
	}
	st := padapi.OrganizationStats{StartTime: start, EndTime: end, Users: []padapi.UserStats{}}
	perUser := map[string]int{}
	for _, ps := range s.pads {
		p := &ps.pad
		if p.CreatedAt.Before(start) || !p.CreatedAt.Before(end) {
			continue
		}
		st.PadsCreated++
		if p.OwnerEmail != "" {
			perUser[p.OwnerEmail]++
		}
	}
	for email, n := range perUser {
		st.Users = append(st.Users, padapi.UserStats{Email: email, Name: s.userOrNamed(email).Name, PadsCreated: n})
	}
	slices.SortFunc(st.Users, func(a, b padapi.UserStats) int { return strings.Compare(a.Email, b.Email) })
	return st, nil
}
