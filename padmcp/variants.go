// variants.go: the question-variant tools (one version of a question per language or project template), and whoami.

package padmcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
)

// Bounds of a variant list.
const (
	variantRows  = 200 // variants a list shows
	variantFiles = 100 // files a variant shows
)

type variantsArgs struct {
	QuestionID string `json:"question_id" jsonschema:"the question's ID, a number such as 1234 (from list_questions)"`
}

type variantIDArgs struct {
	QuestionID string `json:"question_id" jsonschema:"the question's ID, a number such as 1234 (from list_questions)"`
	VariantID  string `json:"variant_id" jsonschema:"the variant's ID (from list_question_variants)"`
}

// variantFileArg is one file of a project-template variant, as a tool
// takes it.
type variantFileArg struct {
	Path     string `json:"path" jsonschema:"the file's path in the pad, such as src/main.rb"`
	Contents string `json:"contents,omitempty" jsonschema:"the file's text"`
	Hidden   bool   `json:"hidden,omitempty" jsonschema:"hide the file from the candidate"`
	Deleted  bool   `json:"deleted,omitempty" jsonschema:"remove the template's file at path"`
}

// variantFields are the fields a create or an update may send.
type variantFields struct {
	Contents        *string          `json:"contents,omitempty" jsonschema:"the starter code; an empty string is a blank starter"`
	DefaultContents bool             `json:"default_contents,omitempty" jsonschema:"put the starter back to the language's default (not with contents or files)"`
	Files           []variantFileArg `json:"files,omitempty" jsonschema:"a project-template variant's files: overlaid on the template on a create, replacing the variant's on an update; an empty list puts the template's files back"`
	Solution        *string          `json:"solution,omitempty" jsonschema:"the interviewers' reference solution"`
	DryRun          bool             `json:"dry_run,omitempty" jsonschema:"describe what would be sent, and send nothing"`
}

type createVariantArgs struct {
	QuestionID        string `json:"question_id" jsonschema:"the question's ID, a number such as 1234 (from list_questions)"`
	Language          string `json:"language,omitempty" jsonschema:"the variant's language, such as ruby; this or project_template_id"`
	ProjectTemplateID string `json:"project_template_id,omitempty" jsonschema:"make it a variant of this project template"`
	variantFields
}

type updateVariantArgs struct {
	QuestionID string `json:"question_id" jsonschema:"the question's ID, a number such as 1234 (from list_questions)"`
	VariantID  string `json:"variant_id" jsonschema:"the variant's ID (from list_question_variants)"`
	Language   string `json:"language,omitempty" jsonschema:"a new language; the starter goes back to the language's default unless contents is given"`
	variantFields
}

// variantRow is a variant in a list.
type variantRow struct {
	ID                  string    `json:"id" jsonschema:"the variant's ID"`
	Language            string    `json:"language" jsonschema:"its language"`
	Display             string    `json:"display" jsonschema:"its name as the service shows it"`
	ProjectTemplateSlug *string   `json:"project_template_slug" jsonschema:"its project template; null for a single-file variant"`
	DefaultStarter      bool      `json:"default_starter" jsonschema:"whether its starter is the language's default"`
	Files               int       `json:"files" jsonschema:"how many template files it has"`
	UpdatedAt           time.Time `json:"updated_at" jsonschema:"when it last changed"`
}

// variantsResult is list_question_variants' result.
type variantsResult struct {
	QuestionID string       `json:"question_id" jsonschema:"the question"`
	Total      int          `json:"total" jsonschema:"how many variants it has"`
	Variants   []variantRow `json:"variants" jsonschema:"its variants, at most 200"`
}

// variantFileView is one file of a variant, cut to fit.
type variantFileView struct {
	Path     string `json:"path" jsonschema:"the file's path"`
	Contents string `json:"contents" jsonschema:"its text, cut when long"`
	Hidden   bool   `json:"hidden" jsonschema:"whether the candidate does not see it"`
}

// variantResult is get_question_variant's result.
type variantResult struct {
	variantRow
	QuestionID string            `json:"question_id" jsonschema:"the question"`
	Contents   *string           `json:"contents" jsonschema:"the starter code, cut when long; null for the language's default"`
	Solution   *string           `json:"solution" jsonschema:"the reference solution, cut when long; null when none"`
	FileViews  []variantFileView `json:"file_contents" jsonschema:"its template files, the first 100"`
}

