// form.go: reading the form and multipart bodies of pad and question writes.

package padapitest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/padinterview/padapi"
)

// The languages the fake takes in a pad's or a question's language: the
// service's identifiers, an open set on the service's side, so a test that
// needs another one adds its pads and questions with AddPad and
// AddQuestion, which take any language. Each name has evidence behind it
// (docs/api-notes.md, "Languages"): the vendor's language pages, its Postman collection
// (gin, node), or the language list of a client fixed against the live
// service (the multifile_* names, kubernetes, react-native-web, universal,
// gsheets, hack, powershell). A name none of them shows stays a 400.
var (
	singleFileLanguages = []string{
		"bash", "c", "clojure", "coffeescript", "cpp", "csharp", "dart", "elixir", "erlang", "fsharp",
		"go", "gsheets", "hack", "haskell", "java", "javascript", "julia", "kotlin", "lua", "markdown",
		"mysql", "node", "objc", "ocaml", "perl", "php", "plaintext", "postgresql", "powershell",
		"python", "python3", "r", "ruby", "rust", "scala", "solidity", "swift", "tcl", "typescript",
		"universal", "vb", "verilog",
	}
	// Multi-file questions are created with the multifile_* languages,
	// together with question[file_contents] or question[zip_file].
	multiFileLanguages = []string{
		"angular", "django", "gin", "html", "kubernetes", "multifile_c", "multifile_cpp",
		"multifile_csharp", "multifile_go", "multifile_java", "multifile_kotlin", "multifile_php",
		"multifile_python", "multifile_ruby", "multifile_rust", "multifile_scala", "multifile_swift",
		"multifile_terraform", "multifile_typescript", "nextjs", "nodejs", "rails", "react",
		"react-native-web", "spring", "svelte", "vue",
	}
)

// Languages returns the languages a pad or question create or update may
// name, sorted: the single-file languages and the multi-file ones
// (MultiFileLanguages). Any other language is a 400 with the service's
// error body.
func Languages() []string {
	return slices.Sorted(slices.Values(slices.Concat(singleFileLanguages, multiFileLanguages)))
}

// MultiFileLanguages returns the languages of multi-file environments (a
// framework with several files, such as react), sorted.
func MultiFileLanguages() []string {
	return slices.Clone(multiFileLanguages)
}

// language is the field's language, or nil when it was not given. An
// empty or unknown language is refused.
func language(form url.Values, name string) (*string, error) {
	v, err := nonEmpty(form, name)
	if err != nil || v == nil {
		return v, err
	}
	if !slices.Contains(singleFileLanguages, *v) && !slices.Contains(multiFileLanguages, *v) {
		return nil, badRequest("%s: %q is not a supported language", name, *v)
	}
	return v, nil
}

// The readers below take a request's fields once checkParams has let them
// through: each known, and given at most once.

// text returns the field's value, or nil when it was not given. A value
// that is not UTF-8 is refused, as the service's database would.
func text(form url.Values, name string) (*string, error) {
	if !form.Has(name) {
		return nil, nil
	}
	v := form.Get(name)
	if !utf8.ValidString(v) {
		return nil, badRequest("%s is not valid UTF-8", name)
	}
	return &v, nil
}

// nonEmpty is text that must not be "" when given.
func nonEmpty(form url.Values, name string) (*string, error) {
	v, err := text(form, name)
	if err == nil && v != nil && *v == "" {
		err = badRequest("%s must not be empty", name)
	}
	return v, err
}

// boolean returns the field as true or false, the only values the service
// documents, or nil when it was not given.
func boolean(form url.Values, name string) (*bool, error) {
	if !form.Has(name) {
		return nil, nil
	}
	switch v := form.Get(name); v {
	case "true", "false":
		return padapi.Ptr(v == "true"), nil
	default:
		return nil, badRequest("%s must be true or false, not %q", name, v)
	}
}

