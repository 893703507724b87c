package main

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const question1 = `{"status":"OK","id":1,"title":"Two Sum","language":"python","author_name":"Ada","used":3,
	"description":"Find two numbers.","candidate_instructions":[{"instructions":"Use any language.","default_visible":true}],
	"contents":"def two_sum(): pass","solution":"hash map","created_at":"2026-05-01T09:00:00Z","updated_at":"2026-05-02T09:00:00Z"}`

// writeFiles writes name and contents pairs below dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, contents := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// form decodes a request's form-encoded body.
func form(t *testing.T, req stubRequest) url.Values {
	t.Helper()
	v, err := url.ParseQuery(string(req.body))
	if err != nil || req.contentType != "application/x-www-form-urlencoded" {
		t.Fatalf("body %q (%s): %v", req.body, req.contentType, err)
	}
	return v
}

func TestQuestionsCreate(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"POST /api/questions": reply(200, question1)})
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"src/main.py": "print(1)\n", "abs/util.py": "def util(): pass\n", "solution.py": "hash map"})
	t.Chdir(dir)

	r := padctl(t, s.env(), "questions", "create", "--title", "Two Sum", "--language", "python",
		"--description", "Find two numbers.", "--solution", "hash map", "--ai-prompt", "Be brief.",
		"--instructions", "Use any language.", "--instructions", "Ask questions.",
		"--file", "src/main.py", "--file", filepath.Join(dir, "abs", "util.py"))
	ok(t, r)
	if want := "1\tTwo Sum\tpython\tAda\t3\t2026-05-02T09:00:00Z\n"; r.stdout != want {
		t.Errorf("stdout %q, want %q", r.stdout, want)
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
	if diff := cmp.Diff(want, form(t, s.requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}

	r = padctl(t, s.env(), "questions", "create", "--title", "T", "--language", "go", "--contents-file", "solution.py")
	ok(t, r)
	if got := form(t, s.requests()[1]).Get("question[contents]"); got != "hash map" {
		t.Errorf("--contents-file sent %q", got)
	}
}

// --zip uploads the archive as a file part, as Rails takes an upload.
func TestQuestionsCreateZip(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"POST /api/questions": reply(200, question1)})
	zip := filepath.Join(t.TempDir(), "q.zip")
	writeFiles(t, filepath.Dir(zip), map[string]string{"q.zip": "PK\x03\x04 not really a zip"})
	ok(t, padctl(t, s.env(), "questions", "create", "--title", "T", "--language", "go", "--zip", zip))

	req := s.requests()[0]
	mediaType, params, err := mime.ParseMediaType(req.contentType)
	if err != nil || mediaType != "multipart/form-data" {
		t.Fatalf("content type %q: %v", req.contentType, err)
	}
	parts := map[string]string{}
	mr := multipart.NewReader(bytes.NewReader(req.body), params["boundary"])
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
	s := newStub(t, map[string]http.HandlerFunc{"PUT /api/questions/1": reply(200, question1)})
	r := invoke(t, opts{env: s.env(), tty: true}, "questions", "update", "1", "--title", "Two Sum", "--contents", "")
	ok(t, r)
	for _, want := range []string{"Title:     Two Sum\n", "\nDescription:\n    Find two numbers.\n", "\nInstructions:\n    Use any language.\n", "\nSolution:\n    hash map\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in:\n%s", want, r.stdout)
		}
	}
	// An empty --contents is sent: it clears the contents.
	want := url.Values{"question[title]": {"Two Sum"}, "question[contents]": {""}}
	if diff := cmp.Diff(want, form(t, s.requests()[0])); diff != "" {
		t.Errorf("form (-want +got):\n%s", diff)
	}
}

func TestQuestionsAgainstFake(t *testing.T) {
	srv, env := fake(t)
	r := padctl(t, env, "questions", "create", "--title", "Two Sum", "--language", "python")
	ok(t, r)
	id, _, _ := strings.Cut(r.stdout, "\t")
	if id == "" {
		t.Fatalf("stdout %q", r.stdout)
	}
	for _, args := range [][]string{{"questions", "list"}, {"org", "questions"}} {
		r = padctl(t, env, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, id+"\t") {
			t.Errorf("padctl %q: %+v", args, r)
		}
	}
	r = padctl(t, env, "questions", "get", id)
	if r.code != 0 || !strings.HasPrefix(r.stdout, id+"\t") || len(lines(r.stdout)) != 1 {
		t.Errorf("get: %+v", r)
	}
	r = padctl(t, env, "questions", "delete", id)
	if r.code != 0 || r.stdout != "" || r.stderr != "deleted question "+id+"\n" {
		t.Errorf("delete: %+v", r)
	}
	if r = padctl(t, env, "questions", "get", id); r.code != exitError || !strings.Contains(r.stderr, "404") {
		t.Errorf("get after delete: %+v", r)
	}
	if reqs := srv.Requests(); reqs[len(reqs)-2].Method != http.MethodDelete {
		t.Errorf("delete sent %s", reqs[len(reqs)-2].Method)
	}
}
