package questions_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

// Issue 36: padctl questions variants list|get|create|update|delete, with
// --json as the service sent it, and completion of variant IDs.
func TestQuestionsVariantsCommands(t *testing.T) {
	srv, env := fake(t)
	q := srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python"})
	qid := string(q.ID)
	r := cmdtest.Padctl(t, env, "questions", "variants", "create", qid, "--language", "ruby", "--contents", "def f; end", "--json")
	var created padapi.QuestionVariant
	if err := json.Unmarshal([]byte(r.Stdout), &created); r.Code != 0 || err != nil || created.ID == "" || created.Contents == nil || *created.Contents != "def f; end" {
		t.Fatalf("create: exit %d, %v\n%s%s", r.Code, err, r.Stdout, r.Stderr)
	}
	vid := string(created.ID)
	r = cmdtest.Padctl(t, env, "questions", "variants", "list", qid)
	if r.Code != 0 || !strings.Contains(r.Stdout, vid) || !strings.Contains(r.Stdout, "ruby") {
		t.Errorf("list: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = cmdtest.Padctl(t, env, "questions", "variants", "list", qid, "--json")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"file_contents"`) || !strings.Contains(r.Stdout, `"ruby"`) {
		t.Errorf("list --json: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "variants", "update", qid, vid, "--default-contents"))
	if vs := srv.Variants(q.ID); len(vs) != 1 || vs[0].Contents != nil {
		t.Errorf("after --default-contents: %+v", vs)
	}
	r = cmdtest.Padctl(t, env, "questions", "variants", "get", qid, vid)
	if r.Code != 0 || !strings.Contains(r.Stdout, "ruby") {
		t.Errorf("get: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	r = cmdtest.Padctl(t, env, "__complete", "questions", "variants", "get", qid, "")
	if !strings.Contains(r.Stdout, vid+"\truby") {
		t.Errorf("completion of a variant ID:\n%s", r.Stdout)
	}
	if r := cmdtest.Padctl(t, env, "questions", "variants", "update", qid, vid); r.Code != 2 {
		t.Errorf("update without a flag: exit %d", r.Code)
	}
	if r := cmdtest.Padctl(t, env, "questions", "variants", "delete", qid, vid); r.Code != 2 || len(srv.Variants(q.ID)) != 1 {
		t.Errorf("delete without --yes, piped: exit %d", r.Code)
	}
	r = cmdtest.Padctl(t, env, "questions", "variants", "delete", qid, vid, "--yes")
	if r.Code != 0 || len(srv.Variants(q.ID)) != 0 {
		t.Errorf("delete: exit %d, %d variants left\n%s", r.Code, len(srv.Variants(q.ID)), r.Stderr)
	}
	if r := cmdtest.Padctl(t, env, "questions", "variants", "get", qid, vid); r.Code != 1 {
		t.Errorf("get of a deleted variant: exit %d", r.Code)
	}
}

// Issue 36 through padctl: pull --variants, diff shows nothing, an edited
// variant starter is shown as a unified diff and applied with one
// request, and a second apply changes nothing.
func TestQuestionsVariantsAsCode(t *testing.T) {
	srv, env := fake(t)
	q := srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python", Contents: "def f(): pass"})
	srv.AddVariant(q.ID, padapi.QuestionVariant{Language: "ruby", Contents: padapi.Ptr("def f; end")})
	dir := t.TempDir() + "/lib"
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "pull", "--variants", dir))
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "diff", dir))
	writeFiles(t, dir, map[string]string{"two-sum/variants/ruby/starter.rb": "def f; 1; end\n"})
	r := cmdtest.Padctl(t, env, "questions", "diff", dir)
	if r.Code != 1 || !strings.Contains(r.Stdout, "update  two-sum/variants/ruby/") || !strings.Contains(r.Stdout, "+def f; 1; end") {
		t.Errorf("diff of an edited variant: exit %d\n%s%s", r.Code, r.Stdout, r.Stderr)
	}
	n := len(srv.Requests())
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "apply", dir))
	writes := 0
	for _, req := range srv.Requests()[n:] {
		if req.Method != "GET" {
			writes++
		}
	}
	if writes != 1 {
		t.Errorf("the apply sent %d requests that change something, want 1", writes)
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "diff", dir))
}
