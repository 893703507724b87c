package padapi

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"reflect"
	"time"
	"unicode/utf8"
)

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

// UnmarshalJSON reads an event with the service's timestamp forms.
func (e *PadEvent) UnmarshalJSON(b []byte) error { return decodeVia(b, e, (*eventWire).event) }

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
	if val[0] == 'n' {
		// null changes nothing, as in encoding/json: a key repeated
		// with null keeps the value it had.
		return nil
	}
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
	if val[0] != '"' {
		return &json.UnmarshalTypeError{Value: quoteShort(val), Type: reflect.TypeFor[string](), Field: string(k)}
	}
	*dst = unquote(val)
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

// PadEventListOptions choose the order and page of Pads.ListEvents and
// Pads.AllEvents. A nil *PadEventListOptions means the service's defaults.
type PadEventListOptions struct {
	// Sort is the order; "" leaves it to the service.
	Sort Sort
	// Page is the 1-based page number; 0 means the first page.
	Page int
}

// ListEvents returns one page of a pad's event log (GET /api/pads/ID/events):
// who joined and left, what ran.
func (s *PadsService) ListEvents(ctx context.Context, id ID, opts *PadEventListOptions) (*Page[PadEvent], error) {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return nil, err
	}
	return list(ctx, s.client, path+"/events", "events", pageOf(opts), (*eventWire).event)
}

// AllEvents iterates over a pad's whole event log, page by page of
// GET /api/pads/ID/events, fetching the next page while the loop reads
// the current one (see WithConcurrentPages). It stops at the first error,
// which it yields once.
func (s *PadsService) AllEvents(ctx context.Context, id ID, opts *PadEventListOptions) iter.Seq2[*PadEvent, error] {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return func(yield func(*PadEvent, error) bool) { yield(nil, err) }
	}
	return all(ctx, s.client, path+"/events", "events", pageOf(opts), (*eventWire).event)
}
