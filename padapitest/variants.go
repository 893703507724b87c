// variants.go: the routes added in v5: question variants, GET /api/user, and the JSON bodies they take.

package padapitest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/padinterview/padapi"
)

// projectTemplate is a project template a variant may be made from: its
// language and its files, which a variant's files overlay.
type projectTemplate struct {
	id, slug, language string
	files              []padapi.VariantFile
}

// projectTemplates are the fake's project templates, by ID.
var projectTemplates = []projectTemplate{
	{"1", "rails", "rails", []padapi.VariantFile{
		{Path: "Gemfile", Contents: "source \"https://rubygems.org\"\ngem \"rails\"\n"},
		{Path: "app/models/user.rb", Contents: "class User < ApplicationRecord\nend\n"},
	}},
	{"2", "react", "react", []padapi.VariantFile{
		{Path: "package.json", Contents: "{\"name\": \"app\"}\n"},
		{Path: "src/App.jsx", Contents: "export default function App() { return null }\n"},
	}},
}

// ProjectTemplateIDs returns the IDs of the fake's project templates, in
// order: variants made from one start from its files.
func ProjectTemplateIDs() []padapi.ID {
	out := make([]padapi.ID, len(projectTemplates))
	for i, t := range projectTemplates {
		out[i] = padapi.ID(t.id)
	}
	return out
}

func templateOf(id *padapi.ID) *projectTemplate {
	if id == nil {
		return nil
	}
	i := slices.IndexFunc(projectTemplates, func(t projectTemplate) bool { return t.id == string(*id) })
	if i < 0 {
		return nil
	}
	return &projectTemplates[i]
}

// variantState is a variant with the files it lays over its template's:
// its files are the template's with these applied.
type variantState struct {
	v       padapi.QuestionVariant
	overlay []padapi.VariantFile
}

// overlayFiles is base with over applied: a file of the same path
// replaced, a deleted one removed, a new one added; nil when both are
// empty and there is no template.
func overlayFiles(base, over []padapi.VariantFile) []padapi.VariantFile {
	out := slices.Clone(base)
	for _, f := range over {
		i := slices.IndexFunc(out, func(g padapi.VariantFile) bool { return g.Path == f.Path })
		switch {
		case f.Deleted && i >= 0:
			out = slices.Delete(out, i, i+1)
		case f.Deleted:
		case i >= 0:
			out[i] = f
		default:
			out = append(out, f)
		}
	}
	return out
}

// variantChange is a variant create's or update's JSON body, each member
// set only when given.
type variantChange struct {
	language, solution *string
	template           *padapi.ID
	contentsSet        bool
	contents           *string // nil with contentsSet: null, the default starter
	files              []padapi.VariantFile
	filesSet           bool
}

// readVariantChange reads the body strictly: known members only, each of
// its kind, contents and file_contents not together, files with relative
// paths.
func readVariantChange(r *http.Request) (ch variantChange, err error) {
	raw, ok := jsonOf(r)
	if !ok {
		return ch, badRequest("Send the variant as JSON (Content-Type: application/json)")
	}
	var m map[string]json.RawMessage
	if err := decodeStrict(string(raw), &m); err != nil || m == nil {
		return ch, badRequest("The body must be a JSON object")
	}
	for _, name := range slices.Sorted(maps.Keys(m)) {
		v := m[name]
		switch name {
		case "language", "solution":
			var s string
			if json.Unmarshal(v, &s) != nil || !utf8.ValidString(s) {
				return ch, badRequest("%s must be a string", name)
			}
			if name == "language" {
				if !slices.Contains(Languages(), s) {
					return ch, badRequest("language: %q is not a supported language", s)
				}
				ch.language = &s
			} else {
				ch.solution = &s
			}
		case "contents":
			ch.contentsSet = true
			if string(v) != "null" {
				var s string
				if json.Unmarshal(v, &s) != nil {
					return ch, badRequest("contents must be a string or null")
				}
				ch.contents = &s
			}
		case "project_template_id":
			var id padapi.ID
			if json.Unmarshal(v, &id) != nil || templateOf(&id) == nil {
				return ch, badRequest("project_template_id names no project template")
			}
			ch.template = &id
		case "file_contents":
			if err := readVariantFiles(v, &ch.files); err != nil {
				return ch, err
			}
			ch.filesSet = true
		default:
			return ch, badRequest("Unknown field %s", name)
		}
	}
	if ch.contentsSet && ch.filesSet {
		return ch, badRequest("contents and file_contents cannot be combined")
	}
	return ch, nil
}

