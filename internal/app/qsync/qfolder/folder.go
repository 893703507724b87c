package qfolder

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// The names of a question folder.
const (
	// QuestionFile holds the short fields.
	QuestionFile = "question.json"
	// DescriptionFile holds the description, for interviewers.
	DescriptionFile = "description.md"
	// FilesDir holds a multi-file question's files.
	FilesDir = "files"
	// starterBase and solutionBase are the starter code's and the
	// solution's names, before the language's extension.
	starterBase  = "starter"
	solutionBase = "solution"
)

// Limits the folder is checked against before anything is sent: the
// service's bounds on a question's files, as the fake enforces them for a
// zip archive (16 MiB unpacked, 1 000 files).
const (
	MaxQuestionBytes = 16 << 20
	MaxFiles         = 1000
)

// limits are the limits Read checks, MaxQuestionBytes and MaxFiles
// unless a test sets them smaller, to prove each at its edge with a few
// small files rather than 16 MiB and a thousand.
var limits = struct{ bytes, files int }{MaxQuestionBytes, MaxFiles}

// Folder is one question folder as read.
type Folder struct {
	// Name is the folder's name in the library.
	Name string
	// Q is the question the folder holds; Q.ID is "" before a create.
	Q Question
	// Pending is the create an earlier apply started and did not see
	// finish, or nil.
	Pending *Pending
	// Starter and Solution are the names of the starter code and solution
	// files, "" when the folder has none.
	Starter, Solution string
	// Variants are the question's variants (VariantsDir), by name.
	Variants []*Variant
}

// Pending is a create that apply recorded before sending it.
type Pending struct {
	// Since is when apply sent the create (the local clock).
	Since time.Time `json:"since"`
	// Fingerprint is what it sent (Question.Fingerprint).
	Fingerprint string `json:"fingerprint"`
}

// errBadSince is the error of a pending create whose since is not an RFC
// 3339 time (a number, a word): shapeError names the field by it.
var errBadSince = errors.New("pending_create.since: not an RFC 3339 time")

