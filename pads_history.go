// pads_history.go: History, fetching an edit-history link and replaying it.

package padapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"
	"unicode/utf16"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
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

	// red is the key of the client that fetched the history, which
	// the replay's errors are scrubbed of (nil: none known).
	red *credential
}

// HistoryEntry is one recorded change: operations that rewrite the text
// from its start. Its operations are held in a compact form, about the
// size of their JSON (a one-character insert takes 2 bytes, not the 32 of
// a HistoryOp): Ops returns them, NewHistoryEntry makes an entry of them.
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

	// ops are the operations, each as appendOp writes it.
	ops string
}

// NewHistoryEntry returns the entry id, made by author at t, of the
// operations ops, in the order they apply.
func NewHistoryEntry(id, author string, t time.Time, ops ...HistoryOp) HistoryEntry {
	var b []byte
	for _, op := range ops {
		b = appendOp(b, op)
	}
	return HistoryEntry{ID: id, Author: author, Time: t, ops: string(b)}
}

// Ops returns the entry's operations, applied from the start of the text,
// in a new slice.
func (e HistoryEntry) Ops() []HistoryOp {
	var ops []HistoryOp
	for rest := e.ops; rest != ""; {
		var op HistoryOp
		op, rest = nextOp(rest)
		ops = append(ops, op)
	}
	return ops
}

// Equal reports whether e and o are the same entry: the same ID and
// author, the same moment (time.Time.Equal), the same operations.
func (e HistoryEntry) Equal(o HistoryEntry) bool {
	return e.ID == o.ID && e.Author == o.Author && e.Time.Equal(o.Time) && e.ops == o.ops
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

// The compact form of an operation: a uvarint n<<2 | kind, and after an
// insert its n bytes of text. An operation that is not one of the three
// (a negative count, two fields set: only NewHistoryEntry makes one), or
// whose count does not fit, is opRaw: the kind alone, then the retain and
// the delete as varints and the insert as a uvarint length and its bytes.
const (
	opRetain = iota
	opDelete
	opInsert
	opRaw
)

// appendOp appends op's compact form to b.
func appendOp(b []byte, op HistoryOp) []byte {
	const most = math.MaxUint64 >> 2
	switch {
	case op.Retain > 0 && op.Delete == 0 && op.Insert == "" && uint64(op.Retain) <= most:
		return binary.AppendUvarint(b, uint64(op.Retain)<<2) // | opRetain, 0
	case op.Delete > 0 && op.Retain == 0 && op.Insert == "" && uint64(op.Delete) <= most:
		return binary.AppendUvarint(b, uint64(op.Delete)<<2|opDelete)
	case op.Retain == 0 && op.Delete == 0:
		return append(binary.AppendUvarint(b, uint64(len(op.Insert))<<2|opInsert), op.Insert...)
	}
	b = binary.AppendUvarint(b, opRaw)
	b = binary.AppendVarint(binary.AppendVarint(b, int64(op.Retain)), int64(op.Delete))
	return append(binary.AppendUvarint(b, uint64(len(op.Insert))), op.Insert...)
}

// nextOp reads the operation at the start of s, which appendOp wrote, and
// returns it with the rest of s.
func nextOp(s string) (HistoryOp, string) {
	tag, s := uvarint(s)
	switch tag & 3 {
	case opRetain:
		return HistoryOp{Retain: int(tag >> 2)}, s
	case opDelete:
		return HistoryOp{Delete: int(tag >> 2)}, s
	case opInsert:
		return HistoryOp{Insert: s[:tag>>2]}, s[tag>>2:]
	}
	var op HistoryOp
	var r, d int64
	r, s = varint(s)
	d, s = varint(s)
	n, s := uvarint(s)
	op.Retain, op.Delete, op.Insert = int(r), int(d), s[:n]
	return op, s[n:]
}

// uvarint reads a uvarint appendOp wrote at the start of s.
func uvarint(s string) (uint64, string) {
	var v uint64
	for shift := 0; ; shift += 7 {
		c := s[0]
		s = s[1:]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, s
		}
	}
}

// varint reads a varint appendOp wrote at the start of s.
func varint(s string) (int64, string) {
	u, s := uvarint(s)
	return int64(u>>1) ^ -int64(u&1), s
}

