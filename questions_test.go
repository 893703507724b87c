// questions_test.go: tests of the question endpoints: reads, writes with files or a zip, deletes.

package padapi_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// questionLive is testdata/question_live.json: the live shape, with an
// integer ID and nulls.
func questionLive() *padapi.Question {
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
		UpdatedAt: time.Date(2023, 6, 2, 17, 30, 15, 250_000_000, offset(2, 0)),
	}
}

// questionsList is testdata/questions_list.json: one page, the last.
func questionsList() *padapi.Page[padapi.Question] {
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

// Every question endpoint sends exactly the request the service takes,
// reads and writes (with files or a zip) alike, and decodes each shape of
// its answer, documented and live.
func TestQuestionsEndpoints(t *testing.T) {
	t.Parallel()
	archive := zipOf(t, "main.py", "print('hi')\r\n--boundary\r\n", "data/\x00bin", "\x00\x01\xff")
	runEndpoints(t, []endpointCase{
		{
			name:   "List",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.List(ctx, nil) },
			method: "GET", path: "/gw/api/questions",
			file: "questions_list.json", want: questionsList(),
		},
		{
			name: "List sorted page",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.List(ctx, &padapi.QuestionListOptions{Sort: padapi.SortCreatedAsc, Page: 3})
			},
			method: "GET", path: "/gw/api/questions",
			query: url.Values{"sort": {"created_at,asc"}, "page": {"3"}},
			file:  "questions_list.json", want: questionsList(),
		},
		{
			name:   "Get",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "1234") },
			method: "GET", path: "/gw/api/questions/1234",
			file: "question_live.json", want: questionLive(),
		},
		{
			name:   "Get with a slash in the ID",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "../pads") },
			method: "GET", path: "/gw/api/questions/..%2Fpads",
			file: "question_live.json", want: questionLive(),
		},
		{
			name: "Create with title and language",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("FizzBuzz"), Language: padapi.Ptr("python3")})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{"question[title]": {"FizzBuzz"}, "question[language]": {"python3"}},
			file: "question_live.json", want: questionLive(),
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
			file: "question_live.json", want: questionLive(),
		},
		{
			name: "Update",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Description: padapi.Ptr("A warm-up; expect ten minutes.")})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[description]": {"A warm-up; expect ten minutes."}},
			file: "question_live.json", want: questionLive(),
		},
		{
			name:   "Delete",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Questions.Delete(ctx, "1234") },
			method: "DELETE", path: "/gw/api/questions/1234",
			file: "delete_ok.json", want: nil,
		},
		{
			name:   "Question with an AI prompt and a custom database",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.Get(ctx, "1236") },
			method: "GET", path: "/gw/api/questions/1236",
			file: "question_ai_db.json", want: questionAIDB(),
		},
		{
			name: "Create a multi-file question",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("Two files"), Language: padapi.Ptr("python3"), Files: files})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{"question[title]": {"Two files"}, "question[language]": {"python3"}, "question[file_contents]": {filesJSON}},
			file: "question_live.json", want: questionLive(),
		},
		{
			name: "Update a question's files",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Files: files})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[file_contents]": {filesJSON}},
			file: "question_live.json", want: questionLive(),
		},
		{
			name: "Create a question from a zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{
					Title: padapi.Ptr("Zipped"), Language: padapi.Ptr("python3"), AIAssistPrompt: padapi.Ptr("Hints only."), Zip: archive,
				})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{
				"question[title]":                          {"Zipped"},
				"question[language]":                       {"python3"},
				"question[ai_assist_custom_system_prompt]": {"Hints only."},
			},
			files: map[string][2]string{"question[zip_file]": {"question.zip", string(archive)}},
			file:  "question_live.json", want: questionLive(),
		},
		{
			name: "Update a question from a zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Zip: archive})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form:  url.Values{},
			files: map[string][2]string{"question[zip_file]": {"question.zip", string(archive)}},
			file:  "question_live.json", want: questionLive(),
		},
		{
			// An empty archive is no archive: the body stays a form.
			name: "Update with an empty zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Title: padapi.Ptr("t"), Zip: []byte{}})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[title]": {"t"}},
			file: "question_live.json", want: questionLive(),
		},
	})
}

// A delete that the service answers with a status alone (204), an empty or
// blank body, or an envelope without a question, succeeded: the question
// is gone and there is nothing to return.
func TestQuestionsDeleteWithoutBody(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	for _, tt := range []struct {
		name   string
		status int
		body   string
	}{
		{"204", http.StatusNoContent, ""},
		{"200, empty body", http.StatusOK, ""},
		{"200, blank body", http.StatusOK, " \r\n"},
		{"200, status alone", http.StatusOK, `{"status":"OK"}`},
	} {
		if err := c.Questions.Delete(answering(tt.status, []byte(tt.body)), "1234"); err != nil {
			t.Errorf("%s: error %v, want success", tt.name, err)
		}
	}
}

func TestQuestionsDeleteNotFound(t *testing.T) {
	t.Parallel()
	c, mux := setup(t)
	n := handle(mux, "DELETE /gw/api/questions/999", http.StatusNotFound, fixture(t, "error_question_not_found.json"))
	err := c.Questions.Delete(context.Background(), "999")
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Fatalf("error %v, want ErrNotFound", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want 1", got)
	}
}

