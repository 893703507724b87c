package padapitest

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/padinterview/padapi"
)

// The handlers below run with s.mu held (see endpoint).

func (s *Server) getQuota(*http.Request) (int, any) {
	return http.StatusOK, s.quota.model()
}

func (s *Server) listPads(r *http.Request) (int, any) {
	return listPage(s, r, "pads", s.pads, func(p padapi.Pad) (time.Time, time.Time) { return p.CreatedAt, p.UpdatedAt })
}

func (s *Server) getPad(r *http.Request) (int, any) {
	i := s.padIndex(padapi.ID(r.PathValue("id")))
	if i < 0 {
		return fail(http.StatusNotFound, "Pad not found")
	}
	return http.StatusOK, s.pads[i]
}

func (s *Server) createPad(r *http.Request) (int, any) {
	now := s.now()
	p := padapi.Pad{
		OwnerEmail:       s.user().Email,
		Language:         s.org.DefaultLanguage,
		Participants:     []string{},
		ExecutionEnabled: true,
		CreatedAt:        now,
		UpdatedAt:        now,
	}
	if p.Language == "" {
		p.Language = "plaintext"
	}
	q, status, msg := s.applyPadForm(&p, r.PostForm)
	if status != 0 {
		return fail(status, "%s", msg)
	}
	// Checked after the form, so a malformed request is a 400 whatever the
	// quota, and nothing above has changed any state.
	if s.quota.remaining() == 0 {
		return fail(http.StatusTooManyRequests, "Over quota")
	}
	p.ID = s.newPadID()
	if p.Title == "" {
		p.Title = "Untitled Pad " + string(p.ID)
	}
	s.fillLinks(&p)
	if q != nil {
		q.Used++
	}
	s.quota.used++
	s.pads = append(s.pads, p)
	return http.StatusOK, p
}

func (s *Server) updatePad(r *http.Request) (int, any) {
	i := s.padIndex(padapi.ID(r.PathValue("id")))
	if i < 0 {
		return fail(http.StatusNotFound, "Pad not found")
	}
	p := clonePad(s.pads[i])
	q, status, msg := s.applyPadForm(&p, r.PostForm)
	if status != 0 {
		return fail(status, "%s", msg)
	}
	if q != nil {
		q.Used++
	}
	p.UpdatedAt = s.now()
	s.pads[i] = p
	return http.StatusOK, p
}

// applyPadForm sets the fields of the form on p, which must be a copy: on
// an error (a status and message) the caller drops it. It returns the
// question the pad now starts from, if any, for the caller to count.
func (s *Server) applyPadForm(p *padapi.Pad, form url.Values) (q *padapi.Question, status int, msg string) {
	if form.Has("contents") && form.Has("question_id") {
		return nil, http.StatusBadRequest, "contents and question_id cannot be combined"
	}
	for name, field := range map[string]*string{"title": &p.Title, "contents": &p.Contents, "notes": &p.Notes} {
		if form.Has(name) {
			*field = form.Get(name)
		}
	}
	if v := form.Get("language"); v != "" {
		p.Language = v
	}
	for name, field := range map[string]*bool{"private": &p.Private, "execution_enabled": &p.ExecutionEnabled} {
		if !form.Has(name) {
			continue
		}
		b, err := strconv.ParseBool(form.Get(name))
		if err != nil {
			return nil, http.StatusBadRequest, name + " must be true or false"
		}
		*field = b
	}
	if form.Has("ended") {
		ended, err := strconv.ParseBool(form.Get("ended"))
		if err != nil {
			return nil, http.StatusBadRequest, "ended must be true or false"
		}
		// ended=false leaves the pad as it is: an ended pad stays ended.
		if ended && p.EndedAt == nil {
			p.EndedAt = padapi.Ptr(s.now())
		}
	}
	if form.Has("user_email") {
		email := form.Get("user_email")
		if !s.hasUser(email) {
			return nil, http.StatusBadRequest, "user_email is not a user of the organization"
		}
		p.OwnerEmail = email
	}
	if form.Has("question_id") {
		i := s.questionIndex(form.Get("question_id"))
		if i < 0 {
			return nil, http.StatusBadRequest, "question_id names no question"
		}
		q = &s.questions[i]
		p.Language, p.Contents = q.Language, q.Contents
		p.QuestionIDs = append(p.QuestionIDs, q.ID)
	}
	return q, 0, ""
}

