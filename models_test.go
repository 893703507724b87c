package padapi_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// epModel is a testdata file, the model it decodes into, and what the model
// must marshal to.
type epModel struct {
	file string
	new  func() any // a pointer to a zero model
	want any
	// wire holds keys of the marshalled object and their exact JSON;
	// absent lists keys it must not have.
	wire   map[string]string
	absent []string
}

var epModels = []epModel{
	{
		file: "pad_documented.json", new: func() any { return new(padapi.Pad) }, want: epPadDocumented(),
		wire: map[string]string{
			"id":       `"DM32JWG2"`,
			"ended_at": `"2014-11-14T03:32:45Z"`,
			"events": `[` +
				`{"message":"Vincent Woo joined the pad","kind":"joined","metadata":"","user_name":"Vincent Woo","user_email":"vincent@example.com","created_at":"2014-11-14T03:02:45Z"},` +
				`{"message":"Jane Doe ran the code","kind":"ran","metadata":"ruby","user_name":"Jane Doe","user_email":"jane@example.com","created_at":"2014-11-14T03:10:02Z"},` +
				`{"message":"Jane Doe left the pad","kind":"left","metadata":"","user_name":"Jane Doe","user_email":"jane@example.com","created_at":"2014-11-14T03:31:57Z"}` +
				`]`,
		},
		absent: []string{"status", "events_url", "state", "team"},
	},
	{
		file: "pad_live.json", new: func() any { return new(padapi.Pad) }, want: epPadLive(),
		wire: map[string]string{
			"events":                `"https://app.coderpad.io/api/pads/K3P9ZR2A/events"`,
			"ended_at":              `null`,
			"created_at":            `"2024-03-05T10:15:30.123Z"`,
			"question_ids":          `[1234,5678]`,
			"active_environment_id": `98765`,
			"team":                  `{"id":42,"name":"Platform"}`,
		},
		absent: []string{"status", "events_url"},
	},
	{
		file: "pad_edge.json", new: func() any { return new(padapi.Pad) }, want: epPadEdge(),
		wire:   map[string]string{"ended_at": `null`, "language": `"zig-0.14"`},
		absent: []string{"x_future_field", "ai_assist_enabled"},
	},
	{
		file: "question_live.json", new: func() any { return new(padapi.Question) }, want: epQuestionLive(),
		wire:   map[string]string{"id": `1234`, "test_cases": `[{"id":1,"arguments":["15"],"return_value":"FizzBuzz","visible":true},{"id":2,"arguments":["3"],"return_value":"Fizz","visible":false}]`},
		absent: []string{"status"},
	},
	{
		file: "organization_documented.json", new: func() any { return new(padapi.Organization) }, want: epOrganizationDocumented(),
		wire:   map[string]string{"organization_default_language": `"python3"`},
		absent: []string{"default_language", "status"},
	},
	{
		file: "organization_live.json", new: func() any { return new(padapi.Organization) }, want: epOrganizationLive(),
		wire:   map[string]string{"id": `901`, "organization_default_language": `"go"`},
		absent: []string{"default_language"},
	},
	{
		file: "stats.json", new: func() any { return new(padapi.OrganizationStats) }, want: epStats(),
		wire: map[string]string{"start_time": `"2024-01-01T00:00:00-08:00"`, "pads_created": `12`},
	},
}

// Models decode from the service's JSON with plain json.Unmarshal, in every
// shape the service sends.
func TestModelsDecode(t *testing.T) {
	for _, m := range append(epModels, ltModels...) {
		t.Run(m.file, func(t *testing.T) {
			got := m.new()
			if err := padapi.UnmarshalForTest(fixture(t, m.file), got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(m.want, got, rawJSONCmp); diff != "" {
				t.Errorf("decoded mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// A decoded model marshals to the service's live shape and decodes back to
// an equal value, so callers can cache responses with the same types.
func TestModelsRoundTrip(t *testing.T) {
	for _, m := range append(epModels, ltModels...) {
		t.Run(m.file, func(t *testing.T) {
			decoded := m.new()
			if err := padapi.UnmarshalForTest(fixture(t, m.file), decoded); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(decoded)
			if err != nil {
				t.Fatal(err)
			}
			var wire map[string]json.RawMessage
			if err := padapi.UnmarshalForTest(b, &wire); err != nil {
				t.Fatal(err)
			}
			for k, want := range m.wire {
				// Compared compact: json.Marshal compacts a RawMessage.
				got, _ := json.Marshal(wire[k])
				if w, _ := json.Marshal(json.RawMessage(want)); string(got) != string(w) {
					t.Errorf("marshalled %q is %s, want %s", k, got, w)
				}
			}
			for _, k := range m.absent {
				if v, ok := wire[k]; ok {
					t.Errorf("marshalled has %q: %s", k, v)
				}
			}
			again := m.new()
			if err := padapi.UnmarshalForTest(b, again); err != nil {
				t.Fatalf("decoding %s: %v", b, err)
			}
			if diff := cmp.Diff(decoded, again, rawJSONCmp); diff != "" {
				t.Errorf("round trip mismatch (-decoded +again):\n%s", diff)
			}
		})
	}
}

func TestIDDecode(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    padapi.ID
		wantErr bool
	}{
		{in: `123`, want: "123"},
		{in: `"123"`, want: "123"},
		{in: `"abc"`, want: "abc"},
		{in: `"../quota"`, want: "../quota"},
		{in: `0`, want: "0"},
		{in: `null`, want: ""},
		{in: `1.5`, wantErr: true},
		{in: `-1`, wantErr: true},
		{in: `1e3`, wantErr: true},
		{in: `true`, wantErr: true},
		{in: `{}`, wantErr: true},
		{in: `[1]`, wantErr: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			var q padapi.Question
			err := padapi.UnmarshalForTest([]byte(`{"id":`+tc.in+`}`), &q)
			if tc.wantErr {
				if err == nil {
					t.Errorf("id %s decoded as %q, want an error", tc.in, q.ID)
				}
				return
			}
			if err != nil || q.ID != tc.want {
				t.Errorf("id %s: got %q, %v; want %q", tc.in, q.ID, err, tc.want)
			}
		})
	}
}

func TestIDMarshal(t *testing.T) {
	for id, want := range map[padapi.ID]string{
		"123":                  `123`,
		"0":                    `0`,
		"9007199254740993":     `9007199254740993`,
		"abc":                  `"abc"`,
		"0123":                 `"0123"`,
		"12a":                  `"12a"`,
		"":                     `""`,
		"12345678901234567890": `"12345678901234567890"`,
	} {
		b, err := json.Marshal(id)
		if err != nil || string(b) != want {
			t.Errorf("Marshal(ID(%q)) = %s, %v; want %s", id, b, err, want)
		}
	}
}
