// readme_test.go: the README's code samples compile and run.

package padapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/padinterview/padapi/padapitest"
)

// readmeBlocks returns the ```go blocks of README.md.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```go\n(.*?)\n```\n").FindAllSubmatch(b, -1) {
		blocks = append(blocks, string(m[1]))
	}
	return blocks
}

// readmeImports are the packages the README's samples use; each is used
// once below as well, so that a sample that does not use it still compiles.
const readmeImports = `import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/examples/mocking"
	"github.com/padinterview/padapi/padapitest"
)

var (
	_ = context.Background
	_ = errors.New
	_ = fmt.Println
	_ = http.MethodGet
	_ = os.Getenv
	_ = filepath.Join
	_ = time.Second
	_ = httpmock.NewMockTransport
	_ = padapi.Ptr[int]
	_ = padapitest.NewServer
	_ = mocking.New
	_ testing.TB
)
`

// TestReadmeSamples compiles every Go sample of README.md and runs its main
// one, the func run of "Use", against the fake through each of its
// branches: a pad created, the quota spent by another process after the
// check, and a create whose outcome is unknown. Every branch must return;
// none may fall through to a nil pad.
func TestReadmeSamples(t *testing.T) {
	t.Parallel() // it waits on the go tool and on the sample
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to compile the README's samples: %v", err)
	}
	var funcs, tests bytes.Buffer
	n := 0
	for _, block := range readmeBlocks(t) {
		switch {
		case strings.HasPrefix(block, "func Test"):
			tests.WriteString(block + "\n\n")
		case strings.HasPrefix(block, "import ("):
			// A test file's sample: its imports are readmeImports'.
			_, rest, _ := strings.Cut(block, "\n)\n")
			tests.WriteString(rest + "\n\n")
		case strings.HasPrefix(block, "func "):
			funcs.WriteString(block + "\n\n")
		default:
			// Statements from a test: they get a test's usual names.
			n++
			fmt.Fprintf(&tests, "func TestSnippet%d(t *testing.T) {\n\tctx := t.Context()\n\tsrv := padapitest.NewServer(t)\n\t_, _ = ctx, srv\n%s\n}\n\n", n, block)
		}
	}
	if !strings.Contains(funcs.String(), "func run(ctx context.Context) error") {
		t.Fatal("README.md has no func run(ctx context.Context) error sample")
	}

	// The samples build as the package of testdata/readmesample, whose
	// files exist only in the test's temp dir: -overlay places them there.
	// The folder's import path stays the same from run to run, so a warm
	// build cache holds the compiled package, its vet result, and the
	// executable that go run links (without symbols or DWARF, which nothing
	// here reads) and caches: go run -exec cp copies it into the temp dir
	// rather than running it, so a warm run links nothing.
	dir := t.TempDir()
	main := "package main\n\n" + readmeImports + `
func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

` + funcs.String()
	// scheduler stands for the reader's own package in the test sample.
	test := "package main\n\n" + readmeImports + "\nvar scheduler = struct{ New func(*padapi.Client) *mocking.Scheduler }{mocking.New}\n\n" + tests.String()
	pkg, err := filepath.Abs(filepath.Join("testdata", "readmesample"))
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	for name, src := range map[string]string{"main.go": main, "main_test.go": test} {
		replace[filepath.Join(pkg, name)] = filepath.Join(dir, name)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	overlay, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	// The build and the vet run side by side: each waits on its own
	// processes, and the vet needs nothing the build makes.
	bin := filepath.Join(dir, "sample")
	build := []string{"build", "-overlay", overlayFile, "-ldflags=-s -w", "-o", bin, "./testdata/readmesample"}
	if cp, err := exec.LookPath("cp"); err == nil {
		build = []string{"run", "-overlay", overlayFile, "-ldflags=-s -w", "-exec", cp, "./testdata/readmesample", bin}
	}
	var goErrs [2]error
	var wg sync.WaitGroup
	for i, args := range [][]string{build, {"vet", "-overlay", overlayFile, "./testdata/readmesample"}} {
		wg.Go(func() {
			if out, err := exec.Command(goTool, args...).CombinedOutput(); err != nil {
				goErrs[i] = fmt.Errorf("go %s: %v\n%s", args[0], err, out)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(goErrs[:]...); err != nil {
		t.Fatalf("%v\nmain.go:\n%s\nmain_test.go:\n%s", err, main, test)
	}

	for _, tt := range []struct {
		name  string
		setup func(*padapitest.Server)
		ok    bool
		want  string // in stdout when ok, else in stderr
	}{
		{"created", func(*padapitest.Server) {}, true, "Backend interview"},
		{"spent after the check", func(s *padapitest.Server) {
			s.FailNext("POST /api/pads", 1, 429, `{"status":"ERROR","message":"Over quota"}`)
		}, false, "another process spent the last pad"},
		{"outcome unknown", func(s *padapitest.Server) { s.DropNext("POST /api/pads", 1) }, false, "the pad may exist"},
		{"no pads left", func(s *padapitest.Server) { s.SetQuota(10, 10) }, false, "no pads left this month"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := padapitest.NewServer(t)
			tt.setup(srv)
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(), "PAD_BASE_URL="+srv.URL, "PAD_API_KEY="+srv.APIKey)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if (err == nil) != tt.ok {
				t.Fatalf("exit error %v, want ok %v; stderr %q", err, tt.ok, stderr.String())
			}
			if strings.Contains(stderr.String(), "panic") {
				t.Fatalf("the sample panicked:\n%s", stderr.String())
			}
			out := stdout.String()
			if !tt.ok {
				out = stderr.String()
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("output %q, want it to hold %q", out, tt.want)
			}
		})
	}
}

// listedPackage is a line of `go list -deps -test ./...`.
type listedPackage struct {
	depOnly    bool   // not matched by ./..., only a dependency of a package that is
	dir        string // the package's folder
	module     string // the path of the module that holds it ("" for the standard library)
	mainModule bool   // whether that module is this one
}

// modulePackages runs `go list -deps -test ./...` once for the tests that
// read it (TestReadmeDependencies, TestReadmeArchitecture) and returns the
// go tool and the packages the build links, the test binaries' included:
// those matched by ./... and their dependencies.
func modulePackages(t *testing.T) (goTool string, pkgs []listedPackage) {
	t.Helper()
	goList.once.Do(func() {
		goList.tool, goList.err = exec.LookPath("go")
		if goList.err != nil {
			goList.err = fmt.Errorf("the go tool is needed to list the packages: %w", goList.err)
			return
		}
		const format = "{{.DepOnly}}\t{{.Dir}}\t{{with .Module}}{{.Path}}\t{{.Main}}{{end}}"
		out, err := exec.Command(goList.tool, "list", "-deps", "-test", "-f", format, "./...").Output()
		if err != nil {
			goList.err = fmt.Errorf("go list -deps -test ./...: %w", err)
			return
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 3 && len(f) != 4 {
				goList.err = fmt.Errorf("go list printed %q, want 3 or 4 fields", line)
				return
			}
			p := listedPackage{depOnly: f[0] == "true", dir: f[1]}
			if len(f) == 4 {
				p.module, p.mainModule = f[2], f[3] == "true"
			}
			goList.pkgs = append(goList.pkgs, p)
		}
	})
	if goList.err != nil {
		t.Fatal(goList.err)
	}
	return goList.tool, goList.pkgs
}

// goList holds what modulePackages found, listed once for the process.
var goList struct {
	once sync.Once
	tool string
	pkgs []listedPackage
	err  error
}

// TestReadmeDependencies checks README.md's dependency table against the
// module graph: every module a package of this module links, its tests
// included, has a row, and every row names a module the build lists
// (`go list -m all`; a row may name one linked only on another system,
// such as cobra's Windows-only mousetrap).
func TestReadmeDependencies(t *testing.T) {
	t.Parallel() // it waits on the go tool
	goTool, pkgs := modulePackages(t)
	linked := map[string]bool{}
	for _, p := range pkgs {
		if p.module != "" && !p.mainModule {
			linked[p.module] = true
		}
	}
	out, err := exec.Command(goTool, "list", "-m", "-f", "{{.Path}}", "all").Output()
	if err != nil {
		t.Fatalf("go list -m all: %v", err)
	}
	known := map[string]bool{}
	for _, line := range strings.Fields(string(out)) {
		known[line] = true
	}

	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Dependencies\n")
	if !ok {
		t.Fatal("README.md has no Dependencies section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(line[1:], "|")
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(first, -1) {
			rows[m[1]] = true
		}
	}
	for m := range linked {
		if !rows[m] {
			t.Errorf("README's dependency table has no row for %s, which the build links", m)
		}
	}
	for m := range rows {
		if !known[m] {
			t.Errorf("README's dependency table names %s, which is not in the build's module list", m)
		}
	}
}

// TestReadmeArchitecture checks that README.md's Architecture section names
// every package folder of the module, so the map matches the tree.
func TestReadmeArchitecture(t *testing.T) {
	t.Parallel() // it waits on the go tool
	_, pkgs := modulePackages(t)
	dirs := map[string]bool{}
	for _, p := range pkgs {
		if !p.depOnly {
			dirs[p.dir] = true // each folder once, not once a test variant
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Architecture\n")
	if !ok {
		t.Fatal("README.md has no Architecture section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	for dir := range dirs {
		rel, err := filepath.Rel(wd, dir)
		if err != nil || rel == "." || strings.HasPrefix(rel, "examples") {
			continue // the root is the section itself; examples/ is named whole
		}
		rel = filepath.ToSlash(rel)
		if group, ok := strings.CutPrefix(rel, "cmd/padctl/internal/cmd/"); ok {
			// The command groups are named as a list after their folder.
			if !strings.Contains(section, "`"+group+"`") {
				t.Errorf("README's Architecture section does not name padctl's command group %s", group)
			}
			continue
		}
		if !strings.Contains(section, "`"+rel+"/") {
			t.Errorf("README's Architecture section does not name %s/", rel)
		}
	}
}
