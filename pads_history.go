// pads_history.go: History, fetching an edit-history link and replaying it.

package padapi

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"time"
	"unicode/utf16"

	"github.com/padinterview/padapi/internal/lib/pathcheck"
	"github.com/padinterview/padapi/internal/lib/rope"
)

// History is the edit history of a pad's file: every change the editor
// recorded, in the order they apply (by time, then entry ID). Replay
// rebuilds the file's text from it; ReplayUntil rebuilds the text as it was
// at a moment of the interview.
//
// The service links each file's history (FileContent.History, Pad.History);
// PadsService.History fetches and decodes it. A History also decodes from
// the document itself with json.Unmarshal, and marshals back to it.
type History struct {
	// Entries are the recorded changes in apply order.
	Entries []HistoryEntry
}

// HistoryEntry is one recorded change: operations that rewrite the text
// from its start.
type HistoryEntry struct {
	// ID identifies the entry; it breaks ties between entries with the same
	// Time.
	ID string
	// Author identifies who made the change, as the editor recorded it.
	Author string
	// Time is when the change was made: the document's milliseconds since
	// 1970, a fraction of one rounded to the nearest nanosecond (a half
	// to the later one), in UTC.
	Time time.Time
	// Ops are the change's operations, applied from the start of the text.
	Ops []HistoryOp
}

// HistoryOp is one operation of an entry: exactly one of its fields is set.
// Retain keeps the next Retain characters, Delete removes the next Delete
// characters, Insert inserts its text. Counts are in UTF-16 code units, as
// the JavaScript editor counts: a character outside the Basic Multilingual
// Plane, such as most emoji, counts 2. Text after the last operation is
// kept.
type HistoryOp struct {
	Retain int
	Delete int
	Insert string
}

// Replay applies every entry to an empty text and returns the result: the
// file's text at the end of the history. An operation that runs past the
// end of the text is an error naming the entry. Its time grows with the
// operations and the text they insert (each operation a walk down a
// shallow tree), not with the text's length times the entries; unlike
// ReplayContext, it cannot be stopped.
func (h *History) Replay() (string, error) {
	return h.replay(context.Background(), nil)
}

// ReplayUntil applies the entries up to the last one at or before t and
// returns the text as it was then: what the candidate had written at that
// moment.
func (h *History) ReplayUntil(t time.Time) (string, error) {
	return h.replay(context.Background(), &t)
}

// ReplayContext is Replay, stopped when ctx ends: it then returns an
// error that wraps ctx.Err(). It looks at ctx before it starts and every
// few thousand operations, which costs next to nothing, so a deadline or
// a cancellation stops even the replay of a long history promptly (a
// million operations take about a tenth of a second). A nil ctx is an
// error matching ErrInvalidArgument.
func (h *History) ReplayContext(ctx context.Context) (string, error) {
	return h.replay(ctx, nil)
}

// ReplayUntilContext is ReplayUntil, stopped when ctx ends, as
// ReplayContext is.
func (h *History) ReplayUntilContext(ctx context.Context, t time.Time) (string, error) {
	return h.replay(ctx, &t)
}

// replayCheckEvery is how many operations (an entry counts as one) a
// replay applies between two looks at its context.
const replayCheckEvery = 4096

// replay applies the entries up to the last at or before until (every
// entry when until is nil).
func (h *History) replay(ctx context.Context, until *time.Time) (string, error) {
	if ctx == nil {
		return "", argError("nil context")
	}
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("padapi: history replay: %w", err)
	}
	var (
		text    rope.Rope
		scratch []uint16
		steps   int
	)
	for _, e := range h.Entries {
		if until != nil && e.Time.After(*until) {
			break
		}
		var err error
		if scratch, steps, err = e.apply(ctx, &text, scratch, steps); err != nil {
			return "", err
		}
	}
	return string(utf16.Decode(text.Units())), nil
}

// apply makes e's operations on text. scratch is room for an insert's
// code units; steps counts operations towards the next look at ctx.
func (e *HistoryEntry) apply(ctx context.Context, text *rope.Rope, scratch []uint16, steps int) ([]uint16, int, error) {
	pos := 0
	for i, op := range e.Ops {
		if err := e.checkStep(ctx, &steps); err != nil {
			return nil, 0, err
		}
		var why string
		if pos, scratch, why = text.Apply(pos, op.Retain, op.Delete, op.Insert, scratch); why != "" {
			// The ID is cut short: it comes from the document, and can
			// be as long as it.
			return nil, 0, fmt.Errorf("padapi: history entry %q, operation %d: %s", quoteShort([]byte(e.ID)), i, why)
		}
	}
	// An entry with no operations still counts, so that a history of
	// empty entries is stopped too.
	if err := e.checkStep(ctx, &steps); err != nil {
		return nil, 0, err
	}
	return scratch, steps, nil
}

// checkStep counts one step of the replay, and looks at ctx every
// replayCheckEvery steps.
func (e *HistoryEntry) checkStep(ctx context.Context, steps *int) error {
	if *steps++; *steps%replayCheckEvery == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("padapi: history replay, at entry %q: %w", quoteShort([]byte(e.ID)), err)
		}
	}
	return nil
}

// historyEntryWire is an entry as the history document holds it.
type historyEntryWire struct {
	Author token           `json:"a"`
	Ops    []HistoryOp     `json:"o"`
	Time   json.RawMessage `json:"t"`
}