// onlyTrue reads a field of which the service heeds only true (a pad
// update's ended and deleted: "values other than true will be ignored"):
// true when the value is "true", nil for any other value or none.
func onlyTrue(form url.Values, name string) *bool {
	if form.Get(name) == "true" {
		return padapi.Ptr(true)
	}
	return nil
}

// integerID returns the field as an integer ID (a question's), or nil when
// it was not given.
func integerID(form url.Values, name string) (*padapi.ID, error) {
	if !form.Has(name) {
		return nil, nil
	}
	v := form.Get(name)
	if n, err := strconv.ParseInt(v, 10, 64); err != nil || n < 0 || strconv.FormatInt(n, 10) != v {
		return nil, badRequest("%s must be an integer ID, not %q", name, v)
	}
	return padapi.Ptr(padapi.ID(v)), nil
}

// padChange is what a pad create or update asks for, checked whole before
// anything changes. ended and del are set only by the value true.
type padChange struct {
	title, language, contents, notes, owner *string
	private, executionEnabled, ended, del   *bool
	question                                *questionState
	// The interview controls: the service keeps the team, the
	// restriction and the access list on the pad (allowed non-nil when
	// given, even empty); the others are checked only.
	team                                      *padapi.Team
	restrict, coachingOff, takeHome, aiAssist *bool
	allowed                                   []string
}

func (s *Server) readPadChange(form url.Values) (ch padChange, err error) {
	texts := []struct {
		dst  **string
		name string
		read func(url.Values, string) (*string, error)
	}{
		{&ch.title, "title", text}, {&ch.language, "language", language}, {&ch.contents, "contents", text},
		{&ch.notes, "notes", text}, {&ch.owner, "user_email", text},
	}
	for _, f := range texts {
		if *f.dst, err = f.read(form, f.name); err != nil {
			return ch, err
		}
	}
	bools := []struct {
		dst  **bool
		name string
	}{{&ch.private, "private"}, {&ch.executionEnabled, "execution_enabled"}, {&ch.restrict, "restrict_interviewer_access"},
		{&ch.coachingOff, "disable_coaching_tips"}, {&ch.takeHome, "take_home"}, {&ch.aiAssist, "ai_assist_enabled"}}
	for _, f := range bools {
		if *f.dst, err = boolean(form, f.name); err != nil {
			return ch, err
		}
	}
	ch.ended, ch.del = onlyTrue(form, "ended"), onlyTrue(form, "deleted")
	if form.Has("take_home_time_limit") {
		if n, err := strconv.Atoi(form.Get("take_home_time_limit")); err != nil || n <= 0 {
			return ch, badRequest("take_home_time_limit must be a whole number of minutes, more than 0")
		}
	}
	if form.Has("team_id") {
		i := slices.IndexFunc(s.org.Teams, func(t padapi.Team) bool { return string(t.ID) == form.Get("team_id") })
		if i < 0 {
			return ch, badRequest("team_id names no team of the organization")
		}
		ch.team = padapi.Ptr(s.org.Teams[i])
	}
	if ch.owner != nil && !s.hasUser(*ch.owner) {
		return ch, badRequest("user_email is not a user of the organization")
	}
	id, err := integerID(form, "question_id")
	switch {
	case err != nil:
		return ch, err
	case id == nil:
	case ch.contents != nil:
		return ch, badRequest("contents and question_id cannot be combined")
	case s.question(*id) == nil:
		// The request is wrong; 404 is kept for the resource in the path.
		return ch, badRequest("question_id names no question")
	default:
		ch.question = s.question(*id)
	}
	return ch, nil
}

