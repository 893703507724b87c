// codec.go: the JSON codec (encoding/json/v2) and the options it always uses.

package padapi

import (
	"bytes"
	"errors"
	"reflect"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/isotime"
	"github.com/padinterview/padapi/internal/lib/jsonerr"
)

// decodeOptions are the options of every decode: two things
// encoding/json tolerated that an odd answer should not lose (invalid UTF-8
// replaced, a repeated key's last value). Names match exactly, as json v2
// does by default: the service writes them so, and matching without case
// cost a fifth of a page's decode.
var decodeOptions = json.JoinOptions(
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	json.WithUnmarshalers(modelDecoders(json.WithUnmarshalers(nil))),
)

// modelDecoders returns the decoders of the models whose wire shape varies
// (Pad, Organization, Quota, DatabaseSchema) or whose timestamps come in
// several forms (Pad, PadEvent, Question: see stamp): functions registered in the
// options rather than UnmarshalJSONFrom methods, so that no exported
// signature names a json v2 type. Each such model's UnmarshalJSON decodes
// with decodeOptions, and so with these.
//
// inner are the options each decodes the model's own fields with. With
// registered functions, json v2 looks every field's type up in a shared
// map, which cost a tenth of a 50-pad page's decode (BenchmarkDecodePadPage,
// CPU time). None of these models has a field that needs one, so
// decodeOptions drop them below the model (WithUnmarshalers(nil)); a field
// that did would still decode right, through its UnmarshalJSON, only
// slower. The timestamp fallback keeps them (no inner options), as its
// time decoder must reach every field.
func modelDecoders(inner ...json.Options) *json.Unmarshalers {
	return json.JoinUnmarshalers(
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, p *Pad) error { return unmarshalPad(dec, p, inner) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, o *Organization) error { return unmarshalOrganization(dec, o, inner) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, q *Quota) error { return unmarshalQuota(dec, q, inner) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, s *DatabaseSchema) error {
			return unmarshalDatabaseSchema(dec, s, inner)
		}),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, e *PadEvent) error { return unmarshalPadEvent(dec, e, inner) }),
		json.UnmarshalFromFunc(func(dec *jsontext.Decoder, l *[]PadEvent) error { return unmarshalPadEvents(dec, l, inner) }),
		json.UnmarshalFromFunc(unmarshalQuestion),
		json.UnmarshalFromFunc(unmarshalQuestions),
	)
}

// timeOptions add the service's other timestamp forms (+0000, +00, a
// space for T) to decodeOptions, for every time.Time: that of a type the
// models' decoders do not cover (the quota's, the stats', a caller's own
// in Do); the models of a list page read them all by themselves (stamp).
// They apply only when a decode from bytes with decodeOptions failed on a
// timestamp: a type-specific decoder makes json
// v2 look every field's type up in a shared map, which cost a quarter of a
// 50-pad page's decode (BenchmarkPadPageLive: 372 µs with it on every
// decode, 280 µs without).
var timeOptions = json.JoinOptions(decodeOptions,
	json.WithUnmarshalers(json.JoinUnmarshalers(modelDecoders(), json.UnmarshalFromFunc(unmarshalTime))))

// encodeOptions are the options of every encode: a nil slice or map is
// null, as encoding/json writes it, so the fake and the models agree on the
// wire shape they always had.
var encodeOptions = json.JoinOptions(
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
)

// unmarshal decodes data into v: with decodeOptions, and again with
// timeOptions when that failed on a timestamp RFC 3339 does not allow.
func unmarshal(data []byte, v any) error {
	err := json.Unmarshal(data, v, decodeOptions)
	var se *json.SemanticError
	if errors.As(err, &se) && se.GoType == timeType {
		// The second decode sets every member the body carries again;
		// what the caller put in v beside them stays.
		err = json.Unmarshal(data, v, timeOptions)
	}
	return err
}

var timeType = reflect.TypeFor[time.Time]()

// marshal encodes v with encodeOptions.
func marshal(v any) ([]byte, error) {
	return json.Marshal(v, encodeOptions)
}

// unmarshalTime reads a timestamp in any form isotime.Parse knows; null leaves
// the time as it is (nil for a *time.Time).
func unmarshalTime(dec *jsontext.Decoder, t *time.Time) error {
	if dec.PeekKind() == 'n' {
		_, err := dec.ReadToken()
		return err
	}
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	if v.Kind() == '"' {
		if parsed, err := isotime.Parse(bytes.Trim(v, `"`)); err == nil && !bytes.ContainsRune(v, '\\') {
			*t = parsed
			return nil
		}
	}
	// The error names time.Time, whatever type read it (stamp).
	return &json.SemanticError{JSONKind: v.Kind(), GoType: timeType, Err: jsonerr.Bad("timestamp", v)}
}

// stamp is a time.Time read in every form the service sends (see
// unmarshalTime). The models of a list page (Pad, PadEvent, Question and
// what a pad holds) read their time fields through it, declared in their
// decoders beside the model's own: so a page decodes in one pass as it
// streams, whatever form its timestamps take, without a decoder for
// time.Time registered in the options, which makes json v2 look every
// field's type up in a shared map (a quarter of a 50-pad page's decode).
type stamp time.Time

// UnmarshalJSONFrom reads the timestamp. (stamp is unexported: its
// methods are not part of the API.)
func (s *stamp) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return unmarshalTime(dec, (*time.Time)(s))
}

// when is the time a *stamp read, or nil.
func (s *stamp) when() *time.Time { return (*time.Time)(s) }

// decodeStream decodes a whole JSON value from dec into v, as unmarshal
// does from bytes (timestamps in the service's other forms included), and
// checks that nothing follows it.
func decodeStream(dec *jsontext.Decoder, v any) error {
	if err := json.UnmarshalDecode(dec, v, timeOptions); err != nil {
		return err
	}
	return envelope.CheckEnd(dec)
}

// token is a short token the service sends as a string, but which a
// gateway may send as a number or boolean (an error's "code"): any scalar
// decodes as its text, so that an odd type never hides the message beside
// it.
type token string

// UnmarshalJSON keeps a string's text, or any other scalar's JSON text.
func (t *token) UnmarshalJSON(b []byte) error { return t.set(jsontext.Value(b)) }

func (t *token) set(v jsontext.Value) error {
	switch v.Kind() {
	case '"':
		var s string
		err := json.Unmarshal(v, &s, decodeOptions)
		*t = token(s)
		return err
	case '{', '[':
		return &json.SemanticError{JSONKind: v.Kind(), GoType: reflect.TypeFor[string]()}
	case 'n':
		*t = ""
	default:
		*t = token(v)
	}
	return nil
}
