// Package qfolder is padctl's question library on disk: one folder per
// question (question.json for the short fields, real files for long text
// and code), the state file padctl keeps beside them, and the one place
// that decides whether a folder and the service's question are the same.
package qfolder

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/padinterview/padapi"
)

// Question is a question as padctl compares it: the fields a folder holds.
type Question struct {
	// ID is the service's ID, "" for a question not created yet.
	ID string
	// Title and Language are required.
	Title, Language string
	// Description, Solution and AIAssistPrompt are texts, "" when unset.
	Description, Solution, AIAssistPrompt string
	// Contents is the starter code of a single-file question.
	Contents string
	// Instructions are the candidate instructions, in order.
	Instructions []padapi.CandidateInstruction
	// Files are the files of a multi-file question, nil for a single-file
	// one. The service never shows them in a question response.
	Files []padapi.QuestionFile
}

// FromService returns what the service shows of q. Its Files are always
// nil: no question response carries a multi-file question's files.
func FromService(q *padapi.Question) Question {
	return Question{
		ID: string(q.ID), Title: q.Title, Language: q.Language,
		Description: q.Description, Solution: q.Solution, AIAssistPrompt: q.AIAssistPrompt,
		Contents: q.Contents, Instructions: slices.Clone(q.CandidateInstructions),
	}
}

// Fields, in the order a plan lists them. Each is one unit of comparison,
// of the state file's digests, and of pull's check for local changes.
const (
	FieldTitle        = "title"
	FieldLanguage     = "language"
	FieldInstructions = "candidate_instructions"
	FieldPrompt       = "ai_assist_prompt"
	FieldDescription  = "description"
	FieldContents     = "starter_code"
	FieldSolution     = "solution"
	FieldFiles        = "files"
)

// Fields lists every field in plan order.
var Fields = []string{FieldTitle, FieldLanguage, FieldInstructions, FieldPrompt, FieldDescription, FieldContents, FieldSolution, FieldFiles}

// Long reports whether a field is long text, shown as a unified diff.
func Long(field string) bool {
	switch field {
	case FieldDescription, FieldContents, FieldSolution, FieldPrompt, FieldInstructions, FieldFiles:
		return true
	}
	return false
}

// NormalizeText is the text as compared: line endings made \n (a checkout
// on Windows may hold \r\n) and trailing newlines dropped (an editor adds
// one at the end of a file; the service's text usually has none).
func NormalizeText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.TrimRight(s, "\n")
}

