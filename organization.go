package padapi

import (
	"context"
	"encoding/json"
	"errors"
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
	if string(o.ChildOrganizations) == "null" {
		// encoding/json hands a RawMessage the literal null; the field
		// promises nil.
		o.ChildOrganizations = nil
	}
	if o.DefaultLanguage == "" {
		o.DefaultLanguage = w.DocumentedDefaultLanguage
	}
	return o
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
		return nil, errors.New("padapi: StatsOptions: set both Start and End, or neither")
	}
	if o.End.Before(o.Start) {
		return nil, errors.New("padapi: StatsOptions: End is before Start")
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
	return one(ctx, s.client, http.MethodGet, "/api/organization", nil, nil, (*organizationWire).organization)
}

// Stats counts the pads created in a window (GET /api/organization/stats).
func (s *OrganizationService) Stats(ctx context.Context, opts *StatsOptions) (*OrganizationStats, error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	return one(ctx, s.client, http.MethodGet, "/api/organization/stats", q, nil, (*statsWire).stats)
}

// Pads returns one page of all of the organization's pads
// (GET /api/organization/pads).
func (s *OrganizationService) Pads(ctx context.Context, opts *PadListOptions) (*Page[Pad], error) {
	return list(ctx, s.client, "/api/organization/pads", opts.query(), (*padWire).pad)
}

// AllPads iterates over all of the organization's pads, a page at a time as
// the loop reaches it.
func (s *OrganizationService) AllPads(ctx context.Context, opts *PadListOptions) iter.Seq2[*Pad, error] {
	return all(ctx, s.client, "/api/organization/pads", opts, (*padWire).pad)
}

// Questions returns one page of all of the organization's questions
// (GET /api/organization/questions).
func (s *OrganizationService) Questions(ctx context.Context, opts *QuestionListOptions) (*Page[Question], error) {
	return list(ctx, s.client, "/api/organization/questions", opts.query(), (*questionWire).question)
}

// AllQuestions iterates over all of the organization's questions, a page at
// a time as the loop reaches it.
func (s *OrganizationService) AllQuestions(ctx context.Context, opts *QuestionListOptions) iter.Seq2[*Question, error] {
	return all(ctx, s.client, "/api/organization/questions", opts, (*questionWire).question)
}
