package qfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/padinterview/padapi"
)

// A question's variants live in its folder, one sub-folder each below
// VariantsDir: VariantFile for its short fields ({"id", "language",
// "project_template_id"}), starter.EXT for its starter code (absent: the
// language's default starter; empty: a blank one), solution.EXT, and
// files/ for a project-template variant's files. A folder without
// VariantsDir has no variants padctl syncs, as before variants existed.
const (
	VariantsDir = "variants"
	VariantFile = "variant.json"
)

// Variant is one variant sub-folder as read, or as the service shows it.
type Variant struct {
	// Name is its sub-folder's name below VariantsDir.
	Name string
	// ID is the service's ID, "" before a create.
	ID string
	// Language and ProjectTemplateID ("" for none) say what it is.
	Language, ProjectTemplateID string
	// Contents is its starter code: nil for the language's default.
	Contents *string
	// Solution is its reference solution, nil for none.
	Solution *string
	// Files are a project-template variant's files, nil for none.
	Files []padapi.VariantFile
	// Pending is a create apply sent and did not see finish, or nil.
	Pending *Pending
	// Starter and SolutionFile are the names of its starter and solution
	// files, "" for none.
	Starter, SolutionFile string
}

// variantJSON is VariantFile.
type variantJSON struct {
	ID                json.RawMessage `json:"id,omitempty"`
	Language          string          `json:"language"`
	ProjectTemplateID json.RawMessage `json:"project_template_id,omitempty"`
	HiddenFiles       []string        `json:"hidden_files,omitempty"`
	Pending           *Pending        `json:"pending_create,omitempty"`
}

// VariantFromService returns what the service shows of v.
func VariantFromService(v *padapi.QuestionVariant) Variant {
	out := Variant{ID: string(v.ID), Language: v.Language, Contents: v.Contents, Solution: v.Solution, Files: slices.Clone(v.Files)}
	if v.ProjectTemplateID != nil {
		out.ProjectTemplateID = string(*v.ProjectTemplateID)
	}
	return out
}

// The fields of a variant, as a plan lists its changes.
const (
	VariantLanguage = "language"
	VariantTemplate = "project_template_id"
	VariantStarter  = "starter"
	VariantSolution = "solution"
	VariantFiles    = "files"
)

// VariantFields lists them in plan order.
var VariantFields = []string{VariantLanguage, VariantTemplate, VariantStarter, VariantSolution, VariantFiles}

// Value is a variant's field as compared, as text; a nil text is "null",
// set apart from every text by a prefix.
func (v *Variant) Value(field string) string {
	text := func(s *string) string {
		if s == nil {
			return "null"
		}
		return "text:" + NormalizeText(*s)
	}
	switch field {
	case VariantLanguage:
		return strings.TrimSpace(v.Language)
	case VariantTemplate:
		return v.ProjectTemplateID
	case VariantStarter:
		return text(v.Contents)
	case VariantSolution:
		return text(v.Solution)
	case VariantFiles:
		if v.Files == nil {
			return ""
		}
		files := slices.Clone(v.Files)
		slices.SortFunc(files, func(a, b padapi.VariantFile) int { return strings.Compare(a.Path, b.Path) })
		var b strings.Builder
		for _, f := range files {
			fmt.Fprintf(&b, "==> %s%s <==\n%s\n", f.Path, map[bool]string{true: " (hidden)"}[f.Hidden], NormalizeText(f.Contents))
		}
		return b.String()
	}
	panic("qfolder: unknown variant field " + field)
}

