package padapi

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// viaEncodingJSON decodes an events array the slow, obviously right way.
func viaEncodingJSON(b []byte) ([]PadEvent, error) {
	var wire []eventWire
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, err
	}
	list := make([]PadEvent, len(wire))
	for i := range wire {
		list[i] = wire[i].event()
	}
	return list, nil
}

var eventSeeds = []string{
	`[]`,
	`[null]`,
	`[{"message":"Alice joined","kind":"joined","metadata":null,"user_name":"Alice","user_email":null,"created_at":"2014-11-14T03:02:45Z"}]`,
	` [ { "message" : "ran \"x\"\n" , "KIND":"ran", "metadata":"ruby", "extra":{"a":[1,{"b":"}"}]}, "n":-1.5e3, "t":true } , {"created_at":"2018-01-30T16:16:00.000-0800"} ] `,
	`[{"message":"caf\u00e9 \ud83d\ude00","user_name":"\\","created_at":null}]`,
	"[{\"message\":\"bad utf8 \xff\"}]",
	`[{"message":5}]`,
	`[{"created_at":"yesterday"}]`,
	`[1]`,
	`[{"kind":["x"]}]`,
	// A key repeated: the last wins, and null changes nothing.
	`[{"kind":"a","Kind":null},{"created_at":"2024-01-01T00:00:00Z","CREATED_AT":null}]`,
	`[{"kind":"a","kind":"b","message":null,"message":"m"}]`,
	// Keys match without regard to case, Unicode folding included (the
	// Kelvin sign folds to k), and through escapes.
	`[{"\u212aind":"ran","k\u0069nd":"x","USER_\u0045MAIL":"e"}]`,
	`[{"kınd":"dotless i is not i"}]`,
	// Strings and unknown values that hold JSON punctuation.
	`[{"message":"a\\","x":"\"}]{[,:","y":[[[{}]]],"z":-0.5e-3,"kind":"k"}]`,
	`[{"message":"\u0000\t\/"},{}]`,
}

func TestDecodeEventsMatchesEncodingJSON(t *testing.T) {
	for _, seed := range eventSeeds {
		checkEventsAgree(t, []byte(seed))
	}
}

func FuzzDecodeEvents(f *testing.F) {
	for _, seed := range eventSeeds {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		checkEventsAgree(t, b)
	})
}

// checkEventsAgree decodes a valid JSON value both ways (through a pad, as
// the pipeline does) and requires the same events, or an error from both.
func checkEventsAgree(t *testing.T, b []byte) {
	t.Helper()
	var e padEvents
	gotErr := e.UnmarshalJSON(trimSpace(b))
	want, wantErr := viaEncodingJSON(b)
	if b := trimSpace(b); len(b) == 0 || b[0] != '[' {
		return // links and nulls are not the hand-written path
	}
	if (gotErr != nil) != (wantErr != nil) {
		t.Fatalf("%q: hand-written error %v, encoding/json error %v", b, gotErr, wantErr)
	}
	if gotErr == nil {
		if diff := cmp.Diff(want, e.list); diff != "" {
			t.Fatalf("%q: events differ (-encoding/json +hand-written):\n%s", b, diff)
		}
	}
}

// trimSpace does what encoding/json does before it hands a value to an
// Unmarshaler.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
