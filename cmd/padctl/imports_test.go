// imports_test.go: the two rules of padctl's imports, read from go list: no command package imports another, and the binary links no testing.

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cmdPrefix is where padctl's command packages live, one group each.
const cmdPrefix = "github.com/padinterview/padapi/cmd/padctl/internal/cmd/"

// goList runs go list with args in this folder and returns its lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	tool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to list the packages: %v", err)
	}
	out, err := exec.Command(tool, append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list %q: %v", args, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// The binary links no testing package: padctl --fake starts padapitest's
// fake, which must not pull package testing into a program, and no
// test helper may slip into a command's code.
func TestBinaryLinksNoTesting(t *testing.T) {
	deps := goList(t, "-deps", ".")
	if len(deps) < 10 || !slices.Contains(deps, "github.com/spf13/cobra") {
		t.Fatalf("go list -deps . gave %d packages, without cobra: not padctl's", len(deps))
	}
	for _, p := range deps {
		if p == "testing" || strings.HasPrefix(p, "testing/") || strings.HasSuffix(p, "/cmdtest") {
			t.Errorf("padctl links %s", p)
		}
	}
}

// No command package imports another: what two groups share lives in
// cmdutil (cli/cli's rule), so each group can be read, and changed, alone.
func TestCommandPackagesImportNoOther(t *testing.T) {
	lines := goList(t, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, "./internal/cmd/...")
	groups := 0
	for _, line := range lines {
		f := strings.Fields(line)
		pkg, imports := f[0], f[1:]
		if !strings.HasPrefix(pkg, cmdPrefix) {
			t.Fatalf("go list printed %q", line)
		}
		groups++
		for _, imp := range imports {
			if strings.HasPrefix(imp, cmdPrefix) && pkg != cmdPrefix+"root" {
				t.Errorf("%s imports %s; move what they share into cmdutil", strings.TrimPrefix(pkg, cmdPrefix), strings.TrimPrefix(imp, cmdPrefix))
			}
		}
	}
	if groups < 7 {
		t.Errorf("listed %d command packages, want every group's (at least 7)", groups)
	}
}

// Issue 41 #1: the library decides which environments a pad has
// (Pad.EnvironmentIDs, one policy for a bad ID): no code outside the root
// package and the fake reads the raw PadEnvironmentIDs field.
func TestNoRawEnvironmentIDsOutsideTheLibrary(t *testing.T) {
	for _, line := range goList(t, "-f", `{{.ImportPath}} {{.Dir}} {{join .GoFiles " "}}`, "github.com/padinterview/padapi/...") {
		pkg, rest, _ := strings.Cut(line, " ")
		dir, files, _ := strings.Cut(rest, " ")
		if pkg == "github.com/padinterview/padapi" || pkg == "github.com/padinterview/padapi/padapitest" {
			continue // the library itself, and the fake that serves the field
		}
		for _, name := range strings.Fields(files) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(data), ".PadEnvironmentIDs") {
				t.Errorf("%s reads .PadEnvironmentIDs: use Pad.EnvironmentIDs()", filepath.Join(dir, name))
			}
		}
	}
}
