package padapi

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// ID identifies a resource: a pad ("DM32JWG2"), a question or environment
// (integers on the wire, such as 1234), a team, an organization. Every ID
// field and every ID parameter has this one type, so an ID read from one
// response is passed to the next call as it is:
//
//	env, err := c.Pads.Environment(ctx, pad.PadEnvironmentIDs[0])
//
// An ID decodes from a JSON string or a whole non-negative JSON number
// (null decodes as ""). It
// marshals as a JSON number when it is a canonical non-negative integer
// (no sign, no leading zero, within int64), the way the service sends
// numeric IDs, and as a string otherwise.
type ID string

// UnmarshalJSON accepts a JSON string, a JSON number that is a whole
// non-negative integer (kept as its digits, however long) or null (as "").
// Any other number (1.5, -1, 1e3) names no resource and is an error.
func (id *ID) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0:
	case b[0] == 'n' && string(b) == "null":
		*id = ""
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID(s)
		return nil
	case wholeNumber(b):
		*id = ID(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: "ID " + quoteShort(b), Type: reflect.TypeFor[ID]()}
}

// MarshalJSON writes a canonical non-negative integer ID as a JSON number
// and any other ID as a JSON string.
func (id ID) MarshalJSON() ([]byte, error) {
	if canonicalInt(id) {
		return []byte(id), nil
	}
	return json.Marshal(string(id))
}

// wholeNumber reports whether b is a JSON number made of digits only.
func wholeNumber(b []byte) bool {
	if len(b) == 0 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// canonicalInt reports whether s is a non-negative integer without sign or
// leading zero that fits in an int64: the IDs the service sends as numbers.
func canonicalInt(s ID) bool {
	const maxInt64 = "9223372036854775807"
	if len(s) == 0 || len(s) > len(maxInt64) || (s[0] == '0' && len(s) > 1) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) < len(maxInt64) || string(s) <= maxInt64
}

// response is implemented by every wire type the pipeline decodes a success
// body into.
type response interface {
	// envelope returns the body's status, message and code.
	envelope() (status, message, code string)
	// missing names what a success body lacks ("" when it is whole): an
	// answer with only a status carries no resource.
	missing() string
}

// checker is implemented by wire types with rules beyond JSON shape.
type checker interface{ check() error }

// wireStatus is the envelope every response body shares.
type wireStatus struct {
	Status  string    `json:"status"`
	Message string    `json:"message"`
	Code    wireToken `json:"code"`
}

func (w *wireStatus) envelope() (status, message, code string) {
	return w.Status, w.Message, string(w.Code)
}

// missing is "" for an answer that is only a status (a delete's).
func (w *wireStatus) missing() string { return "" }

// wireToken is a short token the service sends as a string, but which a
// gateway may send as a number or boolean ("code"): any scalar decodes as
// its text, so that an odd type never hides the message beside it.
type wireToken string

// UnmarshalJSON keeps a string's text, or any other scalar's JSON text.
func (t *wireToken) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) == 0:
	case b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*t = wireToken(s)
		return err
	case b[0] == '{' || b[0] == '[':
	case string(b) == "null":
		*t = ""
		return nil
	default:
		*t = wireToken(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: quoteShort(b), Type: reflect.TypeFor[string]()}
}

// decodeVia decodes b into the wire type W and converts it into *out: the
// models' UnmarshalJSON methods, which read the service's timestamp forms
// through their wire types.
func decodeVia[W, T any](b []byte, out *T, conv func(*W) T) error {
	var w W
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*out = conv(&w)
	return nil
}

// nullRaw returns nil for a raw JSON null: encoding/json hands a RawMessage
// the literal, and the models promise nil.
func nullRaw(m json.RawMessage) json.RawMessage {
	if bytes.Equal(m, []byte("null")) {
		return nil
	}
	return m
}
