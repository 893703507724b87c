// codec.go: the JSON codec (encoding/json/v2) and the options it always uses.

package padapi

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"reflect"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// decodeOptions are the options of every decode: the service's timestamp
// forms, and what encoding/json v1 tolerated (keys in any case, invalid
// UTF-8 replaced, a repeated key's last value), so that an odd answer
// still decodes.
var decodeOptions = json.JoinOptions(
	json.WithUnmarshalers(json.JoinUnmarshalers(
		json.UnmarshalFromFunc(unmarshalTime),
		json.UnmarshalFunc(unmarshalRaw),
	)),
	json.MatchCaseInsensitiveNames(true),
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
)

// encodeOptions are the options of every encode: a nil slice or map is
// null, as encoding/json writes it, so the fake and the models agree on the
// wire shape they always had.
var encodeOptions = json.JoinOptions(
	json.FormatNilSliceAsNull(true),
	json.FormatNilMapAsNull(true),
)

// unmarshal decodes data into v with decodeOptions.
func unmarshal(data []byte, v any) error {
	return json.Unmarshal(data, v, decodeOptions)
}

// marshal encodes v with encodeOptions.
func marshal(v any) ([]byte, error) {
	return json.Marshal(v, encodeOptions)
}

// unmarshalRaw keeps a raw JSON value (json.RawMessage fields of the
// models) as it came, and null as nil: the models promise nil for absent.
func unmarshalRaw(b []byte, m *stdjson.RawMessage) error {
	if string(b) == "null" {
		*m = nil
		return nil
	}
	*m = append((*m)[:0], b...)
	return nil
}

// fieldError puts name in front of the field path of err, a decoding error
// of a value that a model's own decoder read from its field name.
func fieldError(name string, err error) error {
	var se *json.SemanticError
	if errors.As(err, &se) {
		e := *se
		e.JSONPointer = jsontext.Pointer("/"+name) + se.JSONPointer
		return &e
	}
	var bv *badValue
	if errors.As(err, &bv) {
		return &json.SemanticError{JSONPointer: jsontext.Pointer("/" + name), Err: bv}
	}
	return err
}

// errBadTimestamp is the cause of a timestamp that parseTime refuses.
var errBadTimestamp = errors.New("not an ISO 8601 timestamp")

// unmarshalTime reads a timestamp in any form parseTime knows; null leaves
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
		if parsed, err := parseTime(bytes.Trim(v, `"`)); err == nil && !bytes.ContainsRune(v, '\\') {
			*t = parsed
			return nil
		}
	}
	return &badValue{what: "timestamp " + quoteShort(v)}
}

// badValue is a value a custom decoder refuses; describeDecodeError shows
// its text in place of the JSON kind.
type badValue struct{ what string }

func (e *badValue) Error() string { return "cannot decode " + e.what }

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
// three, the presence of need (a key, "" for none), and how many others
// there are. It checks the JSON's syntax as it goes.
func readEnvelope(data []byte, need string) (envelope, error) {
	var env envelope
	var fields struct {
		Status  string `json:"status"`
		Message string `json:"message"`
		Code    token  `json:"code"`
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data), decodeOptions)
	if dec.PeekKind() != '{' {
		// Let the codec say what is wrong: a syntax error or a kind.
		return env, unmarshal(data, &fields)
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, err
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return env, err
		}
		switch key := name.String(); {
		case equalFold(key, "status"), equalFold(key, "message"), equalFold(key, "code"):
			v, err := dec.ReadValue()
			if err != nil {
				return env, err
			}
			obj := append(append(append([]byte(`{`), jsontext.Value(`"`+key+`"`)...), ':'), v...)
			if err := unmarshal(append(obj, '}'), &fields); err != nil {
				return env, err
			}
		default:
			env.others++
			// A list's items may be null (none); an id may not.
			if need != "" && equalFold(key, need) && (need != "id" || dec.PeekKind() != 'n') {
				env.hasNeed = true
			}
			if err := dec.SkipValue(); err != nil {
				return env, err
			}
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, err
	}
	if _, err := dec.ReadToken(); err == nil {
		return env, errors.New("data after the top-level value")
	}
	env.status, env.message, env.code = fields.Status, fields.Message, string(fields.Code)
	return env, nil
}

func equalFold(a, b string) bool { return len(a) == len(b) && bytes.EqualFold([]byte(a), []byte(b)) }

// token is a short token the service sends as a string, but which a
// gateway may send as a number or boolean ("code"): any scalar decodes as
// its text, so that an odd type never hides the message beside it.
type token string

// UnmarshalJSON is UnmarshalJSONFrom for encoding/json.
func (t *token) UnmarshalJSON(b []byte) error { return t.set(jsontext.Value(b)) }

// UnmarshalJSONFrom keeps a string's text, or any other scalar's JSON text.
func (t *token) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return t.set(v)
}

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
