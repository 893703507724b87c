// readme_test.go: the documentation against the code: the README's and docs/'s samples compile
// and run, their tables, links, snippets and figures' tests match the tree, and the version is
// CHANGELOG's.

package padapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// docFiles are the documentation files the tests read: README.md first,
// then every Markdown file under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) == 0 {
		t.Fatal("no docs/*.md")
	}
	return append([]string{"README.md"}, docs...)
}

// readFile returns a file's text, failing the test when it cannot.
func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fencedBlocks returns the bodies of text's fenced code blocks of the given
// language ("go", "json", "sh").
func fencedBlocks(text, lang string) []string {
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)\n```"+regexp.QuoteMeta(lang)+"\n(.*?)\n```\n").FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// readmeBlocks returns the ```go blocks of README.md and docs/*.md.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	var blocks []string
	for _, name := range docFiles(t) {
		blocks = append(blocks, fencedBlocks(readFile(t, name), "go")...)
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

// TestReadmeSamples compiles every Go sample of README.md and docs/ and runs its main
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

// TestReadmeDependencies checks docs/dependencies.md's table against the
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

	section := readFile(t, filepath.Join("docs", "dependencies.md"))
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
			t.Errorf("docs/dependencies.md has no row for %s, which the build links", m)
		}
	}
	for m := range rows {
		if !known[m] {
			t.Errorf("docs/dependencies.md names %s, which is not in the build's module list", m)
		}
	}
}

// TestReadmeArchitecture checks that README.md's Architecture section names
// every package folder of the module, so the map matches the tree, and
// that the layers it describes hold: no package under internal/lib imports
// padapi, even through another package, and every package under
// internal/app does.
func TestReadmeArchitecture(t *testing.T) {
	t.Parallel() // it waits on the go tool
	goTool, pkgs := modulePackages(t)
	const root = "github.com/padinterview/padapi"
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}}{{range .Deps}} {{.}}{{end}}", "./internal/...").Output()
	if err != nil {
		t.Fatalf("go list ./internal/...: %v", err)
	}
	layers := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		importsRoot := slices.Contains(strings.Fields(deps), root)
		switch {
		case strings.HasPrefix(pkg, root+"/internal/lib/"):
			layers["lib"]++
			if importsRoot {
				t.Errorf("%s imports %s: a package under internal/lib never does", pkg, root)
			}
		case strings.HasPrefix(pkg, root+"/internal/app/"):
			layers["app"]++
			if !importsRoot {
				t.Errorf("%s does not import %s: a package under internal/app is built on it", pkg, root)
			}
		default:
			t.Errorf("%s is neither under internal/lib nor under internal/app", pkg)
		}
	}
	if layers["lib"] == 0 || layers["app"] == 0 {
		t.Errorf("go list ./internal/... found %v packages per layer", layers)
	}
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

// TestReadmeLength: the README stays a newcomer's page, at most 3 500 words
// (the evidence lives in docs/), and its first 60 lines are a quickstart:
// the clone, padctl and padfake installed, padfake started, three padctl
// commands, a test with the fake in two lines, and the two commands CI
// runs (.ci/run runs them as the README gives them).
func TestReadmeLength(t *testing.T) {
	readme := readFile(t, "README.md")
	if n := len(strings.Fields(readme)); n > 3500 {
		t.Errorf("README.md has %d words, want at most 3 500: move reference material to docs/", n)
	}
	lines := strings.Split(readme, "\n")
	first := strings.Join(lines[:min(60, len(lines))], "\n")
	for _, want := range []string{
		"## Quickstart",
		"git clone ",
		"go install ./cmd/padctl ./cmd/padfake",
		"\npadfake ",
		"padapitest.NewServer(t)",
		"srv.Client()",
		"\ngo run ./examples/quota ",
		"\ngo test ./... ",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("README.md's first 60 lines lack %q", want)
		}
	}
	if n := strings.Count(first, "\npadctl "); n < 3 {
		t.Errorf("README.md's first 60 lines run padctl %d times, want at least 3", n)
	}
}

// TestVersionIsTheChangelogs: padapi.Version, which padctl version prints
// and the MCP server gives as its serverInfo, is the release CHANGELOG.md
// names first.
func TestVersionIsTheChangelogs(t *testing.T) {
	m := regexp.MustCompile(`(?m)^## (\d+\.\d+\.\d+)\b`).FindStringSubmatch(readFile(t, "CHANGELOG.md"))
	if m == nil {
		t.Fatal("CHANGELOG.md has no \"## X.Y.Z\" release heading")
	}
	if m[1] != padapi.Version {
		t.Errorf("padapi.Version is %q, CHANGELOG.md's latest release is %q", padapi.Version, m[1])
	}
}

