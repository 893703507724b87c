package root_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
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