// variantRow is v as a row.
func (ts *toolset) variantRow(v *padapi.QuestionVariant) variantRow {
	var slug *string
	if v.ProjectTemplateSlug != nil {
		s := ts.clip(*v.ProjectTemplateSlug, rowBytes, "cut")
		slug = &s
	}
	return variantRow{ID: ts.clip(string(v.ID), rowBytes, "cut"), Language: ts.clip(v.Language, rowBytes, "cut"),
		Display: ts.clip(v.Display, rowBytes, "cut"), ProjectTemplateSlug: slug, DefaultStarter: v.Contents == nil,
		Files: len(v.Files), UpdatedAt: v.UpdatedAt}
}

// clipPtr is clip of *s, or nil.
func (ts *toolset) clipPtr(s *string, n int, how string) *string {
	if s == nil {
		return nil
	}
	c := ts.clip(*s, n, how)
	return &c
}

// listQuestionVariants is list_question_variants.
func listQuestionVariants(ts *toolset) serverTool {
	return newTool(ts, spec[variantsArgs]{kind: read, tool: &mcp.Tool{Name: "list_question_variants", Title: "List a question's variants",
		Description: "A question's variants: one version of it per language or project template, each with its own starter code."}},
		func(ctx context.Context, a variantsArgs) (*variantsResult, error) {
			vs, err := ts.client(ctx).Questions.ListVariants(ctx, padapi.ID(a.QuestionID))
			if err != nil {
				return nil, err
			}
			out := &variantsResult{QuestionID: a.QuestionID, Total: len(vs), Variants: make([]variantRow, 0, min(len(vs), variantRows))}
			for i := range vs[:min(len(vs), variantRows)] {
				out.Variants = append(out.Variants, ts.variantRow(&vs[i]))
			}
			return out, nil
		})
}

// getQuestionVariant is get_question_variant.
func getQuestionVariant(ts *toolset) serverTool {
	return newTool(ts, spec[variantIDArgs]{kind: read, tool: &mcp.Tool{Name: "get_question_variant", Title: "Get a question variant",
		Description: "One variant of a question: its language or project template, starter code, files and solution. Long texts are cut."}},
		func(ctx context.Context, a variantIDArgs) (*variantResult, error) {
			v, err := ts.client(ctx).Questions.GetVariant(ctx, padapi.ID(a.QuestionID), padapi.ID(a.VariantID))
			if err != nil {
				return nil, err
			}
			return ts.variantView(v), nil
		})
}

// variantView is one variant, its long texts cut.
func (ts *toolset) variantView(v *padapi.QuestionVariant) *variantResult {
	out := &variantResult{variantRow: ts.variantRow(v), QuestionID: string(v.QuestionID),
		Contents: ts.clipPtr(v.Contents, fieldBytes, "the starter is cut here"),
		Solution: ts.clipPtr(v.Solution, fieldBytes/2, "the solution is cut here"), FileViews: []variantFileView{}}
	per := fieldBytes
	if n := min(len(v.Files), variantFiles); n > 0 {
		per = max(fieldBytes*2/n, 256)
	}
	for _, f := range v.Files[:min(len(v.Files), variantFiles)] {
		out.FileViews = append(out.FileViews, variantFileView{Path: ts.clip(f.Path, rowBytes, "cut"), Contents: ts.clip(f.Contents, per, "cut"), Hidden: f.Hidden})
	}
	return out
}

// params reads the fields a create or update sends, recording them for a
// dry run; the library refuses what may not go together.
func (f variantFields) params(fields map[string]string, language, template string) *padapi.QuestionVariantParams {
	p := &padapi.QuestionVariantParams{Language: field(fields, "language", language), Solution: f.Solution, Contents: f.Contents, DefaultContents: f.DefaultContents}
	if template != "" {
		fields["project_template_id"] = template
		p.ProjectTemplateID = padapi.Ptr(padapi.ID(template))
	}
	if f.Contents != nil {
		fields["contents"] = *f.Contents
	}
	if f.Solution != nil {
		fields["solution"] = *f.Solution
	}
	if f.DefaultContents {
		fields["contents"] = "null (the language's default starter)"
	}
	if f.Files != nil {
		p.Files = make([]padapi.VariantFile, len(f.Files))
		paths := make([]string, len(f.Files))
		for i, vf := range f.Files {
			p.Files[i] = padapi.VariantFile{Path: vf.Path, Contents: vf.Contents, Hidden: vf.Hidden, Deleted: vf.Deleted}
			paths[i] = vf.Path
		}
		fields["files"] = fmt.Sprintf("%d: %s", len(paths), strings.Join(paths, ", "))
	}
	return p
}

