// state.go: the fake's state: quota, pads, questions, the organization, and their setters.

package padapitest

import (
	"encoding/json"
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
	overages       bool // creates past the limit succeed (and are billed)
	omitCounts     bool // live answers leave out pads_remaining and monthly_pad_limit
}

// remaining is the pads left, or -1 when unlimited.
func (q *quotaState) remaining() int {
	if q.unlimited {
		return -1
	}
	return max(q.limit-q.used, 0)
}

// spent reports whether a create must be refused.
func (q *quotaState) spent() bool { return q.remaining() == 0 && !q.overages }

// padState is a pad with what the fake keeps beside it.
type padState struct {
	// pad is the pad as stored. Its Events are in events; its History is
	// "" unless AddPad set one (rendering links the active environment's
	// main file).
	pad    padapi.Pad
	events []padapi.PadEvent
	// number is the pad's internal number, which its environments carry
	// as pad_id in the live shape (the ID is the pad's string key).
	number int64
	// notesSet is whether notes were ever given: the live shape sends
	// null for notes never set and "" for notes set to "".
	notesSet bool
}

// questionState is a question with the files of a multi-file or zip
// question, which no question response shows but a pad started from the
// question gets.
type questionState struct {
	q     padapi.Question
	files []padapi.FileContent
	// solutionSet is whether a solution was ever given: the live shape
	// sends null for a solution never set and "" for one set to "".
	solutionSet bool
	// variants are the question's variants, in the order they were made.
	variants []*variantState
}

// DefaultTeamID is the ID of the one team of a new fake's organization, a
// UUID as live answers carry team IDs. Both of its users list it in their
// teams.
const DefaultTeamID = "5f0c6a8e-2d4b-4c1e-9a7f-3b8d2e6c1a90"

