// Package jsonerr describes why a response body did not decode, for the
// message of an error: it names the field as a dotted JSON path
// ("events.kind"), the JSON kind found and the Go type wanted, and never
// repeats more than a few bytes of the body.
package jsonerr

import (
	"cmp"
	stdjson "encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// BadValue is a value a custom decoder refuses; Describe shows What in
// place of the JSON kind.
type BadValue struct{ What string }

// Error reads like "cannot decode timestamp 12".
func (e *BadValue) Error() string { return "cannot decode " + e.What }

// short shows a value without repeating a huge input, as padapi's
// quoteShort does.
func short(b []byte) string {
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
	var te *stdjson.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		field, what, typ := fieldPath(se.JSONPointer), kindName(se.JSONKind), typeName(se.GoType)
		var bad *BadValue
		switch {
		case errors.As(se.Err, &bad):
			what = bad.What
		case errors.As(se.Err, &te):
			// A decoder that reads with encoding/json (the edit
			// history's) names the field below its own.
			if te.Field != "" {
				field = strings.TrimPrefix(strings.TrimPrefix(field, "(top level)")+"."+te.Field, ".")
			}
			what, typ = short([]byte(te.Value)), typeName(te.Type)
		case se.JSONKind == '0' && len(se.JSONValue) > 0:
			what = "number " + short(se.JSONValue)
		}
		return "malformed response: field " + strconv.Quote(field) + ": cannot decode " + what + " as " + typ
	case errors.As(err, &te):
		field := cmp.Or(te.Field, "(top level)")
		return "malformed response: field " + strconv.Quote(field) + ": cannot decode " + short([]byte(te.Value)) + " as " + typeName(te.Type)
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
	return short([]byte(strings.Join(names, ".")))
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