func (s *Server) listQuestions(r *http.Request) (int, any) {
	return listPage(s, r, "questions", s.questions, func(q padapi.Question) (time.Time, time.Time) { return q.CreatedAt, q.UpdatedAt })
}

func (s *Server) getQuestion(r *http.Request) (int, any) {
	i := s.questionIndex(r.PathValue("id"))
	if i < 0 {
		return fail(http.StatusNotFound, "Question not found")
	}
	return http.StatusOK, s.questions[i]
}

func (s *Server) createQuestion(r *http.Request) (int, any) {
	now := s.now()
	user := s.user()
	q := padapi.Question{
		OwnerEmail:            user.Email,
		AuthorName:            user.Name,
		OrganizationName:      s.org.Name,
		CandidateInstructions: []padapi.CandidateInstruction{},
		CustomFiles:           []padapi.CustomFile{},
		CreatedAt:             now,
		UpdatedAt:             now,
	}
	if status, msg := applyQuestionForm(&q, r.PostForm); status != 0 {
		return fail(status, "%s", msg)
	}
	if q.Title == "" {
		q.Title = "Untitled Question"
	}
	q.ID = s.newQuestionID()
	s.questions = append(s.questions, q)
	return http.StatusOK, q
}

func (s *Server) updateQuestion(r *http.Request) (int, any) {
	i := s.questionIndex(r.PathValue("id"))
	if i < 0 {
		return fail(http.StatusNotFound, "Question not found")
	}
	q := cloneQuestion(s.questions[i])
	if status, msg := applyQuestionForm(&q, r.PostForm); status != 0 {
		return fail(status, "%s", msg)
	}
	q.UpdatedAt = s.now()
	s.questions[i] = q
	return http.StatusOK, q
}

// applyQuestionForm sets the fields of the form on q, a copy.
func applyQuestionForm(q *padapi.Question, form url.Values) (status int, msg string) {
	fields := map[string]*string{
		"title": &q.Title, "language": &q.Language, "description": &q.Description,
		"contents": &q.Contents, "solution": &q.Solution,
	}
	for name, field := range fields {
		if form.Has(name) {
			*field = form.Get(name)
		}
	}
	if form.Has("shared") {
		b, err := strconv.ParseBool(form.Get("shared"))
		if err != nil {
			return http.StatusBadRequest, "shared must be true or false"
		}
		q.Shared = b
	}
	return 0, ""
}

func (s *Server) deleteQuestion(r *http.Request) (int, any) {
	i := s.questionIndex(r.PathValue("id"))
	if i < 0 {
		return fail(http.StatusNotFound, "Question not found")
	}
	s.questions = slices.Delete(s.questions, i, i+1)
	return http.StatusOK, struct{}{}
}

func (s *Server) getOrganization(*http.Request) (int, any) {
	return http.StatusOK, s.org
}

// statsWindow is the default window of GET /api/organization/stats.
const statsWindow = 7 * 24 * time.Hour

func (s *Server) getStats(r *http.Request) (int, any) {
	q := r.URL.Query()
	end := s.now()
	start := end.Add(-statsWindow)
	switch {
	case q.Has("start_time") && q.Has("end_time"):
		var err1, err2 error
		start, err1 = time.Parse(time.RFC3339, q.Get("start_time"))
		end, err2 = time.Parse(time.RFC3339, q.Get("end_time"))
		if err1 != nil || err2 != nil {
			return fail(http.StatusBadRequest, "start_time and end_time must be ISO 8601 times")
		}
		if end.Before(start) {
			return fail(http.StatusBadRequest, "end_time is before start_time")
		}
	case q.Has("start_time") || q.Has("end_time"):
		return fail(http.StatusBadRequest, "start_time and end_time must be given together")
	}
	st := padapi.OrganizationStats{StartTime: start, EndTime: end, Users: []padapi.UserStats{}}
	perUser := map[string]int{}
	for _, p := range s.pads {
		if p.CreatedAt.Before(start) || !p.CreatedAt.Before(end) {
			continue
		}
		st.PadsCreated++
		if p.OwnerEmail != "" {
			perUser[p.OwnerEmail]++
		}
	}
	for email, n := range perUser {
		st.Users = append(st.Users, padapi.UserStats{Email: email, Name: s.userName(email), PadsCreated: n})
	}
	slices.SortFunc(st.Users, func(a, b padapi.UserStats) int { return strings.Compare(a.Email, b.Email) })
	return http.StatusOK, st
}

func (s *Server) userName(email string) string {
	for _, u := range s.org.Users {
		if u.Email == email {
			return u.Name
		}
	}
	return ""
}