// setFields sets the pad's plain fields that ch gives.
func (ch *padChange) setFields(p *padapi.Pad) {
	for _, f := range []struct{ dst, v *string }{{&p.Title, ch.title}, {&p.Notes, ch.notes}, {&p.OwnerEmail, ch.owner}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	for _, f := range []struct{ dst, v *bool }{{&p.Private, ch.private}, {&p.ExecutionEnabled, ch.executionEnabled}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if ch.team != nil {
		p.Team = ch.team
	}
	if ch.restrict != nil {
		p.RestrictInterviewerAccess = padapi.Ptr(*ch.restrict)
	}
	if ch.allowed != nil {
		p.AllowedInterviewerEmails = slices.Clone(ch.allowed)
	}
}

// questionChange is what a question create or update asks for.
type questionChange struct {
	title, language, description, contents, solution, prompt *string
	instructions                                             []padapi.CandidateInstruction // nil: not given
	files                                                    []padapi.FileContent          // nil: not given
}

// Limits of a zip archive's contents, as a service must set them.
const (
	maxZipBytes = 16 << 20
	maxZipFiles = 1000
)

// readQuestionChange reads a question create's or update's form.
func readQuestionChange(r *http.Request, create bool) (ch questionChange, err error) {
	if err := ch.readTexts(r.Form, create); err != nil {
		return ch, err
	}
	zipFile, err := questionZip(r)
	if err != nil {
		return ch, err
	}
	if v, err := text(r.Form, "question[candidate_instructions]"); err != nil {
		return ch, err
	} else if v != nil {
		if ch.instructions, err = readInstructions(*v); err != nil {
			return ch, err
		}
	}
	if v, err := text(r.Form, "question[file_contents]"); err != nil {
		return ch, err
	} else if v != nil {
		if ch.files, err = readFiles(*v); err != nil {
			return ch, err
		}
	}
	if zipFile != nil {
		if ch.files, err = readZip(zipFile); err != nil {
			return ch, err
		}
	}
	return ch, nil
}

// readTexts reads the change's text fields; a create needs a title and a
// language.
func (ch *questionChange) readTexts(form url.Values, create bool) (err error) {
	texts := []struct {
		dst  **string
		name string
		read func(url.Values, string) (*string, error)
	}{
		{&ch.title, "question[title]", nonEmpty}, {&ch.language, "question[language]", language},
		{&ch.description, "question[description]", text}, {&ch.contents, "question[contents]", text},
		{&ch.solution, "question[solution]", text}, {&ch.prompt, "question[ai_assist_custom_system_prompt]", text},
	}
	for _, f := range texts {
		if *f.dst, err = f.read(form, f.name); err != nil {
			return err
		}
	}
	if create && (ch.title == nil || ch.language == nil) {
		return badRequest("question[title] and question[language] are required")
	}
	return nil
}

// questionZip returns the question's zip upload (nil: none), and refuses a
// request that gives more than one of contents, file contents and a zip,
// or a zip that is not a file upload.
func questionZip(r *http.Request) (*multipart.FileHeader, error) {
	form := r.Form
	var zipFile *multipart.FileHeader
	if r.MultipartForm != nil && len(r.MultipartForm.File[zipField]) > 0 {
		zipFile = r.MultipartForm.File[zipField][0]
	}
	switch n := btoi(form.Has("question[contents]")) + btoi(form.Has("question[file_contents]")) + btoi(zipFile != nil || form.Has(zipField)); {
	case n > 1:
		return nil, badRequest("Give at most one of question[contents], question[file_contents] and question[zip_file]")
	case form.Has(zipField):
		return nil, badRequest("question[zip_file] must be a file upload: a multipart part with a filename")
	}
	return zipFile, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decodeStrict decodes one JSON value with no field v does not have and
// nothing after it.
func decodeStrict(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more than one JSON value")
	}
	return nil
}

func readInstructions(v string) ([]padapi.CandidateInstruction, error) {
	var list []struct {
		Instructions   *string `json:"instructions"`
		DefaultVisible *bool   `json:"default_visible"`
	}
	if err := decodeStrict(v, &list); err != nil || list == nil {
		return nil, badRequest("question[candidate_instructions] must be a JSON array of {instructions, default_visible}")
	}
	out := make([]padapi.CandidateInstruction, len(list))
	for i, in := range list {
		if in.Instructions == nil {
			return nil, badRequest("question[candidate_instructions][%d] has no instructions", i)
		}
		out[i] = padapi.CandidateInstruction{Instructions: *in.Instructions, DefaultVisible: in.DefaultVisible}
	}
	return out, nil
}

func readFiles(v string) ([]padapi.FileContent, error) {
	var list []struct {
		Path     *string `json:"path"`
		Contents *string `json:"contents"`
	}
	if err := decodeStrict(v, &list); err != nil || len(list) == 0 {
		return nil, badRequest("question[file_contents] must be a JSON array of at least one {path, contents}")
	}
	files := make([]padapi.FileContent, len(list))
	for i, f := range list {
		if f.Path == nil {
			return nil, badRequest("question[file_contents][%d] has no path", i)
		}
		files[i].Path = *f.Path
		if f.Contents != nil {
			files[i].Contents = *f.Contents
		}
	}
	return files, checkPaths(files, "question[file_contents]")
}

// readZip reads a zip archive's files, within limits on their number and
// unpacked size that a crafted archive cannot get past.
func readZip(fh *multipart.FileHeader) ([]padapi.FileContent, error) {
	data, err := readUpload(fh)
	if err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, badRequest("question[zip_file] is not a zip archive: %v", err)
	}
	var files []padapi.FileContent
	budget := int64(maxZipBytes)
	for _, zf := range zr.File {
		if strings.HasSuffix(zf.Name, "/") {
			continue // a directory
		}
		if len(files) == maxZipFiles {
			return nil, badRequest("question[zip_file] holds more than %d files", maxZipFiles)
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, badRequest("question[zip_file]: %s: %v", zf.Name, err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, budget+1))
		rc.Close()
		switch {
		case err != nil:
			return nil, badRequest("question[zip_file]: %s: %v", zf.Name, err)
		case int64(len(b)) > budget:
			return nil, badRequest("question[zip_file] unpacks to more than %d bytes", maxZipBytes)
		}
		budget -= int64(len(b))
		f := padapi.FileContent{Path: zf.Name, Contents: string(b)}
		if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
			f.Contents, f.Binary = "", true
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, badRequest("question[zip_file] holds no files")
	}
	return files, checkPaths(files, "question[zip_file]")
}

// readUpload reads a file part of a multipart body.
func readUpload(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// checkPaths refuses a file path that is empty, absolute, not UTF-8, has an
// empty, . or .. segment or a backslash, or comes twice: a pad's files
// must stay inside the pad.
func checkPaths(files []padapi.FileContent, field string) error {
	seen := map[string]bool{}
	for _, f := range files {
		ok := f.Path != "" && utf8.ValidString(f.Path) && !strings.ContainsAny(f.Path, "\\\x00")
		for seg := range strings.SplitSeq(f.Path, "/") {
			ok = ok && seg != "" && seg != "." && seg != ".."
		}
		switch {
		case !ok:
			return badRequest("%s: %q is not a relative file path", field, f.Path)
		case seen[f.Path]:
			return badRequest("%s: %q comes twice", field, f.Path)
		}
		seen[f.Path] = true
	}
	return nil
}

// apply sets what ch gives on a question: a single file's contents replace
// the files, and files replace the contents.
func (ch *questionChange) apply(qs *questionState) {
	q := &qs.q
	for _, f := range []struct{ dst, v *string }{
		{&q.Title, ch.title}, {&q.Language, ch.language}, {&q.Description, ch.description},
		{&q.Contents, ch.contents}, {&q.Solution, ch.solution}, {&q.AIAssistPrompt, ch.prompt},
	} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	if ch.instructions != nil {
		q.CandidateInstructions = ch.instructions
	}
	if ch.solution != nil {
		qs.solutionSet = true
	}
	switch {
	case ch.contents != nil:
		qs.files = nil
	case ch.files != nil:
		qs.files, q.Contents = ch.files, ""
	}
}