func defaultOrganization() padapi.Organization {
	return padapi.Organization{
		ID:        "1",
		Name:      "Example Organization",
		UserCount: 2,
		Users: []padapi.OrganizationUser{
			{Email: "owner@example.com", Name: "Olivia Owner", Teams: []string{DefaultTeamID}},
			{Email: "interviewer@example.com", Name: "Ian Interviewer", Teams: []string{DefaultTeamID}},
		},
		DefaultLanguage:    "python",
		Teams:              []padapi.Team{{ID: DefaultTeamID, Name: "Hiring"}},
		ChildOrganizations: json.RawMessage(`[]`),
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

// SetTrialExpiresAt sets when the trial ends or ended. A new fake's trial
// ended a month before the quota's last reset: the quota always carries
// trial_expires_at, as the service's does, even on an unlimited plan. nil
// leaves trial_expires_at out, for a test of a client that must accept its
// absence.
func (s *Server) SetTrialExpiresAt(t *time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.trialExpiresAt = clonePtr(t)
}

// SetOveragesEnabled allows (true) or refuses (false, the default) creates
// past the monthly limit. Allowed, they succeed and count, and pads_used
// may pass the limit, as on a plan that bills overages. The live shape
// sends it as overages_enabled.
func (s *Server) SetOveragesEnabled(enabled bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.overages = enabled
}

// SetOmitQuotaCounts makes the live shape's quota leave out pads_remaining
// and monthly_pad_limit (true), as some live answers for a limited plan
// do, or send them (false, the default). The limit still applies to
// creates; only the answer hides it.
func (s *Server) SetOmitQuotaCounts(omit bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quota.omitCounts = omit
}

// Quota returns the quota as GET /api/quota answers it.
func (s *Server) Quota() padapi.Quota {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.renderQuota()
}

// SetOrganization replaces the organization. Its first user is the API
// key's user: the default owner of new pads and questions.
func (s *Server) SetOrganization(o padapi.Organization) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.org = cloneOrganization(o)
}

// AddPad stores p as if it had been created, and returns it as the fake
// answers for it. An empty ID gets a new one; zero CreatedAt and UpdatedAt
// get the clock's time (UpdatedAt: CreatedAt); empty URL and Playback get
// links on the fake, and an empty History the link of the pad's edit
// history. p.Events, when not empty, is the pad's event log; otherwise the
// log holds a creation event. Environments: when p lists none
// (PadEnvironmentIDs and ActiveEnvironmentID empty), the pad gets one with
// its language and contents; otherwise each listed ID that the fake does
// not hold becomes an environment of the pad, the active one with the
// pad's contents, the others with an empty file. AddPad does not count
// against the quota. It panics when the pad ID or a listed environment
// belongs to another pad.
func (s *Server) AddPad(p padapi.Pad) padapi.Pad {
	s.mu.Lock()
	defer s.mu.Unlock()
	p = clonePad(p)
	if p.ID == "" {
		p.ID = s.newPadID()
	} else if s.pad(p.ID) != nil {
		panic(fmt.Sprintf("padapitest: AddPad: pad %q exists", p.ID))
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.now()
	}
	if p.UpdatedAt.IsZero() {
		p.UpdatedAt = p.CreatedAt
	}
	s.fillLinks(&p)
	ps := &padState{pad: p, events: p.Events, number: s.newPadNumber(), notesSet: p.Notes != ""}
	ps.pad.Events = nil
	if len(ps.events) == 0 {
		ps.events = []padapi.PadEvent{s.event("created", "created the pad", s.userOrNamed(p.OwnerEmail), p.CreatedAt)}
	}
	s.addEnvironments(ps)
	s.pads = append(s.pads, ps)
	return s.renderPad(ps)
}

// addEnvironments gives a pad being added the environments it lists, or
// one when it lists none.
func (s *Server) addEnvironments(ps *padState) {
	p := &ps.pad
	switch {
	case len(p.PadEnvironmentIDs) == 0 && p.ActiveEnvironmentID == nil:
		p.PadEnvironmentIDs = []padapi.ID{s.newEnvID()}
	case len(p.PadEnvironmentIDs) == 0:
		p.PadEnvironmentIDs = []padapi.ID{*p.ActiveEnvironmentID}
	}
	if p.ActiveEnvironmentID == nil {
		p.ActiveEnvironmentID = padapi.Ptr(p.PadEnvironmentIDs[len(p.PadEnvironmentIDs)-1])
	}
	ids := slices.Clone(p.PadEnvironmentIDs)
	if !slices.Contains(ids, *p.ActiveEnvironmentID) {
		ids = append(ids, *p.ActiveEnvironmentID)
	}
	for _, id := range ids {
		if es := s.envs[id]; es != nil {
			if es.env.PadID != p.ID {
				panic(fmt.Sprintf("padapitest: AddPad: environment %q belongs to pad %q", id, es.env.PadID))
			}
			continue
		}
		s.claimEnvID(id)
		contents := ""
		if id == *p.ActiveEnvironmentID {
			contents = p.Contents
		}
		s.newEnvironment(ps, padapi.PadEnvironment{
			ID: id, Language: p.Language, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
			Files: []padapi.FileContent{{Path: fileName(p.Language), Contents: contents}},
		})
	}
}

// AddEnvironment adds env to the pad padID, after the pad's other
// environments, and returns it as the fake answers for it: an empty ID
// gets a new one, PadID is set (in the live shape to the pad's internal
// number, as live answers carry it), an empty Language is the pad's, zero times are the clock's,
// no files is one empty file, and every text file with an empty History
// gets a history link whose replay gives its contents. The environment does
// not become the active one. AddEnvironment panics when there is no such
// pad or the ID is taken.
func (s *Server) AddEnvironment(padID padapi.ID, env padapi.PadEnvironment) padapi.PadEnvironment {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.pad(padID)
	if ps == nil {
		panic(fmt.Sprintf("padapitest: AddEnvironment: no pad %q", padID))
	}
	env = cloneEnvironment(env)
	if env.ID == "" {
		env.ID = s.newEnvID()
	} else if s.envs[env.ID] != nil {
		panic(fmt.Sprintf("padapitest: AddEnvironment: environment %q exists", env.ID))
	}
	s.claimEnvID(env.ID)
	if env.Language == "" {
		env.Language = ps.pad.Language
	}
	if env.CreatedAt.IsZero() {
		env.CreatedAt = s.now()
	}
	if env.UpdatedAt.IsZero() {
		env.UpdatedAt = env.CreatedAt
	}
	es := s.newEnvironment(ps, env)
	ps.pad.PadEnvironmentIDs = append(ps.pad.PadEnvironmentIDs, es.env.ID)
	return s.renderEnvironment(es)
}

// AddEvent appends e to the event log of the pad padID, as if it had
// happened there; a zero CreatedAt is the clock's time. It panics when
// there is no such pad.
func (s *Server) AddEvent(padID padapi.ID, e padapi.PadEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.pad(padID)
	if ps == nil {
		panic(fmt.Sprintf("padapitest: AddEvent: no pad %q", padID))
	}
	if e.CreatedAt.IsZero() {
		e.CreatedAt = s.now()
	}
	ps.events = append(ps.events, e)
}

// AddQuestion stores q as if it had been created, and returns it as the
// fake answers for it. An empty ID gets the next integer; zero times get
// the clock's time. It panics when the ID is taken.
func (s *Server) AddQuestion(q padapi.Question) padapi.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	q = cloneQuestion(q)
	if q.ID == "" {
		q.ID = s.newQuestionID()
	} else if s.question(q.ID) != nil {
		panic(fmt.Sprintf("padapitest: AddQuestion: question %q exists", q.ID))
	} else if n, err := strconv.ParseInt(string(q.ID), 10, 64); err == nil && n >= s.next.question {
		s.next.question = n + 1
	}
	if q.CreatedAt.IsZero() {
		q.CreatedAt = s.now()
	}
	if q.UpdatedAt.IsZero() {
		q.UpdatedAt = q.CreatedAt
	}
	qs := &questionState{q: q, solutionSet: q.Solution != ""}
	s.questions = append(s.questions, qs)
	return s.renderQuestion(qs)
}

