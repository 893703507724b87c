// codec_test.go: tests of the codec: every model decodes from each testdata shape and round-trips.

package padapi_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// model is a testdata file, the model it decodes into, and what the model
// must marshal to.
type model struct {
	file string
	new  func() any // a pointer to a zero model
	want any
	// wire holds keys of the marshalled object and their exact JSON;
	// absent lists keys it must not have.
	wire   map[string]string
	absent []string
}

var documentedModels = []model{
	{
		file: "pad_documented.json", new: func() any { return new(padapi.Pad) }, want: padDocumented(),
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
		file: "pad_live.json", new: func() any { return new(padapi.Pad) }, want: padLive(),
		wire: map[string]string{
			"events":                `"https://app.coderpad.io/api/pads/K3P9ZR2A/events"`,
			"ended_at":              `null`,
			"created_at":            `"2024-03-05T10:15:30.123Z"`,
			"question_ids":          `[1234,5678]`,
			"active_environment_id": `98765`,
			"team":                  `{"id":"68264172-5a54-4ac3-962b-cb8d1ad15d05","name":"Platform"}`,
		},
		absent: []string{"status", "events_url"},
	},
	{
		file: "pad_edge.json", new: func() any { return new(padapi.Pad) }, want: padEdge(),
		wire:   map[string]string{"ended_at": `null`, "language": `"zig-0.14"`, "team": `{"id":42,"name":"Platform"}`},
		absent: []string{"x_future_field", "ai_assist_enabled"},
	},
	{
		file: "question_live.json", new: func() any { return new(padapi.Question) }, want: questionLive(),
		wire:   map[string]string{"id": `1234`, "test_cases": `[{"id":1,"arguments":["15"],"return_value":"FizzBuzz","visible":true},{"id":2,"arguments":["3"],"return_value":"Fizz","visible":false}]`},
		absent: []string{"status"},
	},
	{
		file: "organization_documented.json", new: func() any { return new(padapi.Organization) }, want: organizationDocumented(),
		wire:   map[string]string{"organization_default_language": `"python3"`},
		absent: []string{"default_language", "status"},
	},
	{
		file: "organization_live.json", new: func() any { return new(padapi.Organization) }, want: organizationLive(),
		wire:   map[string]string{"id": `901`, "organization_default_language": `"go"`},
		absent: []string{"default_language"},
	},
	{
		file: "stats.json", new: func() any { return new(padapi.OrganizationStats) }, want: stats(),
		wire: map[string]string{"start_time": `"2024-01-01T00:00:00-08:00"`, "pads_created": `12`},
	},
}