// UnmarshalJSON reads a pending create, refusing a since that is not an
// RFC 3339 string with errBadSince.
func (p *Pending) UnmarshalJSON(b []byte) error {
	var raw struct {
		Since       json.RawMessage `json:"since"`
		Fingerprint string          `json:"fingerprint"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // as question.json's other fields
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	p.Fingerprint = raw.Fingerprint
	if len(raw.Since) == 0 || string(raw.Since) == "null" {
		return nil // none, as time.Time reads it
	}
	var since string
	if err := json.Unmarshal(raw.Since, &since); err != nil {
		return errBadSince
	}
	t, err := time.Parse(time.RFC3339Nano, since)
	if err != nil {
		return errBadSince
	}
	p.Since = t
	return nil
}

// questionJSON is question.json.
type questionJSON struct {
	ID             json.RawMessage               `json:"id,omitempty"`
	Title          string                        `json:"title"`
	Language       string                        `json:"language"`
	Instructions   []padapi.CandidateInstruction `json:"candidate_instructions,omitempty"`
	AIAssistPrompt string                        `json:"ai_assist_prompt,omitempty"`
	Pending        *Pending                      `json:"pending_create,omitempty"`
}

// Library is a folder of question folders.
type Library struct {
	// Dir is the library's directory.
	Dir string
	// Folders are its question folders, sorted by name.
	Folders []*Folder
	// State is what padctl recorded in it.
	State *State
}

// BadFolderError lists everything wrong with a library, each problem
// naming its file (and line, for JSON).
type BadFolderError struct {
	Problems []string
}

// Error returns the problems, one a line.
func (e *BadFolderError) Error() string {
	return "bad question folder:\n  " + strings.Join(e.Problems, "\n  ")
}

// Lines returns the problems, one a line, after a heading: a caller that
// prints errors on one line prints this one a problem a line.
func (e *BadFolderError) Lines() []string {
	return append([]string{"bad question folder:"}, e.Problems...)
}

// Read reads and checks the whole library in dir: every problem is
// reported at once, as a *BadFolderError, before anything is sent. A
// missing dir is an empty library when missingOK is set.
func Read(dir string, missingOK bool) (*Library, error) {
	lib, _, err := ReadCached(dir, missingOK, "")
	return lib, err
}

// ReadCached is Read with a read cache in the file cache ("" for none):
// a question folder none of whose entries changed size or time since the
// cache recorded it is taken from the cache rather than read (see
// cache.go), and the cache is brought up to date. It reports how many
// folders came from the cache.
func ReadCached(dir string, missingOK bool, cache string) (*Library, CacheStats, error) {
	var stats CacheStats
	lib := &Library{Dir: dir, State: &State{Questions: map[string]Record{}}}
	st, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && missingOK:
		return lib, stats, nil
	case err != nil:
		return nil, stats, &BadFolderError{[]string{err.Error()}}
	case !st.IsDir():
		return nil, stats, &BadFolderError{[]string{dir + ": not a directory"}}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, stats, &BadFolderError{[]string{err.Error()}}
	}
	defer root.Close()
	var bad []string
	if lib.State, err = readState(root); err != nil {
		bad = append(bad, err.Error())
	}
	scanned := time.Now()
	old := &cacheFile{Folders: map[string]*cacheEntry{}}
	if cache != "" {
		old = readCache(cache)
	}
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, stats, &BadFolderError{[]string{err.Error()}}
	}
	// The entries are read by a few workers at once (the file system's
	// calls wait more than they compute), and gathered in order.
	type result struct {
		f        *Folder
		problems []string
		ce       *cacheEntry
		hit      bool
	}
	results := make([]result, len(entries))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(readWorkers, len(entries)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(entries); i = int(next.Add(1) - 1) {
				r := &results[i]
				e := entries[i]
				if cache != "" && e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
					if ce := old.Folders[e.Name()]; ce.trusted(dir, e.Name(), old.Scanned) {
						r.f, r.ce, r.hit = ce.Folder, ce, true
						continue
					}
					if stat, err := statFolder(root, e.Name()); err == nil {
						r.ce = &cacheEntry{Stat: stat}
					}
				}
				r.f, r.problems = readEntry(root, e)
				if r.ce != nil {
					r.ce.Folder = r.f
				}
			}
		}()
	}
	wg.Wait()
	next2 := &cacheFile{Version: cacheVersion, Scanned: scanned, Folders: map[string]*cacheEntry{}}
	for i, r := range results {
		bad = append(bad, r.problems...)
		if r.f != nil {
			lib.Folders = append(lib.Folders, r.f)
		}
		switch {
		case r.hit:
			stats.Hits++
		case r.ce != nil:
			stats.Misses++
		}
		if r.ce != nil && r.ce.Folder != nil {
			next2.Folders[entries[i].Name()] = r.ce
		}
	}
	bad = append(bad, lib.duplicateIDs()...)
	if len(bad) > 0 {
		return nil, stats, &BadFolderError{bad}
	}
	if cache != "" && (stats.Misses > 0 || len(old.Folders) != len(next2.Folders)) {
		saveCache(cache, next2)
	}
	return lib, stats, nil
}

// readEntry reads one entry of the library's folder: the question folder
// it is (nil for an entry that is none, or one with problems), and its
// problems.
func readEntry(root *os.Root, e fs.DirEntry) (*Folder, []string) {
	name := e.Name()
	switch {
	case strings.HasPrefix(name, "."):
		return nil, nil // .git, .vscode, the state file, our temporary files
	case e.Type()&fs.ModeSymlink != 0:
		return nil, []string{name + ": a symlink (padctl follows none)"}
	case e.Type().IsRegular():
		return nil, nil // a README beside the questions
	case !e.IsDir():
		return nil, []string{name + ": not a regular file or directory"}
	}
	return readFolder(root, name)
}

// readWorkers is how many entries of a library are read at once.
const readWorkers = 4

// duplicateIDs returns a problem for each id two folders hold.
func (lib *Library) duplicateIDs() []string {
	var bad []string
	ids := map[string]string{}
	for _, f := range lib.Folders {
		if f.Q.ID == "" {
			continue
		}
		if other, ok := ids[f.Q.ID]; ok {
			bad = append(bad, fmt.Sprintf("%s/%s and %s/%s: both have id %s", other, QuestionFile, f.Name, QuestionFile, f.Q.ID))
		}
		ids[f.Q.ID] = f.Name
	}
	return bad
}

// folderReader reads one question folder, gathering its problems.
type folderReader struct {
	root              *os.Root
	f                 *Folder
	bad               []string
	total             int
	sawJSON, sawFiles bool
}

// problem records a problem with file (a path in the folder).
func (r *folderReader) problem(file, format string, args ...any) {
	r.bad = append(r.bad, path.Join(r.f.Name, file)+": "+fmt.Sprintf(format, args...))
}

// read reads a text file of the folder; a problem gives "" and false.
func (r *folderReader) read(file string) (string, bool) {
	b, err := readRegular(r.root, path.Join(r.f.Name, file))
	if err != nil {
		r.problem(file, "%v", err)
		return "", false
	}
	r.total += len(b)
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		r.problem(file, "not UTF-8 text: the service takes text only")
		return "", false
	}
	return string(b), true
}

// readFolder reads one question folder. It returns the problems it found
// (and a nil folder when there are any).
func readFolder(root *os.Root, name string) (*Folder, []string) {
	r := &folderReader{root: root, f: &Folder{Name: name}}
	entries, err := fs.ReadDir(root.FS(), name)
	if err != nil {
		return nil, []string{name + ": " + err.Error()}
	}
	for _, e := range entries {
		r.entry(e)
	}
	r.check()
	if len(r.bad) > 0 {
		return nil, r.bad
	}
	f := r.f
	slices.SortFunc(f.Q.Files, func(a, b padapi.QuestionFile) int { return strings.Compare(a.Path, b.Path) })
	return f, nil
}

// entry reads one entry of a question folder.
func (r *folderReader) entry(e fs.DirEntry) {
	f, file := r.f, e.Name()
	switch {
	case strings.HasPrefix(file, "."):
	case e.Type()&fs.ModeSymlink != 0:
		r.problem(file, "a symlink (padctl follows none)")
	case file == VariantsDir && e.IsDir():
		r.readVariants()
	case file == FilesDir && e.IsDir():
		r.sawFiles = true
		f.Q.Files = []padapi.QuestionFile{}
		walkFiles(r.root, f.Name, FilesDir, "", &f.Q.Files, &r.total, r.problem)
	case !e.Type().IsRegular():
		r.problem(file, "unexpected: a question folder holds %s, %s, starter.EXT, solution.EXT, %s/ and %s/", QuestionFile, DescriptionFile, FilesDir, VariantsDir)
	case file == QuestionFile:
		r.sawJSON = true
		if text, ok := r.read(file); ok {
			r.bad = append(r.bad, f.parseJSON(path.Join(f.Name, file), text)...)
		}
	case file == DescriptionFile:
		f.Q.Description, _ = r.read(file)
	case isNamed(file, starterBase):
		r.code(file, "starter", &f.Starter, &f.Q.Contents)
	case isNamed(file, solutionBase):
		r.code(file, "solution", &f.Solution, &f.Q.Solution)
	default:
		r.problem(file, "unexpected: a question folder holds %s, %s, starter.EXT, solution.EXT, %s/ and %s/", QuestionFile, DescriptionFile, FilesDir, VariantsDir)
	}
}

// code reads a starter or solution file into text, its name into name.
func (r *folderReader) code(file, what string, name, text *string) {
	if *name != "" {
		r.problem(file, "a second %s file beside %s", what, *name)
	}
	*name = file
	*text, _ = r.read(file)
}

// check finds the problems of the folder as a whole.
func (r *folderReader) check() {
	f := r.f
	switch {
	case !r.sawJSON:
		r.problem(QuestionFile, "missing: every question folder needs one, with title and language")
	case r.sawFiles && f.Starter != "":
		r.problem(f.Starter, "beside %s/: a question has starter code or files, not both", FilesDir)
	case r.sawFiles && len(f.Q.Files) == 0:
		r.problem(FilesDir, "empty: a multi-file question needs at least one file")
	}
	if r.total > limits.bytes {
		r.problem("", "%d bytes of text, over the service's %d", r.total, limits.bytes)
	}
	if len(f.Q.Files) > limits.files {
		r.problem(FilesDir, "%d files, over the service's %d", len(f.Q.Files), limits.files)
	}
}

// isNamed reports whether file is base.EXT.
func isNamed(file, base string) bool {
	stem, ext, ok := strings.Cut(file, ".")
	return ok && stem == base && ext != "" && !strings.Contains(ext, ".")
}

// walkFiles reads the files under dir (a path below root) into files,
// their paths relative to the question's files/ folder.
func walkFiles(root *os.Root, folder, dir, rel string, files *[]padapi.QuestionFile, total *int, problem func(string, string, ...any)) {
	entries, err := fs.ReadDir(root.FS(), path.Join(folder, dir))
	if err != nil {
		problem(dir, "%v", err)
		return
	}
	for _, e := range entries {
		name := e.Name()
		p, r := path.Join(dir, name), path.Join(rel, name)
		switch {
		case strings.HasPrefix(name, safefile.TempPrefix):
			continue
		case e.Type()&fs.ModeSymlink != 0:
			problem(p, "a symlink (padctl follows none)")
		case e.IsDir():
			if len(*files) <= limits.files {
				walkFiles(root, folder, p, r, files, total, problem)
			}
		case !e.Type().IsRegular():
			problem(p, "not a regular file")
		case !validPath(r):
			problem(p, "a name the service cannot take as a file path")
		default:
			b, err := readRegular(root, path.Join(folder, p))
			switch {
			case err != nil:
				problem(p, "%v", err)
			case !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0:
				problem(p, "not UTF-8 text: the service takes text only")
			default:
				*total += len(b)
				*files = append(*files, padapi.QuestionFile{Path: r, Contents: string(b)})
			}
		}
	}
}

// validPath reports whether p is a file path the service takes: relative,
// UTF-8, no empty, . or .. segment, no backslash or NUL.
func validPath(p string) bool {
	if p == "" || !utf8.ValidString(p) || strings.ContainsAny(p, "\\\x00") {
		return false
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// readRegular reads a regular file below root, refusing anything else,
// up to just over the service's limit.
func readRegular(root *os.Root, name string) ([]byte, error) {
	st, err := root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if st.Size() > int64(limits.bytes) {
		return nil, fmt.Errorf("%d bytes, over the service's %d", st.Size(), limits.bytes)
	}
	file, err := root.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(io.LimitReader(file, int64(limits.bytes)+1))
}

// parseJSON reads question.json's text into f, returning its problems,
// each with the file and line.
func (f *Folder) parseJSON(file, text string) []string {
	var qj questionJSON
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&qj)
	if err == nil {
		if _, err2 := dec.Token(); err2 != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	if err != nil {
		return []string{fmt.Sprintf("%s:%d: %v", file, lineOf(text, err, dec.InputOffset()), shapeError(err))}
	}
	var bad []string
	id, err := parseID(qj.ID)
	if err != nil {
		bad = append(bad, fmt.Sprintf("%s: id: %v", file, err))
	}
	if strings.TrimSpace(qj.Title) == "" {
		bad = append(bad, file+": title is missing or empty")
	}
	if strings.TrimSpace(qj.Language) == "" {
		bad = append(bad, file+": language is missing or empty")
	}
	if id != "" && qj.Pending != nil {
		bad = append(bad, file+": has both an id and a pending_create")
	}
	for i, in := range qj.Instructions {
		if strings.TrimSpace(in.Instructions) == "" {
			bad = append(bad, fmt.Sprintf("%s: candidate_instructions[%d] has no instructions", file, i))
		}
	}
	f.Q.ID, f.Q.Title, f.Q.Language = id, qj.Title, qj.Language
	f.Q.Instructions, f.Q.AIAssistPrompt, f.Pending = qj.Instructions, qj.AIAssistPrompt, qj.Pending
	return bad
}

// shapes says what each field of question.json holds, for a message.
var shapes = map[string]string{
	"id":                                     "a positive integer (or absent before the first apply)",
	"title":                                  "a string",
	"language":                               "a string",
	"ai_assist_prompt":                       "a string",
	"candidate_instructions":                 `a list of objects such as [{"instructions": "Read the README first.", "default_visible": true}]`,
	"candidate_instructions.instructions":    "a string",
	"candidate_instructions.default_visible": "true or false",
	"pending_create":                         `an object {"since": "<RFC 3339 time>", "fingerprint": "..."} written by apply`,
	"pending_create.since":                   "an RFC 3339 time",
	"pending_create.fingerprint":             "a string",
}

// shapeError rewrites a JSON type mismatch to name the field and the
// shape it wants, in the folder's terms rather than Go's.
func shapeError(err error) error {
	if errors.Is(err, errBadSince) {
		// The only time in question.json.
		return fmt.Errorf("pending_create.since: want %s", shapes["pending_create.since"])
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err
	}
	want, ok := shapes[te.Field]
	if !ok {
		want = "another shape"
	}
	return fmt.Errorf("%s: %s, want %s", te.Field, jsonKind(te.Value), want)
}

// jsonKind names a JSON value's kind as encoding/json reports it.
func jsonKind(v string) string {
	switch v {
	case "array":
		return "a list"
	case "object":
		return "an object"
	case "number", "string", "bool":
		return "a " + strings.Replace(v, "bool", "boolean", 1)
	}
	return v
}

// parseID accepts an id as the service gives it: a positive integer,
// as a JSON number or string; absent or null means none yet.
func parseID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	s := string(raw)
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
	}
	if n, err := strconv.ParseUint(s, 10, 63); err != nil || n == 0 || strconv.FormatUint(n, 10) != s {
		return "", fmt.Errorf("%s is not a question id (a positive integer)", raw)
	}
	return s, nil
}

// lineOf returns the 1-based line of a JSON error.
func lineOf(text string, err error, fallback int64) int {
	off := fallback
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	off = min(max(off, 0), int64(len(text)))
	return 1 + strings.Count(text[:off], "\n")
}

// Unclaimed returns the IDs the state file records that no folder holds,
// sorted: what --prune may delete.
func (lib *Library) Unclaimed() []string {
	held := map[string]bool{}
	for _, f := range lib.Folders {
		held[f.Q.ID] = true
	}
	var out []string
	for id := range lib.State.Questions {
		if !held[id] {
			out = append(out, id)
		}
	}
	slices.SortFunc(out, compareIDs)
	return out
}

// compareIDs orders IDs as numbers when they are: the shorter first, then
// by their digits.
func compareIDs(a, b string) int {
	return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
}