// Pads returns the stored pads in creation order, as the fake answers for
// them (in its shape), as copies.
func (s *Server) Pads() []padapi.Pad {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]padapi.Pad, len(s.pads))
	for i, ps := range s.pads {
		out[i] = s.renderPad(ps)
	}
	return out
}

// Events returns a copy of the event log of the pad padID in the order the
// events happened, or nil when there is no such pad.
func (s *Server) Events(padID padapi.ID) []padapi.PadEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ps := s.pad(padID); ps != nil {
		return slices.Clone(ps.events)
	}
	return nil
}

// Environments returns copies of the environments of the pad padID, in
// the order the pad lists them, as the fake answers for them (in the live
// shape, PadID is the pad's internal number), or nil when there is no such
// pad.
func (s *Server) Environments(padID padapi.ID) []padapi.PadEnvironment {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.pad(padID)
	if ps == nil {
		return nil
	}
	out := []padapi.PadEnvironment{}
	for _, id := range ps.pad.PadEnvironmentIDs {
		if es := s.envs[id]; es != nil {
			out = append(out, s.renderEnvironment(es))
		}
	}
	return out
}

// Questions returns the stored questions in creation order, as the fake
// answers for them, as copies.
func (s *Server) Questions() []padapi.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]padapi.Question, len(s.questions))
	for i, qs := range s.questions {
		out[i] = s.renderQuestion(qs)
	}
	return out
}

// QuestionFiles returns copies of the files of a multi-file question (from
// question[file_contents] or a zip archive), which a pad started from it
// gets, or nil when it has none or there is no such question. A file that
// is not UTF-8 text has Binary set and no Contents.
func (s *Server) QuestionFiles(id padapi.ID) []padapi.FileContent {
	s.mu.Lock()
	defer s.mu.Unlock()
	if qs := s.question(id); qs != nil {
		return slices.Clone(qs.files)
	}
	return nil
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
		if id := padapi.ID(b); s.pad(id) == nil {
			return id
		}
	}
	panic("padapitest: no free pad ID after 100 tries")
}