// trackedFiles lists the repository's files: git's tracked files, or,
// outside a git checkout, every file below the working directory but .git.
func trackedFiles(t *testing.T) []string {
	t.Helper()
	if out, err := exec.Command("git", "ls-files", "-z").Output(); err == nil && len(out) > 0 {
		return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	}
	var files []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case d.Type().IsRegular():
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestNoReferenceOutsideRepository: no file of the repository points a
// reader to a document the repository does not hold (the design notes and
// field reference the project was built from); the project's own notes are
// docs/api-notes.md and the other docs/ pages.
func TestNoReferenceOutsideRepository(t *testing.T) {
	// Spelled in pieces, so that this file does not name them itself.
	outside := regexp.MustCompile(`(?i)` + strings.Join([]string{
		`api-` + `reference`, `design\.` + `md`, `style\.` + `md`, `\.\./` + `shared`, `/work/` + `shared`,
	}, "|"))
	files := trackedFiles(t)
	checked := 0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // deleted in the work tree, not yet in the index
			}
			t.Fatal(err)
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d names %q, a file outside the repository: point to docs/ instead", name, i+1, m)
			}
		}
	}
	if checked < 100 {
		t.Errorf("read %d files, want the whole repository", checked)
	}
}

// keyReference is what an MCP client configuration may hold where the key
// goes: a reference the client resolves (VS Code's ${input:ID} and
// ${env:NAME}, Cursor's ${env:NAME}, Claude Code's ${NAME}), never the key.
var keyReference = regexp.MustCompile(`^\$\{(input:[\w.-]+|env:[A-Za-z_]\w*|[A-Za-z_]\w*)\}$`)

// TestDocsMCPSnippets: every MCP client configuration in the docs is JSON
// that a client can read, and holds no literal API key: PAD_API_KEY is a
// reference the client resolves (a VS Code input marked "password"), or is
// set from a file by the command itself; no other value looks like a key.
func TestDocsMCPSnippets(t *testing.T) {
	snippets := 0
	for _, name := range docFiles(t) {
		for _, block := range fencedBlocks(readFile(t, name), "json") {
			var cfg struct {
				Inputs []struct {
					Type        string `json:"type"`
					ID          string `json:"id"`
					Description string `json:"description"`
					Password    bool   `json:"password"`
				} `json:"inputs"`
				Servers    map[string]mcpServerConfig `json:"servers"`
				MCPServers map[string]mcpServerConfig `json:"mcpServers"`
			}
			if !strings.Contains(block, `"servers"`) && !strings.Contains(block, `"mcpServers"`) {
				continue // not a client configuration
			}
			snippets++
			dec := json.NewDecoder(strings.NewReader(block))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&cfg); err != nil {
				t.Errorf("%s: an MCP snippet is not the JSON a client reads: %v\n%s", name, err, block)
				continue
			}
			passwords := map[string]bool{}
			for _, in := range cfg.Inputs {
				passwords[in.ID] = in.Password
			}
			servers := cfg.Servers
			if servers == nil {
				servers = cfg.MCPServers
			}
			if len(servers) == 0 {
				t.Errorf("%s: an MCP snippet names no server:\n%s", name, block)
			}
			for server, s := range servers {
				key, inEnv := s.Env["PAD_API_KEY"]
				fromShell := slices.ContainsFunc(s.Args, func(a string) bool { return strings.Contains(a, "PAD_API_KEY=$(cat ") })
				switch {
				case inEnv && !keyReference.MatchString(key):
					t.Errorf("%s: server %s sets PAD_API_KEY to %q, not a reference the client resolves", name, server, key)
				case inEnv && strings.HasPrefix(key, "${input:"):
					id := strings.TrimSuffix(strings.TrimPrefix(key, "${input:"), "}")
					if pw, ok := passwords[id]; !ok || !pw {
						t.Errorf("%s: server %s reads the key from input %q, which is not an input with \"password\": true", name, server, id)
					}
				case !inEnv && !fromShell:
					t.Errorf("%s: server %s gets no API key", name, server)
				}
				for k, v := range s.Env {
					if k != "PAD_API_KEY" && !strings.HasPrefix(v, "https://") && !keyReference.MatchString(v) {
						t.Errorf("%s: server %s sets %s to %q: a literal that is neither a URL nor a reference", name, server, k, v)
					}
				}
				if !strings.HasPrefix(s.Command, "/") {
					t.Errorf("%s: server %s's command %q is not an absolute path: a desktop assistant has no shell PATH", name, server, s.Command)
				}
			}
		}
	}
	if snippets < 4 {
		t.Errorf("found %d MCP client snippets, want one for each client the docs name (4 or more)", snippets)
	}
}

