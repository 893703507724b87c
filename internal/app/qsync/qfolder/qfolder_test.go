package qfolder

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// Mutation testing (issue 29), with gremlins v0.6.0 from the module root:
//
//	gremlins unleash ./internal/app/qsync/qfolder
//
// Equivalent mutants, and why:
//   - CreateParams, len(folder.Instructions) > 0 to >= 0: slices.Clone(nil)
//     is nil, so the params are the same for a folder with no
//     instructions; an explicit [] then sends an empty list, which leaves
//     the new question with no instructions all the same.
//   - FolderName, r < 128 to <= (twice): U+0080 is a control character,
//     neither a letter nor a digit, so it is dropped either way.
//   - FolderName, i < 1_000_000 to <=: the names differ only once a
//     million are taken; a test of that spends seconds on a million names.
//
// A mutant of the diff's hunk loops that loops for ever fails
// unifiedDiff's 10 s deadline rather than hanging the run (gremlins gives
// a test run ten times the tests' time, then kills go test and leaves its
// test binary running). Where a condition was a switch case, gremlins
// reports it NOT COVERED whatever the tests do (it maps coverage by
// statement blocks).

// TestMain makes every write of these tests skip fsync
// (safefile.SkipFsync): no test can observe a power loss, and the fsyncs
// of apply's durable writes were most of these tests' time on a disk.
func TestMain(m *testing.M) {
	safefile.SkipFsync()
	m.Run()
}

