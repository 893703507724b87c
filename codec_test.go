// codec_test.go: tests of the codec: every model decodes from each testdata shape and round-trips.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	json2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
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
		wire:   map[string]string{"ended_at": `null`, "language": `"zig-0.14"`, "team": `{"id":"42","name":"Platform"}`},
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

// TestHostileBodies sends 2xx bodies of the wrong shape to each kind of
// endpoint. Each is an *APIError with status 200 whose short message names
// the field and the problem, never a panic, never a bare encoding/json error.
func TestHostileBodies(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	digits := strings.Repeat("7", 5000)
	const pad = `"id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"`
	quota := func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err }
	getPad := func(ctx context.Context) error { _, err := c.Pads.Get(ctx, "P1"); return err }
	listPads := func(ctx context.Context) error { _, err := c.Pads.List(ctx, nil); return err }
	question := func(ctx context.Context) error { _, err := c.Questions.Get(ctx, "1"); return err }
	stats := func(ctx context.Context) error { _, err := c.Organization.Stats(ctx, nil); return err }
	org := func(ctx context.Context) error { _, err := c.Organization.Get(ctx); return err }
	tests := []struct {
		name, body string
		call       func(context.Context) error
		want       string // what the message says
		syntax     bool   // the cause is a *jsontext.SyntacticError, else a *json2.SemanticError
	}{
		{"HTML", "<html><body>Bad Gateway</body></html>", getPad, "malformed response: not JSON (invalid character '<'", true},
		{"plain text", "Service Unavailable", stats, "malformed response: not JSON", true},
		{"truncated JSON", `{"status":"OK","pads":[{`, listPads, "malformed response: not JSON (unexpected end of JSON input)", true},
		{"array for the top object", `[{"status":"OK",` + pad + `}]`, getPad, `field "(top level)": cannot decode array as object`, false},
		{"array for an object", `{"status":"OK",` + pad + `,"team":[1]}`, getPad, `field "team": cannot decode array as padapi.Team`, false},
		{"object for the list", `{"status":"OK","pads":{` + pad + `}}`, listPads, `field "pads": cannot decode object as []padapi.Pad`, false},
		{"number for a string", `{"status":"OK",` + pad + `,"title":12}`, getPad, `field "title": cannot decode number as string`, false},
		{"number for an event string", `{"status":"OK",` + pad + `,"events":[{"kind":7}]}`, getPad, `field "events.kind": cannot decode number as string`, false},
		{"number for an event", `{"status":"OK",` + pad + `,"events":[{},7]}`, getPad, `field "events": cannot decode number as padapi.PadEvent`, false},
		{"string for a listed pad's event", `{"status":"OK","pads":[{` + pad + `,"events":["x"]}]}`, listPads, `field "pads.events": cannot decode string as padapi.PadEvent`, false},
		{"number for a time", `{"status":"OK","start_time":1709251200,"end_time":"2024-03-08T00:00:00Z"}`, stats, `field "start_time": cannot decode timestamp 1709251200 as time.Time`, false},
		{"number for the status", `{"status":200,"name":"x"}`, org, `field "status": cannot decode number as string`, false},
		{"string for a number", `{"status":"OK","pads":[],"total":"3"}`, listPads, `field "total": cannot decode string as int`, false},
		{"string for a bool", `{"status":"OK","id":1,"shared":"yes"}`, question, `field "shared": cannot decode string as bool`, false},
		{"float for an ID", `{"status":"OK","id":1.5}`, question, `field "id": cannot decode ID 1.5 as padapi.ID`, false},
		{"5000-digit number", `{"status":"OK","pads_used":` + digits + `}`, quota, `field "pads_used": cannot decode number 7777`, false},
		{"nesting past encoding/json's limit", `{"status":"OK","x":` + deep + `}`, listPads, "exceeded max depth", true},
		{"invalid UTF-8 outside a string", "{\"status\":\"OK\",\xff}", org, "malformed response: not JSON (invalid character", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call(answering(http.StatusOK, []byte(tt.body)))
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusOK {
				t.Fatalf("error = %#v, want an *APIError 200", err)
			}
			if !strings.Contains(apiErr.Message, tt.want) {
				t.Errorf("message %q does not say %q", apiErr.Message, tt.want)
			}
			var syntaxErr *jsontext.SyntacticError
			var typeErr *json2.SemanticError
			if tt.syntax && !errors.As(err, &syntaxErr) || !tt.syntax && !errors.As(err, &typeErr) {
				t.Errorf("error %v does not wrap the decoding error (syntax %v)", err, tt.syntax)
			}
			if n := len(err.Error()); n > 300 {
				t.Errorf("error text is %d bytes: %.300s", n, err)
			}
			if strings.Contains(err.Error(), "Wire") || strings.Contains(err.Error(), "Alias") {
				t.Errorf("error text names an internal type: %s", err)
			}
			if len(matching(err)) != 0 {
				t.Errorf("a 200 answer matches %v", matching(err))
			}
		})
	}
}

// plainEvent mirrors some fields of padapi.PadEvent without its decoder.
type plainEvent struct {
	Message  string `json:"message"`
	Kind     string `json:"kind"`
	UserName string `json:"user_name"`
}