// Equal reports whether h and o hold the same entries (HistoryEntry.Equal)
// in the same order.
func (h History) Equal(o History) bool {
	return slices.EqualFunc(h.Entries, o.Entries, HistoryEntry.Equal)
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
// replay, or a decode, makes between two looks at its context.
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
		if scratch, steps, err = h.apply(ctx, &e, &text, scratch, steps); err != nil {
			return "", err
		}
	}
	return string(utf16.Decode(text.Units())), nil
}

// apply makes e's operations on text. scratch is room for an insert's
// code units; steps counts operations towards the next look at ctx.
func (h *History) apply(ctx context.Context, e *HistoryEntry, text *rope.Rope, scratch []uint16, steps int) ([]uint16, int, error) {
	pos := 0
	for i, rest := 0, e.ops; rest != ""; i++ {
		if err := h.checkStep(ctx, e, &steps); err != nil {
			return nil, 0, err
		}
		var op HistoryOp
		op, rest = nextOp(rest)
		var why string
		if pos, scratch, why = text.Apply(pos, op.Retain, op.Delete, op.Insert, scratch); why != "" {
			return nil, 0, fmt.Errorf("padapi: history entry %s, operation %d: %s", h.entryName(e), i, why)
		}
	}
	// An entry with no operations still counts, so that a history of
	// empty entries is stopped too.
	if err := h.checkStep(ctx, e, &steps); err != nil {
		return nil, 0, err
	}
	return scratch, steps, nil
}

// checkStep counts one step of the replay, and looks at ctx every
// replayCheckEvery steps.
func (h *History) checkStep(ctx context.Context, e *HistoryEntry, steps *int) error {
	if *steps++; *steps%replayCheckEvery == 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("padapi: history replay, at entry %s: %w", h.entryName(e), err)
		}
	}
	return nil
}

// entryName is e's ID as an error quotes it: scrubbed of the key of the
// client that fetched the history (the service chose the ID: it may be the
// key), then cut short (it can be as long as the document).
func (h *History) entryName(e *HistoryEntry) string {
	id := e.ID
	if h.red != nil {
		id = h.red.scrubText(id)
	}
	return strconv.Quote(quoteShort([]byte(id)))
}

// UnmarshalJSON reads a history document: null (no edits) or an object of
// entries keyed by entry ID. An error names the entry, and the field in it,
// that could not be read.
func (h *History) UnmarshalJSON(b []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b), decodeOptions)
	if err := decodeHistory(context.Background(), dec, h); err != nil {
		return err
	}
	return envelope.CheckEnd(dec)
}

// historyDoc is what PadsService.History decodes the answer into: the
// history, and the call's context, which the decode looks at as it goes.
type historyDoc struct {
	ctx context.Context
	h   *History
}

// UnmarshalJSONFrom decodes the document as it streams. (historyDoc is
// unexported: its methods are not part of the API.)
func (d *historyDoc) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return decodeHistory(d.ctx, dec, d.h)
}

// historyDecoder reads one history document from a stream.
type historyDecoder struct {
	ctx   context.Context
	dec   *jsontext.Decoder
	steps int
	// ops is where an entry's operations are written before they are
	// copied, at their size, into the entry; text is an insert's.
	ops, text []byte
	// authors holds each distinct author once, however many entries
	// name it (bounded by the document).
	authors map[string]string
	// order is each entry's place in the document, for "the last of
	// a repeated ID wins".
	order []int32
}

// decodeHistory reads a history document from dec into h, token by token
// as it streams, looking at ctx every few thousand operations, and keeps
// the operations in their compact form: the document's live memory is a
// small multiple of its size (HistoryEntry), however it is shaped. An
// error is a *json.SemanticError naming the entry and its field.
func decodeHistory(ctx context.Context, dec *jsontext.Decoder, h *History) error {
	d := historyDecoder{ctx: ctx, dec: dec}
	switch k := dec.PeekKind(); k {
	case 'n':
		_, err := dec.ReadToken()
		h.Entries = nil
		return err
	case '{':
	default:
		return d.wrongKind(k, reflect.TypeFor[History]())
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	var entries []HistoryEntry
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return err
		}
		e, err := d.entry(name.String())
		if err != nil {
			return err
		}
		entries = append(entries, e)
		d.order = append(d.order, int32(len(d.order)))
	}
	if _, err := dec.ReadToken(); err != nil { // the closing brace, or why not
		return err
	}
	if err := d.check(); err != nil {
		return err
	}
	h.Entries = lastOfEach(entries, d.order)
	slices.SortFunc(h.Entries, func(a, b HistoryEntry) int {
		return cmp.Or(a.Time.Compare(b.Time), cmp.Compare(a.ID, b.ID))
	})
	return nil
}

