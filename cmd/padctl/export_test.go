package main

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// padJSON is a pad that ended at 10:00, with the given environments.
func padJSON(id, envIDs string) string {
	return `{"status":"OK","id":"` + id + `","title":"Two Sum","language":"python","notes":"Strong.\nWould hire.",
		"contents":"","participants":["Ada"],"events":"https://example.com/api/pads/ABC/events",
		"created_at":"2026-05-01T09:00:00Z","updated_at":"2026-05-01T10:00:00Z","ended_at":"2026-05-01T10:00:00Z",
		"pad_environment_ids":` + envIDs + `}`
}

// envJSON is the body of GET /api/pad_environments/ID for an environment
// of these files.
func envJSON(id string, files ...padapi.FileContent) string {
	b, _ := json.Marshal(map[string]any{"status": "OK", "id": id, "pad_id": "ABC", "language": "python", "file_contents": files,
		"created_at": "2026-05-01T09:00:00Z", "updated_at": "2026-05-01T10:00:00Z"})
	return string(b)
}

// tree lists the files and links below dir, each with its contents or
// link target.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			got[filepath.ToSlash(rel)] = "-> " + target
			return err
		}
		b, err := os.ReadFile(path)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestPadsExport(t *testing.T) {
	routes := map[string]http.HandlerFunc{
		"GET /api/pads/ABC":        reply(200, padJSON("ABC", `[7]`)),
		"GET /api/pads/ABC/events": eventsPage("", eventJoined, eventRan, eventLeft),
		// The edit history of main.py: two edits during the interview,
		// one after it ended at 10:00.
		"GET /history/main": reply(200, `{
			"e1":{"a":"ada","o":["print(1)\n"],"t":1777626600000},
			"e2":{"a":"ada","o":[9,"print(2)\n"],"t":1777629000000},
			"e3":{"a":"ada","o":[18,"# later\n"],"t":1777633200000}}`),
	}
	s := newStub(t, routes)
	routes["GET /api/pad_environments/7"] = reply(200, envJSON("7",
		padapi.FileContent{Path: "main.py", Contents: "print(1)\nprint(2)\n# later\n", History: s.URL + "/history/main"},
		padapi.FileContent{Path: "src/util.py", Contents: "def util(): pass\n"},
	))
	dir := filepath.Join(t.TempDir(), "interview")

	r := padctl(t, s.env(), "pads", "export", "ABC", "--dir", dir, "--history")
	if r.code != 0 || r.stdout != "" || r.stderr != "wrote 6 files to "+dir+"\n" {
		t.Fatalf("%+v", r)
	}
	got := tree(t, dir)
	want := map[string]string{
		"notes.md":          "Strong.\nWould hire.\n",
		"7/main.py":         "print(1)\nprint(2)\n# later\n",
		"7/src/util.py":     "def util(): pass\n",
		"history/7/main.py": "print(1)\nprint(2)\n", // as it was when the pad ended
		"pad.json":          got["pad.json"],
		"events.json":       got["events.json"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	var pad padapi.Pad
	if err := json.Unmarshal([]byte(got["pad.json"]), &pad); err != nil || pad.ID != "ABC" || pad.Title != "Two Sum" {
		t.Errorf("pad.json: %v %+v", err, pad)
	}
	var events []padapi.PadEvent
	if err := json.Unmarshal([]byte(got["events.json"]), &events); err != nil || len(events) != 3 || events[1].Metadata != "python" {
		t.Errorf("events.json: %v %+v", err, events)
	}
	for _, req := range s.requests() {
		if strings.HasPrefix(req.path, "/history/") && req.auth != "" {
			t.Errorf("the history link got the API key")
		}
	}
}

// Whatever paths and IDs the service sends, and whatever symbolic links
// are already in DIR, nothing is written outside DIR and no link is
// followed; the rest is written, and the export fails.
func TestPadsExportHostile(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	dir := filepath.Join(base, "a", "b", "export")
	for _, d := range []string{outside, filepath.Join(dir, "8"), filepath.Join(dir, "safe")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(outside, "target.txt")
	if err := os.WriteFile(target, []byte("original"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		filepath.Join(dir, "8", "link"):    outside,
		filepath.Join(dir, "8", "sym.txt"): target,
		filepath.Join(dir, "8", "inner"):   filepath.Join(dir, "safe"), // inside DIR, still not followed
		filepath.Join(dir, "notes.md"):     filepath.Join(outside, "notes.md"),
	}
	for link, to := range links {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}

	routes := map[string]http.HandlerFunc{
		"GET /api/pads/EVIL":        reply(200, padJSON("EVIL", `[8, "../../escape-env"]`)),
		"GET /api/pads/EVIL/events": eventsPage("", eventJoined),
		"GET /api/pad_environments/8": reply(200, envJSON("8",
			padapi.FileContent{Path: "../escape.txt", Contents: "x"},
			padapi.FileContent{Path: filepath.Join(outside, "abs.txt"), Contents: "x"},
			padapi.FileContent{Path: "a/../../b.txt", Contents: "x"},
			padapi.FileContent{Path: "link/evil.txt", Contents: "x"},
			padapi.FileContent{Path: "sym.txt", Contents: "x"},
			padapi.FileContent{Path: "inner/x.txt", Contents: "x"},
			padapi.FileContent{Path: "", Contents: "x"},
			padapi.FileContent{Path: ".", Contents: "x"},
			padapi.FileContent{Path: "ok.txt", Contents: "fine", History: "http://example.com/not-https"},
			padapi.FileContent{Path: "sub/./ok.txt", Contents: "fine too"},
		)),
		// The path as the server sees it, unescaped.
		"GET /api/pad_environments/../../escape-env": reply(200, envJSON("../../escape-env", padapi.FileContent{Path: "x.txt", Contents: "x"})),
	}
	s := newStub(t, routes)
	r := padctl(t, s.env(), "pads", "export", "EVIL", "--dir", dir, "--history")

	l := lines(r.stderr)
	if r.code != exitError || r.stdout != "" || len(l) != 12 || l[11] != "padctl: export incomplete: 4 of 15 files written to "+dir {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`environment 8, file "../escape.txt": not a path inside the directory`,
		`environment 8, file "a/../../b.txt": not a path inside the directory`,
		`environment 8, file "": not a path inside the directory`,
		`environment "../../escape-env": not a plain directory name`,
		"8/link: a symbolic link: not following it",
		"8/sym.txt: a symbolic link: not following it",
		"8/inner: a symbolic link: not following it",
		"notes.md: a symbolic link: not following it",
		"the history of 8/ok.txt: invalid argument: history link: need https",
	} {
		if !slices.ContainsFunc(l, func(line string) bool {
			return strings.HasPrefix(line, "padctl: skipped ") && strings.Contains(line, want)
		}) {
			t.Errorf("stderr has no skipped line with %q:\n%s", want, r.stderr)
		}
	}
	got := tree(t, base)
	want := map[string]string{
		"outside/target.txt":      "original",
		"a/b/export/8/link":       "-> " + outside,
		"a/b/export/8/sym.txt":    "-> " + target,
		"a/b/export/8/inner":      "-> " + filepath.Join(dir, "safe"),
		"a/b/export/notes.md":     "-> " + filepath.Join(outside, "notes.md"),
		"a/b/export/8/ok.txt":     "fine",
		"a/b/export/8/sub/ok.txt": "fine too",
		"a/b/export/pad.json":     got["a/b/export/pad.json"],
		"a/b/export/events.json":  got["a/b/export/events.json"],
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files below the test's directory (-want +got):\n%s", diff)
	}
	for _, req := range s.requests() {
		if strings.Contains(req.path, "not-https") {
			t.Errorf("the refused history link was requested")
		}
	}
}
