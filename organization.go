package padapi

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"
)

// Organization is the organization of the API key's user.
type Organization struct {
	// ID identifies the organization (live responses only).
	ID ID `json:"id,omitempty"`
	// Name is the organization's name.
	Name string `json:"organization_name"`
	// UserCount counts its users.
	UserCount int `json:"user_count"`
	// Users are its users.
	Users []OrganizationUser `json:"users"`
	// DefaultLanguage is the language new pads start in. The service's
	// documentation calls it default_language and its live responses
	// organization_default_language; both decode, and it marshals as the
	// latter.
	DefaultLanguage string `json:"organization_default_language"`
	// SingleSignOnSupported reports whether users can sign in through SSO.
	SingleSignOnSupported bool `json:"single_sign_on_supported"`
	// SingleSignInURL is the SSO sign-in link, or "".
	SingleSignInURL string `json:"single_sign_in_url"`
	// Teams are its teams (live responses only).
	Teams []Team `json:"teams,omitzero"`
	// ChildOrganizations are its child organizations as the service sends
	// them (live responses only).
	ChildOrganizations json.RawMessage `json:"child_organizations,omitempty"`
}

// OrganizationUser is a user of an organization.
type OrganizationUser struct {
	// Email and Name identify the user.
	Email string `json:"email"`
	Name  string `json:"name"`
	// Teams are the names of the user's teams (live responses only).
	Teams []string `json:"teams,omitzero"`
}

// UnmarshalJSON reads an organization in either of the service's shapes.
func (o *Organization) UnmarshalJSON(b []byte) error {
	return decodeVia(b, o, (*organizationWire).organization)
}

type organizationAlias Organization

type organizationWire struct {
	wireStatus
	organizationAlias
	DocumentedDefaultLanguage string `json:"default_language"`
}

func (w *organizationWire) organization() Organization {
	o := Organization(w.organizationAlias)
	o.ChildOrganizations = nullRaw(o.ChildOrganizations)
	if o.DefaultLanguage == "" {
		o.DefaultLanguage = w.DocumentedDefaultLanguage
	}
	return o
}

func (w *organizationWire) missing() string {
	if w.ID == "" && w.Name == "" && w.UserCount == 0 && w.Users == nil {
		return "organization"
	}
	return ""
}

// OrganizationStats counts the pads created in a window of time.
type OrganizationStats struct {
	// StartTime and EndTime are the window the service counted over.
	StartTime time.Time `json:"start_time"`
	EndTime   time.Time `json:"end_time"`
	// PadsCreated counts the organization's pads created in the window.
	PadsCreated int `json:"pads_created"`
	// Users counts them per user.
	Users []UserStats `json:"users"`
}

// UserStats counts one user's pads in a window.
type UserStats struct {
	// Email and Name identify the user.
	Email string `json:"email"`
	Name  string `json:"name"`
	// PadsCreated counts the user's pads created in the window.
	PadsCreated int `json:"pads_created"`
}

// UnmarshalJSON reads stats with the service's timestamp forms.
func (s *OrganizationStats) UnmarshalJSON(b []byte) error {
	return decodeVia(b, s, (*statsWire).stats)
}

type statsAlias OrganizationStats

type statsWire struct {
	wireStatus
	statsAlias
	StartTime timestamp `json:"start_time"`
	EndTime   timestamp `json:"end_time"`
}

func (w *statsWire) stats() OrganizationStats {
	s := OrganizationStats(w.statsAlias)
	s.StartTime, s.EndTime = w.StartTime.Time, w.EndTime.Time
	return s
}

// missing: the service always returns the window it counted over.
func (w *statsWire) missing() string {
	if w.StartTime.IsZero() && w.EndTime.IsZero() {
		return "stats window"
	}
	return ""
}

// StatsOptions choose the window of Stats. Set both times or neither; the
// zero StatsOptions, like nil, means the service's default: the last 7 days.
type StatsOptions struct {
	Start, End time.Time
}

