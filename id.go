// id.go: the ID type of every resource.

package padapi

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/jsonerr"
)

// ID identifies a resource: a pad ("DM32JWG2"), a question or environment
// (integers on the wire, such as 1234), a team, an organization. Every ID
// field and every ID parameter has this one type, so an ID read from one
// response is passed to the next call as it is:
//
//	env, err := c.Pads.Environment(ctx, pad.PadEnvironmentIDs[0])
//
// An ID decodes from a JSON string or a whole non-negative JSON number
// (null decodes as ""). It marshals the way the service sends the field it
// is in: the IDs the service sends as numbers (questions, environments,
// variants, notifications, the organization) as a JSON number when it is a
// canonical non-negative integer (no sign, no leading zero, within int64),
// and as a string otherwise; the IDs it always sends as strings (a pad's,
// a team's, a question's custom file's) as a string whatever they look
// like, which their models' MarshalJSON see to.
type ID string

// UnmarshalJSON accepts a JSON string, a JSON number that is a whole
// non-negative integer (kept as its digits, however long) or null (as "").
// Any other number (1.5, -1, 1e3) names no resource and is an error.
func (id *ID) UnmarshalJSON(b []byte) error { return id.set(b) }

func (id *ID) set(b []byte) error {
	switch {
	case len(b) == 0:
	case b[0] == 'n' && string(b) == "null":
		*id = ""
		return nil
	case b[0] == '"':
		var s string
		if err := unmarshal(b, &s); err != nil {
			return err
		}
		*id = ID(s)
		return nil
	case wholeNumber(b):
		*id = ID(b)
		return nil
	}
	return jsonerr.Bad("ID", b)
}

// MarshalJSON writes a canonical non-negative integer ID as a JSON number
// and any other ID as a JSON string.
func (id ID) MarshalJSON() ([]byte, error) {
	if canonicalInt(id) {
		return []byte(id), nil
	}
	return jsontext.AppendQuote(nil, string(id))
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
