package jsonerr

import (
	"errors"
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
