package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// epQuestionLive is testdata/question_live.json: the live shape, with an
// integer ID and nulls.
func epQuestionLive() *padapi.Question {
	return &padapi.Question{
		ID:               "1234",
		Title:            "FizzBuzz",
		OwnerEmail:       "vincent@example.com",
		AuthorName:       "Vincent Woo",
		OrganizationName: "Example Corp",
		Language:         "python3",
		Description:      "A warm-up; expect ten minutes.",
		CandidateInstructions: []padapi.CandidateInstruction{
			{Instructions: "Print the numbers from 1 to n.", DefaultVisible: padapi.Ptr(true)},
			{Instructions: "Bonus: no modulo operator."},
		},
		Contents:         "def fizzbuzz(n):\n    pass\n",
		Shared:           true,
		TestCasesEnabled: true,
		Used:             17,
		PadType:          "interview",
		CustomFiles: []padapi.CustomFile{
			{ID: "cf_1", Title: "Input", Description: "Sample input", Filename: "input.txt", Filesize: "42"},
		},
		TestCases: []padapi.TestCase{
			{ID: "1", Arguments: []string{"15"}, ReturnValue: "FizzBuzz", Visible: true},
			{ID: "2", Arguments: []string{"3"}, ReturnValue: "Fizz"},
		},
		CreatedAt: time.Date(2023, 6, 1, 9, 0, 0, 0, time.UTC),
		UpdatedAt: time.Date(2023, 6, 2, 17, 30, 15, 250_000_000, epOffset(2, 0)),
	}
}

// epQuestionsList is testdata/questions_list.json: one page, the last.
func epQuestionsList() *padapi.Page[padapi.Question] {
	return &padapi.Page[padapi.Question]{
		Items: []padapi.Question{{
			ID:                      "1235",
			Title:                   "SQL: top customers",
			OwnerEmail:              "ghislain@example.com",
			AuthorName:              "Ghislain",
			OrganizationName:        "Example Corp",
			CandidateInstructions:   []padapi.CandidateInstruction{},
			Solution:                "SELECT 1;",
			TakeHome:                true,
			IsDraft:                 true,
			PadType:                 "take_home",
			CustomFiles:             []padapi.CustomFile{},
			PublicTakeHomeSettingID: padapi.Ptr[padapi.ID]("77"),
			CustomDatabase: &padapi.CustomDatabase{
				ID: "9", Title: "Shop", Language: "postgresql", Schema: "CREATE TABLE customers (id int PRIMARY KEY, name text NOT NULL);",
				SchemaJSON: &padapi.DatabaseSchema{
					Arrangement: json.RawMessage(`{"customers": {"x": 0, "y": 0}}`),
					Tables: []padapi.DatabaseTable{{Name: "customers", Columns: []padapi.DatabaseColumn{
						{Name: "id", Type: "int", PrimaryKey: true, NotNull: true},
						{Name: "name", Type: "text", NotNull: true},
					}}},
				},
			},
			CreatedAt: time.Date(2023, 7, 1, 12, 0, 0, 0, time.UTC),
			UpdatedAt: time.Date(2023, 7, 1, 12, 0, 0, 0, time.UTC),
		}},
		Total: 1,
	}
}

func TestQuestionsEndpoints(t *testing.T) {
	runEndpoints(t, []endpointCase{
		{
			name:   "List",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.List(ctx, nil) },
			method: "GET", path: "/gw/api/questions",
			file: "questions_list.json", want: epQuestionsList(),
		},
		{
			name: "List sorted page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.List(ctx, &padapi.QuestionListOptions{Sort: padapi.SortCreatedAsc, Page: 3})
			},
			method: "GET", path: "/gw/api/questions",
			query: url.Values{"sort": {"created_at,asc"}, "page": {"3"}},
			file:  "questions_list.json", want: epQuestionsList(),
		},
		{
			name:   "Get",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "1234") },
			method: "GET", path: "/gw/api/questions/1234",
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name:   "Get with a slash in the ID",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "../pads") },
			method: "GET", path: "/gw/api/questions/..%2Fpads",
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Create with title and language",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("FizzBuzz"), Language: padapi.Ptr("python3")})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{"question[title]": {"FizzBuzz"}, "question[language]": {"python3"}},
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Create with every field",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{
					Title:          padapi.Ptr("FizzBuzz"),
					Language:       padapi.Ptr("python3"),
					Description:    padapi.Ptr("A warm-up; expect ten minutes."),
					Contents:       padapi.Ptr("def fizzbuzz(n):\n    pass\n"),
					Solution:       padapi.Ptr(""),
					AIAssistPrompt: padapi.Ptr("Give hints, not answers."),
					CandidateInstructions: []padapi.CandidateInstruction{
						{Instructions: "Read the spec.", DefaultVisible: padapi.Ptr(true)},
					},
				})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{
				"question[title]":                          {"FizzBuzz"},
				"question[language]":                       {"python3"},
				"question[description]":                    {"A warm-up; expect ten minutes."},
				"question[contents]":                       {"def fizzbuzz(n):\n    pass\n"},
				"question[solution]":                       {""},
				"question[ai_assist_custom_system_prompt]": {"Give hints, not answers."},
				"question[candidate_instructions]":         {`[{"instructions":"Read the spec.","default_visible":true}]`},
			},
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Update",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Description: padapi.Ptr("A warm-up; expect ten minutes.")})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[description]": {"A warm-up; expect ten minutes."}},
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name:   "Delete",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Questions.Delete(ctx, "1234") },
			method: "DELETE", path: "/gw/api/questions/1234",
			file: "delete_ok.json", want: nil,
		},
	})
}

func TestQuestionsDeleteNotFound(t *testing.T) {
	c, n := fixedClient(t, "DELETE /gw/api/questions/999", http.StatusNotFound, "error_question_not_found.json")
	err := c.Questions.Delete(context.Background(), "999")
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
}

func TestQuestionsInvalidID(t *testing.T) {
	for _, id := range []padapi.ID{"", ".", ".."} {
		t.Run(string(id), func(t *testing.T) {
			c, n := countingClient(t)
			ctx := context.Background()
			if _, err := c.Questions.Get(ctx, id); err == nil {
				t.Errorf("Get(%q): no error", id)
			}
			if _, err := c.Questions.Update(ctx, id, &padapi.QuestionUpdateParams{Title: padapi.Ptr("x")}); err == nil {
				t.Errorf("Update(%q): no error", id)
			}
			if err := c.Questions.Delete(ctx, id); err == nil {
				t.Errorf("Delete(%q): no error", id)
			}
			if got := n.Load(); got != 0 {
				t.Errorf("%d requests, want 0", got)
			}
		})
	}
}