// createQuestionVariant is create_question_variant.
func createQuestionVariant(ts *toolset) serverTool {
	return newTool(ts, spec[createVariantArgs]{kind: write, tool: &mcp.Tool{Name: "create_question_variant", Title: "Add a question variant",
		Description: "Add a variant to a question: its version for another language (language) or project template (project_template_id). " +
			"If the answer says the outcome is unknown, call list_question_variants before trying again. dry_run sends nothing."}},
		func(ctx context.Context, a createVariantArgs) (any, error) {
			fields := map[string]string{}
			p := a.params(fields, a.Language, a.ProjectTemplateID)
			qid := padapi.ID(a.QuestionID)
			if a.DryRun {
				return ts.dryRun(ctx, fields, func(ctx context.Context) error {
					_, err := ts.client(ctx).Questions.CreateVariant(ctx, qid, p)
					return err
				})
			}
			v, err := ts.client(ctx).Questions.CreateVariant(ctx, qid, p)
			if err != nil {
				return nil, err
			}
			return &createdVariant{ts.variantRow(v)}, nil
		})
}

// updateQuestionVariant is update_question_variant.
func updateQuestionVariant(ts *toolset) serverTool {
	return newTool(ts, spec[updateVariantArgs]{kind: write, tool: &mcp.Tool{Name: "update_question_variant", Title: "Change a question variant",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: padapi.Ptr(true), IdempotentHint: true},
		Description: "Change a question variant's language, starter code, files or solution; fields left out stay as they are. dry_run sends nothing."}},
		func(ctx context.Context, a updateVariantArgs) (any, error) {
			fields := map[string]string{}
			p := a.params(fields, a.Language, "")
			if len(fields) == 0 {
				return nil, argError("language", "nothing to change: give at least one of language, contents, default_contents, files, solution")
			}
			qid, vid := padapi.ID(a.QuestionID), padapi.ID(a.VariantID)
			if a.DryRun {
				return ts.dryRun(ctx, fields, func(ctx context.Context) error {
					_, err := ts.client(ctx).Questions.UpdateVariant(ctx, qid, vid, p)
					return err
				})
			}
			v, err := ts.client(ctx).Questions.UpdateVariant(ctx, qid, vid, p)
			if err != nil {
				return nil, err
			}
			return &updatedVariant{ts.variantRow(v)}, nil
		})
}

// deleteQuestionVariant is delete_question_variant.
func deleteQuestionVariant(ts *toolset) serverTool {
	return newTool(ts, spec[variantIDArgs]{kind: remove, plain: true, confirm: func(a variantIDArgs) string {
		return fmt.Sprintf("Delete variant %s of question %s? It cannot be undone.", a.VariantID, a.QuestionID)
	}, tool: &mcp.Tool{Name: "delete_question_variant", Title: "Delete a question variant",
		Annotations: &mcp.ToolAnnotations{IdempotentHint: true},
		Description: "Delete one variant of a question. It cannot be undone: ask the user first."}},
		func(ctx context.Context, a variantIDArgs) (any, error) {
			if err := ts.client(ctx).Questions.DeleteVariant(ctx, padapi.ID(a.QuestionID), padapi.ID(a.VariantID)); err != nil {
				return nil, err
			}
			return &deleted{a.VariantID}, nil
		})
}

// Results of the variant writes.
type (
	createdVariant struct {
		Created variantRow `json:"created"`
	}
	updatedVariant struct {
		Updated variantRow `json:"updated"`
	}
)

// whoamiResult is whoami's result.
type whoamiResult struct {
	Account          string `json:"account" jsonschema:"the account the call acted as"`
	Name             string `json:"name" jsonschema:"the user whose API key this is; empty when the service has no name"`
	AllowPadCreation bool   `json:"allow_pad_creation" jsonschema:"whether the user may create pads"`
}

// whoami is whoami: whose key the server (or the account) acts with.
func whoami(ts *toolset) serverTool {
	return newTool(ts, spec[noArgs]{kind: read, tool: &mcp.Tool{Name: "whoami", Title: "Who am I",
		Description: "Whose API key this server acts with (or the account's, with account): the user's name, and whether they may create pads."}},
		func(ctx context.Context, _ noArgs) (*whoamiResult, error) {
			u, err := ts.client(ctx).User.Get(ctx)
			if err != nil {
				return nil, err
			}
			out := &whoamiResult{Account: "(the server's own)", AllowPadCreation: u.AllowPadCreation}
			if name, ok := ctx.Value(accountNameKey{}).(string); ok {
				out.Account = name
			}
			if u.Name != nil {
				out.Name = ts.clip(*u.Name, rowBytes, "cut")
			}
			return out, nil
		})
}
