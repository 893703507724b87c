package padapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"reflect"
	"time"
	"unicode/utf8"
)

// Pad is a coding-interview pad.
//
// The service sends a pad's events in two shapes: an array of events (in its
// documented examples) or a link to them (in current live responses). Events
// holds the first and EventsURL the second; marshalling writes whichever is
// set, the link first.
type Pad struct {
	// ID identifies the pad, as in /api/pads/ID (for example "DM32JWG2").
	ID string `json:"id"`
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
	// URL, Playback, History and Drawing are links; any may be "".
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
	QuestionIDs []int64 `json:"question_ids,omitzero"`
	// PadEnvironmentIDs are the pad's environments.
	PadEnvironmentIDs []int64 `json:"pad_environment_ids,omitzero"`
	// ActiveEnvironmentID is the environment in use, or nil.
	ActiveEnvironmentID *int64 `json:"active_environment_id,omitempty"`
	// Team is the team the pad belongs to, or nil.
	Team *Team `json:"team,omitempty"`
	// RestrictInterviewerAccess is the pad's access setting, or nil.
	RestrictInterviewerAccess *bool `json:"restrict_interviewer_access,omitempty"`
}

// PadEvent is one thing that happened in a pad.
type PadEvent struct {
	// Message describes the event for people.
	Message string `json:"message"`
	// Kind is "joined", "left", "ran" or another kind; unknown kinds come
	// through as they are.
	Kind string `json:"kind"`
	// Metadata is extra detail, such as the language that ran; "" when none.
	Metadata string `json:"metadata"`
	// UserName and UserEmail name who did it; UserEmail may be "".
	UserName  string `json:"user_name"`
	UserEmail string `json:"user_email"`
	// CreatedAt is when it happened.
	CreatedAt time.Time `json:"created_at"`
}

// Team is a team of an organization.
type Team struct {
	// ID identifies the team.
	ID ID `json:"id"`
	// Name is the team's name.
	Name string `json:"name"`
}

// MarshalJSON writes the pad in the service's shape, with "events" as the
// link when EventsURL is set, else as the list.
func (p Pad) MarshalJSON() ([]byte, error) {
	var events any
	switch {
	case p.EventsURL != "":
		events = p.EventsURL
	case p.Events != nil:
		events = p.Events
	}
	return json.Marshal(struct {
		padAlias
		Events any `json:"events,omitempty"`
	}{padAlias(p), events})
}

// UnmarshalJSON reads a pad in any shape the service sends.
func (p *Pad) UnmarshalJSON(b []byte) error { return decodeVia(b, p, (*padWire).pad) }

// UnmarshalJSON reads an event with the service's timestamp forms.
func (e *PadEvent) UnmarshalJSON(b []byte) error { return decodeVia(b, e, (*eventWire).event) }

type padAlias Pad

type padWire struct {
	wireStatus
	padAlias
	Events    padEvents  `json:"events"`
	CreatedAt timestamp  `json:"created_at"`
	UpdatedAt timestamp  `json:"updated_at"`
	EndedAt   *timestamp `json:"ended_at"`
}

func (w *padWire) pad() Pad {
	p := Pad(w.padAlias)
	p.Events, p.EventsURL = w.Events.list, w.Events.url
	p.CreatedAt, p.UpdatedAt, p.EndedAt = w.CreatedAt.Time, w.UpdatedAt.Time, w.EndedAt.ptr()
	return p
}

type eventAlias PadEvent

type eventWire struct {
	eventAlias
	CreatedAt timestamp `json:"created_at"`
}

func (w *eventWire) event() PadEvent {
	e := PadEvent(w.eventAlias)
	e.CreatedAt = w.CreatedAt.Time
	return e
}

// padEvents is "events" in either of its shapes.
type padEvents struct {
	list []PadEvent
	url  string
}