// UnmarshalJSON reads a history document: null (no edits) or an object of
// entries keyed by entry ID. An error names the entry, and the field in it,
// that could not be read.
func (h *History) UnmarshalJSON(b []byte) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) { // not an object: name the public type
			return &json.UnmarshalTypeError{Value: te.Value, Type: reflect.TypeFor[History](), Offset: te.Offset}
		}
		return err
	}
	entries := make([]HistoryEntry, 0, len(doc))
	for id, raw := range doc {
		e, err := decodeHistoryEntry(id, raw)
		if err != nil {
			return err
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b HistoryEntry) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.ID, b.ID))
	})
	h.Entries = entries
	return nil
}

// decodeHistoryEntry reads the entry id of a history document.
func decodeHistoryEntry(id string, raw json.RawMessage) (HistoryEntry, error) {
	// The field path of an error starts with the entry's ID, cut short:
	// the ID comes from the document and can be as long as it.
	field := quoteShort([]byte(id))
	var w historyEntryWire
	if err := json.Unmarshal(raw, &w); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return HistoryEntry{}, err
		}
		typ := te.Type
		if te.Field == "" { // the entry itself is not an object
			typ = reflect.TypeFor[HistoryEntry]()
		} else {
			field += "." + te.Field
		}
		return HistoryEntry{}, &json.UnmarshalTypeError{Value: te.Value, Type: typ, Field: field}
	}
	ms, ok := historyMillis(w.Time)
	if !ok {
		return HistoryEntry{}, &json.UnmarshalTypeError{Value: "timestamp " + quoteShort(w.Time), Type: reflect.TypeFor[time.Time](), Field: field + ".t"}
	}
	whole := math.Floor(ms)
	// Rounded, not truncated, to the nanosecond: a fraction such as
	// 0.123457 is 123456.99999... ns in binary, and truncating it would
	// move the entry by a nanosecond on each trip through JSON.
	frac := time.Duration(math.Round((ms - whole) * float64(time.Millisecond)))
	return HistoryEntry{
		ID: id, Author: string(w.Author), Ops: w.Ops,
		Time: time.UnixMilli(int64(whole)).Add(frac).UTC(),
	}, nil
}

// historyMillis reads an entry's "t": milliseconds since 1970, a JSON
// number or a string holding one; absent or null is 0.
func historyMillis(raw json.RawMessage) (float64, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, true
	}
	text := string(raw)
	if raw[0] == '"' {
		// json.Valid keeps to a JSON number's syntax, which
		// strconv.ParseFloat alone would widen (hex, "_", "Inf").
		if json.Unmarshal(raw, &text) != nil || !json.Valid([]byte(text)) {
			return 0, false
		}
	}
	ms, err := strconv.ParseFloat(text, 64)
	if err != nil || math.Abs(ms) > maxHistoryMillis {
		return 0, false
	}
	return ms, true
}

// maxHistoryMillis bounds an entry's time (past the year 30000), so that
// no value overflows.
const maxHistoryMillis = 1e15

// MarshalJSON writes the history document: an object of entries keyed by
// entry ID, or null when there are none.
func (h History) MarshalJSON() ([]byte, error) {
	if len(h.Entries) == 0 {
		return []byte("null"), nil
	}
	doc := make(map[string]any, len(h.Entries))
	for _, e := range h.Entries {
		ms := float64(e.Time.UnixMilli()) + float64(e.Time.Nanosecond()%int(time.Millisecond))/float64(time.Millisecond)
		doc[e.ID] = struct {
			Author string      `json:"a"`
			Ops    []HistoryOp `json:"o"`
			Time   float64     `json:"t"`
		}{e.Author, e.Ops, ms}
	}
	return json.Marshal(doc)
}

// UnmarshalJSON reads an operation: a positive integer (retain), a negative
// integer (delete) or a string (insert).
func (op *HistoryOp) UnmarshalJSON(b []byte) error {
	*op = HistoryOp{}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &op.Insert)
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	if err != nil || n == math.MinInt64 || n > math.MaxInt || n < -math.MaxInt {
		return &json.UnmarshalTypeError{Value: "operation " + quoteShort(b), Type: reflect.TypeFor[HistoryOp]()}
	}
	if n > 0 {
		op.Retain = int(n)
	} else {
		op.Delete = int(-n)
	}
	return nil
}

// MarshalJSON writes the operation as the editor does: n, -n or the text.
func (op HistoryOp) MarshalJSON() ([]byte, error) {
	switch {
	case op.Retain > 0:
		return strconv.AppendInt(nil, int64(op.Retain), 10), nil
	case op.Delete > 0:
		return strconv.AppendInt(nil, -int64(op.Delete), 10), nil
	}
	return json.Marshal(op.Insert)
}

// History fetches an edit-history link (Pad.History, FileContent.History)
// and decodes it. The link points at another host than the API, so the
// request carries no API key. The link must be an absolute https URL (or
// http to a loopback host; WithInsecureHTTP does not relax this), else the
// error matches ErrInvalidArgument before any request. Like every call it
// follows no redirect, caps the body, and is retried like any GET, through
// the client's transport.
func (s *PadsService) History(ctx context.Context, link string) (*History, error) {
	u, err := url.Parse(link)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return nil, argError("history link: need an absolute https URL")
	case u.User != nil:
		return nil, argError("history link: must not carry user information")
	case u.Scheme == "http" && !pathcheck.Loopback(u.Hostname()):
		return nil, argError("history link: need https (plain http only to a loopback host)")
	}
	u.Fragment, u.RawFragment = "", ""
	// Errors and logs name the link without its query, which may carry a
	// token of the other host.
	path := u.Scheme + "://" + u.Host + u.EscapedPath()
	return get[History](ctx, s.client, &request{method: http.MethodGet, path: path, link: u.String()})
}