// Digest is the variant's fields hashed, as the state file keeps it.
func (v *Variant) Digest() string {
	h := sha256.New()
	for _, f := range VariantFields {
		b, _ := json.Marshal(v.Value(f))
		h.Write(append(b, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Fingerprint identifies what a create of v sends, as the service will
// show it (its files left out: a template overlays them).
func (v *Variant) Fingerprint() string {
	h := sha256.New()
	for _, f := range []string{VariantLanguage, VariantTemplate, VariantStarter, VariantSolution} {
		b, _ := json.Marshal(v.Value(f))
		h.Write(append(b, '\n'))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// VariantChanges returns the fields in which folder differs from service.
func VariantChanges(folder, service *Variant) []string {
	var out []string
	for _, f := range VariantFields {
		if folder.Value(f) != service.Value(f) {
			out = append(out, f)
		}
	}
	return out
}

// VariantParams returns the params that make the service's variant match
// folder in fields (all of a create's when create is set).
func VariantParams(folder *Variant, fields []string, create bool) *padapi.QuestionVariantParams {
	p := &padapi.QuestionVariantParams{}
	set := func(f string) bool { return create || slices.Contains(fields, f) }
	if set(VariantLanguage) && folder.Language != "" {
		p.Language = padapi.Ptr(folder.Language)
	}
	if set(VariantTemplate) && folder.ProjectTemplateID != "" {
		id := padapi.ID(folder.ProjectTemplateID)
		p.ProjectTemplateID = &id
	}
	switch {
	case folder.Files != nil && set(VariantFiles):
		p.Files = slices.Clone(folder.Files)
	case folder.Files != nil:
	case set(VariantStarter) || (!create && set(VariantLanguage)):
		// A new language clears the starter unless one is given.
		if folder.Contents == nil {
			p.DefaultContents = !create
		} else {
			p.Contents = padapi.Ptr(*folder.Contents)
		}
	}
	if set(VariantSolution) {
		switch {
		case folder.Solution != nil:
			p.Solution = padapi.Ptr(*folder.Solution)
		case !create:
			p.Solution = padapi.Ptr("")
		}
	}
	return p
}

// readVariants reads the variant sub-folders of the question folder r is
// reading.
func (r *folderReader) readVariants() {
	dir := path.Join(r.f.Name, VariantsDir)
	entries, err := fs.ReadDir(r.root.FS(), dir)
	if err != nil {
		r.problem(VariantsDir, "%v", err)
		return
	}
	ids := map[string]string{}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
			continue
		case e.Type()&fs.ModeSymlink != 0:
			r.problem(path.Join(VariantsDir, name), "a symlink (padctl follows none)")
			continue
		case !e.IsDir():
			r.problem(path.Join(VariantsDir, name), "unexpected: %s/ holds one folder per variant", VariantsDir)
			continue
		}
		v := r.readVariant(name)
		if v == nil {
			continue
		}
		if other, ok := ids[v.ID]; ok && v.ID != "" {
			r.problem(path.Join(VariantsDir, name, VariantFile), "id %s is %s/%s's too", v.ID, VariantsDir, other)
		}
		ids[v.ID] = name
		r.f.Variants = append(r.f.Variants, v)
	}
}

// readVariant reads one variant sub-folder, or returns nil after noting
// its problems.
func (r *folderReader) readVariant(name string) *Variant {
	v := &Variant{Name: name}
	rel := path.Join(VariantsDir, name)
	entries, err := fs.ReadDir(r.root.FS(), path.Join(r.f.Name, rel))
	if err != nil {
		r.problem(rel, "%v", err)
		return nil
	}
	before := len(r.bad)
	var hidden []string
	sawJSON := false
	for _, e := range entries {
		file := e.Name()
		p := path.Join(rel, file)
		switch {
		case strings.HasPrefix(file, "."):
		case e.Type()&fs.ModeSymlink != 0:
			r.problem(p, "a symlink (padctl follows none)")
		case file == FilesDir && e.IsDir():
			var files []padapi.QuestionFile
			walkFiles(r.root, path.Join(r.f.Name, rel), FilesDir, "", &files, &r.total, func(f, format string, args ...any) {
				r.problem(path.Join(rel, f), format, args...)
			})
			v.Files = []padapi.VariantFile{}
			for _, f := range files {
				v.Files = append(v.Files, padapi.VariantFile{Path: f.Path, Contents: f.Contents})
			}
		case !e.Type().IsRegular():
			r.problem(p, "unexpected: a variant folder holds %s, starter.EXT, solution.EXT and %s/", VariantFile, FilesDir)
		case file == VariantFile:
			sawJSON = true
			text, ok := r.read(p)
			if !ok {
				continue
			}
			var vj variantJSON
			dec := json.NewDecoder(strings.NewReader(text))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&vj); err != nil {
				r.problem(p, "%v", err)
				continue
			}
			if _, err := dec.Token(); err != io.EOF {
				r.problem(p, "more than one JSON value")
			}
			id, err := parseID(vj.ID)
			if err != nil {
				r.problem(p, "id: %v", err)
			}
			tid, err := parseID(vj.ProjectTemplateID)
			if err != nil {
				r.problem(p, "project_template_id: %v", err)
			}
			v.ID, v.Language, v.ProjectTemplateID, v.Pending, hidden = id, vj.Language, tid, vj.Pending, vj.HiddenFiles
			if id != "" && vj.Pending != nil {
				r.problem(p, "has both an id and a pending_create")
			}
			if strings.TrimSpace(v.Language) == "" && tid == "" {
				r.problem(p, "a variant needs a language or a project_template_id")
			}
		case isNamed(file, starterBase):
			text, ok := r.read(p)
			if ok {
				v.Contents, v.Starter = &text, file
			}
		case isNamed(file, solutionBase):
			text, ok := r.read(p)
			if ok {
				v.Solution, v.SolutionFile = &text, file
			}
		default:
			r.problem(p, "unexpected: a variant folder holds %s, starter.EXT, solution.EXT and %s/", VariantFile, FilesDir)
		}
	}
	if !sawJSON {
		r.problem(path.Join(rel, VariantFile), "missing: every variant folder needs one, with its language")
	}
	if v.Files != nil && v.Contents != nil {
		r.problem(path.Join(rel, v.Starter), "beside %s/: a variant has starter code or files, not both", FilesDir)
	}
	for i := range v.Files {
		v.Files[i].Hidden = slices.Contains(hidden, v.Files[i].Path)
	}
	slices.SortFunc(v.Files, func(a, b padapi.VariantFile) int { return strings.Compare(a.Path, b.Path) })
	if len(r.bad) > before {
		return nil
	}
	return v
}

// RenderVariant returns the files of a variant sub-folder holding v, by
// path in the sub-folder, keeping the starter and solution names old uses
// (nil for a new sub-folder).
func RenderVariant(v *Variant, old *Variant) (map[string]string, error) {
	vj := variantJSON{Language: v.Language, Pending: v.Pending}
	for _, id := range []struct {
		dst *json.RawMessage
		v   string
	}{{&vj.ID, v.ID}, {&vj.ProjectTemplateID, v.ProjectTemplateID}} {
		if id.v == "" {
			continue
		}
		if _, err := parseID(json.RawMessage(id.v)); err != nil {
			return nil, fmt.Errorf("variant %q: %w", v.ID, err)
		}
		*id.dst = json.RawMessage(id.v)
	}
	for _, f := range v.Files {
		if f.Hidden {
			vj.HiddenFiles = append(vj.HiddenFiles, f.Path)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(vj); err != nil {
		return nil, err
	}
	out := map[string]string{VariantFile: b.String()}
	ext := Extension(v.Language)
	starter, solution := starterBase+"."+ext, solutionBase+"."+ext
	if old != nil && old.Starter != "" {
		starter = old.Starter
	}
	if old != nil && old.SolutionFile != "" {
		solution = old.SolutionFile
	}
	if v.Files == nil && v.Contents != nil {
		out[starter] = *v.Contents
	}
	if v.Solution != nil {
		out[solution] = *v.Solution
	}
	for _, f := range v.Files {
		if !validPath(f.Path) || !utf8.ValidString(f.Contents) {
			return nil, fmt.Errorf("variant %s: file path %q is not a relative path", v.ID, f.Path)
		}
		out[path.Join(FilesDir, f.Path)] = f.Contents
	}
	return out, nil
}

// VariantName returns a safe sub-folder name for a variant: its language
// (or "template-ID") made lowercase letters, digits and dashes, with the
// id added when taken says the name is taken.
func VariantName(v *Variant, taken func(string) bool) string {
	base := v.Language
	if base == "" {
		base = "template-" + v.ProjectTemplateID
	}
	return FolderName(base, v.ID, taken)
}
