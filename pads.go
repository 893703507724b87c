// pads.go: Pad, and the PadsService methods that read and write pads.

package padapi

import (
	"context"
	"iter"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
)

// Pad is a coding-interview pad.
//
// The service sends a pad's events in two shapes: an array of events (in its
// documented examples) or a link to them (in current live responses). Events
// holds the first and EventsURL the second; marshalling writes whichever is
// set, the link first. Pads.ListEvents reads the events in either case.
type Pad struct {
	// ID identifies the pad, as in /api/pads/ID (for example "DM32JWG2").
	ID ID `json:"id"`
	// Title is the pad's title.
	Title string `json:"title"`
	// OwnerEmail is the owner's email; it may be "".
	OwnerEmail string `json:"owner_email"`
	// Language is the pad's language ("ruby", "javascript", ...): an open
	// set, so new languages come through as they are.
	Language string `json:"language"`
	// Participants are the names people gave when they joined.
	Participants []string `json:"participants"`
	// Contents is the latest editor contents.
	Contents string `json:"contents"`
	// Notes are the interviewer's notes.
	Notes string `json:"notes"`
	// Events is what happened in the pad, when the service sends the list.
	Events []PadEvent `json:"-"`
	// EventsURL links to the events, when the service sends a link.
	EventsURL string `json:"-"`
	// Private pads are visible only to their owner.
	Private bool `json:"private"`
	// ExecutionEnabled reports whether code can be run in the pad.
	ExecutionEnabled bool `json:"execution_enabled"`
	// CreatedAt and UpdatedAt are when the pad was created and last changed.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// EndedAt is when the pad was ended; nil while it is open.
	EndedAt *time.Time `json:"ended_at"`
	// URL, Playback, History and Drawing are links; any may be "". History
	// is the pad's edit history (see PadsService.History).
	URL      string `json:"url"`
	Playback string `json:"playback"`
	History  string `json:"history"`
	Drawing  string `json:"drawing,omitempty"`

	// The fields below appear in live responses only.

	// State is the pad's state (for example "ended").
	State string `json:"state,omitempty"`
	// Type is the pad's type.
	Type string `json:"type,omitempty"`
	// QuestionIDs are the questions the pad uses.
	QuestionIDs []ID `json:"question_ids,omitzero"`
	// PadEnvironmentIDs are the pad's environments (see
	// PadsService.Environment): one per language or question it used.
	PadEnvironmentIDs []ID `json:"pad_environment_ids,omitzero"`
	// ActiveEnvironmentID is the environment in use, or nil.
	ActiveEnvironmentID *ID `json:"active_environment_id,omitempty"`
	// Team is the team the pad belongs to, or nil.
	Team *Team `json:"team,omitempty"`
	// RestrictInterviewerAccess is the pad's access setting, or nil.
	RestrictInterviewerAccess *bool `json:"restrict_interviewer_access,omitempty"`
	// AllowedInterviewerEmails is the pad's access list: nil when the
	// service sends none or null, empty when it sends [].
	AllowedInterviewerEmails []string `json:"allowed_interviewer_emails,omitzero"`
	// InterviewerNotifications are the notices the service showed the
	// interviewer.
	InterviewerNotifications []InterviewerNotification `json:"pad_interviewer_notifications,omitzero"`
}

// Team is a team of an organization.
type Team struct {
	// ID identifies the team.
	ID ID `json:"id"`
	// Name is the team's name.
	Name string `json:"name"`
}