// mcpServerConfig is one server of an MCP client's configuration.
type mcpServerConfig struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// TestDocsHTTPMockBodies: the answer bodies docs/testing.md gives for
// httpmock are what padapi reads: the quota decodes, and the pad create's
// body decodes into the pad it shows through Pads.Create, with no field the
// fake's own answer to a create lacks (padapitest answers in the live
// shape, field for field).
func TestDocsHTTPMockBodies(t *testing.T) {
	bodies := map[string]string{}
	for _, block := range fencedBlocks(readFile(t, filepath.Join("docs", "testing.md")), "go") {
		for _, m := range regexp.MustCompile("(?s)const (\\w+) = `([^`]*)`").FindAllStringSubmatch(block, -1) {
			bodies[m[1]] = m[2]
		}
	}
	quota, pad := bodies["quotaBody"], bodies["padCreated"]
	if quota == "" || pad == "" {
		t.Fatalf("docs/testing.md's httpmock sample has no quotaBody and padCreated constants: %v", slices.Collect(maps.Keys(bodies)))
	}

	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", "https://pad.example.test/api/quota", httpmock.NewStringResponder(200, quota))
	mt.RegisterResponder("POST", "https://pad.example.test/api/pads", httpmock.NewStringResponder(200, pad))
	c, err := padapi.NewClient("https://pad.example.test", "test-key", padapi.WithHTTPClient(&http.Client{Transport: mt}), padapi.WithRetry(0, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Quota.Get(t.Context())
	if err != nil || q.PadsUsed != 3 || !q.Unlimited {
		t.Errorf("the shown quota body: %+v, %v", q, err)
	}
	got, err := c.Pads.Create(t.Context(), &padapi.PadCreateParams{Title: padapi.Ptr("Backend interview"), Language: padapi.Ptr("go")})
	if err != nil {
		t.Fatalf("the shown pad create body: %v", err)
	}
	if got.ID != "DM32JWG2" || got.Title != "Backend interview" || got.State != "started" || got.URL == "" ||
		got.EventsURL == "" || len(got.PadEnvironmentIDs) != 1 || got.Team == nil {
		t.Errorf("the shown pad create body decodes to %+v", got)
	}

	srv := padapitest.NewServer(t)
	var resp padapi.Response
	if _, err := srv.Client().Pads.Create(padapi.WithResponse(t.Context(), &resp), &padapi.PadCreateParams{Language: padapi.Ptr("go")}); err != nil {
		t.Fatal(err)
	}
	var shown, fake map[string]any
	if err := json.Unmarshal([]byte(pad), &shown); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resp.Body, &fake); err != nil {
		t.Fatal(err)
	}
	for k := range shown {
		if _, ok := fake[k]; !ok {
			t.Errorf("the shown pad create body has %q, which padapitest's answer to a create lacks", k)
		}
	}
	for _, k := range []string{"status", "id", "title", "language", "url", "events", "state", "pad_environment_ids", "active_environment_id", "team"} {
		if _, ok := shown[k]; !ok {
			t.Errorf("the shown pad create body lacks %q", k)
		}
	}
}

// testFuncs returns the names of the repository's test, fuzz and benchmark
// functions.
func testFuncs(t *testing.T) map[string]bool {
	t.Helper()
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)\w*)\(`)
	names := map[string]bool{}
	for _, name := range trackedFiles(t) {
		if !strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(b, -1) {
			names[string(m[1])] = true
		}
	}
	return names
}

// testName finds the names of tests, fuzz targets and benchmarks in text.
var testName = regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Z0-9]\\w*)`")

// TestReliabilityPromisesNameTests: each promise of docs/reliability.md
// ends with the tests that prove it, and every test, fuzz target or
// benchmark named there, in docs/performance.md or as the evidence of a
// fact in docs/api-notes.md exists.
func TestReliabilityPromisesNameTests(t *testing.T) {
	funcs := testFuncs(t)
	rel := readFile(t, filepath.Join("docs", "reliability.md"))
	_, promises, ok := strings.Cut(rel, "\n## Promises\n")
	if !ok {
		t.Fatal("docs/reliability.md has no \"## Promises\" section")
	}
	// A promise is a "- **...**" item with its continuation lines.
	var items []string
	for _, line := range strings.Split(promises, "\n") {
		switch {
		case strings.HasPrefix(line, "- **"):
			items = append(items, line)
		case strings.HasPrefix(line, "  ") && len(items) > 0:
			items[len(items)-1] += " " + strings.TrimSpace(line)
		}
	}
	if len(items) < 40 {
		t.Errorf("docs/reliability.md lists %d promises, want the 40 or more it had", len(items))
	}
	for _, item := range items {
		_, proof, ok := strings.Cut(item, " — ")
		if !ok || !testName.MatchString(proof) {
			t.Errorf("a promise names no test after its dash: %.120s", item)
		}
	}
	for _, name := range []string{filepath.Join("docs", "reliability.md"), filepath.Join("docs", "performance.md"), filepath.Join("docs", "api-notes.md")} {
		for _, m := range testName.FindAllStringSubmatch(readFile(t, name), -1) {
			if !funcs[m[1]] {
				t.Errorf("%s names %s, which no _test.go file declares", name, m[1])
			}
		}
	}
}

// TestReadmeInstall runs README.md's "Install into your module" lines as
// written, in a new module beside a clone (a link to this repository),
// offline, and builds a package that imports padapi there.
func TestReadmeInstall(t *testing.T) {
	t.Parallel() // it waits on the go tool
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is needed to try the install route: %v", err)
	}
	_, section, ok := strings.Cut(readFile(t, "README.md"), "\n## Install into your module\n")
	if !ok {
		t.Fatal("README.md has no \"## Install into your module\" section")
	}
	blocks := fencedBlocks(section, "sh")
	if len(blocks) == 0 {
		t.Fatal("README.md's install section has no sh block")
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(wd, filepath.Join(dir, "padapi")); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dir, "yours")
	if err := os.Mkdir(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(goTool, args...)
		cmd.Dir = mod
		// Offline: the module cache already holds what this module needs.
		cmd.Env = append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	run("mod", "init", "example.com/yours")
	ran := 0
	for _, line := range strings.Split(blocks[0], "\n") {
		line, _, _ = strings.Cut(line, "#")
		args, ok := strings.CutPrefix(strings.TrimSpace(line), "go ")
		if !ok {
			continue
		}
		ran++
		run(strings.Fields(args)...)
	}
	if ran != 2 {
		t.Fatalf("ran %d go lines of README.md's install section, want 2:\n%s", ran, blocks[0])
	}
	// A library package, not a command: go build compiles it and links
	// nothing, which is what the import needs to show.
	src := "package yours\n\nimport \"github.com/padinterview/padapi\"\n\n// Version is padapi's.\nconst Version = padapi.Version\n"
	if err := os.WriteFile(filepath.Join(mod, "yours.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	run("build", ".")
}

// headingAnchors returns the anchors GitHub gives a Markdown file's
// headings: lower-case, punctuation dropped, spaces as hyphens.
func headingAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range heading {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		anchors[b.String()] = true
	}
	return anchors
}

// TestDocsLinks: every link from README.md and docs/ to a file of the
// repository reaches one, and every link to a heading names one there.
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	links := 0
	for _, name := range docFiles(t) {
		text := readFile(t, name)
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			path, anchor, _ := strings.Cut(target, "#")
			file := name
			if path != "" {
				file = filepath.Join(filepath.Dir(name), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s links to %s, which does not exist", name, target)
					continue
				}
			}
			if anchor != "" && !headingAnchors(readFile(t, file))[anchor] {
				t.Errorf("%s links to %s, whose file has no heading #%s", name, target, anchor)
			}
		}
	}
	if links < 20 {
		t.Errorf("checked %d links, want the docs' 20 or more", links)
	}
}