// NormalizeFiles returns the files as compared: sorted by path, their
// texts normalized.
func NormalizeFiles(files []padapi.QuestionFile) []padapi.QuestionFile {
	out := make([]padapi.QuestionFile, len(files))
	for i, f := range files {
		out[i] = padapi.QuestionFile{Path: f.Path, Contents: NormalizeText(f.Contents)}
	}
	slices.SortFunc(out, func(a, b padapi.QuestionFile) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// Value is a field's value as compared, as text: what a plan shows and
// what Digest hashes. A multi-file question's files are listed one after
// another, each under a "==> path <==" line (as tail prints them).
func (q Question) Value(field string) string {
	switch field {
	case FieldTitle:
		return strings.TrimSpace(q.Title)
	case FieldLanguage:
		return strings.TrimSpace(q.Language)
	case FieldDescription:
		return NormalizeText(q.Description)
	case FieldContents:
		if q.Files != nil {
			return ""
		}
		return NormalizeText(q.Contents)
	case FieldSolution:
		return NormalizeText(q.Solution)
	case FieldPrompt:
		return NormalizeText(q.AIAssistPrompt)
	case FieldInstructions:
		var b strings.Builder
		for i, in := range q.Instructions {
			if i > 0 {
				b.WriteString("\n")
			}
			visible := "unset"
			if in.DefaultVisible != nil {
				visible = map[bool]string{true: "true", false: "false"}[*in.DefaultVisible]
			}
			b.WriteString("[instructions " + visible + "]\n" + NormalizeText(in.Instructions))
		}
		return b.String()
	case FieldFiles:
		if q.Files == nil {
			return ""
		}
		var b strings.Builder
		for _, f := range NormalizeFiles(q.Files) {
			b.WriteString("==> " + f.Path + " <==\n" + f.Contents + "\n")
		}
		return b.String()
	}
	panic("qfolder: unknown field " + field)
}

// Digest is a field's value hashed, as the state file keeps it.
func (q Question) Digest(field string) string {
	sum := sha256.Sum256([]byte(q.Value(field)))
	return hex.EncodeToString(sum[:12])
}

// Digests returns every field's digest.
func (q Question) Digests() map[string]string {
	m := make(map[string]string, len(Fields))
	for _, f := range Fields {
		m[f] = q.Digest(f)
	}
	return m
}

// Fingerprint identifies what a create sent, as the service will show it:
// title, language, description, starter code, solution and instructions.
// It leaves out the AI-assist prompt, which documented-shape answers omit,
// and the files, which no answer shows. A re-run of an apply whose create
// had no answer looks for a question with this fingerprint.
func (q Question) Fingerprint() string {
	h := sha256.New()
	for _, f := range []string{FieldTitle, FieldLanguage, FieldDescription, FieldContents, FieldSolution, FieldInstructions} {
		v, _ := json.Marshal(q.Value(f))
		h.Write(append(v, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Change is one field that differs.
type Change struct {
	// Field is one of Fields.
	Field string
	// Service and Folder are the field's values (Value) on each side.
	Service, Folder string
	// Unreadable is set for FieldFiles when the service's files are not
	// known (no question response shows them and the state file has no
	// record): Service is then empty and means "unknown".
	Unreadable bool
}

// Compare returns the fields in which folder differs from service, in
// plan order. service comes from FromService, so its files are unknown;
// serviceFiles is the digest of FieldFiles the state file recorded when
// padctl last sent or saw them, or "" when it has none.
func Compare(folder, service Question, serviceFiles string) []Change {
	var out []Change
	for _, f := range Fields {
		switch f {
		case FieldFiles:
			if c, ok := compareFiles(folder, service, serviceFiles); ok {
				out = append(out, c)
			}
		default:
			if a, b := service.Value(f), folder.Value(f); a != b {
				out = append(out, Change{Field: f, Service: a, Folder: b})
			}
		}
	}
	return out
}

// compareFiles compares a multi-file question's files. The service shows
// none of them, so its side is what the state file recorded; a question
// with starter code has no files.
func compareFiles(folder, service Question, serviceFiles string) (Change, bool) {
	empty := Question{}.Digest(FieldFiles)
	// Ifs rather than a switch: gremlins sees no coverage of a case.
	if folder.Files == nil && (serviceFiles == "" || serviceFiles == empty || service.Contents != "") {
		// Nothing to send: a single-file folder's starter code is compared
		// as FieldContents, which replaces any files.
		return Change{}, false
	}
	if folder.Files == nil {
		// The folder dropped files padctl sent: sending empty starter
		// code clears them.
		return Change{Field: FieldFiles, Service: "(files as last applied)", Folder: ""}, NormalizeText(folder.Contents) == ""
	}
	if service.Contents == "" && serviceFiles == folder.Digest(FieldFiles) {
		return Change{}, false
	}
	c := Change{Field: FieldFiles, Folder: folder.Value(FieldFiles)}
	c.Unreadable = service.Contents == "" && serviceFiles == ""
	if service.Contents == "" && serviceFiles != "" {
		c.Service = "(the files last applied, which no answer shows)"
	}
	return c, true
}

// UpdateParams returns the params that make the service's question match
// the folder in the fields changes names.
func UpdateParams(folder Question, changes []Change) *padapi.QuestionUpdateParams {
	p := &padapi.QuestionUpdateParams{}
	for _, c := range changes {
		switch c.Field {
		case FieldTitle:
			p.Title = padapi.Ptr(folder.Title)
		case FieldLanguage:
			p.Language = padapi.Ptr(folder.Language)
		case FieldDescription:
			p.Description = padapi.Ptr(folder.Description)
		case FieldSolution:
			p.Solution = padapi.Ptr(folder.Solution)
		case FieldPrompt:
			p.AIAssistPrompt = padapi.Ptr(folder.AIAssistPrompt)
		case FieldInstructions:
			p.CandidateInstructions = append([]padapi.CandidateInstruction{}, folder.Instructions...)
		case FieldContents, FieldFiles:
			if folder.Files != nil {
				p.Files = slices.Clone(folder.Files)
			} else {
				p.Contents = padapi.Ptr(folder.Contents)
			}
		}
	}
	// Starter code and files are one thing on the service: send it once.
	if p.Files != nil {
		p.Contents = nil
	}
	return p
}

// CreateParams returns the params that create the folder's question.
func CreateParams(folder Question) *padapi.QuestionCreateParams {
	p := &padapi.QuestionCreateParams{Title: padapi.Ptr(folder.Title), Language: padapi.Ptr(folder.Language)}
	for _, s := range []struct {
		dst **string
		v   string
	}{{&p.Description, folder.Description}, {&p.Solution, folder.Solution}, {&p.AIAssistPrompt, folder.AIAssistPrompt}} {
		if s.v != "" {
			*s.dst = padapi.Ptr(s.v)
		}
	}
	switch {
	case folder.Files != nil:
		p.Files = slices.Clone(folder.Files)
	case folder.Contents != "":
		p.Contents = padapi.Ptr(folder.Contents)
	}
	if len(folder.Instructions) > 0 {
		p.CandidateInstructions = slices.Clone(folder.Instructions)
	}
	return p
}

// AsCreated is the folder's question as the service will show it once
// created: its files hidden, its starter code empty when it has files.
func AsCreated(folder Question) Question {
	q := folder
	if q.Files != nil {
		q.Contents, q.Files = "", nil
	}
	return q
}
