// completion_test.go: shell completion and every command's -h examples (root.go's command tree).

package root_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/root"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := cmdtest.Padctl(t, nil, "completion", shell)
		cmdtest.Ok(t, r)
		if !strings.Contains(r.Stdout, "padctl") || len(r.Stdout) < 1000 {
			t.Errorf("completion %s: %d bytes:\n%.300s", shell, len(r.Stdout), r.Stdout)
		}
		if shell != "bash" {
			continue
		}
		script := filepath.Join(t.TempDir(), "padctl.bash")
		if err := os.WriteFile(script, []byte(r.Stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("bash", "-n", script).CombinedOutput(); err != nil {
			t.Errorf("bash -n: %v\n%s", err, out)
		}
	}
	// What the scripts ask padctl for: the values --sort takes (the shell
	// picks those that match), and no file names (directive 4).
	r := cmdtest.Padctl(t, nil, "__complete", "pads", "list", "--sort", "")
	if r.Code != 0 || r.Stdout != strings.Join(cmdutil.SortNames, "\n")+"\n:4\n" {
		t.Errorf("completing --sort: %+v", r)
	}
}

// Every command's help has an Examples: section (cobra's Example), as gh's
// and kubectl's do.
func TestEveryCommandHasExamples(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var walk func(*cobra.Command)
	n := 0
	walked := map[string]bool{}
	walk = func(c *cobra.Command) {
		if !c.Hidden && c.Name() != "__complete" && c.Name() != "__completeNoDesc" {
			n++
			walked[c.CommandPath()] = true
			r := cmdtest.Padctl(t, nil, append(strings.Fields(c.CommandPath())[1:], "--help")...)
			_, ex, ok := strings.Cut(r.Stdout, "\nExamples:\n  ")
			if !ok || !strings.Contains(ex, "padctl ") {
				t.Errorf("%s --help has no Examples: section", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root.NewCmdRoot(f))
	if n < 25 {
		t.Errorf("walked %d commands", n)
	}
	for _, sync := range []string{"pull", "diff", "apply"} {
		if !walked["padctl questions "+sync] {
			t.Errorf("padctl questions %s was not walked", sync)
		}
	}
	r := cmdtest.Padctl(t, nil, "questions", "-h")
	for _, want := range []string{"questions pull DIR", "questions diff DIR", "questions apply DIR"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("questions -h does not mention %q:\n%s", want, r.Stdout)
		}
	}
}

// Completion offers the IDs of one page of the list, each with its title,
// and never file names; without a key it offers nothing, silently.
func TestCompletionIDs(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	p := srv.AddPad(padapi.Pad{Title: "Interview with Ada", PadEnvironmentIDs: []padapi.ID{"ENV9"}})
	q := srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "python"})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "get"}, string(p.ID) + "\tInterview with Ada\n"},
		{[]string{"pads", "update"}, string(p.ID) + "\tInterview with Ada\n"},
		{[]string{"pads", "delete"}, string(p.ID) + "\tInterview with Ada\n"},
		{[]string{"pads", "events"}, string(p.ID) + "\tInterview with Ada\n"},
		{[]string{"pads", "export"}, string(p.ID) + "\tInterview with Ada\n"},
		{[]string{"pads", "env"}, "ENV9\tof pad " + string(p.ID) + " Interview with Ada\n"},
		{[]string{"questions", "get"}, string(q.ID) + "\tTwo Sum\n"},
		{[]string{"questions", "update"}, string(q.ID) + "\tTwo Sum\n"},
		{[]string{"questions", "delete"}, string(q.ID) + "\tTwo Sum\n"},
	} {
		r := cmdtest.Padctl(t, env, append(append([]string{"__complete"}, tc.args...), "")...)
		// A required flag (export's --dir) is offered too.
		if r.Code != 0 || strings.TrimPrefix(r.Stdout, "--dir\twrite into `DIR`\n") != tc.want+":4\n" {
			t.Errorf("completing %q: %+v", tc.args, r)
		}
	}
	// A second argument, and no key: nothing, and no file names.
	for _, r := range []cmdtest.Result{
		cmdtest.Padctl(t, env, "__complete", "pads", "get", string(p.ID), ""),
		cmdtest.Padctl(t, nil, "__complete", "pads", "get", ""),
	} {
		if r.Code != 0 || r.Stdout != ":4\n" {
			t.Errorf("%+v", r)
		}
	}
}