// TestHostileDecodesLikeEncodingJSON covers bodies that are odd but valid:
// nesting under encoding/json's limit in a field the client ignores, and
// invalid UTF-8 inside strings, which encoding/json turns into U+FFFD; the
// hand-written event decoder must do the same.
func TestHostileDecodesLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	const pad = `"id":"P1","created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:00:00Z"`
	// plain mirrors the fields under test with types that encoding/json
	// decodes by itself.
	type plain struct {
		ID     string
		Title  string
		Events []plainEvent
	}
	for name, body := range map[string]string{
		"deep unknown field": `{"status":"OK",` + pad + `,"title":"t","x":` + strings.Repeat(`{"a":[`, 4000) + strings.Repeat(`]}`, 4000) + `}`,
		"invalid UTF-8": "{\"status\":\"OK\"," + pad + ",\"title\":\"a\xffb\xc3\x28\"," +
			"\"events\":[{\"message\":\"\xed\xa0\x80x\",\"kind\":\"ran\\u00e9\xf0\x9f\",\"user_name\":\"\xc0\xaf\"}]}",
	} {
		t.Run(name, func(t *testing.T) {
			got, err := c.Pads.Get(answering(http.StatusOK, []byte(body)), "P1")
			if err != nil {
				t.Fatal(err)
			}
			var want plain
			if err := json.Unmarshal([]byte(body), &want); err != nil {
				t.Fatal(err)
			}
			mirror := plain{ID: string(got.ID), Title: got.Title}
			for _, e := range got.Events {
				mirror.Events = append(mirror.Events, plainEvent{e.Message, e.Kind, e.UserName})
			}
			if diff := cmp.Diff(want, mirror); diff != "" {
				t.Errorf("pipeline and encoding/json differ (-encoding/json +pipeline):\n%s", diff)
			}
		})
	}
}

// The timestamp fallback decodes into the caller's value without wiping
// what the body does not carry.
func TestTimestampFallbackKeepsTheCallersValue(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "GET /gw/api/pads/X", http.StatusOK, []byte(`{"status":"OK","id":"X","created_at":"2024-01-02 03:04:05+0000"}`))
	type withExtra struct {
		ID        string    `json:"id"`
		CreatedAt time.Time `json:"created_at"`
		Extra     string    `json:"-"`
		Keep      string    `json:"keep"`
	}
	v := withExtra{Extra: "mine", Keep: "preset"}
	if err := c.Do(context.Background(), http.MethodGet, "/api/pads/X", nil, &v); err != nil {
		t.Fatal(err)
	}
	if v.Extra != "mine" || v.Keep != "preset" || v.ID != "X" || v.CreatedAt.Year() != 2024 {
		t.Errorf("got %+v, want the body's fields and the caller's own kept", v)
	}
}

// A body that gives its status twice is malformed, whichever way it is
// read: no reading may take the first and another the last.
func TestRepeatedStatusRefused(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "GET /gw/api/pads/X", http.StatusOK, []byte(`{"status":"OK","id":"X","status":"ERROR","message":"pad is locked"}`))
	_, errGet := c.Pads.Get(context.Background(), "X")
	errDo := c.Do(context.Background(), http.MethodGet, "/api/pads/X", nil, nil)
	for name, err := range map[string]error{"Pads.Get": errGet, "Do": errDo} {
		if err == nil || !strings.Contains(err.Error(), `gives "status" twice`) {
			t.Errorf("%s: err = %v, want a malformed answer", name, err)
		}
	}
}

// stampRE matches an RFC 3339 timestamp: date, time, zone.
var stampRE = regexp.MustCompile(`"(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d(?:\.\d+)?)(Z|([+-]\d\d):(\d\d))"`)

// A list page decodes in one pass as it streams, whatever form its
// timestamps take (+0000, +00, a space for T): every time field of a pad,
// its events and notifications, a question and an event reads them all,
// with the result of the same page in RFC 3339.
func TestPageTimestampsInEveryForm(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	item := func(file string) string {
		b := strings.TrimSpace(string(fixture(t, file)))
		return strings.Replace(b, `"status": "OK",`, "", 1)
	}
	pads := `{"status":"OK","total":4,"pads":[` + item("pad_documented.json") + "," + item("pad_notifications.json") + "," +
		item("pad_live.json") + "," + item("pad_edge.json") + `]}`
	questions := `{"status":"OK","total":2,"questions":[` + item("question_live.json") + "," + item("question_ai_db.json") + `]}`
	events := string(fixture(t, "events_page1.json"))
	// Each form writes date d, time c and zone hours h, minutes m
	// (Z is +00:00 in the other forms).
	forms := map[string]func(d, c, h, m string) string{
		"+0000 and a space": func(d, c, h, m string) string { return d + " " + c + h + m },
		"+00": func(d, c, h, m string) string {
			if m != "00" {
				return d + "T" + c + h + m
			}
			return d + "T" + c + h
		},
	}
	list := map[string]func(context.Context) (any, error){
		pads:      func(ctx context.Context) (any, error) { return c.Pads.List(ctx, nil) },
		questions: func(ctx context.Context) (any, error) { return c.Questions.List(ctx, nil) },
		events:    func(ctx context.Context) (any, error) { return c.Pads.ListEvents(ctx, "P1", nil) },
	}
	for body, call := range list {
		want, err := call(answering(http.StatusOK, []byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		for name, form := range forms {
			other := stampRE.ReplaceAllStringFunc(body, func(s string) string {
				p := stampRE.FindStringSubmatch(strings.Replace(s, `Z"`, `+00:00"`, 1))
				return `"` + form(p[1], p[2], p[4], p[5]) + `"`
			})
			if other == body || strings.Contains(other, `:00Z"`) {
				t.Fatalf("%s: no timestamp rewritten", name)
			}
			got, err := call(answering(http.StatusOK, []byte(other)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if diff := cmp.Diff(want, got, rawJSONCmp); diff != "" {
				t.Errorf("%s: the page differs from its RFC 3339 self (-want +got):\n%s", name, diff)
			}
		}
	}
}
