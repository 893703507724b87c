package qsync

import (
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
	"github.com/padinterview/padapi/internal/lib/redact"
)

// pullKinds lists a pull plan's steps as "kind folder-or-id".
func pullKinds(p *Plan) []string {
	var out []string
	for _, st := range p.Steps {
		out = append(out, string(st.Kind)+" "+cmpOr(st.Folder, "#"+st.ID))
	}
	return out
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestPullPlansNewQuestions(t *testing.T) {
	e := newEnv(t)
	e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Description: "old", Contents: "pass"})
	e.srv.AddQuestion(padapi.Question{Title: "Multi", Language: "go"})
	e.srv.AddQuestion(padapi.Question{Title: "Nul", Language: "go", Description: "a\x00b"})
	e.srv.AddQuestion(padapi.Question{Title: " ", Language: "go"})
	p := e.plan(Pull, Options{})
	want := []string{"skip #4", "skip #3", "write-back multi", "write-back two-sum"}
	if got := pullKinds(p); !slices.Equal(got, want) {
		t.Fatalf("plan %v, want %v", got, want)
	}
	var got []string
	for _, st := range p.Steps {
		got = append(got, fmt.Sprintf("%s %v %s", st.Reason, st.NoCode, st.Detail))
	}
	want = []string{
		string(ReasonUnrepresentable) + " false it has no title or no language, which a question folder needs",
		string(ReasonUnrepresentable) + " false its description holds a NUL byte",
		string(ReasonNew) + " true ", string(ReasonNew) + " false ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("steps:\n%q\nwant\n%q", got, want)
	}
	if p.Count(WriteBack) != 2 || !p.Changes() {
		t.Errorf("Count or Changes wrong")
	}
	if n := actions(e.must(Pull, Options{})); !maps.Equal(n, map[Kind]int{WriteBack: 2, Skip: 2}) {
		t.Errorf("pull: %v", n)
	}
	if got := e.read("two-sum/description.md"); got != "old\n" {
		t.Errorf("description.md = %q", got)
	}
	if p := e.plan(Pull, Options{}); p.Changes() || p.Count(Same) != 2 {
		t.Errorf("a second pull plans %v", pullKinds(p))
	}
}

// pulledTwoSum pulls one question into a new folder.
func pulledTwoSum(t *testing.T) (*env, padapi.ID) {
	e := newEnv(t)
	two := e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Description: "old", Contents: "pass"})
	e.must(Pull, Options{})
	return e, two.ID
}

func TestPullChangedThere(t *testing.T) {
	e, id := pulledTwoSum(t)
	if _, err := e.client().Questions.Update(e.ctx(), id, &padapi.QuestionUpdateParams{Description: padapi.Ptr("new")}); err != nil {
		t.Fatal(err)
	}
	p := e.plan(Pull, Options{})
	if got, want := describe(step(t, p, "two-sum", "")), `write-back two-sum/#`+string(id)+` "Two Sum" (python) [description] files [] wait 0s: `+string(ReasonChangedThere); got != want {
		t.Errorf("changed there:\n got %s\nwant %s", got, want)
	}
	e.must(Pull, Options{})
	if got := e.read("two-sum/description.md"); got != "new\n" {
		t.Errorf("description.md = %q", got)
	}
}

func TestPullChangedHereAndThere(t *testing.T) {
	e, id := pulledTwoSum(t)
	e.write(map[string]string{"two-sum/starter.py": "mine"})
	if _, err := e.client().Questions.Update(e.ctx(), id, &padapi.QuestionUpdateParams{Contents: padapi.Ptr("theirs")}); err != nil {
		t.Fatal(err)
	}
	p := e.plan(Pull, Options{})
	if got, want := describe(step(t, p, "two-sum", "")), `keep-local two-sum/#`+string(id)+` "Two Sum" (python) [starter_code] files [two-sum/starter.py] wait 0s: `+string(ReasonChangedHere); got != want || p.Changes() {
		t.Errorf("changed here:\n got %s\nwant %s", got, want)
	}
	e.must(Pull, Options{})
	if got := e.read("two-sum/starter.py"); got != "mine" {
		t.Errorf("pull overwrote a local change: %q", got)
	}
	e.must(Pull, Options{Force: true})
	if got := e.read("two-sum/starter.py"); got != "theirs" {
		t.Errorf("pull --force kept %q", got)
	}
}

