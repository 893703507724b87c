package padapitest

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/padinterview/padapi"
)

type quotaState struct {
	unlimited      bool
	limit, used    int
	resetAt        time.Time
	trialExpiresAt *time.Time
}

// remaining is the pads left, or -1 when unlimited.
func (q *quotaState) remaining() int {
	if q.unlimited {
		return -1
	}
	return max(q.limit-q.used, 0)
}

func (q *quotaState) model() padapi.Quota {
	m := padapi.Quota{
		Status:         "OK",
		TrialExpiresAt: clonePtr(q.trialExpiresAt),
		PadsUsed:       q.used,
		QuotaResetAt:   q.resetAt,
		Unlimited:      q.unlimited,
	}
	if !q.unlimited {
		m.PadsRemaining, m.MonthlyPadLimit = padapi.Ptr(q.remaining()), padapi.Ptr(q.limit)
	}
	return m
}

func defaultOrganization() padapi.Organization {
	return padapi.Organization{
		ID:        "1",
		Name:      "Example Organization",
		UserCount: 2,
		Users: []padapi.OrganizationUser{
			{Email: "owner@example.com", Name: "Olivia Owner"},
			{Email: "interviewer@example.com", Name: "Ian Interviewer"},
		},
		DefaultLanguage: "python",
	}
}

// SetQuota makes the plan a limited one of limit pads a month, used of them
// spent. It panics when either is negative.
func (s *Server) SetQuota(limit, used int) {
	if limit < 0 || used < 0 {
		panic(fmt.Sprintf("padapitest: SetQuota(%d, %d): negative", limit, used))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.unlimited, s.quota.limit, s.quota.used = false, limit, used
}

// SetUnlimited makes the plan unmetered; pads_used still counts creates.
func (s *Server) SetUnlimited() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.unlimited = true
}

// SetQuotaResetAt sets when the quota was last reset.
func (s *Server) SetQuotaResetAt(t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.resetAt = t
}

// SetTrialExpiresAt sets when the trial ends or ended; nil (the default)
// means the plan has no trial, and trial_expires_at is left out.
func (s *Server) SetTrialExpiresAt(t *time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.trialExpiresAt = clonePtr(t)
}

// Quota returns the quota as GET /api/quota would.
func (s *Server) Quota() padapi.Quota {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quota.model()
}

// SetOrganization replaces the organization. Its first user is the API
// key's user: the default owner of new pads and questions.
func (s *Server) SetOrganization(o padapi.Organization) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.org = cloneOrganization(o)
}

// AddPad stores p as if it had been created, and returns it as stored. An
// empty ID gets a new one; zero CreatedAt and UpdatedAt get the clock's time
// (UpdatedAt: CreatedAt); empty URL, Playback and History get links on the
// fake. It does not count against the quota. It panics when the ID is taken.
func (s *Server) AddPad(p padapi.Pad) padapi.Pad {
	s.mu.Lock()
	defer s.mu.Unlock()
	p = clonePad(p)
	if p.ID == "" {
		p.ID = s.newPadID()
	} else if s.padIndex(p.ID) >= 0 {
		panic(fmt.Sprintf("padapitest: AddPad: pad %q exists", p.ID))
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.now()
	}
	if p.UpdatedAt.IsZero() {
		p.UpdatedAt = p.CreatedAt
	}
	s.fillLinks(&p)
	s.pads = append(s.pads, p)
	return clonePad(p)
}

// AddQuestion stores q as if it had been created, and returns it as stored.
// An empty ID gets the next integer; zero times get the clock's time. It
// panics when the ID is taken.
func (s *Server) AddQuestion(q padapi.Question) padapi.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	q = cloneQuestion(q)
	if q.ID == "" {
		q.ID = s.newQuestionID()
	} else if s.questionIndex(string(q.ID)) >= 0 {
		panic(fmt.Sprintf("padapitest: AddQuestion: question %q exists", q.ID))
	} else if n, err := strconv.ParseInt(string(q.ID), 10, 64); err == nil && n >= s.nextQuestion {
		s.nextQuestion = n + 1
	}
	if q.CreatedAt.IsZero() {
		q.CreatedAt = s.now()
	}
	if q.UpdatedAt.IsZero() {
		q.UpdatedAt = q.CreatedAt
	}
	s.questions = append(s.questions, q)
	return cloneQuestion(q)
}

// Pads returns copies of the stored pads in creation order.
func (s *Server) Pads() []padapi.Pad {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]padapi.Pad, len(s.pads))
	for i, p := range s.pads {
		out[i] = clonePad(p)
	}
	return out
}