// UnmarshalJSON reads "events" as a link or a list. The list is decoded by
// hand: it is most of a documented pad's bytes, and encoding/json would scan
// it twice more (once to find its end, once more to validate it) before
// decoding. encoding/json has validated b before calling this, so the walk
// below can trust the JSON's structure.
func (e *padEvents) UnmarshalJSON(b []byte) error {
	// A body that repeats the key ("events", then "EVENTS") calls this
	// twice: the last one wins, as for every other field.
	*e = padEvents{}
	switch b[0] {
	case 'n':
		return nil
	case '"':
		return json.Unmarshal(b, &e.url)
	case '[':
		return decodeEvents(b, &e.list)
	}
	return &json.UnmarshalTypeError{Value: "events " + quoteShort(b), Type: reflect.TypeFor[[]PadEvent]()}
}

// decodeEvents decodes a valid JSON array of event objects into *out.
func decodeEvents(b []byte, out *[]PadEvent) error {
	list := make([]PadEvent, 0, bytes.Count(b, []byte("{")))
	w := jsonWalker{b: b, i: 1}
	for c := w.next(); c != ']' && c != 0; c = w.next() {
		if c == 'n' { // null decodes as the zero event, as encoding/json does
			w.value()
			list = append(list, PadEvent{})
			continue
		}
		if c != '{' {
			return &json.UnmarshalTypeError{Value: "event " + quoteShort(w.value()), Type: reflect.TypeFor[PadEvent]()}
		}
		var e PadEvent
		w.i++
		for c := w.next(); c != '}' && c != 0; c = w.next() {
			key := w.value()
			w.next() // the colon
			w.i++
			w.next()
			if err := e.set(key, w.value()); err != nil {
				return err
			}
		}
		w.i++
		list = append(list, e)
	}
	*out = list
	return nil
}

// set stores one field of an event from its raw key and value.
func (e *PadEvent) set(key, val []byte) error {
	var dst *string
	// encoding/json matches keys without regard to case; so does this.
	k := key[1 : len(key)-1]
	if bytes.IndexByte(k, '\\') >= 0 {
		k = []byte(unquote(key))
	}
	switch {
	case bytes.EqualFold(k, []byte("message")):
		dst = &e.Message
	case bytes.EqualFold(k, []byte("kind")):
		dst = &e.Kind
	case bytes.EqualFold(k, []byte("metadata")):
		dst = &e.Metadata
	case bytes.EqualFold(k, []byte("user_name")):
		dst = &e.UserName
	case bytes.EqualFold(k, []byte("user_email")):
		dst = &e.UserEmail
	case bytes.EqualFold(k, []byte("created_at")):
		var t timestamp
		if err := t.UnmarshalJSON(val); err != nil {
			return err
		}
		e.CreatedAt = t.Time
		return nil
	default:
		return nil // unknown fields are ignored, as encoding/json does
	}
	switch val[0] {
	case 'n':
		*dst = ""
	case '"':
		*dst = unquote(val)
	default:
		return &json.UnmarshalTypeError{Value: quoteShort(val), Type: reflect.TypeFor[string](), Field: string(k)}
	}
	return nil
}

// unquote returns the text of a valid JSON string literal.
func unquote(lit []byte) string {
	if bytes.IndexByte(lit, '\\') < 0 && utf8.Valid(lit) {
		return string(lit[1 : len(lit)-1])
	}
	var s string
	_ = json.Unmarshal(lit, &s) // valid by contract
	return s
}

// jsonWalker steps through JSON that encoding/json has already validated.
type jsonWalker struct {
	b []byte
	i int
}

// next skips white space and commas and returns the byte it stops at.
func (w *jsonWalker) next() byte {
	for ; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r', ',':
		default:
			return w.b[w.i]
		}
	}
	return 0
}

// value returns the value that starts at the current position (a string,
// an object or array with all it holds, or a literal) and moves past it.
func (w *jsonWalker) value() []byte {
	start, depth := w.i, 0
	for ; w.i < len(w.b); w.i++ {
		switch w.b[w.i] {
		case '"':
			for w.i++; w.i < len(w.b) && w.b[w.i] != '"'; w.i++ {
				if w.b[w.i] == '\\' {
					w.i++
				}
			}
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
			if depth < 0 { // the end of the enclosing value ends a literal
				return w.b[start:w.i]
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return w.b[start:w.i]
			}
			continue
		default:
			continue
		}
		if depth == 0 {
			w.i++
			return w.b[start:min(w.i, len(w.b))]
		}
	}
	return w.b[start:]
}

