// organization.go: Organization, its stats, pads, questions and users.

package padapi

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"

	json2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
	// Teams are the IDs of the user's teams, as in Organization.Teams
	// (live responses only).
	Teams []string `json:"teams,omitzero"`
}

// UnmarshalJSON reads an organization in either of the service's shapes:
// the default language comes as organization_default_language (live
// answers) or default_language (the documentation's example).
func (o *Organization) UnmarshalJSON(b []byte) error { return unmarshal(b, o) }

// unmarshalOrganization is Organization's decoder for json v2 (see
// decodeOptions).
func unmarshalOrganization(dec *jsontext.Decoder, o *Organization) error {
	type plain Organization // Organization's fields without its methods
	var w struct {
		plain
		DocumentedDefaultLanguage string `json:"default_language"`
	}
	if err := json2.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	*o = Organization(w.plain)
	if string(o.ChildOrganizations) == "null" {
		o.ChildOrganizations = nil // absent and null are the same: none
	}
	if o.DefaultLanguage == "" {
		o.DefaultLanguage = w.DocumentedDefaultLanguage
	}
	return nil
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

// Get returns the organization (GET /api/organization).
func (s *OrganizationService) Get(ctx context.Context) (*Organization, error) {
	return get[Organization](ctx, s.client, &request{method: http.MethodGet, path: "/api/organization", what: "organization"})
}

// Stats counts the pads created in a window (GET /api/organization/stats).
func (s *OrganizationService) Stats(ctx context.Context, opts *StatsOptions) (*OrganizationStats, error) {
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	return get[OrganizationStats](ctx, s.client, &request{method: http.MethodGet, path: "/api/organization/stats", query: q, need: "start_time", what: "stats window"})
}

// OrganizationPadListOptions choose the order and page of
// Organization.ListPads and Organization.AllPads. A nil value means the
// service's defaults: newest first, first page.
type OrganizationPadListOptions ListOptions

// ListPads returns one page of all of the organization's pads
// (GET /api/organization/pads).
func (s *OrganizationService) ListPads(ctx context.Context, opts *OrganizationPadListOptions) (*Page[Pad], error) {
	return list[Pad](ctx, s.client, "/api/organization/pads", "pads", (*ListOptions)(opts).query())
}

// AllPads iterates over all of the organization's pads, fetching the next
// page while the loop reads the current one (see WithConcurrentPages). It
// stops at the first error, which it yields once.
func (s *OrganizationService) AllPads(ctx context.Context, opts *OrganizationPadListOptions) iter.Seq2[*Pad, error] {
	return all[Pad](ctx, s.client, "/api/organization/pads", "pads", (*ListOptions)(opts).query())
}

// OrganizationQuestionListOptions choose the order and page of
// Organization.ListQuestions and Organization.AllQuestions. A nil value
// means the service's defaults: newest first, first page.
type OrganizationQuestionListOptions ListOptions

// ListQuestions returns one page of all of the organization's questions
// (GET /api/organization/questions).
func (s *OrganizationService) ListQuestions(ctx context.Context, opts *OrganizationQuestionListOptions) (*Page[Question], error) {
	return list[Question](ctx, s.client, "/api/organization/questions", "questions", (*ListOptions)(opts).query())
}

// AllQuestions iterates over all of the organization's questions, fetching
// the next page while the loop reads the current one (see
// WithConcurrentPages). It stops at the first error, which it yields once.
func (s *OrganizationService) AllQuestions(ctx context.Context, opts *OrganizationQuestionListOptions) iter.Seq2[*Question, error] {
	return all[Question](ctx, s.client, "/api/organization/questions", "questions", (*ListOptions)(opts).query())
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
	p, err := list[OrganizationUser](ctx, s.client, "/api/organization/users", "users", q)
	if err != nil {
		return nil, err
	}
	return p.Items, nil
}
