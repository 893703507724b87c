// Package jsonerr describes why a response body did not decode, for the
// message of an error: it names the field as a dotted JSON path
// ("events.kind"), the JSON kind found and the Go type wanted, and never
// repeats more than a few bytes of the body.
package jsonerr

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// BadValue is a value a custom decoder refuses; Describe shows it in place
// of the JSON kind.
type BadValue struct {
	// What names what the value should have been ("timestamp", "ID").
	What string
	// Value is the start of the value, up to QuoteBytes: more than an
	// error shows (64 bytes), so that Seal can take the key out of it
	// before it is cut.
	Value []byte
}

// QuoteBytes is how much of a refused value a BadValue keeps: past the 64
// bytes an error shows, room for 8 characters of a key the cut crosses
// in any escaped form the redactor reads, so the key is found before the
// cut.
const QuoteBytes = 1 << 10

// Bad returns the BadValue of v, refused as a what: it keeps a copy of v's
// first QuoteBytes bytes, not v, which may be a decoder's buffer.
func Bad(what string, v []byte) *BadValue {
	return &BadValue{What: what, Value: []byte(string(v[:min(len(v), QuoteBytes)]))}
}

// Error reads like "cannot decode timestamp 12".
func (e *BadValue) Error() string { return "cannot decode " + e.text() }

func (e *BadValue) text() string { return e.What + " " + Short(e.Value) }

// Seal takes the key out of every value err quotes, with scrub, and only
// then cuts each to what an error shows: so no part of a key the cut
// crosses is left in Describe's message or in err's own text. It changes
// the errors in err's chain in place, which a decode made for this call
// alone.
func Seal(err error, scrub func([]byte) []byte) {
	var bad *BadValue
	if errors.As(err, &bad) {
		bad.Value = []byte(Short(scrub(bad.Value)))
	}
	var se *json.SemanticError
	if errors.As(err, &se) && len(se.JSONValue) > 0 {
		se.JSONValue = jsontext.Value(Short(scrub(se.JSONValue)))
	}
}

// Short shows a value in an error without repeating a huge input: its
// first 64 bytes, then "...". It is the module's one such helper (padapi
// and pathcheck use it too).
func Short(b []byte) string {
	const max = 64
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// Describe turns a codec error into a short message that names
// the field (as a dotted JSON path, "events.kind") and never repeats more
// than a few bytes of the body.
func Describe(err error, data []byte) string {
	var se *json.SemanticError
	if errors.As(err, &se) {
		field, what, typ := fieldPath(se.JSONPointer), kindName(se.JSONKind), typeName(se.GoType)
		var bad *BadValue
		if errors.As(se.Err, &bad) {
			what = bad.text()
		} else if se.JSONKind == '0' && len(se.JSONValue) > 0 {
			what = "number " + Short(se.JSONValue)
		}
		return "malformed response: field " + strconv.Quote(field) + ": cannot decode " + what + " as " + typ
	}
	var sx *jsontext.SyntacticError
	if errors.As(err, &sx) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "malformed response: not JSON (" + syntaxText(err) + ")"
	}
	return "malformed response: " + err.Error()
}

// syntaxText says what is wrong with text that is not JSON, without the
// codec's package prefix.
func syntaxText(err error) string {
	var sx *jsontext.SyntacticError
	if errors.As(err, &sx) && sx.Err != nil {
		if errors.Is(sx.Err, io.ErrUnexpectedEOF) {
			return "unexpected end of JSON input"
		}
		return sx.Err.Error() + " at byte " + strconv.FormatInt(sx.ByteOffset, 10)
	}
	return "unexpected end of JSON input"
}

// fieldPath turns a JSON pointer (/events/3/kind) into a dotted path
// without array indices (events.kind), or "(top level)".
func fieldPath(p jsontext.Pointer) string {
	var names []string
	for tok := range p.Tokens() {
		if tok == "" || strings.Trim(tok, "0123456789") != "" {
			names = append(names, tok)
		}
	}
	if len(names) == 0 {
		return "(top level)"
	}
	return Short([]byte(strings.Join(names, ".")))
}

// kindName names a JSON kind for a reader of the JSON.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}

// typeName names a Go type for a reader of the JSON: an unexported type
// means nothing outside the package, so it is named by its JSON kind.
func typeName(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" && t.Kind() == reflect.Struct {
		return "object"
	}
	inner := t
	for inner.Kind() == reflect.Slice || inner.Kind() == reflect.Array || inner.Kind() == reflect.Pointer {
		inner = inner.Elem()
	}
	if inner.PkgPath() == "" || (inner.Name() != "" && inner.Name()[0] >= 'A' && inner.Name()[0] <= 'Z') {
		return t.String()
	}
	switch t.Kind() {
	case reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return t.Kind().String()
}