// byID orders entries by ID, then by their place in the document.
type byID struct {
	e     []HistoryEntry
	order []int32
}

func (s byID) Len() int { return len(s.e) }
func (s byID) Less(i, j int) bool {
	return cmp.Or(cmp.Compare(s.e[i].ID, s.e[j].ID), cmp.Compare(s.order[i], s.order[j])) < 0
}
func (s byID) Swap(i, j int) {
	s.e[i], s.e[j] = s.e[j], s.e[i]
	s.order[i], s.order[j] = s.order[j], s.order[i]
}

// lastOfEach keeps, of entries named by the same ID, the last in the
// document (order holds each entry's place), as a decode into a map
// would.
func lastOfEach(entries []HistoryEntry, order []int32) []HistoryEntry {
	sort.Sort(byID{entries, order})
	out := entries[:0]
	for i, e := range entries {
		if i+1 < len(entries) && entries[i+1].ID == e.ID {
			continue
		}
		out = append(out, e)
	}
	clear(entries[len(out):])
	return out
}

// check counts one step of the decode, and looks at the context every
// replayCheckEvery steps.
func (d *historyDecoder) check() error {
	if d.steps++; d.steps%replayCheckEvery == 0 {
		return d.ctx.Err()
	}
	return nil
}

// wrongKind is the error of a value of kind k where a typ belongs, at the
// decoder's place.
func (d *historyDecoder) wrongKind(k jsontext.Kind, typ reflect.Type) error {
	if k == 0 { // not JSON: the decoder says why
		_, err := d.dec.ReadToken()
		return err
	}
	return &json.SemanticError{JSONPointer: d.pointer(), JSONKind: k, GoType: typ}
}

// pointer is where the decoder is, as a JSON pointer: the value just
// read, or the one about to be.
func (d *historyDecoder) pointer() jsontext.Pointer {
	return d.dec.StackPointer()
}

// bad is the error of a value v the decoder refused, as a what for typ.
func (d *historyDecoder) bad(what string, v jsontext.Value, typ reflect.Type) error {
	return &json.SemanticError{JSONPointer: d.pointer(), JSONKind: v.Kind(), GoType: typ, Err: jsonerr.Bad(what, v)}
}

// entry reads the entry id: an object with an author "a", operations "o"
// and a time "t"; other members are skipped, a repeated one's last value
// counts.
func (d *historyDecoder) entry(id string) (HistoryEntry, error) {
	e := HistoryEntry{ID: id}
	dec := d.dec
	if k := dec.PeekKind(); k != '{' {
		return e, d.wrongKind(k, reflect.TypeFor[HistoryEntry]())
	}
	if _, err := dec.ReadToken(); err != nil {
		return e, err
	}
	var ms float64
	d.ops = d.ops[:0]
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return e, err
		}
		switch name.String() {
		case "a":
			e.Author, err = d.author()
		case "o":
			d.ops = d.ops[:0]
			err = d.opList()
		case "t":
			ms, err = d.millis()
		default:
			err = dec.SkipValue()
		}
		if err != nil {
			return e, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return e, err
	}
	if err := d.check(); err != nil {
		return e, err
	}
	whole := math.Floor(ms)
	// Rounded, not truncated, to the nanosecond: a fraction such as
	// 0.123457 is 123456.99999... ns in binary, and truncating it would
	// move the entry by a nanosecond on each trip through JSON.
	frac := time.Duration(math.Round((ms - whole) * float64(time.Millisecond)))
	e.Time = time.UnixMilli(int64(whole)).Add(frac).UTC()
	e.ops = string(d.ops)
	return e, nil
}

// author reads an entry's "a": a string, or any other scalar's JSON text
// (as token does), kept once however many entries name it.
func (d *historyDecoder) author() (string, error) {
	k := d.dec.PeekKind()
	if k == '{' || k == '[' || k == 0 {
		return "", d.wrongKind(k, reflect.TypeFor[string]())
	}
	v, err := d.dec.ReadValue()
	if err != nil {
		return "", err
	}
	text := []byte(v)
	switch k {
	case 'n':
		return "", nil
	case '"':
		// The decoder checked the string; what is not UTF-8 is
		// replaced, as everywhere else.
		d.text, _ = jsontext.AppendUnquote(d.text[:0], v)
		text = d.text
	}
	if a, ok := d.authors[string(text)]; ok {
		return a, nil
	}
	a := string(text)
	if len(d.authors) < 1<<10 {
		if d.authors == nil {
			d.authors = make(map[string]string)
		}
		d.authors[a] = a
	}
	return a, nil
}

