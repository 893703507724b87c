// columns_test.go: docs/padctl.md's table of piped columns against what each command prints (root.go's output rules).

package root_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

// docs/padctl.md's table of piped columns matches what each command prints
// piped: as many tab-separated cells in each row as the table names.
func TestReadmePipedColumns(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "..", "docs", "padctl.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "**Piped columns.**")
	if !ok {
		t.Fatal("docs/padctl.md has no **Piped columns.** table")
	}
	srv, env := cmdtest.Fake(t)
	srv.SetQuota(50, 12)
	srv.Seed(2)
	pad := srv.Pads()[0].ID
	ids := map[string]string{
		"PAD_ID":      string(pad),
		"ENV_ID":      string(srv.Environments(pad)[0].ID),
		"QUESTION_ID": string(srv.Questions()[0].ID),
		"DIR":         filepath.Join(t.TempDir(), "archive"),
	}
	rows := 0
	started := false
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| `") {
			if started {
				break
			}
			continue
		}
		started = true
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		want := len(strings.Split(cells[1], ", "))
		for _, cmd := range strings.Split(cells[0], ", ") {
			rows++
			args := strings.Fields(strings.Trim(cmd, "`"))
			for i, a := range args {
				if id, ok := ids[a]; ok {
					args[i] = id
				}
			}
			switch args[0] + " " + args[len(args)-1] {
			case "pads create", "questions create":
				args = append(args, "--title", "T", "--language", "python")
			case "pads " + ids["PAD_ID"], "questions " + ids["QUESTION_ID"]:
				if args[1] == "update" {
					args = append(args, "--title", "T")
				}
			}
			r := cmdtest.Padctl(t, env, args...)
			cmdtest.Ok(t, r)
			lines := cmdtest.Lines(r.Stdout)
			if len(lines) == 0 {
				t.Errorf("padctl %q printed nothing", args)
			}
			for _, l := range lines {
				if got := len(strings.Split(l, "\t")); got != want {
					t.Errorf("padctl %q: %d columns, docs/padctl.md names %d: %q", args, got, want, l)
				}
			}
		}
	}
	if rows < 15 {
		t.Errorf("checked %d commands", rows)
	}
}
