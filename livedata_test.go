package padapi_test

// The live shapes of API-REFERENCE.md "Beyond the seed" (events pages,
// environments, edit-history documents, users, and the other fields seen
// live), each decoded with json.Unmarshal where its type allows, through its
// endpoint with an exact check of the request, and marshalled back.

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// ltZone is a fixed time zone east of UTC.
func ltZone(hours, minutes int) *time.Location {
	return time.FixedZone("", (hours*60+minutes)*60)
}

// ltMainPy is the final text of main.py in testdata/environment_live.json,
// which testdata/history_live.json replays to.
const ltMainPy = "def greet():\n    # 你好, cafe\u0301 🎉\n    return 'hi there'\nprint(greet())\n"

// ltEnvironmentLive is testdata/environment_live.json: integer IDs, a null
// question, null contents and history, a binary file.
func ltEnvironmentLive() *padapi.PadEnvironment {
	return &padapi.PadEnvironment{
		ID:         "98765",
		PadID:      "4321",
		QuestionID: padapi.Ptr[padapi.ID]("1234"),
		Language:   "python3",
		Files: []padapi.FileContent{
			{Path: "main.py", Contents: ltMainPy, History: "https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/main.json"},
			{Path: "notes/empty.txt"},
			{Path: "assets/logo.png", Contents: "iVBORw0KGgo=", Binary: true},
			{Path: "README.md", Contents: "# Task\n", History: "https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/readme.json"},
		},
		CreatedAt: time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC),
		UpdatedAt: time.Date(2024, 3, 5, 11, 2, 10, 987_000_000, ltZone(1, 0)),
	}
}

// ltEnvironmentStringIDs is testdata/environment_string_ids.json: every ID a
// JSON string, no files, offsets without a colon.
func ltEnvironmentStringIDs() *padapi.PadEnvironment {
	at := time.Date(2024, 3, 5, 10, 15, 30, 0, time.UTC)
	return &padapi.PadEnvironment{
		ID: "98766", PadID: "4321", ExampleQuestionID: padapi.Ptr[padapi.ID]("77"), Language: "go",
		Files: []padapi.FileContent{}, CreatedAt: at, UpdatedAt: at,
	}
}

// ltPadNotifications is testdata/pad_notifications.json: a live pad with
// pad_interviewer_notifications.
func ltPadNotifications() *padapi.Pad {
	ended := time.Date(2024, 3, 5, 11, 2, 10, 987_000_000, time.UTC)
	return &padapi.Pad{
		ID:                        "N0T1F1ED",
		Title:                     "Senior backend loop",
		OwnerEmail:                "ops@example.com",
		Language:                  "python3",
		Participants:              []string{"Jane Doe", "Candidate"},
		Contents:                  "print('hi')\n",
		Notes:                     "Asked good questions.",
		EventsURL:                 "https://app.coderpad.io/api/pads/N0T1F1ED/events",
		ExecutionEnabled:          true,
		CreatedAt:                 time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC),
		UpdatedAt:                 ended,
		EndedAt:                   &ended,
		URL:                       "https://app.coderpad.io/N0T1F1ED",
		Playback:                  "https://app.coderpad.io/N0T1F1ED/playback",
		History:                   "https://pad-history.example.firebaseio.com/pads/N0T1F1ED.json",
		Drawing:                   "https://app.coderpad.io/N0T1F1ED/drawing",
		State:                     "ended",
		Type:                      "live",
		QuestionIDs:               []padapi.ID{},
		PadEnvironmentIDs:         []padapi.ID{"98765", "98766"},
		ActiveEnvironmentID:       padapi.Ptr[padapi.ID]("98766"),
		RestrictInterviewerAccess: padapi.Ptr(false),
		InterviewerNotifications: []padapi.InterviewerNotification{
			{
				ID: "31", Title: "Possible AI assistance", Message: "A large paste was detected at 10:32.",
				Priority: "high", RequestID: "req_7f3a",
				DismissedAt: padapi.Ptr(time.Date(2024, 3, 5, 10, 35, 0, 0, ltZone(-5, 0))),
				Useful:      padapi.Ptr(true),
				CreatedAt:   time.Date(2024, 3, 5, 10, 32, 0, 0, time.UTC),
				UpdatedAt:   time.Date(2024, 3, 5, 15, 35, 0, 0, time.UTC),
			},
			{
				ID: "32", Title: "Candidate left the tab", Message: "The candidate's tab lost focus for 2 minutes.",
				Priority: "low", RequestID: "req_80b1", AutoDismissed: true,
				CreatedAt: time.Date(2024, 3, 5, 10, 50, 0, 0, time.UTC),
				UpdatedAt: time.Date(2024, 3, 5, 10, 50, 0, 0, time.UTC),
			},
		},
	}
}

