package padapi

import (
	"bytes"
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"reflect"
	"time"
)

// ID is a resource ID that the service sends as a JSON number (questions) or
// a string. It decodes either, and marshals an all-digits ID back as a
// number, the way the service sends it.
type ID string

// UnmarshalJSON accepts a JSON number, a string or null (as "").
func (id *ID) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case b[0] == '"':
		var s string
		err := json.Unmarshal(b, &s)
		*id = ID(s)
		return err
	case isInteger(b):
		*id = ID(b)
		return nil
	}
	return &json.UnmarshalTypeError{Value: "ID " + quoteShort(b), Type: reflect.TypeFor[ID]()}
}

// MarshalJSON writes a numeric ID as a number and any other ID as a string.
func (id ID) MarshalJSON() ([]byte, error) {
	if isInteger([]byte(id)) {
		return []byte(id), nil
	}
	return json.Marshal(string(id))
}

// isInteger reports whether b is a JSON integer without sign or leading zero.
func isInteger(b []byte) bool {
	if len(b) == 0 || len(b) > 19 || (b[0] == '0' && len(b) > 1) {
		return false
	}
	return bytes.IndexFunc(b, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

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
	PublicTakeHomeSettingID *int64 `json:"public_take_home_setting_id"`
	// CustomDatabase is the question's database, as the service sends it,
	// or nil.
	CustomDatabase json.RawMessage `json:"custom_database,omitempty"`
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
	ID          string `json:"id"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Filename    string `json:"filename"`
	Filesize    string `json:"filesize"`
}

// TestCase is one test case of a question.
type TestCase struct {
	// ID identifies the test case.
	ID int64 `json:"id"`
	// Arguments are the arguments passed in.
	Arguments []string `json:"arguments"`
	// ReturnValue is the expected result.
	ReturnValue string `json:"return_value"`
	// Visible test cases are shown to the candidate.
	Visible bool `json:"visible"`
}

// UnmarshalJSON reads a question with the service's timestamp forms.
func (q *Question) UnmarshalJSON(b []byte) error { return decodeVia(b, q, (*questionWire).question) }

type questionAlias Question

type questionWire struct {
	wireStatus
	questionAlias
	CreatedAt timestamp `json:"created_at"`
	UpdatedAt timestamp `json:"updated_at"`
}

func (w *questionWire) question() Question {
	q := Question(w.questionAlias)
	q.CreatedAt, q.UpdatedAt = w.CreatedAt.Time, w.UpdatedAt.Time
	if string(q.CustomDatabase) == "null" {
		// encoding/json hands a RawMessage the literal null; the field
		// promises nil.
		q.CustomDatabase = nil
	}
	return q
}

// QuestionsService manages the question library.
type QuestionsService service

// QuestionCreateParams are the fields of a new question; nil fields are not
// sent.
type QuestionCreateParams struct {
	Title       *string `form:"title"`
	Language    *string `form:"language"`
	Description *string `form:"description"`
	Contents    *string `form:"contents"`
	Solution    *string `form:"solution"`
	Shared      *bool   `form:"shared"`
}

// QuestionUpdateParams are the fields to change; nil fields are left as they
// are.
type QuestionUpdateParams = QuestionCreateParams

// List returns one page of the caller's questions (GET /api/questions).
func (s *QuestionsService) List(ctx context.Context, opts *QuestionListOptions) (*Page[Question], error) {
	return list(ctx, s.client, "/api/questions", opts.query(), (*questionWire).question)
}

// All iterates over all of the caller's questions, fetching each page of
// GET /api/questions only when the loop reaches it. It stops at the first
// error, which it yields once.
func (s *QuestionsService) All(ctx context.Context, opts *QuestionListOptions) iter.Seq2[*Question, error] {
	return all(ctx, s.client, "/api/questions", opts, (*questionWire).question)
}

// Get returns one question (GET /api/questions/ID).
func (s *QuestionsService) Get(ctx context.Context, id string) (*Question, error) {
	return byID(ctx, s.client, http.MethodGet, "/api/questions", id, nil, (*questionWire).question)
}

// Create creates a question (POST /api/questions). Like Pads.Create it is
// never retried once the request may have reached the service; an error
// matching ErrOutcomeUnknown means the question may exist.
func (s *QuestionsService) Create(ctx context.Context, params *QuestionCreateParams) (*Question, error) {
	return one(ctx, s.client, http.MethodPost, "/api/questions", nil, formValues(params), (*questionWire).question)
}

// Update changes a question (PUT /api/questions/ID) and returns it.
func (s *QuestionsService) Update(ctx context.Context, id string, params *QuestionUpdateParams) (*Question, error) {
	return byID(ctx, s.client, http.MethodPut, "/api/questions", id, formValues(params), (*questionWire).question)
}

// Delete deletes a question (DELETE /api/questions/ID). An unknown ID gives
// an error matching ErrNotFound.
func (s *QuestionsService) Delete(ctx context.Context, id string) error {
	path, err := resourcePath("/api/questions", id)
	if err != nil {
		return err
	}
	return s.client.do(ctx, http.MethodDelete, path, nil, nil, &wireStatus{})
}
