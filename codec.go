// codec.go: the JSON codec (encoding/json/v2) and the options it always uses.

package padapi

import (
	"bytes"
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
// replaced, a repeated key's last value), and the decoders of the types
// whose wire shape varies. Names match exactly, as json v2 does by default:
// the service writes them so, and matching without case cost a fifth of a
// page's decode.
//
// Every time.Time of every model, and of a caller's own type in Do, reads
// the service's timestamps in every form it sends (RFC 3339, +0000, +00, a
// space for T: unmarshalTime): one decoder, so a time field added to a
// model has it without a word (TestEveryTimeFieldReadsEveryForm).
var decodeOptions = json.JoinOptions(
	jsontext.AllowInvalidUTF8(true),
	jsontext.AllowDuplicateNames(true),
	json.WithUnmarshalers(json.JoinUnmarshalers(
		json.UnmarshalFromFunc(unmarshalTime),
		// Functions registered here rather than UnmarshalJSONFrom
		// methods, so that no exported signature names a json v2 type;
		// each such model's UnmarshalJSON decodes with these options.
		json.UnmarshalFromFunc(unmarshalPad),
		json.UnmarshalFromFunc(unmarshalOrganization),
		json.UnmarshalFromFunc(unmarshalQuota),
		json.UnmarshalFromFunc(unmarshalDatabaseSchema),
	)),
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
	return &json.SemanticError{JSONKind: v.Kind(), GoType: reflect.TypeFor[time.Time](), Err: jsonerr.Bad("timestamp", v)}
}

// decodeStream decodes a whole JSON value from dec into v, as unmarshal
// does from bytes, and checks that nothing follows it.
func decodeStream(dec *jsontext.Decoder, v any) error {
	if err := json.UnmarshalDecode(dec, v, decodeOptions); err != nil {
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