// readVariantFiles reads file_contents: a list of {path, contents,
// hidden, deleted}; a deleted file has no contents.
func readVariantFiles(v json.RawMessage, out *[]padapi.VariantFile) error {
	var list []struct {
		Path     *string `json:"path"`
		Contents *string `json:"contents"`
		Hidden   bool    `json:"hidden"`
		Deleted  bool    `json:"deleted"`
	}
	if err := decodeStrict(string(v), &list); err != nil || list == nil {
		return badRequest("file_contents must be a JSON array of {path, contents, hidden, deleted}")
	}
	files := make([]padapi.VariantFile, len(list))
	check := make([]padapi.FileContent, len(list))
	for i, f := range list {
		switch {
		case f.Path == nil:
			return badRequest("file_contents[%d] has no path", i)
		case f.Deleted && f.Contents != nil:
			return badRequest("file_contents[%d] is deleted and has contents", i)
		}
		files[i] = padapi.VariantFile{Path: *f.Path, Hidden: f.Hidden, Deleted: f.Deleted}
		if f.Contents != nil {
			files[i].Contents = *f.Contents
		}
		check[i].Path = *f.Path
	}
	*out = files
	return checkPaths(check, "file_contents")
}

// display is a language's name as the service shows it ("Ruby").
func display(language string, t *projectTemplate) string {
	if t != nil {
		language = t.slug
	}
	if language == "" {
		return ""
	}
	return strings.ToUpper(language[:1]) + language[1:]
}

// questionOf is the question of the path's {id}, or a 404.
func (s *Server) questionOf(r *http.Request) (*questionState, error) {
	qs := s.question(padapi.ID(r.PathValue("id")))
	if qs == nil {
		return nil, errorf(http.StatusNotFound, "Question not found")
	}
	return qs, nil
}

// variantOf is the variant of the path's {vid} among the question's: a
// variant of another question is a 404, as an unknown one is.
func (s *Server) variantOf(r *http.Request) (*questionState, *variantState, error) {
	qs, err := s.questionOf(r)
	if err != nil {
		return nil, nil, err
	}
	vid := padapi.ID(r.PathValue("vid"))
	i := slices.IndexFunc(qs.variants, func(vs *variantState) bool { return vs.v.ID == vid })
	if i < 0 {
		return nil, nil, errorf(http.StatusNotFound, "Variant not found")
	}
	return qs, qs.variants[i], nil
}

func (s *Server) listVariants(r *http.Request) (any, error) {
	qs, err := s.questionOf(r)
	if err != nil {
		return nil, err
	}
	out := make([]variantOut, len(qs.variants))
	for i, vs := range qs.variants {
		out[i] = variantOut(vs.v)
	}
	return map[string]any{"variants": out}, nil
}

// variantOut is a variant as the service answers it: each file with its
// path, contents and hidden, false included (a file in a request carries
// hidden only when true).
type variantOut padapi.QuestionVariant

func (v variantOut) MarshalJSON() ([]byte, error) {
	type file struct {
		Path     string `json:"path"`
		Contents string `json:"contents"`
		Hidden   bool   `json:"hidden"`
	}
	var files []file
	for _, f := range v.Files {
		files = append(files, file{f.Path, f.Contents, f.Hidden})
	}
	return patch(padapi.QuestionVariant(v), func(m map[string]json.RawMessage) {
		if v.Files != nil {
			m["file_contents"] = mustMarshal(append([]file{}, files...))
		}
	})
}

func (s *Server) getVariant(r *http.Request) (any, error) {
	_, vs, err := s.variantOf(r)
	if err != nil {
		return nil, err
	}
	return variantOut(vs.v), nil
}

// createVariant adds a variant: of a language (its starter null, the
// default, unless contents is given) or of a project template (its files
// the template's, overlaid by file_contents). A question has one variant
// per language and template.
func (s *Server) createVariant(r *http.Request) (any, error) {
	qs, err := s.questionOf(r)
	if err != nil {
		return nil, err
	}
	ch, err := readVariantChange(r)
	if err != nil {
		return nil, err
	}
	if ch.language == nil && ch.template == nil {
		return nil, badRequest("A variant needs a language or a project_template_id")
	}
	vs := &variantState{}
	if err := s.applyVariant(qs, vs, ch, true); err != nil {
		return nil, err
	}
	vs.v.ID, vs.v.QuestionID = s.newVariantID(), qs.q.ID
	vs.v.CreatedAt = vs.v.UpdatedAt
	qs.variants = append(qs.variants, vs)
	return variantOut(vs.v), nil
}

