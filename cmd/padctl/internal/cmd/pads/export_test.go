package pads_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/internal/lib/redact"
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
		if d.Type()&fs.ModeNamedPipe != 0 {
			got[filepath.ToSlash(rel)] = "(fifo)" // never opened: that would block
			return nil
		}
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
	history := `{
			"e1":{"a":"ada","o":["print(1)\n"],"t":1777626600000},
			"e2":{"a":"ada","o":[9,"print(2)\n"],"t":1777629000000},
			"e3":{"a":"ada","o":[18,"# later\n"],"t":1777633200000}}`
	routes := map[string]http.HandlerFunc{
		"GET /api/pads/ABC":        cmdtest.Reply(200, padJSON("ABC", `[7]`)),
		"GET /api/pads/ABC/events": eventsPage("", eventJoined, eventRan, eventLeft),
		// The edit history of main.py: two edits during the interview,
		// one after it ended at 10:00.
		"GET /history/main": cmdtest.Reply(200, history),
	}
	s := cmdtest.NewStub(t, routes)
	routes["GET /api/pad_environments/7"] = cmdtest.Reply(200, envJSON("7",
		padapi.FileContent{Path: "main.py", Contents: "print(1)\nprint(2)\n# later\n", History: s.URL + "/history/main"},
		padapi.FileContent{Path: "src/util.py", Contents: "def util(): pass\n"},
	))
	dir := filepath.Join(t.TempDir(), "interview")

	r := cmdtest.Padctl(t, s.Env(), "pads", "export", "ABC", "--dir", dir, "--history")
	if r.Code != 0 || r.Stdout != "" || r.Stderr != "wrote 7 files to "+dir+"\n" {
		t.Fatalf("%+v", r)
	}
	got := tree(t, dir)
	// The layout of a pad folder of padctl archive: the history document
	// as the service sent it.
	want := map[string]string{
		"notes.md":               "Strong.\nWould hire.\n",
		"7/main.py":              "print(1)\nprint(2)\n# later\n",
		"7/src/util.py":          "def util(): pass\n",
		"history/7/main.py.json": history,
		"environments/7.json":    got["environments/7.json"],
		"pad.json":               got["pad.json"],
		"events.json":            got["events.json"],
	}
	if !strings.Contains(got["environments/7.json"], `"src/util.py"`) {
		t.Errorf("environments/7.json: %s", got["environments/7.json"])
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
	for _, req := range s.Requests() {
		if strings.HasPrefix(req.Path, "/history/") && req.Auth != "" {
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
		"GET /api/pads/EVIL":        cmdtest.Reply(200, padJSON("EVIL", `[8, "../../escape-env"]`)),
		"GET /api/pads/EVIL/events": eventsPage("", eventJoined),
		"GET /api/pad_environments/8": cmdtest.Reply(200, envJSON("8",
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
		"GET /api/pad_environments/../../escape-env": cmdtest.Reply(200, envJSON("../../escape-env", padapi.FileContent{Path: "x.txt", Contents: "x"})),
	}
	s := cmdtest.NewStub(t, routes)
	r := cmdtest.Padctl(t, s.Env(), "pads", "export", "EVIL", "--dir", dir, "--history")

	l := cmdtest.Lines(r.Stderr)
	if r.Code != cmdutil.ExitError || r.Stdout != "" || len(l) != 12 || l[11] != "padctl: export incomplete: 6 of 17 files written to "+dir {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{
		`8/../escape.txt: file "../escape.txt": not a path inside the folder`,
		`8/a/../../b.txt: file "a/../../b.txt": not a path inside the folder`,
		`8/: file "": not a path inside the folder`,
		`8/.: file ".": not a path inside the folder`,
		`8/sub/./ok.txt: file "sub/./ok.txt": not a path inside the folder`,
		"8/link/evil.txt: 8/link: a symbolic link",
		"8/sym.txt: a symbolic link",
		"8/inner/x.txt: 8/inner: a symbolic link",
		"notes.md: a symbolic link",
		"history/8/ok.txt.json: invalid argument: history link: need https",
	} {
		if !slices.ContainsFunc(l, func(line string) bool {
			return strings.HasPrefix(line, "padctl: skipped ") && strings.Contains(line, want)
		}) {
			t.Errorf("stderr has no skipped line with %q:\n%s", want, r.Stderr)
		}
	}
	got := tree(t, base)
	want := map[string]string{
		"outside/target.txt":   "original",
		"a/b/export/8/link":    "-> " + outside,
		"a/b/export/8/sym.txt": "-> " + target,
		"a/b/export/8/inner":   "-> " + filepath.Join(dir, "safe"),
		"a/b/export/notes.md":  "-> " + filepath.Join(outside, "notes.md"),
		"a/b/export/8/ok.txt":  "fine",
		// An ID with slashes is one folder, its name escaped.
		"a/b/export/%2e%2e%2f%2e%2e%2fescape-env/x.txt":             "x",
		"a/b/export/environments/%2e%2e%2f%2e%2e%2fescape-env.json": got["a/b/export/environments/%2e%2e%2f%2e%2e%2fescape-env.json"],
		"a/b/export/environments/8.json":                            got["a/b/export/environments/8.json"],
		"a/b/export/pad.json":                                       got["a/b/export/pad.json"],
		"a/b/export/events.json":                                    got["a/b/export/events.json"],
	}
	if !strings.Contains(got["a/b/export/environments/8.json"], `"ok.txt"`) {
		t.Errorf("environments/8.json: %q", got["a/b/export/environments/8.json"])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files below the test's directory (-want +got):\n%s", diff)
	}
	for _, req := range s.Requests() {
		if strings.Contains(req.Path, "not-https") {
			t.Errorf("the refused history link was requested")
		}
	}
}

// What is planted in DIR before an export cannot make it write elsewhere
// or cmdtest.Hang: a hard link to a file outside DIR is replaced, not written
// through; a FIFO is refused without being opened. And whatever IDs the
// environments' own bodies give ("." and its files pad.json, events.json
// and notes.md; "..", slashes, NUL, case, a long ID, "history", one ID
// twice), each environment gets a folder of its own, named by the ID the
// pad lists, apart from DIR's own files.
func TestPadsExportPlanted(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	dir := filepath.Join(base, "export")
	for _, d := range []string{outside, filepath.Join(dir, "901"), filepath.Join(dir, "902")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	planted := map[string]string{ // a link in DIR: the file outside it
		filepath.Join(dir, "events.json"):    filepath.Join(outside, "events.txt"),
		filepath.Join(dir, "901", "main.go"): filepath.Join(outside, "main.go"),
	}
	for link, target := range planted {
		if err := os.WriteFile(target, []byte("original"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(target, link); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "902", "fifo.txt")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}

	long := strings.Repeat("L", 300)
	bodies := []struct {
		id    string
		files []padapi.FileContent
	}{
		{"901", []padapi.FileContent{{Path: "main.go", Contents: "new main"}}},
		{"902", []padapi.FileContent{{Path: "fifo.txt", Contents: "x"}, {Path: "other.txt", Contents: "other"}}},
		{".", []padapi.FileContent{{Path: "pad.json", Contents: "evil pad"}, {Path: "events.json", Contents: "evil events"}, {Path: "notes.md", Contents: "evil notes"}}},
		{"..", []padapi.FileContent{{Path: "x", Contents: "dotdot"}}},
		{"A", []padapi.FileContent{{Path: "x", Contents: "upper"}, {Path: "Main.go", Contents: "first"}, {Path: "main.go", Contents: "second"}}},
		{"a", []padapi.FileContent{{Path: "x", Contents: "lower"}}},
		{"history", []padapi.FileContent{{Path: "901/main.go", Contents: "not history"}}},
		{"pad.json", []padapi.FileContent{{Path: "x", Contents: "named pad.json"}}},
		{long, []padapi.FileContent{{Path: "x", Contents: "long"}}},
		{"x\x00y/z", []padapi.FileContent{{Path: "x", Contents: "nul"}, {Path: "bad\x00name", Contents: "nul"}}},
		{"901", []padapi.FileContent{{Path: "main.go", Contents: "the same ID again"}}},
	}
	routes := map[string]http.HandlerFunc{"GET /api/pads/ABC/events": eventsPage("", eventJoined)}
	var ids []string
	for i, b := range bodies {
		id := strconv.Itoa(901 + i) // what the pad lists; the body says b.id
		ids = append(ids, id)
		routes["GET /api/pad_environments/"+id] = cmdtest.Reply(200, envJSON(b.id, b.files...))
	}
	listed, _ := json.Marshal(ids)
	routes["GET /api/pads/ABC"] = cmdtest.Reply(200, padJSON("ABC", string(listed)))
	s := cmdtest.NewStub(t, routes)

	done := make(chan cmdtest.Result, 1)
	go func() { done <- cmdtest.Padctl(t, s.Env(), "pads", "export", "ABC", "--dir", dir) }()
	var r cmdtest.Result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		// Opening the FIFO for reading lets a writer blocked on it go on.
		if fh, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer fh.Close()
		}
		r = <-done
		t.Fatalf("the export hung on the FIFO: %+v", r)
	}

	l := cmdtest.Lines(r.Stderr)
	if r.Code != cmdutil.ExitError || r.Stdout != "" || len(l) != 4 ||
		l[0] != "padctl: skipped 902/fifo.txt: a FIFO: not replacing it" ||
		l[1] != `padctl: skipped 905/main.go: file "main.go": another file of the pad has this name` ||
		l[2] != `padctl: skipped 910/bad\x00name: file "bad\x00name": not a path inside the folder` ||
		l[3] != "padctl: export incomplete: 28 of 31 files written to "+dir {
		t.Errorf("exit %d, stdout %q, stderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	got := tree(t, base)
	envs := 0
	for name := range got {
		if strings.HasPrefix(name, "export/environments/") {
			envs++
			delete(got, name)
		}
	}
	if envs != len(bodies) {
		t.Errorf("%d environments/*.json, want %d", envs, len(bodies))
	}
	// Each environment's folder is named by the ID the pad lists, which
	// asked for it, whatever ID its body gives.
	want := map[string]string{
		"outside/events.txt":     "original",
		"outside/main.go":        "original",
		"export/pad.json":        got["export/pad.json"],
		"export/events.json":     got["export/events.json"],
		"export/notes.md":        "Strong.\nWould hire.\n",
		"export/901/main.go":     "new main",
		"export/902/fifo.txt":    "(fifo)",
		"export/902/other.txt":   "other",
		"export/903/pad.json":    "evil pad",
		"export/903/events.json": "evil events",
		"export/903/notes.md":    "evil notes",
		"export/904/x":           "dotdot",
		"export/905/x":           "upper",
		"export/905/Main.go":     "first",
		"export/906/x":           "lower",
		"export/907/901/main.go": "not history",
		"export/908/x":           "named pad.json",
		"export/909/x":           "long",
		"export/910/x":           "nul",
		"export/911/main.go":     "the same ID again",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files below the test's directory (-want +got):\n%s", diff)
	}
	var pad padapi.Pad
	if err := json.Unmarshal([]byte(got["export/pad.json"]), &pad); err != nil || pad.ID != "ABC" {
		t.Errorf("pad.json: %v %+v", err, pad)
	}
	if !strings.HasPrefix(got["export/events.json"], "[") {
		t.Errorf("events.json: %q", got["export/events.json"])
	}
	// The planted links were replaced: the files written are new ones.
	for link := range planted {
		var st syscall.Stat_t
		if err := syscall.Stat(link, &st); err != nil || st.Nlink != 1 {
			t.Errorf("%s: %v, %d links, want a file of its own", link, err, st.Nlink)
		}
	}
}

// pad.json and events.json are what the service sent, not padapi's
// re-encoding: null stays null ("contents", "metadata"), fields padapi
// does not know stay (drawing, restrict_interviewer_access, status), and
// the events of every page come in one array, oldest first as asked.
func TestPadsExportAsSent(t *testing.T) {
	pad := `{"status":"OK","id":"ABC","title":"Two Sum","contents":null,"notes":null,"drawing":null,"future_field":{"a":[1]},
		"restrict_interviewer_access":false,"created_at":"2026-05-01T09:00:00Z","pad_environment_ids":[]}`
	ev1 := `{"kind":"joined","metadata":null,"future_field":[1,2],"created_at":"2026-05-01T09:00:00Z"}`
	ev2 := `{"kind":"disabled","metadata":"invisible","created_at":"2026-05-01T09:30:00Z"}`
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/ABC": cmdtest.Reply(200, pad),
		"GET /api/pads/ABC/events": func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("page") == "2" {
				cmdtest.Reply(200, `{"status":"OK","total":2,"events":[`+ev2+`]}`)(w, r)
				return
			}
			cmdtest.Reply(200, `{"status":"OK","total":2,"events":[`+ev1+`],"next_page":"http://`+r.Host+`/api/pads/ABC/events?page=2&sort=created_at,asc"}`)(w, r)
		},
	})
	dir := t.TempDir()
	cmdtest.Ok(t, func() cmdtest.Result {
		r := cmdtest.Padctl(t, s.Env(), "pads", "export", "ABC", "--dir", dir)
		r.Stderr = strings.TrimPrefix(r.Stderr, "wrote 3 files to "+dir+"\n")
		return r
	}())
	got := tree(t, dir)
	same := func(name, want string) {
		t.Helper()
		var a, b any
		if err := json.Unmarshal([]byte(got[name]), &a); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, got[name])
		}
		_ = json.Unmarshal([]byte(want), &b)
		if diff := cmp.Diff(b, a); diff != "" {
			t.Errorf("%s is not what the service sent (-sent +written):\n%s", name, diff)
		}
	}
	same("pad.json", pad)
	same("events.json", "["+ev1+","+ev2+"]")
	// Byte for byte: the pad's answer, and the events' bytes in one array.
	if got["pad.json"] != pad || got["events.json"] != "["+ev1+","+ev2+"]" {
		t.Errorf("not the service's bytes:\n%s\n%s", got["pad.json"], got["events.json"])
	}
	for _, req := range s.Requests() {
		if req.Path == "/api/pads/ABC/events" && url.Values(req.Query).Get("sort") != "created_at,asc" {
			t.Errorf("events asked in order %q, want oldest first", url.Values(req.Query).Get("sort"))
		}
	}
}

// The API key is never written into a file of the export, whatever file
// the service's text lands in and however it is encoded (issue 28 #13);
// stderr names each file it was taken out of.
func TestPadsExportRedactsTheKey(t *testing.T) {
	key := cmdtest.TestKey
	b64 := base64.StdEncoding.EncodeToString([]byte(key))
	var pct strings.Builder
	for _, c := range []byte(key) {
		fmt.Fprintf(&pct, "%%%02X", c)
	}
	forms := []string{key, b64, pct.String()}
	text := "raw " + key + " b64 " + b64 + " pct " + pct.String()
	pad := map[string]any{"status": "OK", "id": "ABC", "title": "Two Sum " + key, "language": "python", "notes": "Notes: " + text,
		"contents": text, "participants": []string{"Ada"}, "created_at": "2026-05-01T09:00:00Z", "updated_at": "2026-05-01T10:00:00Z",
		"pad_environment_ids": []int{7}}
	padBody, _ := json.Marshal(pad)
	event, _ := json.Marshal(map[string]any{"message": "Ada pasted " + b64, "kind": "pasted", "metadata": nil, "user_name": "Ada",
		"user_email": nil, "created_at": "2026-05-01T09:00:00Z"})
	history, _ := json.Marshal(map[string]any{"e1": map[string]any{"a": "ada", "o": []any{"k = '" + pct.String() + "'\n"}, "t": 1777626600000}})
	routes := map[string]http.HandlerFunc{
		"GET /api/pads/ABC":        cmdtest.Reply(200, string(padBody)),
		"GET /api/pads/ABC/events": eventsPage("", string(event)),
		"GET /history/main":        cmdtest.Reply(200, string(history)),
	}
	s := cmdtest.NewStub(t, routes)
	routes["GET /api/pad_environments/7"] = cmdtest.Reply(200, envJSON("7",
		padapi.FileContent{Path: "main.py", Contents: "key = '" + key + "'\n", History: s.URL + "/history/main"},
		padapi.FileContent{Path: "clean.py", Contents: "print(1)\n"},
	))
	dir := filepath.Join(t.TempDir(), "interview")

	r := cmdtest.Padctl(t, s.Env(), "pads", "export", "ABC", "--dir", dir, "--history")
	if r.Code != 0 {
		t.Fatalf("%+v", r)
	}
	got := tree(t, dir)
	if len(got) != 7 {
		t.Errorf("wrote %d files, want 7: %v", len(got), slices.Sorted(maps.Keys(got)))
	}
	for name, body := range got {
		for _, form := range forms {
			for i := 0; i+8 <= len(form); i++ {
				if strings.Contains(body, form[i:i+8]) {
					t.Errorf("%s holds %q of the key's form %q:\n%s", name, form[i:i+8], form, body)
					break
				}
			}
		}
	}
	for _, name := range []string{"pad.json", "events.json", "notes.md", "environments/7.json", "7/main.py", "history/7/main.py.json"} {
		if !strings.Contains(r.Stderr, "note: "+name+": the API key was taken out") {
			t.Errorf("stderr does not name %s:\n%s", name, r.Stderr)
		}
	}
	if strings.Contains(r.Stderr, "clean.py") {
		t.Errorf("stderr names a file that held no key:\n%s", r.Stderr)
	}
	if !strings.Contains(got["7/clean.py"], "print(1)") || !strings.Contains(got["notes.md"], "Notes: raw ") {
		t.Errorf("the rest of the text was not kept: %q, %q", got["7/clean.py"], got["notes.md"])
	}
	var p padapi.Pad
	if err := json.Unmarshal([]byte(got["pad.json"]), &p); err != nil || p.ID != "ABC" {
		t.Errorf("pad.json is no longer the pad: %v %+v", err, p)
	}
}

// Issue 28 #13: a key in an environment's ID or a file's path, as is or
// in an encoding the redactor knows, names no file or folder of the
// export: each such file is skipped and named on stderr with the key
// masked, the rest is written, and the export exits 1.
func TestPadsExportNoKeyInANameHostile(t *testing.T) {
	key := cmdtest.TestKey
	r := redact.New(key)
	hexKey := hex.EncodeToString([]byte(key))
	var pctKey strings.Builder
	for _, c := range []byte(key) {
		fmt.Fprintf(&pctKey, "%%%02X", c)
	}
	envIDs := []string{key, strings.ToUpper(key), hexKey, "7"}
	ids, _ := json.Marshal(envIDs)
	routes := map[string]http.HandlerFunc{
		"GET /api/pads/ABC":        cmdtest.Reply(200, padJSON("ABC", string(ids))),
		"GET /api/pads/ABC/events": eventsPage(""),
		"GET /api/pad_environments/7": cmdtest.Reply(200, envJSON("7",
			padapi.FileContent{Path: "src/" + key + ".py", Contents: "x"},
			padapi.FileContent{Path: strings.ToUpper(hexKey) + ".txt", Contents: "x"},
			padapi.FileContent{Path: strings.ToLower(key) + "/a.py", Contents: "x"},
			padapi.FileContent{Path: pctKey.String(), Contents: "x"},
			padapi.FileContent{Path: base64.RawURLEncoding.EncodeToString([]byte(key)), Contents: "x"},
			padapi.FileContent{Path: "clean.py", Contents: "print(1)\n"},
		)),
	}
	for _, id := range envIDs[:3] {
		routes["GET /api/pad_environments/"+id] = cmdtest.Reply(200, envJSON(id, padapi.FileContent{Path: "main.py", Contents: "x"}))
	}
	s := cmdtest.NewStub(t, routes)
	dir := filepath.Join(t.TempDir(), "interview")

	res := cmdtest.Padctl(t, s.Env(), "pads", "export", "ABC", "--dir", dir)
	got := tree(t, dir)
	for name := range got {
		unescaped, _ := url.PathUnescape(filepath.ToSlash(name))
		if r.Contains(name) || r.Contains(unescaped) {
			t.Errorf("a file named with the key: %s", name)
		}
	}
	if res.Code != cmdutil.ExitError || r.Contains(res.Stderr) {
		t.Errorf("exit %d, stderr:\n%s", res.Code, res.Stderr)
	}
	if n := strings.Count(res.Stderr, "the name would hold the API key"); n != 11 || !strings.Contains(res.Stderr, "padctl: skipped 7/src/[REDACTED]") {
		t.Errorf("%d files named as skipped for the key in their names, want 11 (3 environments, each its folder and its environments/ENV.json, and 5 paths); stderr:\n%s", n, res.Stderr)
	}
	if got["7/clean.py"] != "print(1)\n" || got["pad.json"] == "" {
		t.Errorf("the rest was not written: %v", slices.Sorted(maps.Keys(got)))
	}
}

// DIR is an argument, as for archive and questions pull; --dir DIR still
// works, and the same folder given both ways too. Two folders, or none,
// are a usage error.
func TestPadsExportTakesDIRAsAnArgument(t *testing.T) {
	routes := map[string]http.HandlerFunc{
		"GET /api/pads/ABC":           cmdtest.Reply(200, padJSON("ABC", `[7]`)),
		"GET /api/pads/ABC/events":    eventsPage("", eventJoined),
		"GET /api/pad_environments/7": cmdtest.Reply(200, envJSON("7", padapi.FileContent{Path: "main.py", Contents: "print(1)\n"})),
	}
	s := cmdtest.NewStub(t, routes)
	var trees []map[string]string
	for _, args := range [][]string{{"ABC", "%s"}, {"ABC", "--dir", "%s"}, {"ABC", "%s", "--dir", "%s"}} {
		dir := filepath.Join(t.TempDir(), "interview")
		full := []string{"pads", "export"}
		for _, a := range args {
			full = append(full, strings.ReplaceAll(a, "%s", dir))
		}
		r := cmdtest.Padctl(t, s.Env(), full...)
		if r.Code != 0 || r.Stderr != "wrote 5 files to "+dir+"\n" {
			t.Fatalf("padctl %q: %+v", full, r)
		}
		trees = append(trees, tree(t, dir))
	}
	for _, got := range trees[1:] {
		if diff := cmp.Diff(trees[0], got); diff != "" {
			t.Errorf("DIR as an argument and as --dir (-arg +flag):\n%s", diff)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "export", "ABC", "a", "--dir", "b"}, "give DIR once"},
		{[]string{"pads", "export", "ABC"}, "needs a DIR"},
	} {
		cmdtest.CheckUsageError(t, c.args, cmdtest.Padctl(t, s.Env(), c.args...), c.want)
	}
}