// InterviewerNotification is a notice the service showed an interviewer
// in a pad.
type InterviewerNotification struct {
	// ID identifies the notification.
	ID ID `json:"id"`
	// Title, Message and Priority are what the notice said, and how urgent
	// it was.
	Title    string `json:"title"`
	Message  string `json:"message"`
	Priority string `json:"priority"`
	// RequestID identifies what raised it.
	RequestID string `json:"request_id"`
	// AutoDismissed reports whether the service dismissed it by itself.
	AutoDismissed bool `json:"auto_dismissed"`
	// DismissedAt is when it was dismissed, or nil.
	DismissedAt *time.Time `json:"dismissed_at"`
	// Useful is the interviewer's rating, or nil when not rated.
	Useful *bool `json:"useful"`
	// CreatedAt and UpdatedAt are when it was raised and last changed.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// MarshalJSON writes the pad in the service's shape: its ID a JSON string
// whatever it looks like (the service sends pad IDs so, "12345678" too),
// "events" as the link when EventsURL is set, else as the list.
func (p Pad) MarshalJSON() ([]byte, error) {
	type plain Pad // Pad's fields without its methods
	var events any
	switch {
	case p.EventsURL != "":
		events = p.EventsURL
	case p.Events != nil:
		events = p.Events
	}
	return marshal(struct {
		ID string `json:"id"`
		plain
		Events any `json:"events,omitzero"`
	}{string(p.ID), plain(p), events})
}

// MarshalJSON writes the team as the service sends it: its ID (a UUID) a
// JSON string whatever it looks like.
func (t Team) MarshalJSON() ([]byte, error) {
	return marshal(struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}{string(t.ID), t.Name})
}

// UnmarshalJSON reads a pad in any shape the service sends: "events" is a
// list of events (documented examples) or a link (live answers).
func (p *Pad) UnmarshalJSON(b []byte) error { return unmarshal(b, p) }

// unmarshalPad is Pad's decoder for json v2 (see decodeOptions).
func unmarshalPad(dec *jsontext.Decoder, p *Pad) error {
	type plain Pad // Pad's fields without its methods
	var w struct {
		plain
		Events padEvents `json:"events"`
	}
	if err := json.UnmarshalDecode(dec, &w); err != nil {
		return err
	}
	*p = Pad(w.plain)
	p.Events, p.EventsURL = w.Events.list, w.Events.link
	return nil
}

// padEvents is a pad's "events" in either of its shapes.
type padEvents struct {
	list []PadEvent
	link string
}

// UnmarshalJSONFrom reads "events" as a link or a list; null is neither.
// (padEvents is unexported: its methods are not part of the API.)
func (e *padEvents) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	switch dec.PeekKind() {
	case '"':
		tok, err := dec.ReadToken()
		e.link = tok.String()
		return err
	case '[':
		return json.UnmarshalDecode(dec, &e.list)
	case 'n':
		_, err := dec.ReadToken()
		return err
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return jsonerr.Bad("events", v)
}

// PadListOptions choose the order and page of Pads.List and Pads.All. A nil
// *PadListOptions means the service's defaults: newest first, first page.
type PadListOptions ListOptions

// List returns one page of the caller's pads (GET /api/pads). List values can
// lag up to about a minute behind Get.
func (s *PadsService) List(ctx context.Context, opts *PadListOptions) (*Page[Pad], error) {
	return list[Pad](ctx, s.client, "/api/pads", "pads", (*ListOptions)(opts).query())
}

// All iterates over all of the caller's pads, page by page of
// GET /api/pads, fetching the next page while the loop reads the current
// one (see WithConcurrentPages). It stops at the first error, which it
// yields once.
func (s *PadsService) All(ctx context.Context, opts *PadListOptions) iter.Seq2[*Pad, error] {
	return all[Pad](ctx, s.client, "/api/pads", "pads", (*ListOptions)(opts).query())
}

// Get returns one pad (GET /api/pads/ID).
func (s *PadsService) Get(ctx context.Context, id ID) (*Pad, error) {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return nil, err
	}
	return get[Pad](ctx, s.client, &request{method: http.MethodGet, path: path, need: "id", what: "pad"})
}