// opList reads an entry's "o": null, or an array of operations, each
// appended to d.ops in its compact form.
func (d *historyDecoder) opList() error {
	dec := d.dec
	switch k := dec.PeekKind(); k {
	case 'n':
		_, err := dec.ReadToken()
		return err
	case '[':
	default:
		return d.wrongKind(k, reflect.TypeFor[[]HistoryOp]())
	}
	if _, err := dec.ReadToken(); err != nil {
		return err
	}
	for k := dec.PeekKind(); k != ']'; k = dec.PeekKind() {
		if k == 0 {
			return d.wrongKind(k, nil)
		}
		v, err := dec.ReadValue()
		if err != nil {
			return err
		}
		if err := d.op(v); err != nil {
			return err
		}
		if err := d.check(); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken()
	return err
}

// op appends the operation v to d.ops: a string inserts it, a positive
// integer retains, a negative one deletes.
func (d *historyDecoder) op(v jsontext.Value) error {
	var op HistoryOp
	if v.Kind() == '"' {
		d.text, _ = jsontext.AppendUnquote(d.text[:0], v)
		d.ops = binary.AppendUvarint(d.ops, uint64(len(d.text))<<2|opInsert)
		d.ops = append(d.ops, d.text...)
		return nil
	}
	if err := parseOp(v, &op); err != nil {
		return d.bad("operation", v, reflect.TypeFor[HistoryOp]())
	}
	d.ops = appendOp(d.ops, op)
	return nil
}

// parseOp reads an operation that is a number: n > 0 retains n, n < 0
// deletes -n. Anything else is an error.
func parseOp(v []byte, op *HistoryOp) error {
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n == math.MinInt64 || n > math.MaxInt || n < -math.MaxInt {
		return errBadOp
	}
	if n > 0 {
		op.Retain = int(n)
	} else {
		op.Delete = int(-n)
	}
	return nil
}

var errBadOp = errors.New("not an operation")

// millis reads an entry's "t": milliseconds since 1970, a JSON number or a
// string holding one; null is 0.
func (d *historyDecoder) millis() (float64, error) {
	v, err := d.dec.ReadValue()
	if err != nil {
		return 0, err
	}
	ms, ok := historyMillis(v)
	if !ok {
		return 0, d.bad("timestamp", v, reflect.TypeFor[time.Time]())
	}
	return ms, nil
}

// historyMillis reads a "t" value: a number, a string holding one, or
// null (0).
func historyMillis(v jsontext.Value) (float64, bool) {
	text := []byte(v)
	switch v.Kind() {
	case 'n':
		return 0, true
	case '"':
		// The JSON number's syntax, which strconv.ParseFloat alone
		// would widen (hex, "_", "Inf").
		text, _ = jsontext.AppendUnquote(nil, v)
		if jsontext.Value(text).Kind() != '0' || !jsontext.Value(text).IsValid() {
			return 0, false
		}
	case '0':
	default:
		return 0, false
	}
	ms, err := strconv.ParseFloat(string(text), 64)
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
	var buf bytes.Buffer
	enc := jsontext.NewEncoder(&buf, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	put := func(t jsontext.Token) {
		_ = enc.WriteToken(t) // the encoder's own errors are kept and returned by the last write
	}
	put(jsontext.BeginObject)
	for _, e := range h.Entries {
		ms := float64(e.Time.UnixMilli()) + float64(e.Time.Nanosecond()%int(time.Millisecond))/float64(time.Millisecond)
		put(jsontext.String(e.ID))
		put(jsontext.BeginObject)
		put(jsontext.String("a"))
		put(jsontext.String(e.Author))
		put(jsontext.String("o"))
		put(jsontext.BeginArray)
		for rest := e.ops; rest != ""; {
			var op HistoryOp
			op, rest = nextOp(rest)
			put(op.token())
		}
		put(jsontext.EndArray)
		put(jsontext.String("t"))
		put(jsontext.Float(ms))
		put(jsontext.EndObject)
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads an operation: a positive integer (retain), a negative
// integer (delete) or a string (insert).
func (op *HistoryOp) UnmarshalJSON(b []byte) error {
	*op = HistoryOp{}
	v := jsontext.Value(b)
	if v.Kind() == '"' {
		return json.Unmarshal(b, &op.Insert, decodeOptions)
	}
	if parseOp(b, op) != nil {
		return &json.SemanticError{JSONKind: v.Kind(), GoType: reflect.TypeFor[HistoryOp](), Err: jsonerr.Bad("operation", b)}
	}
	return nil
}

// MarshalJSON writes the operation as the editor does: n, -n or the text.
func (op HistoryOp) MarshalJSON() ([]byte, error) {
	t := op.token()
	if t.Kind() == '"' {
		return jsontext.AppendQuote(nil, op.Insert)
	}
	return []byte(t.String()), nil
}

// token is the operation as the editor writes it.
func (op HistoryOp) token() jsontext.Token {
	switch {
	case op.Retain > 0:
		return jsontext.Int(int64(op.Retain))
	case op.Delete > 0:
		return jsontext.Int(-int64(op.Delete))
	}
	return jsontext.String(op.Insert)
}

// History fetches an edit-history link (Pad.History, FileContent.History)
// and decodes it as it streams, looking at ctx as it goes: a call whose
// context ends while a long document is read or decoded returns promptly
// with the context's error. The link points at another host than the
// API, so the request carries no API key. The link must be an absolute
// https URL (or http to a loopback host; WithInsecureHTTP does not relax
// this), else the error matches ErrInvalidArgument before any request.
// Like every call it follows no redirect, caps the body, and is retried
// like any GET, through the client's transport. The errors of the
// returned History's replay are scrubbed of the client's key.
func (s *PadsService) History(ctx context.Context, link string) (*History, error) {
	r, err := historyRequest(link)
	if err != nil {
		return nil, err
	}
	h := &History{red: s.client.cfg.key()}
	if _, err := s.client.do(ctx, r, &historyDoc{ctx: ctx, h: h}); err != nil {
		return nil, contextFirst(ctx, r, err)
	}
	return h, nil
}

// contextFirst is err, or, when the call's context ended and err
// says so, the context's error: a decode the context stopped is no
// malformed answer.
func contextFirst(ctx context.Context, r *request, err error) error {
	if ctx == nil {
		return err
	}
	if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			return fmt.Errorf("padapi: %s %s: %w", r.method, r.path, cerr)
		}
	}
	return err
}

// historyRequest checks an edit-history link and returns its request.
func historyRequest(link string) (*request, error) {
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
	return &request{method: http.MethodGet, path: path, link: u.String()}, nil
}

// HistoryTo fetches an edit-history link as History does, and writes the
// document to w byte for byte as the service sent it, never decoded into
// operations: for a caller that stores the document (an archive) rather
// than replays it. While the body streams in, it is checked to be one
// JSON value, null or an object (jsontext, token by token, looking at ctx
// as it goes), within the client's size cap (WithMaxResponseBytes);
// nothing is written unless the whole body passed, so a document that is
// cut off, too large, not JSON, or stopped by ctx leaves w untouched and
// the error says which (ErrResponseTooLarge, an *APIError "malformed
// response", the context's error). It holds the body once in memory while
// it is checked, and no more. It returns how many bytes it wrote, and w's
// error if the write failed.
func (s *PadsService) HistoryTo(ctx context.Context, link string, w io.Writer) (int64, error) {
	r, err := historyRequest(link)
	if err != nil {
		return 0, err
	}
	if ctx == nil {
		return 0, argError("nil context")
	}
	var resp Response
	if _, err := s.client.do(WithResponse(ctx, &resp), r, &historyCheck{ctx: ctx}); err != nil {
		if outer := responseFrom(ctx); outer != nil {
			*outer = resp
		}
		return 0, contextFirst(ctx, r, err)
	}
	if outer := responseFrom(ctx); outer != nil {
		*outer = resp
	}
	n, err := w.Write(resp.Body)
	return int64(n), err
}

// historyCheck is what HistoryTo decodes the answer into: nothing, only a
// check that it is one JSON value, null or an object.
type historyCheck struct{ ctx context.Context }

// UnmarshalJSONFrom reads the document's tokens as they stream, without
// keeping them. (historyCheck is unexported: its methods are not part of
// the API.)
func (c *historyCheck) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	d := historyDecoder{ctx: c.ctx, dec: dec}
	if k := dec.PeekKind(); k != '{' && k != 'n' {
		return d.wrongKind(k, reflect.TypeFor[History]())
	}
	depth := dec.StackDepth()
	for {
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		if dec.StackDepth() == depth {
			return nil
		}
		if err := d.check(); err != nil {
			return err
		}
	}
}
