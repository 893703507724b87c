package jsonerr

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

func TestDescribe(t *testing.T) {
	t.Parallel()
	type event struct {
		Kind int `json:"kind"`
	}
	type page struct {
		Events []event   `json:"events"`
		At     time.Time `json:"at"`
	}
	bad := json.WithUnmarshalers(json.UnmarshalFromFunc(func(dec *jsontext.Decoder, _ *time.Time) error {
		v, _ := dec.ReadValue()
		return Bad("timestamp", v)
	}))
	long := `"` + strings.Repeat("x", 200) + `"`
	tests := []struct {
		body, want string
		opts       []json.Options
	}{
		{`{"events":[{"kind":"x"}]}`, `malformed response: field "events.kind": cannot decode string as int`, nil},
		{`{"events":[{"kind":1.5}]}`, `malformed response: field "events.kind": cannot decode number 1.5 as int`, nil},
		{`{"at":12}`, `malformed response: field "at": cannot decode timestamp 12 as time.Time`, []json.Options{bad}},
		{`{"events":` + long + `}`, `malformed response: field "events": cannot decode string as array`, nil},
		{`{"events":[}`, `malformed response: not JSON (invalid character '}' at start of value at byte 11)`, nil},
		{`{"events":[`, `malformed response: not JSON (unexpected end of JSON input)`, nil},
	}
	for _, tt := range tests {
		var p page
		err := json.Unmarshal([]byte(tt.body), &p, tt.opts...)
		if err == nil {
			t.Fatalf("%s: decoded, want an error", tt.body)
		}
		if got := Describe(err, []byte(tt.body)); got != tt.want {
			t.Errorf("Describe(%s)\n got %s\nwant %s", tt.body, got, tt.want)
		}
	}
	if got := Describe(errors.New("boom"), nil); got != "malformed response: boom" {
		t.Errorf("Describe(boom) = %s", got)
	}
}

func TestShort(t *testing.T) {
	t.Parallel()
	if got := Short([]byte(strings.Repeat("a", 100))); got != strings.Repeat("a", 64)+"..." {
		t.Errorf("short = %q", got)
	}
}

// Alpha and Zed are exported types at the ends of the capitals: named as
// they are (typeName).
type (
	Alpha struct{ A int }
	Zed   struct{ Z int }
	Ints  []int
	lower struct{ _ int }
)

func TestTypeName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    any
		want string
	}{
		{Alpha{}, "jsonerr.Alpha"},
		{Zed{}, "jsonerr.Zed"},
		{Ints{}, "jsonerr.Ints"},
		{[]Zed{}, "[]jsonerr.Zed"},
		{&Alpha{}, "jsonerr.Alpha"},
		{[]Alpha{}, "[]jsonerr.Alpha"},
		{lower{}, "object"},
		{[]lower{}, "array"},
		{struct{}{}, "object"},
		{0, "int"},
		{"", "string"},
	} {
		if got := typeName(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("typeName(%T) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := typeName(nil); got != "value" {
		t.Errorf("typeName(nil) = %q", got)
	}
}

func TestBadValue(t *testing.T) {
	t.Parallel()
	if got := Bad("timestamp", []byte("12")).Error(); got != "cannot decode timestamp 12" {
		t.Errorf("Error() = %q", got)
	}
	long := []byte(strings.Repeat("v", 2*QuoteBytes))
	b := Bad("ID", long)
	if len(b.Value) != QuoteBytes {
		t.Errorf("kept %d bytes, want %d", len(b.Value), QuoteBytes)
	}
	long[0] = 'x'
	if b.Value[0] != 'v' {
		t.Error("Bad kept the caller's buffer, not a copy")
	}
	if got := Bad("ID", long).Error(); got != "cannot decode ID x"+strings.Repeat("v", 63)+"..." {
		t.Errorf("Error() of a long value = %q", got)
	}
}

// Seal scrubs every value an error quotes before it cuts it; a value the
// error does not hold is left alone.
func TestSeal(t *testing.T) {
	t.Parallel()
	const key = "KEYKEYKEY"
	scrubbed := 0
	scrub := func(b []byte) []byte {
		scrubbed++
		return []byte(strings.ReplaceAll(string(b), key, "[X]"))
	}
	value := strings.Repeat("a", 60) + key + strings.Repeat("b", 100)
	se := &json.SemanticError{JSONKind: '"', JSONValue: jsontext.Value(value), Err: Bad("ID", []byte(value))}
	Seal(se, scrub)
	want := strings.Repeat("a", 60) + "[X]b..."
	if string(se.JSONValue) != want {
		t.Errorf("JSONValue = %q, want %q", se.JSONValue, want)
	}
	var bad *BadValue
	if !errors.As(se, &bad) || string(bad.Value) != want {
		t.Errorf("BadValue = %q, want %q", bad.Value, want)
	}
	if scrubbed != 2 {
		t.Errorf("scrub ran %d times, want 2", scrubbed)
	}
	scrubbed = 0
	Seal(&json.SemanticError{JSONKind: '"'}, scrub)
	Seal(errors.New("plain"), scrub)
	if scrubbed != 0 {
		t.Errorf("scrub ran %d times on errors that quote nothing", scrubbed)
	}
}

func TestShortBoundary(t *testing.T) {
	t.Parallel()
	if got := Short([]byte(strings.Repeat("a", 64))); got != strings.Repeat("a", 64) {
		t.Errorf("64 bytes: %q", got)
	}
	if got := Short([]byte(strings.Repeat("a", 65))); got != strings.Repeat("a", 64)+"..." {
		t.Errorf("65 bytes: %q", got)
	}
}

// A number error names the number, when the error holds it.
func TestDescribeNumber(t *testing.T) {
	t.Parallel()
	intType := reflect.TypeFor[int]()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&json.SemanticError{JSONKind: '0', JSONValue: jsontext.Value("1.5"), GoType: intType}, `malformed response: field "(top level)": cannot decode number 1.5 as int`},
		{&json.SemanticError{JSONKind: '0', GoType: intType}, `malformed response: field "(top level)": cannot decode number as int`},
		{&json.SemanticError{JSONKind: '"', JSONValue: jsontext.Value(`"x"`), GoType: intType}, `malformed response: field "(top level)": cannot decode string as int`},
		{&json.SemanticError{JSONPointer: "/a/0/b", JSONKind: 't', GoType: intType}, `malformed response: field "a.b": cannot decode bool as int`},
		{io.ErrUnexpectedEOF, `malformed response: not JSON (unexpected end of JSON input)`},
	} {
		if got := Describe(tc.err, nil); got != tc.want {
			t.Errorf("Describe(%v)\n got %s\nwant %s", tc.err, got, tc.want)
		}
	}
}