// PadCreateParams are the fields of a new pad; nil fields are not sent and
// take the service's defaults.
type PadCreateParams struct {
	// Title defaults to "Untitled Pad [ID]".
	Title *string
	// Language defaults to the account's default, else plaintext.
	Language *string
	// Contents defaults to the language's example code. It cannot be
	// combined with QuestionID.
	Contents *string
	// QuestionID starts the pad from a question, whose language and
	// contents become the pad's.
	QuestionID *ID
	// Private and ExecutionEnabled default from the account's settings.
	Private          *bool
	ExecutionEnabled *bool
	// UserEmail makes that user of the organization the pad's owner.
	UserEmail *string
	// Notes are the interviewer's notes.
	Notes *string
	// TeamID puts the pad in a team (organization owners only).
	TeamID *ID
	// RestrictInterviewerAccess lets only AllowedInterviewerEmails (and
	// the owner) in as interviewers.
	RestrictInterviewerAccess *bool
	// AllowedInterviewerEmails is the pad's access list; nil sends none.
	// Non-nil, even empty, sends the body as JSON (see PadUpdateParams).
	AllowedInterviewerEmails []string
	// DisableCoachingTips turns the interviewer's coaching tips off.
	DisableCoachingTips *bool
	// TakeHome makes it a take-home pad, with a time limit of
	// TakeHomeMinutes whole minutes (more than 0).
	TakeHome        *bool
	TakeHomeMinutes *int
	// AIAssistEnabled turns the pad's AI assistant on or off.
	AIAssistEnabled *bool
}

// encode returns the body the service takes (see padWire).
func (p *PadCreateParams) encode() (*body, error) {
	if p == nil {
		return (&padWire{}).encode()
	}
	if p.Contents != nil && p.QuestionID != nil {
		return nil, argError("PadCreateParams: Contents and QuestionID cannot be combined")
	}
	if p.TakeHomeMinutes != nil && *p.TakeHomeMinutes <= 0 {
		return nil, argError("PadCreateParams: TakeHomeMinutes must be more than 0")
	}
	return (&padWire{
		Title: p.Title, Language: p.Language, Contents: p.Contents, QuestionID: p.QuestionID,
		Private: p.Private, ExecutionEnabled: boolText(p.ExecutionEnabled), UserEmail: p.UserEmail, Notes: p.Notes,
		TeamID: p.TeamID, RestrictInterviewerAccess: p.RestrictInterviewerAccess,
		AllowedInterviewerEmails: p.AllowedInterviewerEmails, DisableCoachingTips: p.DisableCoachingTips,
		TakeHome: p.TakeHome, TakeHomeMinutes: p.TakeHomeMinutes, AIAssistEnabled: p.AIAssistEnabled,
	}).encode()
}

// padWire is the body of a pad create or update, one description for its
// two encodings: the flat form (title=...&private=true), or, when the access
// list is sent (even empty, which clears it), JSON {"pad":{...}} with the
// same fields, booleans and numbers as JSON's but execution_enabled, which
// the service reads only as the string "true" or "false".
type padWire struct {
	Title                     *string  `json:"title,omitzero"`
	Language                  *string  `json:"language,omitzero"`
	Contents                  *string  `json:"contents,omitzero"`
	QuestionID                *ID      `json:"question_id,omitzero"`
	Private                   *bool    `json:"private,omitzero"`
	ExecutionEnabled          *string  `json:"execution_enabled,omitzero"`
	UserEmail                 *string  `json:"user_email,omitzero"`
	Notes                     *string  `json:"notes,omitzero"`
	Ended                     *bool    `json:"ended,omitzero"`
	TeamID                    *ID      `json:"team_id,omitzero"`
	RestrictInterviewerAccess *bool    `json:"restrict_interviewer_access,omitzero"`
	AllowedInterviewerEmails  []string `json:"allowed_interviewer_emails,omitzero"`
	DisableCoachingTips       *bool    `json:"disable_coaching_tips,omitzero"`
	TakeHome                  *bool    `json:"take_home,omitzero"`
	TakeHomeMinutes           *int     `json:"take_home_time_limit,omitzero"`
	AIAssistEnabled           *bool    `json:"ai_assist_enabled,omitzero"`
}

func (w *padWire) encode() (*body, error) {
	for name, id := range map[string]*ID{"question_id": w.QuestionID, "team_id": w.TeamID} {
		if id != nil && *id == "" {
			return nil, argError(name + " is an empty ID")
		}
	}
	if w.AllowedInterviewerEmails != nil {
		return jsonBody(struct {
			Pad *padWire `json:"pad"`
		}{w})
	}
	// The form has the fields set, by their JSON names, each as its text.
	var f form
	v := reflect.ValueOf(w).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		switch x := v.Field(i).Interface().(type) {
		case *string:
			f.setString(name, x)
		case *bool:
			f.setBool(name, x)
		case *ID:
			f.setString(name, (*string)(x))
		case *int:
			if x != nil {
				f.set(name, strconv.Itoa(*x))
			}
		}
	}
	return f.encode(), nil
}