// ltQuestionAIDB is testdata/question_ai_db.json: a question with an AI
// assistant prompt and a typed custom database.
func ltQuestionAIDB() *padapi.Question {
	return &padapi.Question{
		ID:                    "1236",
		Title:                 "SQL: late orders",
		OwnerEmail:            "ghislain@example.com",
		AuthorName:            "Ghislain",
		OrganizationName:      "Example Corp",
		Language:              "postgresql",
		Description:           "Find the orders shipped late.",
		CandidateInstructions: []padapi.CandidateInstruction{{Instructions: "Use the orders table.", DefaultVisible: padapi.Ptr(false)}},
		Contents:              "SELECT * FROM orders;\n",
		AIAssistPrompt:        "Never write the query for the candidate.",
		Shared:                true,
		Used:                  3,
		PadType:               "interview",
		CustomFiles:           []padapi.CustomFile{},
		CustomDatabase: &padapi.CustomDatabase{
			ID: "12", Title: "Orders", Language: "postgresql",
			Schema: "CREATE TABLE orders (id int PRIMARY KEY, due date NOT NULL, shipped date);",
			SchemaJSON: &padapi.DatabaseSchema{Tables: []padapi.DatabaseTable{{Name: "orders", Columns: []padapi.DatabaseColumn{
				{Name: "id", Type: "int", PrimaryKey: true, NotNull: true},
				{Name: "due", Type: "date", NotNull: true},
				{Name: "shipped", Type: "date"},
			}}}},
		},
		CreatedAt: time.Date(2024, 2, 1, 8, 0, 0, 0, time.UTC),
		UpdatedAt: time.Date(2024, 2, 3, 8, 30, 0, 500_000_000, ltZone(5, 30)),
	}
}

// ltHistoryLive is testdata/history_live.json in apply order: by time,
// then entry ID ("-NsQ2" before "-NsQ3" at the same millisecond).
func ltHistoryLive() *padapi.History {
	const author, interviewer = "-Ns0candidate", "-Ns1interviewer"
	return &padapi.History{Entries: []padapi.HistoryEntry{
		{ID: "-NsQ1", Author: author, Time: time.UnixMilli(1709633730000).UTC(),
			Ops: []padapi.HistoryOp{{Insert: "def greet():\n    return 'hi 👋'\n"}}},
		{ID: "-NsQ2", Author: author, Time: time.UnixMilli(1709633790000).UTC(),
			Ops: []padapi.HistoryOp{{Retain: 28}, {Delete: 2}, {Insert: "there"}, {Retain: 2}}},
		{ID: "-NsQ3", Author: interviewer, Time: time.UnixMilli(1709633790000).UTC(),
			Ops: []padapi.HistoryOp{{Retain: 35}, {Insert: "print(greet())\n"}}},
		{ID: "-NsQ4", Author: author, Time: time.UnixMilli(1709633850000).Add(500 * time.Microsecond).UTC(),
			Ops: []padapi.HistoryOp{{Retain: 13}, {Insert: "    # 你好, cafe\u0301 🎉\n"}, {Retain: 37}}},
	}}
}

// ltEventsPage1 and ltEventsLast are testdata/events_page1.json and
// events_last.json: one log of five events in two pages.
func ltEventsPage1() *padapi.Page[padapi.PadEvent] {
	return &padapi.Page[padapi.PadEvent]{
		Items: []padapi.PadEvent{
			{Message: "Jane Doe joined the pad", Kind: "joined", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC)},
			{Message: "Candidate joined the pad", Kind: "joined", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 10, 16, 2, 0, time.UTC)},
			{Message: "Candidate ran the code", Kind: "ran", Metadata: "python3", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 2, 20, 0, 500_000_000, ltZone(-8, 0))},
		},
		Total:    5,
		NextPage: "https://app.coderpad.io/api/pads/K3P9ZR2A/events?page=2&sort=created_at%2Casc",
	}
}

func ltEventsLast() *padapi.Page[padapi.PadEvent] {
	return &padapi.Page[padapi.PadEvent]{
		Items: []padapi.PadEvent{
			{Message: "Jane Doe switched the language to Go", Kind: "language_changed", Metadata: "go", UserName: "Jane Doe", UserEmail: "jane@example.com", CreatedAt: time.Date(2024, 3, 5, 10, 40, 0, 0, ltZone(1, 0))},
			{Message: "Candidate left the pad", Kind: "left", UserName: "Candidate", CreatedAt: time.Date(2024, 3, 5, 11, 1, 59, 999_999_000, time.UTC)},
		},
		Total:    5,
		PrevPage: "https://app.coderpad.io/api/pads/K3P9ZR2A/events?page=1&sort=created_at%2Casc",
	}
}

// ltUsersAll and ltUsersOne are testdata/users_all.json and users_one.json.
func ltUsersAll() []padapi.OrganizationUser {
	return []padapi.OrganizationUser{
		{Email: "vincent@example.com", Name: "Vincent Woo", Teams: []string{"Platform", "Hiring"}},
		{Email: "jane@example.com", Name: "Jane Doe", Teams: []string{}},
		{Email: "sam+pads@example.com", Name: "Sam"},
	}
}

func ltUsersOne() []padapi.OrganizationUser {
	return []padapi.OrganizationUser{{Email: "sam+pads@example.com", Name: "Sam", Teams: []string{"Hiring"}}}
}