func TestPullNotListedAndIDs(t *testing.T) {
	e, id := pulledTwoSum(t)
	e.srv.AddQuestion(padapi.Question{Title: "Other", Language: "go"})
	// A folder the service no longer lists is left alone; --id pulls
	// those questions only, once each.
	if err := e.client().Questions.Delete(e.ctx(), id); err != nil {
		t.Fatal(err)
	}
	if got, want := describe(step(t, e.plan(Pull, Options{}), "two-sum", "")), `skip two-sum/#`+string(id)+` "Two Sum" () [] files [] wait 0s: `+string(ReasonNotListed); got != want {
		t.Errorf("not listed:\n got %s\nwant %s", got, want)
	}
	if got := pullKinds(e.plan(Pull, Options{IDs: []string{"2", "2"}})); !slices.Equal(got, []string{"write-back other"}) {
		t.Errorf("pull --id 2 --id 2: %v", got)
	}
}

func TestPullKeepsLocalFilesOfAMultiFileQuestion(t *testing.T) {
	e := newEnv(t)
	e.write(map[string]string{"bank/question.json": `{"title": "Bank", "language": "java"}`, "bank/files/Main.java": "class Main {}\n"})
	e.must(Push, Options{})
	// Files changed here are not a conflict: a pull never writes files/.
	e.write(map[string]string{"bank/files/Main.java": "class Main { int x; }\n"})
	if st := step(t, e.plan(Pull, Options{}), "bank", ""); st.Kind != WriteBack {
		t.Errorf("plan with files changed here: %+v", st)
	}
	e.write(map[string]string{"bank/description.md": "mine\n"})
	p := e.plan(Pull, Options{})
	if st := step(t, p, "bank", ""); st.Kind != KeepLocal || !slices.Equal(st.Files, []string{"bank/description.md"}) {
		t.Errorf("plan: %+v", st)
	}
	e.must(Pull, Options{Force: true})
	if _, err := os.Stat(filepath.Join(e.dir, "bank/description.md")); err == nil {
		t.Errorf("pull --force kept a description the service does not have")
	}
	if got := e.read("bank/files/Main.java"); got != "class Main { int x; }\n" {
		t.Errorf("pull touched files/: %q", got)
	}
	if p := e.plan(Push, Options{}); !slices.Equal(kinds(p), []Kind{Update}) {
		t.Errorf("after pull: %v, want the files to update", kinds(p))
	}
}

func TestPullAdoptsPending(t *testing.T) {
	e := newEnv(t)
	e.write(map[string]string{"mine/question.json": `{"title": "Mine", "language": "go"}`, "mine/description.md": "d\n"})
	e.srv.DropNext("POST /api/questions", 1)
	if _, err := e.run(Push, Options{}); err == nil {
		t.Fatal("a create with no answer succeeded")
	}
	p := e.plan(Pull, Options{})
	if got := pullKinds(p); !slices.Equal(got, []string{"adopt mine", "same mine"}) {
		t.Fatalf("plan %v", got)
	}
	if n := actions(e.must(Pull, Options{})); n[Adopt] != 1 {
		t.Errorf("pull: %v", n)
	}
	lib := e.lib()
	if len(lib.Folders) != 1 || lib.Folders[0].Q.ID == "" || lib.Folders[0].Pending != nil {
		t.Errorf("after pull: %+v", lib.Folders)
	}
	if p := e.plan(Push, Options{}); p.Changes() || len(e.srv.Questions()) != 1 {
		t.Errorf("after pull: %v", kinds(p))
	}
}

const key = "SeCrEtKeY-0123456789"

// redactKey stands in for padctl's redactor.
func redactKey(s string) string { return strings.ReplaceAll(s, key, "[REDACTED]") }