// boolText is *b as the text "true" or "false", or nil.
func boolText(b *bool) *string {
	if b == nil {
		return nil
	}
	return Ptr(strconv.FormatBool(*b))
}

// Create creates a pad (POST /api/pads) and returns it. It counts against the
// quota: when the quota is spent the error matches ErrOverQuota.
//
// Create is never retried once the request may have reached the service, so
// one call never creates two pads. When no definite answer came back (a 5xx,
// a timeout, a dropped connection, an answer without the pad) the error
// matches ErrOutcomeUnknown: the pad may exist, so look (Pads.List, which
// lags about a minute) before creating again.
func (s *PadsService) Create(ctx context.Context, params *PadCreateParams) (*Pad, error) {
	b, err := params.encode()
	if err != nil {
		return nil, err
	}
	return get[Pad](ctx, s.client, &request{method: http.MethodPost, path: "/api/pads", body: b, quota: true, need: "id", what: "pad"})
}

// PadUpdateParams are the fields to change; nil fields are left as they are.
//
// The body is the flat form the service takes, unless
// AllowedInterviewerEmails is non-nil (even empty, which clears the list):
// then it is JSON {"pad":{...}} holding every field set.
type PadUpdateParams struct {
	// Title, Language, Contents, Notes, Private and ExecutionEnabled
	// replace the pad's fields of the same names.
	Title            *string
	Language         *string
	Contents         *string
	Notes            *string
	Private          *bool
	ExecutionEnabled *bool
	// Ended, when true, ends the pad: the interview is over.
	Ended *bool
	// UserEmail makes that user of the organization the pad's new owner.
	UserEmail *string
	// RestrictInterviewerAccess, AllowedInterviewerEmails and
	// DisableCoachingTips replace the settings of PadCreateParams' names.
	RestrictInterviewerAccess *bool
	AllowedInterviewerEmails  []string
	DisableCoachingTips       *bool
}

// encode returns the body the service takes (see padWire).
func (p *PadUpdateParams) encode() (*body, error) {
	if p == nil {
		return (&padWire{}).encode()
	}
	return (&padWire{
		Title: p.Title, Language: p.Language, Contents: p.Contents, Notes: p.Notes,
		Private: p.Private, ExecutionEnabled: boolText(p.ExecutionEnabled), Ended: p.Ended,
		UserEmail: p.UserEmail, RestrictInterviewerAccess: p.RestrictInterviewerAccess,
		AllowedInterviewerEmails: p.AllowedInterviewerEmails, DisableCoachingTips: p.DisableCoachingTips,
	}).encode()
}

// Update changes a pad (PUT /api/pads/ID) and returns it as it is after the
// change. When the service answers with a status only or an empty body,
// Update fetches the pad, so it returns a pad or an error, never neither.
func (s *PadsService) Update(ctx context.Context, id ID, params *PadUpdateParams) (*Pad, error) {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return nil, err
	}
	b, err := params.encode()
	if err != nil {
		return nil, err
	}
	p, err := get[Pad](ctx, s.client, &request{method: http.MethodPut, path: path, body: b, need: "id", what: "pad"})
	if err != nil || p != nil {
		return p, err
	}
	return s.Get(ctx, id)
}

// Delete deletes a pad (PUT /api/pads/ID with deleted=true, as the service
// takes it). When an attempt got no definite answer and the retry finds the
// pad gone (404), the first attempt deleted it: Delete succeeds.
func (s *PadsService) Delete(ctx context.Context, id ID) error {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return err
	}
	var f form
	f.set("deleted", "true")
	_, err = s.client.do(ctx, &request{method: http.MethodPut, path: path, body: f.encode(), gone: true}, nil)
	return err
}