// updateVariant changes a variant: a new language clears the starter
// unless contents comes with it; file_contents replaces what the variant
// lays over its template ([] puts it back to the template's files).
func (s *Server) updateVariant(r *http.Request) (any, error) {
	qs, vs, err := s.variantOf(r)
	if err != nil {
		return nil, err
	}
	ch, err := readVariantChange(r)
	if err != nil {
		return nil, err
	}
	next := &variantState{v: cloneVariant(vs.v), overlay: slices.Clone(vs.overlay)}
	if err := s.applyVariant(qs, next, ch, false); err != nil {
		return nil, err
	}
	*vs = *next
	return variantOut(vs.v), nil
}

// applyVariant sets what ch gives on vs, refusing a second variant of the
// same language or template; it reads the clock last.
func (s *Server) applyVariant(qs *questionState, vs *variantState, ch variantChange, create bool) error {
	v := &vs.v
	if ch.language != nil && *ch.language != v.Language {
		if !ch.contentsSet && !create {
			v.Contents = nil // a new language starts from its default starter
		}
		v.Language = *ch.language
	}
	if ch.template != nil {
		v.ProjectTemplateID = ch.template
	}
	t := templateOf(v.ProjectTemplateID)
	if t != nil {
		v.ProjectTemplateSlug = &t.slug
		if v.Language == "" {
			v.Language = t.language
		}
	}
	for _, other := range qs.variants {
		if other.v.ID != v.ID && variantKey(other.v) == variantKey(*v) {
			return errorf(http.StatusUnprocessableEntity, "The question has a variant for %s already", v.Display)
		}
	}
	v.Display = display(v.Language, t)
	if ch.contentsSet {
		v.Contents = ch.contents
	}
	if ch.solution != nil {
		v.Solution = ch.solution
	}
	if ch.filesSet {
		vs.overlay = ch.files
	}
	v.Files = nil
	if t != nil || len(vs.overlay) > 0 {
		var base []padapi.VariantFile
		if t != nil {
			base = t.files
		}
		v.Files = overlayFiles(base, vs.overlay)
	}
	v.UpdatedAt = s.now()
	return nil
}

func (s *Server) deleteVariant(r *http.Request) (any, error) {
	qs, vs, err := s.variantOf(r)
	if err != nil {
		return nil, err
	}
	qs.variants = slices.DeleteFunc(qs.variants, func(x *variantState) bool { return x == vs })
	return noContent{}, nil
}

// variantKey is what a question has one variant of: a language, or a
// project template.
func variantKey(v padapi.QuestionVariant) string {
	if v.ProjectTemplateID != nil {
		return "template " + string(*v.ProjectTemplateID)
	}
	return "language " + v.Language
}

// noContent is a handler's answer of 204 with no body.
type noContent struct{}

func (s *Server) newVariantID() padapi.ID {
	s.next.variant++
	return padapi.ID(strconv.FormatInt(s.next.variant, 10))
}

func cloneVariant(v padapi.QuestionVariant) padapi.QuestionVariant {
	v.ProjectTemplateID, v.ProjectTemplateSlug = clonePtr(v.ProjectTemplateID), clonePtr(v.ProjectTemplateSlug)
	v.Contents, v.Solution = clonePtr(v.Contents), clonePtr(v.Solution)
	v.Files = slices.Clone(v.Files)
	return v
}