// decodeVia decodes b into the wire type W and converts it into *out.
func decodeVia[W, T any](b []byte, out *T, conv func(*W) T) error {
	var w W
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*out = conv(&w)
	return nil
}

// PadsService lists, reads, creates and updates pads.
type PadsService service

// List returns one page of the caller's pads (GET /api/pads). List values can
// lag up to about a minute behind Get.
func (s *PadsService) List(ctx context.Context, opts *PadListOptions) (*Page[Pad], error) {
	return list(ctx, s.client, "/api/pads", opts.query(), (*padWire).pad)
}

// All iterates over all of the caller's pads, fetching each page of
// GET /api/pads only when the loop reaches it. It stops at the first error,
// which it yields once.
func (s *PadsService) All(ctx context.Context, opts *PadListOptions) iter.Seq2[*Pad, error] {
	return all(ctx, s.client, "/api/pads", opts, (*padWire).pad)
}

// Get returns one pad (GET /api/pads/ID).
func (s *PadsService) Get(ctx context.Context, id string) (*Pad, error) {
	return byID(ctx, s.client, http.MethodGet, "/api/pads", id, nil, (*padWire).pad)
}

// PadCreateParams are the fields of a new pad; nil fields are not sent and
// take the service's defaults.
type PadCreateParams struct {
	// Title defaults to "Untitled Pad [ID]".
	Title *string `form:"title"`
	// Language defaults to the account's default, else plaintext.
	Language *string `form:"language"`
	// Contents defaults to the language's example code. It cannot be
	// combined with QuestionID.
	Contents *string `form:"contents"`
	// QuestionID starts the pad from a question, whose language and
	// contents become the pad's.
	QuestionID *string `form:"question_id"`
	// Private and ExecutionEnabled default from the account's settings.
	Private          *bool `form:"private"`
	ExecutionEnabled *bool `form:"execution_enabled"`
	// UserEmail makes that user of the organization the pad's owner.
	UserEmail *string `form:"user_email"`
}

// Create creates a pad (POST /api/pads) and returns it. It counts against the
// quota: when the quota is spent the error matches ErrOverQuota.
//
// Create is never retried once the request may have reached the service, so
// one call never creates two pads. When no definite answer came back (a 5xx,
// a timeout, a dropped connection) the error matches ErrOutcomeUnknown: the
// pad may exist, so look (Pads.List) before creating again.
func (s *PadsService) Create(ctx context.Context, params *PadCreateParams) (*Pad, error) {
	if params != nil && params.Contents != nil && params.QuestionID != nil {
		return nil, errors.New("padapi: PadCreateParams: Contents and QuestionID cannot be combined")
	}
	return one(ctx, s.client, http.MethodPost, "/api/pads", nil, formValues(params), (*padWire).pad)
}

// PadUpdateParams are the fields to change; nil fields are left as they are.
type PadUpdateParams struct {
	Title            *string `form:"title"`
	Language         *string `form:"language"`
	Contents         *string `form:"contents"`
	Notes            *string `form:"notes"`
	Private          *bool   `form:"private"`
	ExecutionEnabled *bool   `form:"execution_enabled"`
	// Ended, when true, ends the pad.
	Ended *bool `form:"ended"`
}

// Update changes a pad (PUT /api/pads/ID) and returns it as it is after the
// change. When the service answers with a status only, Update fetches the
// pad, so it returns a pad or an error, never neither.
func (s *PadsService) Update(ctx context.Context, id string, params *PadUpdateParams) (*Pad, error) {
	p, err := byID(ctx, s.client, http.MethodPut, "/api/pads", id, formValues(params), (*padWire).pad)
	if err != nil || p.ID != "" {
		return p, err
	}
	return s.Get(ctx, id)
}