// ltModels are the live-shape testdata files, which TestModelsDecode and
// TestModelsRoundTrip check with the documented ones.
var ltModels = []epModel{
	{
		file: "environment_live.json", new: func() any { return new(padapi.PadEnvironment) }, want: ltEnvironmentLive(),
		wire: map[string]string{
			"id": `98765`, "pad_id": `4321`, "question_id": `1234`, "example_question_id": `null`,
			"created_at": `"2024-03-05T10:15:30.123Z"`, "updated_at": `"2024-03-05T11:02:10.987+01:00"`,
			"file_contents": `[` +
				`{"path":"main.py","contents":` + ltJSON(ltMainPy) + `,"history":"https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/main.json"},` +
				`{"path":"notes/empty.txt","contents":"","history":""},` +
				`{"path":"assets/logo.png","contents":"iVBORw0KGgo=","history":"","binary":true},` +
				`{"path":"README.md","contents":"# Task\n","history":"https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/readme.json"}]`,
		},
		absent: []string{"status"},
	},
	{
		file: "environment_string_ids.json", new: func() any { return new(padapi.PadEnvironment) }, want: ltEnvironmentStringIDs(),
		wire:   map[string]string{"id": `98766`, "pad_id": `4321`, "question_id": `null`, "example_question_id": `77`, "file_contents": `[]`},
		absent: []string{"status"},
	},
	{
		file: "pad_notifications.json", new: func() any { return new(padapi.Pad) }, want: ltPadNotifications(),
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
		file: "question_ai_db.json", new: func() any { return new(padapi.Question) }, want: ltQuestionAIDB(),
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
		file: "history_live.json", new: func() any { return new(padapi.History) }, want: ltHistoryLive(),
		wire: map[string]string{
			"-NsQ1": `{"a":"-Ns0candidate","o":["def greet():\n    return 'hi 👋'\n"],"t":1709633730000}`,
			"-NsQ2": `{"a":"-Ns0candidate","o":[28,-2,"there",2],"t":1709633790000}`,
			"-NsQ3": `{"a":"-Ns1interviewer","o":[35,"print(greet())\n"],"t":1709633790000}`,
			"-NsQ4": `{"a":"-Ns0candidate","o":[13,` + ltJSON("    # 你好, cafe\u0301 🎉\n") + `,37],"t":1709633850000.5}`,
		},
	},
}

// ltJSON is s as a JSON string, as json.Marshal writes it.
func ltJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Each live shape decodes through its endpoint, which sends exactly the
// request the service takes.
func TestLiveShapesEndpoints(t *testing.T) {
	runEndpoints(t, []endpointCase{
		{
			name:   "Environment with integer IDs",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "98765") },
			method: "GET", path: "/gw/api/pad_environments/98765",
			file: "environment_live.json", want: ltEnvironmentLive(),
		},
		{
			name:   "Environment with string IDs",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "98766") },
			method: "GET", path: "/gw/api/pad_environments/98766",
			file: "environment_string_ids.json", want: ltEnvironmentStringIDs(),
		},
		{
			name:   "Environment ID that needs escaping",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "../pads/X") },
			method: "GET", path: "/gw/api/pad_environments/..%2Fpads%2FX",
			file: "environment_live.json", want: ltEnvironmentLive(),
		},
		{
			name:   "Pad with interviewer notifications",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Get(ctx, "N0T1F1ED") },
			method: "GET", path: "/gw/api/pads/N0T1F1ED",
			file: "pad_notifications.json", want: ltPadNotifications(),
		},
		{
			name:   "Question with an AI prompt and a custom database",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "1236") },
			method: "GET", path: "/gw/api/questions/1236",
			file: "question_ai_db.json", want: ltQuestionAIDB(),
		},
		{
			name: "Events first page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "K3P9ZR2A", nil)
			},
			method: "GET", path: "/gw/api/pads/K3P9ZR2A/events",
			file: "events_page1.json", want: ltEventsPage1(),
		},
		{
			name: "Events sorted last page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "K3P9ZR2A", &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc, Page: 2})
			},
			method: "GET", path: "/gw/api/pads/K3P9ZR2A/events",
			query: url.Values{"sort": {"created_at,asc"}, "page": {"2"}},
			file:  "events_last.json", want: ltEventsLast(),
		},
		{
			name: "Events of a pad ID that needs escaping",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.ListEvents(ctx, "a/b c", &padapi.PadEventListOptions{})
			},
			method: "GET", path: "/gw/api/pads/a%2Fb%20c/events",
			file: "events_page1.json", want: ltEventsPage1(),
		},
		{
			name:   "Users",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Organization.ListUsers(ctx, nil) },
			method: "GET", path: "/gw/api/organization/users",
			file: "users_all.json", want: ltUsersAll(),
		},
		{
			name: "Users with empty options",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{})
			},
			method: "GET", path: "/gw/api/organization/users",
			file: "users_all.json", want: ltUsersAll(),
		},
		{
			name: "Users by email",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Organization.ListUsers(ctx, &padapi.OrganizationUserListOptions{Email: "sam+pads@example.com"})
			},
			method: "GET", path: "/gw/api/organization/users",
			query: url.Values{"email": {"sam+pads@example.com"}},
			file:  "users_one.json", want: ltUsersOne(),
		},
	})
}