// AddVariant stores v as a variant of the question qid, as if it had been
// created, and returns it as the fake answers for it: an empty ID gets a
// new one, QuestionID is set, an empty Display is the language's, zero
// times are the clock's. Its Files are its files as given (no template's
// are added). It panics when there is no such question or the ID is taken.
func (s *Server) AddVariant(qid padapi.ID, v padapi.QuestionVariant) padapi.QuestionVariant {
	s.mu.Lock()
	defer s.mu.Unlock()
	qs := s.question(qid)
	if qs == nil {
		panic(fmt.Sprintf("padapitest: AddVariant: no question %q", qid))
	}
	v = cloneVariant(v)
	if v.ID == "" {
		v.ID = s.newVariantID()
	} else if n, err := strconv.ParseInt(string(v.ID), 10, 64); err == nil && n > s.next.variant {
		s.next.variant = n
	}
	if slices.ContainsFunc(qs.variants, func(vs *variantState) bool { return vs.v.ID == v.ID }) {
		panic(fmt.Sprintf("padapitest: AddVariant: variant %q exists", v.ID))
	}
	v.QuestionID = qid
	if v.Display == "" {
		v.Display = display(v.Language, templateOf(v.ProjectTemplateID))
	}
	if v.CreatedAt.IsZero() {
		v.CreatedAt = s.now()
	}
	if v.UpdatedAt.IsZero() {
		v.UpdatedAt = v.CreatedAt
	}
	qs.variants = append(qs.variants, &variantState{v: v, overlay: slices.Clone(v.Files)})
	return cloneVariant(v)
}

// Variants returns copies of the variants of the question qid in the
// order they were made, or nil when there is no such question.
func (s *Server) Variants(qid padapi.ID) []padapi.QuestionVariant {
	s.mu.Lock()
	defer s.mu.Unlock()
	qs := s.question(qid)
	if qs == nil {
		return nil
	}
	out := make([]padapi.QuestionVariant, len(qs.variants))
	for i, vs := range qs.variants {
		out[i] = cloneVariant(vs.v)
	}
	return out
}

// SetUser sets what GET /api/user answers for the key. A new fake answers
// the organization's first user's name, allow_pad_creation true and
// analytics_id "analytics-1".
func (s *Server) SetUser(u padapi.User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u.Name = clonePtr(u.Name)
	s.keyUser = &u
}

func (s *Server) getUser(*http.Request) (any, error) {
	if s.keyUser != nil {
		u := *s.keyUser
		return u, nil
	}
	u := padapi.User{AllowPadCreation: true, AnalyticsID: "analytics-1"}
	if name := s.user().Name; name != "" {
		u.Name = &name
	}
	return u, nil
}

// jsonKey is the context key of a request's JSON body.
type jsonKey struct{}

// withJSON keeps a JSON body for the handlers and the request log.
func withJSON(r *http.Request, body []byte) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), jsonKey{}, body))
}

// jsonOf is the request's JSON body, if it had one.
func jsonOf(r *http.Request) ([]byte, bool) {
	b, ok := r.Context().Value(jsonKey{}).([]byte)
	return b, ok
}

// padInput is a pad create's or update's fields as a form, whichever way
// they came: the form itself, or the JSON body {"pad":{…}} (which alone
// carries the access list, returned non-nil when given). In JSON a
// boolean execution_enabled is ignored, as the service ignores it: only
// the strings "true" and "false" set it there.
func padInput(r *http.Request, fields []string) (form url.Values, list []string, err error) {
	raw, ok := jsonOf(r)
	if !ok {
		return r.Form, nil, nil
	}
	var top map[string]json.RawMessage
	var pad map[string]json.RawMessage
	if decodeStrict(string(raw), &top) != nil || len(top) != 1 || decodeStrict(string(top["pad"]), &pad) != nil || pad == nil {
		return nil, nil, badRequest(`The body must be the JSON object {"pad": {...}}`)
	}
	form = url.Values{}
	for name, v := range pad {
		switch {
		case name == "allowed_interviewer_emails":
			if decodeStrict(string(v), &list) != nil || list == nil {
				return nil, nil, badRequest("allowed_interviewer_emails must be a JSON array of emails")
			}
		case !slices.Contains(fields, name):
			return nil, nil, badRequest("Unknown field %s", name)
		case name == "execution_enabled" && (string(v) == "true" || string(v) == "false"):
			// The service ignores a JSON boolean here.
		case len(v) > 0 && v[0] == '"':
			var s string
			if json.Unmarshal(v, &s) != nil {
				return nil, nil, badRequest("%s is not a JSON string", name)
			}
			form[name] = []string{s}
		case string(v) == "true" || string(v) == "false" || (len(v) > 0 && (v[0] == '-' || (v[0] >= '0' && v[0] <= '9'))):
			form[name] = []string{string(bytes.TrimSpace(v))}
		default:
			return nil, nil, badRequest("%s must be a string, a number or a boolean", name)
		}
	}
	return form, list, nil
}