func TestNormalizeText(t *testing.T) {
	for in, want := range map[string]string{
		"a\r\nb\r\n":  "a\nb",
		"a\rb":        "a\nb",
		"a\n\n\n":     "a",
		"\n a \n b":   "\n a \n b",
		"":            "",
		"tab\t\r\n":   "tab\t",
		"x\r\n\r\ny ": "x\n\ny ",
	} {
		if got := NormalizeText(in); got != want {
			t.Errorf("NormalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCompare(t *testing.T) {
	yes := true
	base := Question{ID: "1", Title: "T", Language: "go", Description: "d\n", Contents: "c", Solution: "s",
		Instructions: []padapi.CandidateInstruction{{Instructions: "i", DefaultVisible: &yes}}}
	files := []padapi.QuestionFile{{Path: "b.go", Contents: "b\r\n"}, {Path: "a.go", Contents: "a"}}
	multi := base
	multi.Contents, multi.Files = "", files
	reordered := multi
	reordered.Files = []padapi.QuestionFile{{Path: "a.go", Contents: "a\n"}, {Path: "b.go", Contents: "b"}}
	tests := []struct {
		name           string
		folder, svc    Question
		recorded       string
		want           []string
		wantUnreadable bool
	}{
		{"same", base, base, "", nil, false},
		{"line endings and final newline", func() Question { q := base; q.Description = "d\r\n\r\n"; q.Contents = "c\n"; return q }(), base, "", nil, false},
		{"title spaces", func() Question { q := base; q.Title = " T "; return q }(), base, "", nil, false},
		{"description", func() Question { q := base; q.Description = "e"; return q }(), base, "", []string{FieldDescription}, false},
		{"instruction visibility", func() Question {
			q := base
			q.Instructions = []padapi.CandidateInstruction{{Instructions: "i"}}
			return q
		}(), base, "", []string{FieldInstructions}, false},
		{"instructions none vs empty", func() Question { q := base; q.Instructions = nil; return q }(), func() Question { q := base; q.Instructions = []padapi.CandidateInstruction{}; return q }(), "", nil, false},
		{"files unknown", multi, AsCreated(multi), "", []string{FieldFiles}, true},
		{"files recorded, reordered", reordered, AsCreated(multi), multi.Digest(FieldFiles), nil, false},
		{"files recorded, changed", multi, AsCreated(multi), "0123", []string{FieldFiles}, false},
		{"single to multi", multi, base, "", []string{FieldContents, FieldFiles}, false},
		{"multi to single", base, AsCreated(multi), multi.Digest(FieldFiles), []string{FieldContents}, false},
		{"files dropped", func() Question { q := base; q.Contents = ""; return q }(), AsCreated(multi), multi.Digest(FieldFiles), []string{FieldFiles}, false},
		{"no files either side", func() Question { q := base; q.Contents = ""; return q }(), AsCreated(multi), "", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes := Compare(tt.folder, tt.svc, tt.recorded)
			var got []string
			unreadable := false
			for _, c := range changes {
				got = append(got, c.Field)
				unreadable = unreadable || c.Unreadable
			}
			if diff := cmp.Diff(tt.want, got); diff != "" || unreadable != tt.wantUnreadable {
				t.Errorf("Compare fields (-want +got):\n%s unreadable %v", diff, unreadable)
			}
			// What UpdateParams sends makes the two the same.
			if len(changes) > 0 {
				p := UpdateParams(tt.folder, changes)
				if p.Contents != nil && p.Files != nil {
					t.Errorf("UpdateParams sends both contents and files")
				}
			}
		})
	}
}

func TestFingerprint(t *testing.T) {
	q := Question{Title: "T", Language: "go", Description: "d", Contents: "c", AIAssistPrompt: "p"}
	svc := q
	svc.ID, svc.AIAssistPrompt, svc.Description = "9", "", "d\r\n"
	if q.Fingerprint() != svc.Fingerprint() {
		t.Errorf("the fingerprint depends on the id, the prompt or line endings")
	}
	other := q
	other.Contents = "d"
	if q.Fingerprint() == other.Fingerprint() {
		t.Errorf("the fingerprint ignores the contents")
	}
	multi := q
	multi.Contents, multi.Files = "", []padapi.QuestionFile{{Path: "a", Contents: "b"}}
	shown := AsCreated(multi)
	if shown.Files != nil || AsCreated(multi).Fingerprint() != shown.Fingerprint() {
		t.Errorf("AsCreated shows files")
	}
}

func TestFolderName(t *testing.T) {
	taken := map[string]bool{"two-sum": true, "two-sum-12": true}
	for _, tt := range []struct{ title, id, want string }{
		{"Two Sum", "12", "two-sum-12-2"},
		{"Two Sum", "13", "two-sum-13"},
		{"LRU Cache!", "1", "lru-cache"},
		{"../../etc/passwd", "1", "etc-passwd"},
		{"..", "1", "question"},
		{"Ünïcödé", "5", "n-c-d"},
		{"", "../7", "question"},
		{strings.Repeat("ab ", 100), "1", strings.Repeat("ab-", 20) + "a"},
	} {
		if got := FolderName(tt.title, tt.id, func(s string) bool { return taken[s] }); got != tt.want {
			t.Errorf("FolderName(%q, %q) = %q, want %q", tt.title, tt.id, got, tt.want)
		}
	}
	taken["question"] = true
	if got := FolderName("", "../7", func(s string) bool { return taken[s] }); got != "question-7" {
		t.Errorf("an unsafe id in a name: %q", got)
	}
}

func TestWriterRefusesSymlinks(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "f"), []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "f"), filepath.Join(dir, "file")); err != nil {
		t.Fatal(err)
	}
	w := openWriter(t, dir)
	for _, name := range []string{"link/f", "link/new", "file", "../escape", "/abs", "a/../../b"} {
		if err := w.WriteFile(name, "x"); err == nil {
			t.Errorf("WriteFile(%q) wrote", name)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "f")); string(b) != "keep" {
		t.Errorf("a write went through a symlink")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("a write landed outside: %v", entries)
	}
	if err := w.WriteFile("ok/q.json", "x"); err != nil {
		t.Errorf("WriteFile: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "ok")); len(entries) != 1 {
		t.Errorf("a temporary file was left: %v", entries)
	}
}