// firstPadNumber is the internal number of a fake's first pad, shaped
// like the service's (88112233).
const firstPadNumber = 88112233

// newPadNumber returns the internal number of a new pad: one more than
// any pad's the fake holds. A deleted pad's number comes back only when
// nothing that carried it is left (its environments go with it).
func (s *Server) newPadNumber() int64 {
	n := int64(firstPadNumber)
	for _, ps := range s.pads {
		n = max(n, ps.number+1)
	}
	return n
}

func (s *Server) newQuestionID() padapi.ID {
	for s.question(padapi.ID(strconv.FormatInt(s.next.question, 10))) != nil {
		s.next.question++
	}
	id := padapi.ID(strconv.FormatInt(s.next.question, 10))
	s.next.question++
	return id
}

func (s *Server) newEnvID() padapi.ID {
	for s.envs[padapi.ID(strconv.FormatInt(s.next.env, 10))] != nil {
		s.next.env++
	}
	id := padapi.ID(strconv.FormatInt(s.next.env, 10))
	s.next.env++
	return id
}

// claimEnvID keeps new environment IDs above an integer ID given by a test.
func (s *Server) claimEnvID(id padapi.ID) {
	if n, err := strconv.ParseInt(string(id), 10, 64); err == nil && n >= s.next.env {
		s.next.env = n + 1
	}
}

func (s *Server) pad(id padapi.ID) *padState {
	i := slices.IndexFunc(s.pads, func(ps *padState) bool { return ps.pad.ID == id })
	if i < 0 {
		return nil
	}
	return s.pads[i]
}

func (s *Server) question(id padapi.ID) *questionState {
	i := slices.IndexFunc(s.questions, func(qs *questionState) bool { return qs.q.ID == id })
	if i < 0 {
		return nil
	}
	return s.questions[i]
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
}

// user returns the API key's user: the organization's first.
func (s *Server) user() padapi.OrganizationUser {
	if len(s.org.Users) == 0 {
		return padapi.OrganizationUser{}
	}
	return s.org.Users[0]
}

// userOrNamed returns the organization's user with that email, or a user
// known by the email alone.
func (s *Server) userOrNamed(email string) padapi.OrganizationUser {
	for _, u := range s.org.Users {
		if u.Email == email {
			return u
		}
	}
	return padapi.OrganizationUser{Email: email}
}

func (s *Server) hasUser(email string) bool {
	return slices.ContainsFunc(s.org.Users, func(u padapi.OrganizationUser) bool { return u.Email == email })
}

// event is something user did in a pad at a time: "Olivia Owner created the
// pad".
func (s *Server) event(kind, did string, user padapi.OrganizationUser, at time.Time) padapi.PadEvent {
	name := user.Name
	if name == "" {
		name = user.Email
	}
	if name == "" {
		name = "Someone"
	}
	return padapi.PadEvent{Message: name + " " + did, Kind: kind, UserName: user.Name, UserEmail: user.Email, CreatedAt: at}
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
	p.AllowedInterviewerEmails = slices.Clone(p.AllowedInterviewerEmails)
	p.InterviewerNotifications = slices.Clone(p.InterviewerNotifications)
	for i := range p.InterviewerNotifications {
		n := &p.InterviewerNotifications[i]
		n.DismissedAt, n.Useful = clonePtr(n.DismissedAt), clonePtr(n.Useful)
	}
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

func cloneEnvironment(e padapi.PadEnvironment) padapi.PadEnvironment {
	e.QuestionID = clonePtr(e.QuestionID)
	e.ExampleQuestionID = clonePtr(e.ExampleQuestionID)
	e.Files = slices.Clone(e.Files)
	return e
}