// Questions returns copies of the stored questions in creation order.
func (s *Server) Questions() []padapi.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]padapi.Question, len(s.questions))
	for i, q := range s.questions {
		out[i] = cloneQuestion(q)
	}
	return out
}

// idChars are the characters of the service's pad IDs ("DM32JWG2").
const idChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newPadID returns an unused pad ID. The generator has a fixed seed, so a
// test sees the same IDs on every run.
func (s *Server) newPadID() padapi.ID {
	for range 100 {
		b := make([]byte, 8)
		for i := range b {
			b[i] = idChars[s.ids.IntN(len(idChars))]
		}
		if id := padapi.ID(b); s.padIndex(id) < 0 {
			return id
		}
	}
	panic("padapitest: no free pad ID after 100 tries")
}

func (s *Server) newQuestionID() padapi.ID {
	for s.questionIndex(strconv.FormatInt(s.nextQuestion, 10)) >= 0 {
		s.nextQuestion++
	}
	id := padapi.ID(strconv.FormatInt(s.nextQuestion, 10))
	s.nextQuestion++
	return id
}

func (s *Server) padIndex(id padapi.ID) int {
	return slices.IndexFunc(s.pads, func(p padapi.Pad) bool { return p.ID == id })
}

func (s *Server) questionIndex(id string) int {
	return slices.IndexFunc(s.questions, func(q padapi.Question) bool { return string(q.ID) == id })
}

// fillLinks sets the pad's empty links to pages on the fake, shaped like
// the service's (https://app.coderpad.io/DM32JWG2).
func (s *Server) fillLinks(p *padapi.Pad) {
	base := s.URL + "/" + string(p.ID)
	if p.URL == "" {
		p.URL = base
	}
	if p.Playback == "" {
		p.Playback = base + "/playback"
	}
	if p.History == "" {
		p.History = base + "/history"
	}
}

// user returns the API key's user: the organization's first.
func (s *Server) user() padapi.OrganizationUser {
	if len(s.org.Users) == 0 {
		return padapi.OrganizationUser{}
	}
	return s.org.Users[0]
}

func (s *Server) hasUser(email string) bool {
	return slices.ContainsFunc(s.org.Users, func(u padapi.OrganizationUser) bool { return u.Email == email })
}

// The clones copy everything a caller could change through a returned
// value: slices, pointers and raw JSON.

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func clonePad(p padapi.Pad) padapi.Pad {
	p.Participants = slices.Clone(p.Participants)
	p.Events = slices.Clone(p.Events)
	p.EndedAt = clonePtr(p.EndedAt)
	p.QuestionIDs = slices.Clone(p.QuestionIDs)
	p.PadEnvironmentIDs = slices.Clone(p.PadEnvironmentIDs)
	p.ActiveEnvironmentID = clonePtr(p.ActiveEnvironmentID)
	p.Team = clonePtr(p.Team)
	p.RestrictInterviewerAccess = clonePtr(p.RestrictInterviewerAccess)
	return p
}

func cloneQuestion(q padapi.Question) padapi.Question {
	q.CandidateInstructions = slices.Clone(q.CandidateInstructions)
	for i := range q.CandidateInstructions {
		q.CandidateInstructions[i].DefaultVisible = clonePtr(q.CandidateInstructions[i].DefaultVisible)
	}
	q.CustomFiles = slices.Clone(q.CustomFiles)
	q.TestCases = slices.Clone(q.TestCases)
	for i := range q.TestCases {
		q.TestCases[i].Arguments = slices.Clone(q.TestCases[i].Arguments)
	}
	q.PublicTakeHomeSettingID = clonePtr(q.PublicTakeHomeSettingID)
	q.CustomDatabase = cloneDatabase(q.CustomDatabase)
	return q
}

func cloneOrganization(o padapi.Organization) padapi.Organization {
	o.Users = slices.Clone(o.Users)
	for i := range o.Users {
		o.Users[i].Teams = slices.Clone(o.Users[i].Teams)
	}
	o.Teams = slices.Clone(o.Teams)
	o.ChildOrganizations = slices.Clone(o.ChildOrganizations)
	return o
}

func cloneDatabase(d *padapi.CustomDatabase) *padapi.CustomDatabase {
	if d == nil {
		return nil
	}
	c := *d
	if d.SchemaJSON != nil {
		s := *d.SchemaJSON
		s.Arrangement = slices.Clone(s.Arrangement)
		s.Tables = slices.Clone(s.Tables)
		for i := range s.Tables {
			s.Tables[i].Columns = slices.Clone(s.Tables[i].Columns)
		}
		c.SchemaJSON = &s
	}
	return &c
}
