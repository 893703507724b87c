package qfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/padinterview/padapi/internal/lib/safefile"
)

// extensions are the languages' usual file extensions; any other language
// gets .txt.
var extensions = map[string]string{
	"bash": "sh", "c": "c", "clojure": "clj", "cpp": "cpp", "csharp": "cs", "dart": "dart",
	"elixir": "ex", "erlang": "erl", "fsharp": "fs", "go": "go", "haskell": "hs", "html": "html",
	"java": "java", "javascript": "js", "julia": "jl", "kotlin": "kt", "lua": "lua",
	"markdown": "md", "mysql": "sql", "objc": "m", "ocaml": "ml", "perl": "pl", "php": "php",
	"postgresql": "sql", "python": "py", "python3": "py", "r": "r", "ruby": "rb", "rust": "rs",
	"scala": "scala", "swift": "swift", "typescript": "ts", "vb": "vb",
}

// Extension returns language's usual file extension, without the dot.
func Extension(language string) string {
	if ext, ok := extensions[strings.ToLower(strings.TrimSpace(language))]; ok {
		return ext
	}
	return "txt"
}

// Render returns the files of a folder holding q, by path in the folder,
// keeping the starter and solution names old uses (nil for a new folder).
// A multi-file question's files go under files/. Empty texts have no file.
func Render(q Question, pending *Pending, old *Folder) (map[string]string, error) {
	out := map[string]string{}
	qj := questionJSON{Title: q.Title, Language: q.Language, Instructions: q.Instructions, AIAssistPrompt: q.AIAssistPrompt, Pending: pending}
	if q.ID != "" {
		qj.ID = json.RawMessage(q.ID)
		if _, err := parseID(qj.ID); err != nil {
			return nil, fmt.Errorf("question %q: %w", q.ID, err)
		}
	}
	b, err := json.MarshalIndent(qj, "", "  ")
	if err != nil {
		return nil, err
	}
	out[QuestionFile] = string(b) + "\n"
	if q.Description != "" {
		// A text file ends with a newline; the comparison ignores it.
		out[DescriptionFile] = withFinalNewline(q.Description)
	}
	starter, solution := starterBase+"."+Extension(q.Language), solutionBase+"."+Extension(q.Language)
	if old != nil && old.Starter != "" {
		starter = old.Starter
	}
	if old != nil && old.Solution != "" {
		solution = old.Solution
	}
	if q.Files == nil && q.Contents != "" {
		out[starter] = q.Contents
	}
	if q.Solution != "" {
		out[solution] = q.Solution
	}
	for _, f := range q.Files {
		if !validPath(f.Path) {
			return nil, fmt.Errorf("question %s: file path %q is not a relative path", q.ID, f.Path)
		}
		out[path.Join(FilesDir, f.Path)] = f.Contents
	}
	return out, nil
}

// Existing returns the files a folder holds, by path in the folder, as
// Render would name them: the inverse of Render for what was read.
func Existing(f *Folder) (map[string]string, error) {
	return Render(f.Q, f.Pending, f)
}

// Writer writes below one directory and nowhere else, through
// internal/lib/safefile (the module's one atomic writer): no path leads out of
// the directory, no symlink is followed, no existing file is opened for
// writing, and readers see an old file or a new one, never a part. Its
// Lazy field (from safefile.Dir) skips the fsync before each rename: pull
// sets it, since what it writes can be pulled again; apply does not, since
// an id or a pending create it records must survive a power loss.
type Writer struct {
	*safefile.Dir
}

// ownNames are the names the folder format chose itself: the state file,
// a question's and a variant's fixed files and folders, and the starter
// and solution file of every extension. The name check never refuses them
// (Dir.Own): a constant of this program cannot hold the key, even where 8
// characters of the key match it; a name made from a title still is.
var ownNames = func() []string {
	names := []string{StateFile, QuestionFile, DescriptionFile, FilesDir, VariantsDir, VariantFile}
	for _, ext := range append(slices.Collect(maps.Values(extensions)), "txt") {
		names = append(names, starterBase+"."+ext, solutionBase+"."+ext)
	}
	slices.Sort(names)
	return slices.Compact(names)
}()

// NewWriter creates dir if needed and returns a Writer for it.
func NewWriter(dir string) (*Writer, error) {
	d, err := safefile.Open(dir)
	if err != nil {
		return nil, err
	}
	d.Own = ownNames
	return &Writer{d}, nil
}

// WriteFile writes text to name (a slash path below the directory)
// atomically.
func (w *Writer) WriteFile(name, text string) error {
	if !validPath(name) {
		return fmt.Errorf("%s: not a path inside the folder", name)
	}
	return w.Dir.WriteFile(name, []byte(text))
}

// Remove removes the regular file name, and then each folder it leaves
// empty up to (not including) stop, a folder of name's ("" for none).
func (w *Writer) Remove(name, stop string) error {
	st, err := w.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file", name)
	}
	if err := w.Dir.Remove(name); err != nil {
		return err
	}
	for dir := path.Dir(name); dir != "." && dir != stop && strings.HasPrefix(dir, stop); dir = path.Dir(dir) {
		if w.Dir.Remove(dir) != nil {
			break // not empty
		}
	}
	return nil
}

// Sync makes the folder dir hold exactly files (paths relative to dir):
// it writes the files whose text differs and removes those it held and
// files lacks. It writes question.json last, so that a folder is never
// newer in question.json than in its files.
func (w *Writer) Sync(dir string, old, files map[string]string) error {
	var names []string
	for name, text := range files {
		if prev, ok := old[name]; !ok || prev != text {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, func(a, b string) int {
		if (a == QuestionFile) != (b == QuestionFile) {
			if a == QuestionFile {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	for name := range old {
		if _, ok := files[name]; !ok {
			if err := w.Remove(path.Join(dir, name), dir); err != nil {
				return err
			}
		}
	}
	for _, name := range names {
		if err := w.WriteFile(path.Join(dir, name), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// FolderName returns a safe folder name for a question: its title made
// lowercase letters, digits and dashes (at most 60), or "question" when
// nothing is left, with "-ID" added when taken says the name is taken.
func FolderName(title, id string, taken func(string) bool) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	name := b.String()
	if name == "" {
		name = "question"
	}
	if !taken(name) {
		return name
	}
	safeID := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return -1
	}, id)
	base := name + "-" + cmpOr(safeID, "new")
	name = base
	for i := 2; taken(name) && i < 1_000_000; i++ {
		name = fmt.Sprintf("%s-%d", base, i)
	}
	return name
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// withFinalNewline returns s ending with a newline.
func withFinalNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