func TestRenderReadRoundTrip(t *testing.T) {
	no := false
	for _, q := range []Question{
		{ID: "3", Title: "Single", Language: "python", Description: "d", Contents: "c", Solution: "s", AIAssistPrompt: "p",
			Instructions: []padapi.CandidateInstruction{{Instructions: "i", DefaultVisible: &no}}},
		{Title: "Multi", Language: "rust", Files: []padapi.QuestionFile{{Path: "src/main.rs", Contents: "fn main() {}"}, {Path: "Cargo.toml", Contents: "[package]"}}},
		{ID: "4", Title: "Unknown language", Language: "cobol", Contents: "x"},
	} {
		dir := t.TempDir()
		files, err := Render(q, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := NewWriter(dir)
		if err := w.Sync("q", nil, files); err != nil {
			t.Fatal(err)
		}
		w.Close()
		lib, err := Read(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		got := lib.Folders[0].Q
		if changes := Compare(got, q, q.Digest(FieldFiles)); len(changes) > 0 || got.ID != q.ID {
			t.Errorf("%s: read back differs: %v (id %q)", q.Title, changes, got.ID)
		}
	}
}

func TestFingerprintCoversWhatACreateSends(t *testing.T) {
	q := Question{Title: "T", Language: "go", Description: "d", Contents: "c", Solution: "s",
		Instructions: []padapi.CandidateInstruction{{Instructions: "i"}}}
	for name, change := range map[string]func(*Question){
		"title":        func(q *Question) { q.Title = "U" },
		"language":     func(q *Question) { q.Language = "rust" },
		"description":  func(q *Question) { q.Description = "e" },
		"contents":     func(q *Question) { q.Contents = "e" },
		"solution":     func(q *Question) { q.Solution = "e" },
		"instructions": func(q *Question) { q.Instructions = nil },
	} {
		other := q
		change(&other)
		if other.Fingerprint() == q.Fingerprint() {
			t.Errorf("the fingerprint ignores the %s", name)
		}
	}
}

// Dot-folders (.git, .vscode, .idea) and a README beside the questions are
// not question folders.
func TestReadSkipsDotFolders(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		".vscode/settings.json": "{}",
		".git/HEAD":             "ref: x",
		"README.md":             "# Questions",
		"q/question.json":       `{"title": "Q", "language": "go"}`,
		"q/.editorconfig":       "root = true",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := Read(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Folders) != 1 || lib.Folders[0].Name != "q" {
		t.Errorf("folders: %+v", lib.Folders)
	}
}

// A field of question.json in the wrong shape is named, with the shape it
// wants, in the folder's terms: never a Go type.
func TestQuestionJSONShapeErrors(t *testing.T) {
	for _, tt := range []struct{ json, want string }{
		{`{"title": "Q", "language": "go", "candidate_instructions": "Read it."}`,
			`q/question.json:1: candidate_instructions: a string, want a list of objects such as [{"instructions": "Read the README first.", "default_visible": true}]`},
		{`{"title": "Q", "language": "go",` + "\n" + `"candidate_instructions": [{"instructions": "i", "default_visible": "yes"}]}`,
			`q/question.json:2: candidate_instructions.default_visible: a string, want true or false`},
		{`{"title": 7, "language": "go"}`, `q/question.json:1: title: a number, want a string`},
		{`{"title": ["x"], "language": "go"}`, `q/question.json:1: title: a list, want a string`},
		{`{"title": "Q", "language": {}}`, `q/question.json:1: language: an object, want a string`},
		{`{"title": "Q", "language": "go", "ai_assist_prompt": true}`, `q/question.json:1: ai_assist_prompt: a boolean, want a string`},
		{`{"title": "Q", "language": "go", "pending_create": {"since": 5}}`, `q/question.json:1: pending_create.since: want an RFC 3339 time`},
		{`{"title": "Q", "language": "go", "pending_create": {"since": "soon"}}`, `q/question.json:1: pending_create.since: want an RFC 3339 time`},
		{`{"title": "Q", "language": "go", "pending_create": {"fingerprint": 5}}`, `q/question.json:1: pending_create.fingerprint: a number, want a string`},
		{`{"id": [1], "title": "Q", "language": "go"}`, `q/question.json: id: [1] is not a question id (a positive integer)`},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "q"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "q", QuestionFile), []byte(tt.json), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(dir, false)
		var bad *BadFolderError
		if !errors.As(err, &bad) || len(bad.Problems) != 1 || bad.Problems[0] != tt.want {
			t.Errorf("Read of %s:\n got %v\nwant %s", tt.json, err, tt.want)
		}
		if err != nil && strings.Contains(err.Error(), "padapi.") {
			t.Errorf("the message names a Go type: %v", err)
		}
	}
}

func TestRenderEndsTheDescriptionWithANewline(t *testing.T) {
	for _, d := range []string{"one line", "ends\n"} {
		files, err := Render(Question{Title: "T", Language: "go", Description: d}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := files[DescriptionFile]; got != strings.TrimSuffix(d, "\n")+"\n" {
			t.Errorf("description.md of %q = %q", d, got)
		}
	}
}

// writeTree writes files (slash paths) below dir.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// everyProblem is what TestReadReportsEveryProblem expects Read to say.
var everyProblem = []string{
	".padctl-questions.json: ",
	"link: a symlink",
	"nojson/question.json: missing",
	"two/starter.py: a second starter file beside starter.go",
	"two/solution.py: a second solution file beside solution.go",
	"both/starter.go: beside files/",
	"empty/files: empty",
	"odd/question.json: id: 0 is not a question id",
	"odd/question.json: title is missing or empty",
	"odd/question.json: language is missing or empty",
	"odd/notes.txt: unexpected",
	"odd/sub: unexpected",
	"bin/description.md: not UTF-8 text",
	"bin/files/a\\b: a name the service cannot take",
	"bin/files/nul: not UTF-8 text",
	"nul0/description.md: not UTF-8 text",
	"dup1/question.json and dup2/question.json: both have id 5",
	"ins/question.json: candidate_instructions[0] has no instructions",
	`extra/question.json:1: json: unknown field "colour"`,
	"two-values/question.json:1: more than one JSON value",
	"pend/question.json: has both an id and a pending_create",
	"ok/solution.go: a symlink",
}

// Every problem of a folder is reported at once, each naming its file.
func TestReadReportsEveryProblem(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"nojson/description.md":     "d",
		"two/question.json":         `{"title": "T", "language": "go"}`,
		"two/starter.go":            "a",
		"two/starter.py":            "b",
		"two/solution.go":           "a",
		"two/solution.py":           "b",
		"both/question.json":        `{"title": "T", "language": "go"}`,
		"both/starter.go":           "a",
		"both/files/a.go":           "a",
		"empty/question.json":       `{"title": "T", "language": "go"}`,
		"empty/files/.padctl-tmp-x": "",
		"odd/question.json":         `{"title": "", "language": " ", "id": 0, "pending_create": {"since": "2026-01-01T00:00:00Z"}}`,
		"odd/notes.txt":             "x",
		"odd/sub/x":                 "x",
		"bin/question.json":         `{"title": "T", "language": "go"}`,
		"bin/description.md":        "\xff",
		"bin/files/a\\b":            "x",
		"bin/files/nul":             "a\x00b",
		"nul0/question.json":        `{"title": "T", "language": "go"}`,
		"nul0/description.md":       "\x00 first",
		"dup1/question.json":        `{"id": 5, "title": "T", "language": "go"}`,
		"dup2/question.json":        `{"id": "5", "title": "T", "language": "go"}`,
		"ins/question.json":         `{"title": "T", "language": "go", "candidate_instructions": [{"instructions": " "}]}`,
		"extra/question.json":       `{"title": "T", "language": "go", "colour": "red"}`,
		"two-values/question.json":  `{"title": "T", "language": "go"} {}`,
		"pend/question.json":        `{"id": 3, "title": "T", "language": "go", "pending_create": {"since": "2026-01-01T00:00:00Z"}}`,
		".padctl-questions.json":    `{"questions": {"x": {}}}`,
		"ok/question.json":          `{"title": "T", "language": "go"}`,
		"ok/files/deep/er/f.go":     "x",
		"README.md":                 "hi",
	})
	if err := os.Symlink("/etc", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "ok", "solution.go")); err != nil {
		t.Fatal(err)
	}
	_, err := Read(dir, false)
	var bad *BadFolderError
	if !errors.As(err, &bad) {
		t.Fatalf("Read: %v", err)
	}
	for _, want := range everyProblem {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Read's problems lack %q", want)
		}
	}
	if strings.Contains(err.Error(), "README") || strings.Contains(err.Error(), "padctl-tmp") || strings.Contains(err.Error(), "deep/er") {
		t.Errorf("Read complains of what is fine:\n%v", err)
	}
	if _, err := Read(filepath.Join(dir, "README.md"), false); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Read of a file: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "none"), false); err == nil {
		t.Errorf("Read of a missing folder succeeded")
	}
	if lib, err := Read(filepath.Join(dir, "none"), true); err != nil || len(lib.Folders) != 0 {
		t.Errorf("Read of a missing folder, missing OK: %v", err)
	}
}

