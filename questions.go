// questions.go: Question, its params, and the QuestionsService methods.

package padapi

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"time"

	json2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Question is a question of the question library.
type Question struct {
	// ID identifies the question (a number on the wire).
	ID ID `json:"id"`
	// Title is the question's title.
	Title string `json:"title"`
	// OwnerEmail, AuthorName and OrganizationName say whose it is.
	OwnerEmail       string `json:"owner_email"`
	AuthorName       string `json:"author_name"`
	OrganizationName string `json:"organization_name"`
	// Language is the question's language; "" when it has none.
	Language string `json:"language"`
	// Description is the question's description for interviewers.
	Description string `json:"description"`
	// CandidateInstructions are shown to candidates.
	CandidateInstructions []CandidateInstruction `json:"candidate_instructions"`
	// Contents is the code a pad started from the question begins with.
	Contents string `json:"contents"`
	// Solution is the question's solution.
	Solution string `json:"solution"`
	// AIAssistPrompt is the system prompt of the pad's AI assistant for
	// this question (live responses only).
	AIAssistPrompt string `json:"ai_assist_custom_system_prompt,omitempty"`
	// Shared questions are visible to the whole organization.
	Shared bool `json:"shared"`
	// TakeHome marks a take-home question.
	TakeHome bool `json:"take_home"`
	// TestCasesEnabled reports whether TestCases run.
	TestCasesEnabled bool `json:"test_cases_enabled"`
	// IsDraft marks an unpublished question.
	IsDraft bool `json:"is_draft"`
	// Used counts the pads that used the question.
	Used int `json:"used"`
	// PadType is the type of pad the question makes.
	PadType string `json:"pad_type"`
	// CustomFiles are files that come with the question.
	CustomFiles []CustomFile `json:"custom_files"`
	// TestCases are the question's test cases; nil when it has none.
	TestCases []TestCase `json:"test_cases"`
	// ContentsForTestCases is the code the test cases run against.
	ContentsForTestCases string `json:"contents_for_test_cases"`
	// PublicTakeHomeSettingID is the take-home setting, or nil.
	PublicTakeHomeSettingID *ID `json:"public_take_home_setting_id"`
	// CustomDatabase is the question's database, or nil (live responses
	// only).
	CustomDatabase *CustomDatabase `json:"custom_database,omitempty"`
	// CreatedAt and UpdatedAt are when the question was created and last
	// changed.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// CandidateInstruction is one block of instructions for the candidate.
type CandidateInstruction struct {
	// Instructions is the text.
	Instructions string `json:"instructions"`
	// DefaultVisible reports whether it shows at first; nil when unset.
	DefaultVisible *bool `json:"default_visible"`
}

// CustomFile is a file attached to a question.
type CustomFile struct {
	// ID, Title, Description, Filename and Filesize describe the file, all
	// as the service sends them (strings).
	ID          ID     `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Filename    string `json:"filename"`
	Filesize    string `json:"filesize"`
}

// MarshalJSON writes the file as the service sends it: every field, the
// ID too, a JSON string.
func (f CustomFile) MarshalJSON() ([]byte, error) {
	type plain CustomFile // CustomFile's fields without its methods
	return marshal(struct {
		ID string `json:"id"`
		plain
	}{string(f.ID), plain(f)})
}

// CustomDatabase is the database a SQL question runs against.
type CustomDatabase struct {
	// ID identifies the database.
	ID ID `json:"id"`
	// Title, Description and Language describe it.
	Title       string `json:"title"`
	Description string `json:"description"`
	Language    string `json:"language"`
	// Schema is the schema as text (SQL).
	Schema string `json:"schema"`
	// SchemaJSON is the schema as tables and columns, or nil.
	SchemaJSON *DatabaseSchema `json:"schema_json,omitempty"`
}

// DatabaseSchema is a custom database's schema as structured data.
type DatabaseSchema struct {
	// Arrangement is how the service lays the tables out, as it sends it.
	Arrangement json.RawMessage `json:"arrangement,omitempty"`
	// Tables are the database's tables.
	Tables []DatabaseTable `json:"tables"`
}

// UnmarshalJSON reads a schema; an arrangement of null is nil, as the
// absent one is.
func (s *DatabaseSchema) UnmarshalJSON(b []byte) error { return unmarshal(b, s) }

// unmarshalDatabaseSchema is DatabaseSchema's decoder for json v2 (see
// decodeOptions).
func unmarshalDatabaseSchema(dec *jsontext.Decoder, s *DatabaseSchema) error {
	type plain DatabaseSchema // DatabaseSchema's fields without its methods
	if err := json2.UnmarshalDecode(dec, (*plain)(s)); err != nil {
		return err
	}
	if string(s.Arrangement) == "null" {
		s.Arrangement = nil
	}
	return nil
}

// DatabaseTable is a table of a custom database.
type DatabaseTable struct {
	// Name is the table's name.
	Name string `json:"name"`
	// Columns are its columns, in order.
	Columns []DatabaseColumn `json:"columns"`
}

// DatabaseColumn is a column of a custom database's table.
type DatabaseColumn struct {
	// Name and Type are the column's name and SQL type.
	Name string `json:"name"`
	Type string `json:"type"`
	// PrimaryKey and NotNull are the column's constraints (pk, nn).
	PrimaryKey bool `json:"pk"`
	NotNull    bool `json:"nn"`
}

// TestCase is one test case of a question.
type TestCase struct {
	// ID identifies the test case.
	ID ID `json:"id"`
	// Arguments are the arguments passed in.
	Arguments []string `json:"arguments"`
	// ReturnValue is the expected result.
	ReturnValue string `json:"return_value"`
	// Visible test cases are shown to the candidate.
	Visible bool `json:"visible"`
}

// QuestionListOptions choose the order and page of Questions.List and
// Questions.All. A nil *QuestionListOptions means the service's defaults:
// newest first, first page.
type QuestionListOptions ListOptions

// List returns one page of the caller's questions (GET /api/questions).
func (s *QuestionsService) List(ctx context.Context, opts *QuestionListOptions) (*Page[Question], error) {
	return list[Question](ctx, s.client, "/api/questions", "questions", (*ListOptions)(opts).query())
}

// All iterates over all of the caller's questions, page by page of
// GET /api/questions, fetching the next page while the loop reads the
// current one (see WithConcurrentPages). It stops at the first error, which
// it yields once.
func (s *QuestionsService) All(ctx context.Context, opts *QuestionListOptions) iter.Seq2[*Question, error] {
	return all[Question](ctx, s.client, "/api/questions", "questions", (*ListOptions)(opts).query())
}

// Get returns one question (GET /api/questions/ID).
func (s *QuestionsService) Get(ctx context.Context, id ID) (*Question, error) {
	path, err := resourcePath("/api/questions", id)
	if err != nil {
		return nil, err
	}
	return get[Question](ctx, s.client, &request{method: http.MethodGet, path: path, need: "id", what: "question"})
}

// QuestionFile is one file of a multi-file question.
type QuestionFile struct {
	// Path is the file's path in the pad, such as "src/main.py".
	Path string `json:"path"`
	// Contents is the file's text.
	Contents string `json:"contents"`
}

// QuestionCreateParams are the fields of a new question; nil fields are not
// sent. Title and Language are required. At most one of Contents, Files and
// Zip may be set: they are three ways to give the question's code.
type QuestionCreateParams struct {
	// Title names the question; required.
	Title *string
	// Language is the language the pad starts in, such as "python3";
	// required.
	Language *string
	// Description is shown to interviewers.
	Description *string
	// Contents is the code of a single-file question.
	Contents *string
	// Solution is the interviewers' reference solution.
	Solution *string
	// AIAssistPrompt is the system prompt of the pad's AI assistant.
	AIAssistPrompt *string
	// CandidateInstructions are shown to the candidate; nil sends none.
	CandidateInstructions []CandidateInstruction
	// Files are the files of a multi-file question; nil sends none.
	Files []QuestionFile
	// Zip is a zip archive of the question's files, uploaded as
	// multipart/form-data; nil or empty sends none.
	Zip []byte
}

// QuestionUpdateParams are the fields to change; nil fields are left as
// they are. At most one of Contents, Files and Zip may be set.
type QuestionUpdateParams struct {
	// Title, Language, Description, Contents, Solution and AIAssistPrompt
	// replace the fields of the same names (see QuestionCreateParams).
	Title          *string
	Language       *string
	Description    *string
	Contents       *string
	Solution       *string
	AIAssistPrompt *string
	// CandidateInstructions replace the question's; nil keeps them.
	CandidateInstructions []CandidateInstruction
	// Files replace the files of a multi-file question; nil keeps them.
	Files []QuestionFile
	// Zip replaces the question's files with an archive's; nil or empty
	// sends none.
	Zip []byte
}

// encode checks a create's params (which need a title and a language).
func (p *QuestionCreateParams) encode() (*body, error) {
	if p == nil || p.Title == nil || *p.Title == "" || p.Language == nil || *p.Language == "" {
		return nil, argError("QuestionCreateParams: Title and Language are required")
	}
	// The two params types have the same fields, so one encodes the other.
	return QuestionUpdateParams(*p).form("QuestionCreateParams")
}

func (p *QuestionUpdateParams) encode() (*body, error) {
	if p == nil {
		return (&form{}).encode(), nil
	}
	return p.form("QuestionUpdateParams")
}

// form returns the form the service takes: keys nested under question
// (question[title]=...), as a Rails form sends them, the instructions and
// files as JSON values, and multipart/form-data with the zip as a file part.
func (p QuestionUpdateParams) form(name string) (*body, error) {
	set := 0
	for _, given := range []bool{p.Contents != nil, p.Files != nil, len(p.Zip) > 0} {
		if given {
			set++
		}
	}
	if set > 1 {
		return nil, argError(name + ": set at most one of Contents, Files and Zip")
	}
	var f form
	f.setString("question[title]", p.Title)
	f.setString("question[language]", p.Language)
	f.setString("question[description]", p.Description)
	f.setString("question[contents]", p.Contents)
	f.setString("question[solution]", p.Solution)
	f.setString("question[ai_assist_custom_system_prompt]", p.AIAssistPrompt)
	if p.CandidateInstructions != nil {
		type instruction struct {
			Instructions   string `json:"instructions"`
			DefaultVisible *bool  `json:"default_visible,omitempty"`
		}
		list := make([]instruction, len(p.CandidateInstructions))
		for i, in := range p.CandidateInstructions {
			list[i] = instruction(in)
		}
		b, _ := json.Marshal(list) // strings and bools always marshal
		f.set("question[candidate_instructions]", string(b))
	}
	if p.Files != nil {
		for i, file := range p.Files {
			if file.Path == "" {
				return nil, argError(fmt.Sprintf("%s: Files[%d] has no Path", name, i))
			}
		}
		b, _ := json.Marshal(p.Files)
		f.set("question[file_contents]", string(b))
	}
	if len(p.Zip) > 0 {
		f.file = &formFile{field: "question[zip_file]", filename: "question.zip", contentType: "application/zip", data: p.Zip}
	}
	return f.encode(), nil
}

// Create creates a question (POST /api/questions). Like Pads.Create it is
// never retried once the request may have reached the service; an error
// matching ErrOutcomeUnknown means the question may exist.
func (s *QuestionsService) Create(ctx context.Context, params *QuestionCreateParams) (*Question, error) {
	b, err := params.encode()
	if err != nil {
		return nil, err
	}
	return get[Question](ctx, s.client, &request{method: http.MethodPost, path: "/api/questions", body: b, need: "id", what: "question"})
}

// Update changes a question (PUT /api/questions/ID) and returns it as it is
// after the change. When the service answers with a status only or an
// empty body, Update fetches the question, so it returns a question or an
// error, never neither.
func (s *QuestionsService) Update(ctx context.Context, id ID, params *QuestionUpdateParams) (*Question, error) {
	path, err := resourcePath("/api/questions", id)
	if err != nil {
		return nil, err
	}
	b, err := params.encode()
	if err != nil {
		return nil, err
	}
	q, err := get[Question](ctx, s.client, &request{method: http.MethodPut, path: path, body: b, need: "id", what: "question"})
	if err != nil || q != nil {
		return q, err
	}
	return s.Get(ctx, id)
}

// Delete deletes a question (DELETE /api/questions/ID). An unknown ID gives
// an error matching ErrNotFound; but when an attempt got no definite answer
// and the retry finds the question gone, that attempt deleted it, and
// Delete succeeds.
func (s *QuestionsService) Delete(ctx context.Context, id ID) error {
	path, err := resourcePath("/api/questions", id)
	if err != nil {
		return err
	}
	_, err = s.client.do(ctx, &request{method: http.MethodDelete, path: path, gone: true}, nil)
	return err
}