// TestDocsPointToExampleFiles: while the module is unpublished, pkg.go.dev
// shows nothing and go doc prints no examples, so the README links each
// example_test.go file of the repository and no page says pkg.go.dev shows
// them.
func TestDocsPointToExampleFiles(t *testing.T) {
	readme := readFile(t, "README.md")
	examples := 0
	for _, name := range trackedFiles(t) {
		if filepath.Base(name) != "example_test.go" {
			continue
		}
		examples++
		if !strings.Contains(readme, "]("+filepath.ToSlash(name)+")") {
			t.Errorf("README.md does not link %s", name)
		}
	}
	if examples < 3 {
		t.Errorf("found %d example_test.go files, want the 3 or more the repository has", examples)
	}
	for _, name := range docFiles(t) {
		if m := regexp.MustCompile(`(?i)pkg\.go\.dev (shows|lists|has)`).FindString(readFile(t, name)); m != "" {
			t.Errorf("%s says %q: the module is not published, so pkg.go.dev shows nothing yet", name, m)
		}
	}
}

// TestPadmcpDocWarnsAboutStdio: padmcp's package documentation, which
// shows mcp.StdioTransport, says what go-sdk's stdio transport does with a
// closed stdin and points to padctl mcp's relay, as docs/mcp.md does.
func TestPadmcpDocWarnsAboutStdio(t *testing.T) {
	fset := token.NewFileSet()
	var doc strings.Builder
	files, err := filepath.Glob(filepath.Join("padmcp", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc.WriteString(f.Doc.Text())
		}
	}
	for name, text := range map[string]string{"padmcp's package doc": doc.String(), "docs/mcp.md": readFile(t, filepath.Join("docs", "mcp.md"))} {
		for _, want := range []string{"StdioTransport", "stdin", "padctl mcp", "relay"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s does not mention %q: it must warn about go-sdk's stdio transport with a closed stdin and point to padctl mcp's relay", name, want)
			}
		}
	}
}