func TestStateRoundTripAndUnclaimed(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, dir)
	st := &State{Questions: map[string]Record{"10": {Folder: "a"}, "9": {Folder: "b"}, "100": {}, "11": {}, "2": {Folder: "held"}}}
	if err := w.Save(st); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{"held/question.json": `{"id": 2, "title": "T", "language": "go"}`})
	lib, err := Read(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lib.Unclaimed(), []string{"9", "10", "11", "100"}; !cmp.Equal(got, want) {
		t.Errorf("Unclaimed() = %v, want %v", got, want)
	}
	for text, want := range map[string]string{
		`{"questions": {"abc": {}}}`: ".padctl-questions.json: \"abc\" is not a question id",
		`{"questions": `:             ".padctl-questions.json:1: unexpected EOF",
		`{"questions": null}`:        "",
	} {
		writeTree(t, dir, map[string]string{StateFile: text})
		_, err := Read(dir, false)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("state %s: %v, want %q", text, err, want)
		}
	}
}

func TestSyncWritesAndRemoves(t *testing.T) {
	dir := t.TempDir()
	w := openWriter(t, dir)
	old := map[string]string{QuestionFile: "{}\n", "files/a/b.go": "b", "files/c.go": "c", "keep.md": "k"}
	if err := w.Sync("q", nil, old); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync("q", old, map[string]string{QuestionFile: "{}\n", "keep.md": "k2", "files/c.go": "c"}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "q/files/a")); !os.IsNotExist(err) {
		t.Errorf("an emptied folder was left: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "q/keep.md")); string(b) != "k2" {
		t.Errorf("keep.md = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "q/files/c.go")); string(b) != "c" {
		t.Errorf("c.go = %q", b)
	}
	if err := w.Remove("q/none", "q"); err != nil {
		t.Errorf("Remove of nothing: %v", err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "q", "link")); err != nil {
		t.Fatal(err)
	}
	if err := w.Remove("q/link", "q"); err == nil {
		t.Errorf("Remove of a symlink succeeded")
	}
	if err := w.WriteFile("q/../../x", "x"); err == nil {
		t.Errorf("WriteFile out of the folder succeeded")
	}
}

// paramsOf sums params up: each set field's value.
func paramsOf(title, language, description, solution, prompt, contents *string, files []padapi.QuestionFile, ins []padapi.CandidateInstruction) string {
	show := func(p *string) string {
		if p == nil {
			return "-"
		}
		return *p
	}
	return fmt.Sprintf("%s %s %s %s %s %s files %d instructions %d", show(title), show(language), show(description), show(solution),
		show(prompt), show(contents), len(files), len(ins))
}

var paramsQuestion = Question{Title: "T", Language: "go", Description: "d", Solution: "s", AIAssistPrompt: "p", Contents: "c",
	Instructions: []padapi.CandidateInstruction{{Instructions: "i"}}}

func TestCreateParams(t *testing.T) {
	c := CreateParams(paramsQuestion)
	if got, want := paramsOf(c.Title, c.Language, c.Description, c.Solution, c.AIAssistPrompt, c.Contents, c.Files, c.CandidateInstructions), "T go d s p c files 0 instructions 1"; got != want {
		t.Errorf("CreateParams: %s, want %s", got, want)
	}
	c = CreateParams(Question{Title: "T", Language: "go", Files: []padapi.QuestionFile{{Path: "a", Contents: "b"}}})
	if got, want := paramsOf(c.Title, c.Language, c.Description, c.Solution, c.AIAssistPrompt, c.Contents, c.Files, c.CandidateInstructions), "T go - - - - files 1 instructions 0"; got != want || c.CandidateInstructions != nil {
		t.Errorf("CreateParams of a bare multi-file question: %s, want %s", got, want)
	}
}

func TestUpdateParams(t *testing.T) {
	var changes []Change
	for _, f := range Fields {
		changes = append(changes, Change{Field: f})
	}
	u := UpdateParams(paramsQuestion, changes)
	if got, want := paramsOf(u.Title, u.Language, u.Description, u.Solution, u.AIAssistPrompt, u.Contents, u.Files, u.CandidateInstructions), "T go d s p c files 0 instructions 1"; got != want {
		t.Errorf("UpdateParams: %s, want %s", got, want)
	}
	u = UpdateParams(paramsQuestion, nil)
	if got, want := paramsOf(u.Title, u.Language, u.Description, u.Solution, u.AIAssistPrompt, u.Contents, u.Files, u.CandidateInstructions), "- - - - - - files 0 instructions 0"; got != want {
		t.Errorf("UpdateParams of no change: %s", got)
	}
}

func TestLongAndFromService(t *testing.T) {
	for _, f := range Fields {
		if Long(f) != (f != FieldTitle && f != FieldLanguage) {
			t.Errorf("Long(%s)", f)
		}
	}
	q := paramsQuestion
	svc := FromService(&padapi.Question{ID: "4", Title: "T", Language: "go", Description: "d", Solution: "s", AIAssistPrompt: "p", Contents: "c",
		CandidateInstructions: q.Instructions})
	q.ID = "4"
	if len(Compare(q, svc, "")) != 0 || svc.ID != "4" {
		t.Errorf("FromService differs: %+v", svc)
	}
}

func TestValueOfInstructions(t *testing.T) {
	yes := true
	q := Question{Instructions: []padapi.CandidateInstruction{{Instructions: "i\r\n"}, {Instructions: "j", DefaultVisible: &yes}}}
	if got, want := q.Value(FieldInstructions), "[instructions unset]\ni\n[instructions true]\nj"; got != want {
		t.Errorf("Value = %q, want %q", got, want)
	}
}

// The files' change says what the service's side is: the files last
// applied (known only by their digest), or unknown.
func TestCompareFilesServiceSide(t *testing.T) {
	multi := Question{Title: "T", Language: "go", Files: []padapi.QuestionFile{{Path: "a", Contents: "b"}}}
	for _, tt := range []struct {
		svc        Question
		recorded   string
		service    string
		unreadable bool
	}{
		{AsCreated(multi), "0123", "(the files last applied, which no answer shows)", false},
		{AsCreated(multi), "", "", true},
		{Question{Title: "T", Language: "go", Contents: "c"}, "0123", "", false},
	} {
		var got *Change
		for _, c := range Compare(multi, tt.svc, tt.recorded) {
			if c.Field == FieldFiles {
				got = &c
			}
		}
		if got == nil || got.Service != tt.service || got.Unreadable != tt.unreadable {
			t.Errorf("Compare(%q, %q): %+v", tt.svc.Contents, tt.recorded, got)
		}
	}
}

// setLimits sets the limits Read checks to bytes and files for the test.
func setLimits(t *testing.T, bytes, files int) {
	old := limits
	limits.bytes, limits.files = bytes, files
	t.Cleanup(func() { limits = old })
}

// The limits Read checks are the service's, as the README says: 16 MiB
// of text and 1 000 files per question.
func TestReadLimitsAreTheService(t *testing.T) {
	if MaxQuestionBytes != 16<<20 || MaxFiles != 1000 {
		t.Errorf("MaxQuestionBytes %d, MaxFiles %d: want 16 MiB and 1 000", MaxQuestionBytes, MaxFiles)
	}
	if limits.bytes != MaxQuestionBytes || limits.files != MaxFiles {
		t.Errorf("Read checks %d bytes and %d files, want MaxQuestionBytes and MaxFiles", limits.bytes, limits.files)
	}
}

// The folder's limits hold at their edges: the limit's bytes of text and
// its count of files are fine, one more is a problem. The limits are set
// small (TestReadLimitsAreTheService checks the real ones), so that the
// test writes 15 small files, not 2 000 and 32 MiB.
func TestReadLimits(t *testing.T) {
	const maxBytes, maxFiles = 64, 3
	setLimits(t, maxBytes, maxFiles)
	dir := t.TempDir()
	qjson := `{"title": "T", "language": "go"}`
	files := map[string]string{
		"text/question.json":  qjson,
		"text/description.md": strings.Repeat("x", maxBytes-len(qjson)),
		"big/question.json":   qjson,
		"big/description.md":  strings.Repeat("x", maxBytes),
		"many/question.json":  qjson,
		"more/question.json":  qjson,
		"more/files/sub/last": "x",
	}
	for i := range maxFiles {
		files[fmt.Sprintf("many/files/f%04d", i)] = "x"
		files[fmt.Sprintf("more/files/f%04d", i)] = "x"
	}
	writeTree(t, dir, files)
	_, err := Read(dir, false)
	var bad *BadFolderError
	if !errors.As(err, &bad) {
		t.Fatalf("Read: %v", err)
	}
	want := []string{
		fmt.Sprintf("big: %d bytes of text, over the service's %d", maxBytes+len(qjson), maxBytes),
		fmt.Sprintf("more/files: %d files, over the service's %d", maxFiles+1, maxFiles),
	}
	if !cmp.Equal(bad.Problems, want) {
		t.Errorf("problems:\n%q\nwant\n%q", bad.Problems, want)
	}
}