// No pulled file holds the key, and each file where it was taken out is
// reported.
func TestPullRedacts(t *testing.T) {
	e := newEnv(t)
	yes := true
	e.srv.AddQuestion(padapi.Question{Title: "T " + key, Language: "python", Description: "d " + key, Contents: "c " + key,
		Solution: "s " + key, AIAssistPrompt: "p " + key,
		CandidateInstructions: []padapi.CandidateInstruction{{Instructions: "ok"}, {Instructions: "i " + key, DefaultVisible: &yes}}})
	e.srv.AddQuestion(padapi.Question{Title: "Clean", Language: "go", Description: "nothing here", CreatedAt: time.Now()})
	evs := e.must(Pull, Options{Redact: redactKey})
	var files []string
	for _, ev := range evs {
		if ev.Kind == Redacted {
			files = append(files, ev.File)
		}
	}
	want := []string{"t-redacted/description.md", "t-redacted/question.json", "t-redacted/solution.py", "t-redacted/starter.py"}
	if !slices.Equal(files, want) {
		t.Errorf("redacted files %v, want %v", files, want)
	}
	err := filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if strings.Contains(strings.ToLower(string(b)+p), strings.ToLower(key)) {
			t.Errorf("%s holds the key", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := e.read("t-redacted/question.json"); !strings.Contains(got, `"i [REDACTED]"`) || !strings.Contains(got, `"ok"`) {
		t.Errorf("question.json:\n%s", got)
	}
	// The next pull finds nothing to write, and reports nothing.
	p := e.plan(Pull, Options{Redact: redactKey})
	if p.Changes() || p.Count(KeepLocal) != 0 {
		t.Errorf("a second pull plans %v", pullKinds(p))
	}
	for _, ev := range e.must(Pull, Options{Redact: redactKey}) {
		if ev.Kind == Redacted {
			t.Errorf("a pull that wrote nothing reported %s", ev.File)
		}
	}
}

func TestUnrepresentable(t *testing.T) {
	for _, tt := range []struct {
		q    padapi.Question
		want string
	}{
		{padapi.Question{ID: "1", Title: "T", Language: "go"}, ""},
		{padapi.Question{ID: "x/1", Title: "T", Language: "go"}, DetailBadID},
		{padapi.Question{ID: "1", Title: "T", Language: "go", Solution: "\x00"}, "its solution holds a NUL byte"},
		{padapi.Question{ID: "1", Title: "T", Language: "go", Description: strings.Repeat("x", qfolder.MaxQuestionBytes-3)}, ""},
		{padapi.Question{ID: "1", Title: "T", Language: "go", Description: strings.Repeat("x", qfolder.MaxQuestionBytes-3), Solution: "x"}, "over 16777216 bytes of text"},
		{padapi.Question{ID: "1", Title: "T", Language: " "}, "it has no title or no language, which a question folder needs"},
	} {
		if got := unrepresentable(&tt.q); got != tt.want {
			t.Errorf("unrepresentable(%.40q) = %q, want %q", tt.q.Description+tt.q.Solution, got, tt.want)
		}
	}
}

// Issue 37 #13: the folder's own names (its state file, question.json,
// description.md, the starter and solution files, variants/) are never
// refused by the name check, even when 8 characters of the key match
// them: a pull and an apply with such a key write every question.
func TestOwnNamesNeverRefused(t *testing.T) {
	const ownKey = "sk-padctl-qu-description-solution-starter"
	r := redact.New(ownKey).String
	e := newEnv(t)
	seedQuestions(e.srv, 2)
	e.srv.AddQuestion(padapi.Question{Title: "Multi", Language: "python", Solution: "s", Contents: "c"})
	e.must(Pull, Options{Redact: r})
	for _, name := range []string{qfolder.StateFile, "question-0/question.json", "question-0/description.md", "question-0/starter.py", "multi/solution.py"} {
		if _, err := os.Stat(filepath.Join(e.dir, filepath.FromSlash(name))); err != nil {
			t.Errorf("no %s: %v", name, err)
		}
	}
	if p := e.plan(Push, Options{Redact: r}); p.Changes() {
		t.Errorf("a diff after the pull plans changes")
	}
}