func (o *StatsOptions) query() (url.Values, error) {
	q := url.Values{}
	if o == nil || (o.Start.IsZero() && o.End.IsZero()) {
		return q, nil
	}
	if o.Start.IsZero() || o.End.IsZero() {
		return nil, argError("StatsOptions: set both Start and End, or neither")
	}
	if o.End.Before(o.Start) {
		return nil, argError("StatsOptions: End is before Start")
	}
	q.Set("start_time", o.Start.Format(time.RFC3339Nano))
	q.Set("end_time", o.End.Format(time.RFC3339Nano))
	return q, nil
}

// OrganizationService reads the caller's organization. Its endpoints need an
// organization owner (or an organization that lets users see all pads);
// otherwise they fail with ErrForbidden.
type OrganizationService service

// Get returns the organization (GET /api/organization).
func (s *OrganizationService) Get(ctx context.Context) (*Organization, error) {
	return one(ctx, s.client, request{method: http.MethodGet, path: "/api/organization"}, (*organizationWire).organization)
}

// Stats counts the pads created in a window (GET /api/organization/stats).
func (s *OrganizationService) Stats(ctx context.Context, opts *StatsOptions) (*OrganizationStats, error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	return one(ctx, s.client, request{method: http.MethodGet, path: "/api/organization/stats", query: q}, (*statsWire).stats)
}

// OrganizationPadListOptions choose the order and page of
// Organization.ListPads and Organization.AllPads. A nil value means the
// service's defaults: newest first, first page.
type OrganizationPadListOptions struct {
	// Sort is the order; "" means SortCreatedDesc.
	Sort Sort
	// Page is the 1-based page number; 0 means the first page.
	Page int
}

// ListPads returns one page of all of the organization's pads
// (GET /api/organization/pads).
func (s *OrganizationService) ListPads(ctx context.Context, opts *OrganizationPadListOptions) (*Page[Pad], error) {
	return list(ctx, s.client, "/api/organization/pads", "pads", pageOf(opts), (*padWire).pad)
}

// AllPads iterates over all of the organization's pads, fetching the next
// page while the loop reads the current one (see WithConcurrentPages). It
// stops at the first error, which it yields once.
func (s *OrganizationService) AllPads(ctx context.Context, opts *OrganizationPadListOptions) iter.Seq2[*Pad, error] {
	return all(ctx, s.client, "/api/organization/pads", "pads", pageOf(opts), (*padWire).pad)
}

// OrganizationQuestionListOptions choose the order and page of
// Organization.ListQuestions and Organization.AllQuestions. A nil value
// means the service's defaults: newest first, first page.
type OrganizationQuestionListOptions struct {
	// Sort is the order; "" means SortCreatedDesc.
	Sort Sort
	// Page is the 1-based page number; 0 means the first page.
	Page int
}

// ListQuestions returns one page of all of the organization's questions
// (GET /api/organization/questions).
func (s *OrganizationService) ListQuestions(ctx context.Context, opts *OrganizationQuestionListOptions) (*Page[Question], error) {
	return list(ctx, s.client, "/api/organization/questions", "questions", pageOf(opts), (*questionWire).question)
}

// AllQuestions iterates over all of the organization's questions, fetching
// the next page while the loop reads the current one (see
// WithConcurrentPages). It stops at the first error, which it yields once.
func (s *OrganizationService) AllQuestions(ctx context.Context, opts *OrganizationQuestionListOptions) iter.Seq2[*Question, error] {
	return all(ctx, s.client, "/api/organization/questions", "questions", pageOf(opts), (*questionWire).question)
}

// OrganizationUserListOptions filter Organization.ListUsers. A nil value
// lists every user.
type OrganizationUserListOptions struct {
	// Email, when not "", returns only the user with that email.
	Email string
}

// ListUsers returns the organization's users (GET /api/organization/users),
// or with opts.Email only that user. The service sends them in one answer,
// not in pages.
func (s *OrganizationService) ListUsers(ctx context.Context, opts *OrganizationUserListOptions) ([]OrganizationUser, error) {
	q := url.Values{}
	if opts != nil && opts.Email != "" {
		q.Set("email", opts.Email)
	}
	w := newPageWire[OrganizationUser]("users")
	if _, err := s.client.do(ctx, request{method: http.MethodGet, path: "/api/organization/users", query: q}, w); err != nil {
		return nil, err
	}
	return *w.items, nil
}