// Models decode from the service's JSON with plain json.Unmarshal, in every
// shape the service sends.
func TestModelsDecode(t *testing.T) {
	t.Parallel()
	for _, m := range append(documentedModels, liveModels...) {
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
	t.Parallel()
	for _, m := range append(documentedModels, liveModels...) {
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

// liveModels are the live-shape testdata files, which TestModelsDecode and
// TestModelsRoundTrip check with the documented ones.
var liveModels = []model{
	{
		file: "environment_live.json", new: func() any { return new(padapi.PadEnvironment) }, want: environmentLive(),
		wire: map[string]string{
			"id": `98765`, "pad_id": `4321`, "question_id": `1234`, "example_question_id": `null`,
			"created_at": `"2024-03-05T10:15:30.123Z"`, "updated_at": `"2024-03-05T11:02:10.987+01:00"`,
			"file_contents": `[` +
				`{"path":"main.py","contents":` + jsonString(mainPy) + `,"history":"https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/main.json"},` +
				`{"path":"notes/empty.txt","contents":"","history":""},` +
				`{"path":"assets/logo.png","contents":"iVBORw0KGgo=","history":"","binary":true},` +
				`{"path":"README.md","contents":"# Task\n","history":"https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/readme.json"}]`,
		},
		absent: []string{"status"},
	},
	{
		file: "environment_string_ids.json", new: func() any { return new(padapi.PadEnvironment) }, want: environmentStringIDs(),
		wire:   map[string]string{"id": `98766`, "pad_id": `4321`, "question_id": `null`, "example_question_id": `77`, "file_contents": `[]`},
		absent: []string{"status"},
	},
	{
		file: "pad_notifications.json", new: func() any { return new(padapi.Pad) }, want: padNotifications(),
		wire: map[string]string{
			"pad_interviewer_notifications": `[` +
				`{"id":31,"title":"Possible AI assistance","message":"A large paste was detected at 10:32.","priority":"high","request_id":"req_7f3a","auto_dismissed":false,"dismissed_at":"2024-03-05T10:35:00-05:00","useful":true,"created_at":"2024-03-05T10:32:00Z","updated_at":"2024-03-05T15:35:00Z"},` +
				`{"id":32,"title":"Candidate left the tab","message":"The candidate's tab lost focus for 2 minutes.","priority":"low","request_id":"req_80b1","auto_dismissed":true,"dismissed_at":null,"useful":null,"created_at":"2024-03-05T10:50:00Z","updated_at":"2024-03-05T10:50:00Z"}]`,
			"pad_environment_ids":         `[98765,98766]`,
			"restrict_interviewer_access": `false`,
		},
		absent: []string{"status", "team"},
	},
	{
		file: "question_ai_db.json", new: func() any { return new(padapi.Question) }, want: questionAIDB(),
		wire: map[string]string{
			"ai_assist_custom_system_prompt": `"Never write the query for the candidate."`,
			"custom_database": `{"id":12,"title":"Orders","description":"","language":"postgresql",` +
				`"schema":"CREATE TABLE orders (id int PRIMARY KEY, due date NOT NULL, shipped date);",` +
				`"schema_json":{"tables":[{"name":"orders","columns":[` +
				`{"name":"id","type":"int","pk":true,"nn":true},` +
				`{"name":"due","type":"date","pk":false,"nn":true},` +
				`{"name":"shipped","type":"date","pk":false,"nn":false}]}]}}`,
		},
		absent: []string{"status"},
	},
	{
		file: "history_live.json", new: func() any { return new(padapi.History) }, want: historyLive(),
		wire: map[string]string{
			"-NsQ1": `{"a":"-Ns0candidate","o":["def greet():\n    return 'hi 👋'\n"],"t":1709633730000}`,
			"-NsQ2": `{"a":"-Ns0candidate","o":[28,-2,"there",2],"t":1709633790000}`,
			"-NsQ3": `{"a":"-Ns1interviewer","o":[35,"print(greet())\n"],"t":1709633790000}`,
			"-NsQ4": `{"a":"-Ns0candidate","o":[13,` + jsonString("    # 你好, cafe\u0301 🎉\n") + `,37],"t":1709633850000.5}`,
		},
	},
}

// jsonString is s as a JSON string, as json.Marshal writes it.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// The models json v2 decodes with a function of their own decode with
// encoding/json too, in every shape the service sends: a pad's events as a
// list or a link, an organization's default language under either name, a
// schema's null arrangement as none. (encoding/json knows only RFC 3339
// timestamps, so the files with other forms are left out.)
func TestModelsDecodeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, m := range append(documentedModels, liveModels...) {
		if !strings.HasPrefix(m.file, "pad_") && !strings.HasPrefix(m.file, "organization_") && !strings.HasPrefix(m.file, "question_") {
			continue
		}
		t.Run(m.file, func(t *testing.T) {
			got := m.new()
			if err := json.Unmarshal(fixture(t, m.file), got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(m.want, got, rawJSONCmp); diff != "" {
				t.Errorf("decoded mismatch (-want +got):\n%s", diff)
			}
		})
	}
	var s padapi.DatabaseSchema
	if err := json.Unmarshal([]byte(`{"arrangement":null,"tables":[]}`), &s); err != nil || s.Arrangement != nil {
		t.Errorf("schema with a null arrangement: %+v, %v; want no arrangement", s, err)
	}
	var q padapi.Quota
	if err := json.Unmarshal([]byte(`{"billing_cycle_pad_limit":7}`), &q); err != nil || q.MonthlyPadLimit == nil || *q.MonthlyPadLimit != 7 {
		t.Errorf("quota with billing_cycle_pad_limit 7: %+v, %v; want a limit of 7", q, err)
	}
}

// No exported type has a method of json v2's interfaces, which would tie
// the package's API to go-json-experiment: models decode and encode with
// UnmarshalJSON and MarshalJSON, as any Go type does.
func TestNoJSONv2Methods(t *testing.T) {
	t.Parallel()
	for _, v := range []any{
		padapi.ID(""), padapi.Pad{}, padapi.Organization{}, padapi.Quota{}, padapi.DatabaseSchema{},
		padapi.Question{}, padapi.PadEvent{}, padapi.PadEnvironment{}, padapi.History{}, padapi.HistoryOp{},
	} {
		typ := reflect.PointerTo(reflect.TypeOf(v))
		for _, name := range []string{"UnmarshalJSONFrom", "MarshalJSONTo"} {
			if _, ok := typ.MethodByName(name); ok {
				t.Errorf("%v has %s, a json v2 method", typ, name)
			}
		}
	}
}
