// questions_variants.go: QuestionVariant, its params, and the variant methods of QuestionsService.

package padapi

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"
)

// QuestionVariant is one version of a question: its starter for one
// language, or its files for one project template.
type QuestionVariant struct {
	// ID identifies the variant; QuestionID the question it belongs to.
	ID         ID `json:"id"`
	QuestionID ID `json:"question_id"`
	// Language is the variant's language, such as "ruby".
	Language string `json:"language"`
	// ProjectTemplateID and ProjectTemplateSlug name the variant's project
	// template; nil for a single-file variant.
	ProjectTemplateID   *ID     `json:"project_template_id"`
	ProjectTemplateSlug *string `json:"project_template_slug"`
	// Display is the variant's name as the service shows it ("Ruby").
	Display string `json:"display"`
	// Contents is the starter code; nil means the language's default
	// starter (JSON null), "" a blank one.
	Contents *string `json:"contents"`
	// Files are a project-template variant's files (JSON file_contents);
	// nil when the service sends null.
	Files []VariantFile `json:"file_contents"`
	// Solution is the interviewers' reference solution, or nil.
	Solution *string `json:"solution"`
	// CreatedAt and UpdatedAt are when the variant was created and last
	// changed.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// VariantFile is one file of a project-template variant.
type VariantFile struct {
	// Path is the file's path in the pad, such as "src/main.rb".
	Path string `json:"path"`
	// Contents is the file's text.
	Contents string `json:"contents"`
	// Hidden files are not shown to the candidate.
	Hidden bool `json:"hidden"`
	// Deleted, in params, removes the template's file at Path.
	Deleted bool `json:"deleted"`
}

// MarshalJSON writes the file as the service takes it: path always,
// contents unless the file is deleted, hidden and deleted only when true.
func (f VariantFile) MarshalJSON() ([]byte, error) {
	w := struct {
		Path     string  `json:"path"`
		Contents *string `json:"contents,omitzero"`
		Hidden   bool    `json:"hidden,omitzero"`
		Deleted  bool    `json:"deleted,omitzero"`
	}{Path: f.Path, Hidden: f.Hidden, Deleted: f.Deleted}
	if !f.Deleted {
		w.Contents = &f.Contents
	}
	return marshal(w)
}

// QuestionVariantParams are the fields of a variant to create or change;
// nil fields are not sent. A create needs Language or ProjectTemplateID.
// At most one of Contents, DefaultContents and Files may be set.
type QuestionVariantParams struct {
	// Language is the variant's language.
	Language *string
	// ProjectTemplateID makes it a variant of that project template.
	ProjectTemplateID *ID
	// Contents is the starter code; Ptr("") is a blank starter.
	Contents *string
	// DefaultContents puts the starter back to the language's default
	// (it sends "contents": null).
	DefaultContents bool
	// Files overlay the template's files on a create and replace the
	// variant's on an update; nil sends none, and an empty non-nil list
	// puts a template variant back to its template's files.
	Files []VariantFile
	// Solution is the reference solution.
	Solution *string
}

// encode returns the JSON body the service takes, or refuses params that
// cannot go together (and a create without a language or template).
func (p *QuestionVariantParams) encode(create bool) (*body, error) {
	const name = "QuestionVariantParams: "
	switch {
	case p == nil && create:
		return nil, argError(name + "nil: a create needs Language or ProjectTemplateID")
	case p == nil:
		return jsonBody(struct{}{})
	case p.DefaultContents && p.Contents != nil:
		return nil, argError(name + "set at most one of Contents and DefaultContents")
	case p.Files != nil && (p.Contents != nil || p.DefaultContents):
		return nil, argError(name + "Files cannot go with Contents or DefaultContents")
	case create && p.Language == nil && p.ProjectTemplateID == nil:
		return nil, argError(name + "a create needs Language or ProjectTemplateID")
	case p.Language != nil && *p.Language == "", p.ProjectTemplateID != nil && *p.ProjectTemplateID == "":
		return nil, argError(name + "Language and ProjectTemplateID cannot be empty")
	}
	for i, f := range p.Files {
		if f.Path == "" {
			return nil, argError(fmt.Sprintf("%sFiles[%d] has no Path", name, i))
		}
	}
	w := struct {
		Language          *string       `json:"language,omitzero"`
		ProjectTemplateID *ID           `json:"project_template_id,omitzero"`
		Contents          any           `json:"contents,omitzero"` // a nil *string is null
		Files             []VariantFile `json:"file_contents,omitzero"`
		Solution          *string       `json:"solution,omitzero"`
	}{Language: p.Language, ProjectTemplateID: p.ProjectTemplateID, Files: p.Files, Solution: p.Solution}
	if p.Contents != nil || p.DefaultContents {
		w.Contents = p.Contents
	}
	return jsonBody(w)
}

// variantList is a variant list as it comes: {"variants":[…]} or a bare
// array.
type variantList struct {
	Variants []QuestionVariant `json:"variants"`
}

// UnmarshalJSON reads either shape.
func (l *variantList) UnmarshalJSON(b []byte) error {
	if isArray(b) {
		return unmarshal(b, &l.Variants)
	}
	type plain variantList // its fields without its methods
	return unmarshal(b, (*plain)(l))
}

// variantPath is /api/questions/QID/variants, and /VID below it when vid
// is given, each ID escaped as one segment.
func variantPath(qid ID, vid ...ID) (string, error) {
	path, err := resourcePath("/api/questions", qid)
	if err != nil || len(vid) == 0 {
		return path + "/variants", err
	}
	return resourcePath(path+"/variants", vid[0])
}

// variant sends a request for one variant at path.
func (s *QuestionsService) variant(ctx context.Context, method, path string, b *body) (*QuestionVariant, error) {
	return get[QuestionVariant](ctx, s.client, &request{method: method, path: path, body: b, need: "id", what: "variant", bare: true})
}

// ListVariants returns a question's variants (GET
// /api/questions/QID/variants). A list longer than WithListLimit is an
// error matching ErrListLimit.
func (s *QuestionsService) ListVariants(ctx context.Context, qid ID) ([]QuestionVariant, error) {
	path, err := variantPath(qid)
	if err != nil {
		return nil, err
	}
	l, err := get[variantList](ctx, s.client, &request{method: http.MethodGet, path: path, need: "variants", what: `"variants" list`, bare: true})
	switch {
	case err != nil:
		return nil, err
	case len(l.Variants) > s.client.cfg.listLimit:
		return nil, fmt.Errorf("padapi: GET %s: %w of %d items (WithListLimit)", path, ErrListLimit, s.client.cfg.listLimit)
	case l.Variants == nil:
		return []QuestionVariant{}, nil
	}
	return l.Variants, nil
}

// GetVariant returns one variant of a question (GET
// /api/questions/QID/variants/VID); a variant of another question is
// ErrNotFound.
func (s *QuestionsService) GetVariant(ctx context.Context, qid, vid ID) (*QuestionVariant, error) {
	path, err := variantPath(qid, vid)
	if err != nil {
		return nil, err
	}
	return s.variant(ctx, http.MethodGet, path, nil)
}

// CreateVariant adds a variant to a question (POST
// /api/questions/QID/variants). Like every create it is never sent twice:
// an error matching ErrOutcomeUnknown means the variant may exist.
func (s *QuestionsService) CreateVariant(ctx context.Context, qid ID, params *QuestionVariantParams) (*QuestionVariant, error) {
	path, err := variantPath(qid)
	if err != nil {
		return nil, err
	}
	b, err := params.encode(true)
	if err != nil {
		return nil, err
	}
	return s.variant(ctx, http.MethodPost, path, b)
}

// UpdateVariant changes a variant (PUT /api/questions/QID/variants/VID)
// and returns it as it is after the change, fetching it when the service
// answers without it. Changing the language clears the starter unless
// Contents comes with it.
func (s *QuestionsService) UpdateVariant(ctx context.Context, qid, vid ID, params *QuestionVariantParams) (*QuestionVariant, error) {
	path, err := variantPath(qid, vid)
	if err != nil {
		return nil, err
	}
	b, err := params.encode(false)
	if err != nil {
		return nil, err
	}
	v, err := s.variant(ctx, http.MethodPut, path, b)
	if err != nil || v != nil {
		return v, err
	}
	return s.GetVariant(ctx, qid, vid)
}

// DeleteVariant deletes a variant (DELETE
// /api/questions/QID/variants/VID). An unknown variant is ErrNotFound,
// unless an earlier attempt of the call got no definite answer and so
// may have deleted it.
func (s *QuestionsService) DeleteVariant(ctx context.Context, qid, vid ID) error {
	path, err := variantPath(qid, vid)
	if err != nil {
		return err
	}
	_, err = s.client.do(ctx, &request{method: http.MethodDelete, path: path, gone: true, bare: true}, nil)
	return err
}

// isArray reports whether a JSON text is an array.
func isArray(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '['
}
