package questions_test

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

const question1 = `{"status":"OK","id":1,"title":"Two Sum","language":"python","author_name":"Ada","used":3,
	"description":"Find two numbers.","candidate_instructions":[{"instructions":"Use any language.","default_visible":true}],
	"contents":"def two_sum(): pass","solution":"hash map","created_at":"2026-05-01T09:00:00Z","updated_at":"2026-05-02T09:00:00Z"}`

func TestQuestionsCreate(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"POST /api/questions": cmdtest.Reply(200, question1)})
	dir := t.TempDir()
	cmdtest.WriteFiles(t, dir, map[string]string{"src/main.py": "print(1)\n", "abs/util.py": "def util(): pass\n", "solution.py": "hash map"})
	t.Chdir(dir)

	r := cmdtest.Padctl(t, s.Env(), "questions", "create", "--title", "Two Sum", "--language", "python",
		"--description", "Find two numbers.", "--solution", "hash map", "--ai-prompt", "Be brief.",
		"--instructions", "Use any language.", "--instructions", "Ask questions.",
		"--file", "src/main.py", "--file", filepath.Join(dir, "abs", "util.py"))
	cmdtest.Ok(t, r)
	if want := "1\tTwo Sum\tpython\tAda\t3\t2026-05-02T09:00:00Z\n"; r.Stdout != want {
		t.Errorf("stdout %q, want %q", r.Stdout, want)
	}
	want := url.Values{
		"question[title]":                          {"Two Sum"},
		"question[language]":                       {"python"},
		"question[description]":                    {"Find two numbers."},
		"question[solution]":                       {"hash map"},
		"question[ai_assist_custom_system_prompt]": {"Be brief."},
		"question[candidate_instructions]":         {`[{"instructions":"Use any language."},{"instructions":"Ask questions."}]`},
		// A relative path is kept; an absolute one becomes its base name.
		"question[file_contents]": {`[{"path":"src/main.py","contents":"print(1)\n"},{"path":"util.py","contents":"def util(): pass\n"}]`},
	}
	if diff := cmp.Diff(want, cmdtest.Form(t, s.Requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}

	r = cmdtest.Padctl(t, s.Env(), "questions", "create", "--title", "T", "--language", "go", "--contents-file", "solution.py")
	cmdtest.Ok(t, r)
	if got := cmdtest.Form(t, s.Requests()[1]).Get("question[contents]"); got != "hash map" {
		t.Errorf("--contents-file sent %q", got)
	}
}

// --zip uploads the archive as a file part, as Rails takes an upload.
func TestQuestionsCreateZip(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"POST /api/questions": cmdtest.Reply(200, question1)})
	zip := filepath.Join(t.TempDir(), "q.zip")
	cmdtest.WriteFiles(t, filepath.Dir(zip), map[string]string{"q.zip": "PK\x03\x04 not really a zip"})
	cmdtest.Ok(t, cmdtest.Padctl(t, s.Env(), "questions", "create", "--title", "T", "--language", "go", "--zip", zip))

	req := s.Requests()[0]
	mediaType, params, err := mime.ParseMediaType(req.ContentType)
	if err != nil || mediaType != "multipart/form-data" {
		t.Fatalf("content type %q: %v", req.ContentType, err)
	}
	parts := map[string]string{}
	mr := multipart.NewReader(bytes.NewReader(req.Body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		parts[p.FormName()+" "+p.FileName()] = string(b)
	}
	want := map[string]string{"question[title] ": "T", "question[language] ": "go", "question[zip_file] question.zip": "PK\x03\x04 not really a zip"}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}

func TestQuestionsUpdate(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"PUT /api/questions/1": cmdtest.Reply(200, question1)})
	r := cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true}, "questions", "update", "1", "--title", "Two Sum", "--contents", "")
	cmdtest.Ok(t, r)
	for _, want := range []string{"Title:     Two Sum\n", "\nDescription:\n    Find two numbers.\n", "\nInstructions:\n    Use any language.\n", "\nSolution:\n    hash map\n"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.Stdout)
		}
	}
	// An empty --contents is sent: it clears the contents.
	want := url.Values{"question[title]": {"Two Sum"}, "question[contents]": {""}}
	if diff := cmp.Diff(want, cmdtest.Form(t, s.Requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}
}

func TestQuestionsAgainstFake(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	r := cmdtest.Padctl(t, env, "questions", "create", "--title", "Two Sum", "--language", "python")
	cmdtest.Ok(t, r)
	id, _, _ := strings.Cut(r.Stdout, "\t")
	if id == "" {
		t.Fatalf("stdout %q", r.Stdout)
	}
	for _, args := range [][]string{{"questions", "list"}, {"org", "questions"}} {
		r = cmdtest.Padctl(t, env, args...)
		if r.Code != 0 || !strings.HasPrefix(r.Stdout, id+"\t") {
			t.Errorf("padctl %q: %+v", args, r)
		}
	}
	r = cmdtest.Padctl(t, env, "questions", "get", id)
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, id+"\t") || len(cmdtest.Lines(r.Stdout)) != 1 {
		t.Errorf("get: %+v", r)
	}
	r = cmdtest.Padctl(t, env, "questions", "delete", id, "--yes")
	if r.Code != 0 || r.Stdout != "" || r.Stderr != "deleted question "+id+"\n" {
		t.Errorf("delete: %+v", r)
	}
	if r = cmdtest.Padctl(t, env, "questions", "get", id); r.Code != cmdutil.ExitError || !strings.Contains(r.Stderr, "404") {
		t.Errorf("get after delete: %+v", r)
	}
	if reqs := srv.Requests(); reqs[len(reqs)-2].Method != http.MethodDelete {
		t.Errorf("delete sent %s", reqs[len(reqs)-2].Method)
	}
}
