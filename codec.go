// codec.go: the JSON codec (encoding/json/v2) and the options it always uses.

package padapi

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/isotime"
	"github.com/padinterview/padapi/internal/jsonerr"
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
// (Pad, Organization, Quota, DatabaseSchema): functions registered in the
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
	)
}

// timeOptions add the service's other timestamp forms (+0000, +00, a
// space for T) to decodeOptions. They apply only when a decode with
// decodeOptions failed on a timestamp: a type-specific decoder makes json
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
	return &jsonerr.BadValue{What: "timestamp " + quoteShort(v)}
}

// envelope is what every answer of the service carries beside its
// resource: status, message and code, and whether anything else came.
type envelope struct {
	status, message, code string
	// others counts the members besides status, message and code.
	others int
	// hasNeed reports whether the key asked for was present.
	hasNeed bool
}

// readEnvelope reads the top-level members of an answer: the envelope's
// three, the presence of need (a key, "" for none), and whether others
// came. It stops as soon as the status is "OK" and the resource is known to
// be there, when whole is false: the decode of the resource that follows
// reads (and checks) the rest, so a page's items are not scanned twice.
func readEnvelope(data []byte, need string, whole bool) (envelope, error) {
	r := envelopeReaders.Get().(*envelopeReader)
	defer r.release()
	r.buf = *bytes.NewBuffer(data)
	dec := &r.dec
	dec.Reset(&r.buf, decodeOptions)
	if dec.PeekKind() != '{' {
		// Let the codec say what is wrong: a syntax error or a kind.
		var top struct{}
		return envelope{}, unmarshal(data, &top)
	}
	if _, err := dec.ReadToken(); err != nil {
		return envelope{}, err
	}
	// A status given twice is refused, so no reading of the answer can
	// take the first and another the last: with "status" once, the scan
	// can stop early.
	early := !whole && bytes.Count(data, []byte(`"status"`)) < 2
	env, err := readMembers(dec, need, nil, early)
	if err != nil || dec.PeekKind() != '}' {
		return env, err // an error, or stopped early
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, err
	}
	if _, err := dec.ReadToken(); err == nil {
		return env, errors.New("data after the top-level value")
	}
	return env, nil
}

// readMembers reads the members of an answer's top-level object, after
// its '{' and up to its '}': the envelope's three, the presence of need (a
// key, "" for none) and the count of the others, whose values go to m (nil:
// skipped). With early, it stops as soon as done says the answer is known
// to be good.
func readMembers(dec *jsontext.Decoder, need string, m memberDecoder, early bool) (envelope, error) {
	var env envelope
	var seen [3]bool
	for dec.PeekKind() != '}' {
		if early && env.done(need) {
			return env, nil
		}
		name, err := dec.ReadToken()
		if err != nil {
			return env, err
		}
		key := name.String()
		if ok, err := env.member(dec, key, &seen); ok || err != nil {
			if err != nil {
				return env, err
			}
			continue
		}
		env.others++
		// A list's items may be null (none); an id may not.
		if need != "" && key == need && (need != "id" || dec.PeekKind() != 'n') {
			env.hasNeed = true
		}
		if m != nil {
			err = m.decodeMember(dec, key)
		} else {
			err = dec.SkipValue()
		}
		if err != nil {
			return env, err
		}
	}
	return env, nil
}

// done reports whether the envelope read so far says the answer is good:
// status "OK", the resource asked for, and something beside the envelope.
func (env *envelope) done(need string) bool {
	return env.status == "OK" && env.others > 0 && (need == "" || env.hasNeed)
}

// member reads the value of the top-level member key when it is one of
// the envelope's three, and reports whether it was. A member given twice is
// refused, so that no reading of the answer can take the first and another
// the last.
func (env *envelope) member(dec *jsontext.Decoder, key string, seen *[3]bool) (bool, error) {
	var dst *string
	var i int
	switch key {
	case "status":
		dst, i = &env.status, 0
	case "message":
		dst, i = &env.message, 1
	case "code":
		dst, i = &env.code, 2
	default:
		return false, nil
	}
	if seen[i] {
		return true, fmt.Errorf("the answer gives %q twice", key)
	}
	seen[i] = true
	v, err := dec.ReadValue()
	if err != nil {
		return true, err
	}
	*dst, err = envelopeText(key, v)
	return true, err
}

// envelopeReaders keeps readEnvelope's decoders, each with the buffer it
// reads (a decoder reads a bytes.Buffer's bytes in place, without a copy),
// so that a call allocates neither: 4 allocations fewer per call
// (BenchmarkQuotaGet), a tenth of the client's own.
var envelopeReaders = sync.Pool{New: func() any { return new(envelopeReader) }}

type envelopeReader struct {
	buf bytes.Buffer
	dec jsontext.Decoder
}

// release drops the body the reader held and puts it back in the pool.
func (r *envelopeReader) release() {
	r.buf = bytes.Buffer{}
	r.dec.Reset(&r.buf)
	envelopeReaders.Put(r)
}

// envelopeText is the text of an envelope member: status and message must
// be strings; code may be any scalar (a gateway's number), kept as its
// JSON text. null is "".
func envelopeText(key string, v jsontext.Value) (string, error) {
	switch k := v.Kind(); {
	case string(v) == `"OK"`:
		return "OK", nil // the usual status, without an allocation
	case k == 'n':
		return "", nil
	case k == '"':
		var s string
		err := unmarshal(v, &s)
		return s, err
	case key == "code" && k != '{' && k != '[':
		return string(v), nil
	default:
		return "", &json.SemanticError{JSONPointer: jsontext.Pointer("/" + key), JSONKind: k, GoType: reflect.TypeFor[string]()}
	}
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
		// encoding/json's own error, so that a decoder reading with it
		// (the edit history's) can name the field.
		return &stdjson.UnmarshalTypeError{Value: quoteShort(v), Type: reflect.TypeFor[string]()}
	case 'n':
		*t = ""
	default:
		*t = token(v)
	}
	return nil
}