func TestQuestionsInvalidID(t *testing.T) {
	t.Parallel()
	for _, id := range []padapi.ID{"", ".", ".."} {
		t.Run(string(id), func(t *testing.T) {
			c, mux := setup(t, noRetry)
			n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
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

// zipOf returns a zip archive holding files (path, contents), written with
// the bytes a multipart boundary or a line end could be confused with.
func zipOf(t *testing.T, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := w.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, files[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The zip goes as a file part that Rails treats as an upload: field
// question[zip_file], a filename, Content-Type application/zip, the bytes
// exactly. A retried update sends the same body again.
func TestQuestionZipPart(t *testing.T) {
	t.Parallel()
	archive := zipOf(t, "src/app.go", "package main\n", "go.mod", "module x\n")
	c, mt := newMockClient(t)
	var mu sync.Mutex
	var attempts [][2]string // Content-Type and body of each attempt
	record := func(status int, body string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			attempts = append(attempts, [2]string{r.Header.Get("Content-Type"), string(b)})
			mu.Unlock()
			return httpmock.NewStringResponse(status, body), nil
		}
	}
	mt.RegisterResponder("PUT", testBase+"/api/questions/1234",
		record(502, "bad gateway").Then(record(200, string(fixture(t, "question_live.json")))))
	_, err := c.Questions.Update(context.Background(), "1234", &padapi.QuestionUpdateParams{
		Title: padapi.Ptr("Go service"), Language: padapi.Ptr("go"), Zip: archive,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(attempts))
	}
	if attempts[0] != attempts[1] {
		t.Errorf("the retry sent another body:\n%q\n%q", attempts[0], attempts[1])
	}
	want := []part{
		{Name: "question[title]", Body: "Go service"},
		{Name: "question[language]", Body: "go"},
		{Name: "question[zip_file]", Filename: "question.zip", ContentType: "application/zip", Body: string(archive)},
	}
	if diff := cmp.Diff(want, parts(t, attempts[0][0], []byte(attempts[0][1]))); diff != "" {
		t.Errorf("parts mismatch (-want +got):\n%s", diff)
	}
	// What the upload carries is the archive, whole.
	zr, err := zip.NewReader(strings.NewReader(parts(t, attempts[1][0], []byte(attempts[1][1]))[2].Body), int64(len(archive)))
	if err != nil || len(zr.File) != 2 || zr.File[0].Name != "src/app.go" {
		t.Errorf("the uploaded archive does not read back: %v", err)
	}
}

// Contents, Files and Zip are three ways to give a question's code: any
// two together are refused before anything is sent, on create and update.
func TestQuestionCodeExclusive(t *testing.T) {
	t.Parallel()
	contents, zipped := padapi.Ptr("print(1)"), []byte("PK\x03\x04")
	files := []padapi.QuestionFile{{Path: "a.py", Contents: "x"}}
	combos := map[string]padapi.QuestionUpdateParams{
		"contents and files":  {Contents: contents, Files: files},
		"contents and zip":    {Contents: contents, Zip: zipped},
		"files and zip":       {Files: files, Zip: zipped},
		"all three":           {Contents: contents, Files: files, Zip: zipped},
		"empty contents, zip": {Contents: padapi.Ptr(""), Zip: zipped},
	}
	c, mux := setup(t, noRetry)
	n := handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
	ctx := context.Background()
	for name, p := range combos {
		_, err := c.Questions.Update(ctx, "1", &p)
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.Contains(err.Error(), "at most one of Contents, Files and Zip") {
			t.Errorf("Update with %s: %v, want ErrInvalidArgument", name, err)
		}
		create := padapi.QuestionCreateParams{Title: padapi.Ptr("t"), Language: padapi.Ptr("go"), Contents: p.Contents, Files: p.Files, Zip: p.Zip}
		if _, err := c.Questions.Create(ctx, &create); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Create with %s: %v, want ErrInvalidArgument", name, err)
		}
	}
	// A zip does not make up for a missing title.
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Language: padapi.Ptr("go"), Zip: zipped}); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("Create with a zip and no title: %v, want ErrInvalidArgument", err)
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

// questionAIDB is testdata/question_ai_db.json: a question with an AI
// assistant prompt and a typed custom database.
func questionAIDB() *padapi.Question {
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
		UpdatedAt: time.Date(2024, 2, 3, 8, 30, 0, 500_000_000, offset(5, 30)),
	}
}

// files is a multi-file question's files, with characters that JSON
// escapes and one outside the BMP.
var files = []padapi.QuestionFile{
	{Path: "src/main.py", Contents: "print(\"hi\")\n"},
	{Path: "README.md", Contents: "# <Task> & 👋"},
}

// filesJSON is files as the question[file_contents] value: JSON, as
// encoding/json writes it.
const filesJSON = `[{"path":"src/main.py","contents":"print(\"hi\")\n"},{"path":"README.md","contents":"# \u003cTask\u003e \u0026 👋"}]`
