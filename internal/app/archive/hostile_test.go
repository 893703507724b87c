package archive

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/padinterview/padapi/internal/lib/safefile"
	"github.com/padinterview/padapi/padapitest"
)

// onlyArchive fails the test when the parent of the archive holds more
// than the archive and what the test put there.
func onlyArchive(t *testing.T, dir string, planted ...string) {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(dir))
	must(t, err)
	for _, e := range entries {
		if e.Name() != filepath.Base(dir) && !slices.Contains(planted, e.Name()) {
			t.Errorf("%s written beside the archive", e.Name())
		}
	}
}

func TestHostileIDsAndPathsStayInside(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 1)
	for _, id := range []padapi.ID{"CASE", "case", "pad.json"} {
		f.srv.AddPad(padapi.Pad{ID: id, Title: string(id), Language: "python", CreatedAt: base})
	}
	p := f.srv.AddPad(padapi.Pad{ID: "files", Language: "python", CreatedAt: base, PadEnvironmentIDs: []padapi.ID{"history", "environments", "Env.Dots"}})
	bad := []string{"../../escape.txt", "/abs.txt", `a\b.py`, "", "dir/../x.py", "x\x00y", "./dot.py", "OK.py"}
	files := []padapi.FileContent{{Path: "ok.py", Contents: "ok"}}
	for _, b := range bad {
		files = append(files, padapi.FileContent{Path: b, Contents: "bad"})
	}
	f.srv.AddEnvironment(p.ID, padapi.PadEnvironment{ID: "hostile", Files: files})
	var skipped []string
	sum := f.run(t, Options{Progress: func(ev Progress) {
		if ev.Kind == FileSkipped {
			skipped = append(skipped, ev.Path)
		}
	}})
	if sum.Added != 5 || sum.Failed != 0 {
		t.Errorf("summary %+v", sum)
	}
	if len(skipped) != len(bad) {
		t.Errorf("skipped %q, want the %d bad paths", skipped, len(bad))
	}
	onlyArchive(t, f.dir)
	got := tree(t, f.dir)
	// Of CASE and case, the one archived first keeps its ID, the other
	// has its letters escaped.
	caseDirs := []string{"pads/CASE/pad.json", "pads/%63%61%73%65/pad.json"}
	if _, ok := got[filepath.FromSlash(caseDirs[0])]; !ok {
		caseDirs = []string{"pads/%43%41%53%45/pad.json", "pads/case/pad.json"}
	}
	for _, want := range []string{
		caseDirs[0], caseDirs[1], "pads/pad%2ejson/pad.json",
		"pads/files/%68istory/main.py", "pads/files/%65nvironments/main.py", "pads/files/%45nv%2e%44ots/main.py",
		"pads/files/hostile/ok.py", "pads/files/history/hostile/ok.py.json",
	} {
		if _, ok := got[filepath.FromSlash(want)]; !ok {
			t.Errorf("no %s", want)
		}
	}
	for p := range got {
		if strings.Contains(p, "escape") || strings.Contains(p, "abs") || strings.Contains(p, "dot.py") {
			t.Errorf("%s written", p)
		}
	}
	verifyClean(t, f.dir)
}

func TestAPadIDTheLibraryRefusesFailsThatPadOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	f.srv.AddPad(padapi.Pad{ID: "..", Language: "python", CreatedAt: base})
	var failed []Progress
	most := 0
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	sum, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate, Progress: func(ev Progress) {
		if ev.Kind == PadFailed {
			failed = append(failed, ev)
		}
		most = max(most, ev.Done)
		if ev.Known != 3 {
			t.Errorf("event %+v: known %d, want 3", ev, ev.Known)
		}
	}})
	if err != nil || sum.Added != 2 || sum.Failed != 1 || len(failed) != 1 || failed[0].Pad != ".." {
		t.Fatalf("Run: %+v, %v, failed %v", sum, err, failed)
	}
	if most != 3 {
		t.Errorf("done counted up to %d, want 3 (2 pads and a failure)", most)
	}
	onlyArchive(t, f.dir)
	// A run with a failure leaves the mark: the next one lists again.
	sum, err = Run(ctx, f.c, f.dir, Options{Gate: f.gate})
	if err != nil || sum.Failed != 1 || sum.Unchanged != 2 {
		t.Errorf("the next run: %+v, %v", sum, err)
	}
}

func TestPlantedLinksAndFIFOsAreNotWrittenThrough(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	f.run(t, Options{})
	outside := filepath.Dir(f.dir)
	victim := filepath.Join(outside, "victim.txt")
	victimDir := filepath.Join(outside, "victimdir")
	must(t, os.WriteFile(victim, []byte("safe"), 0o644))
	must(t, os.MkdirAll(victimDir, 0o755))
	must(t, os.WriteFile(filepath.Join(victimDir, "pad.json"), []byte("safe"), 0o644))
	// A link in a pad's folder, a pad's folder that is a link, and the
	// index hard-linked to a file outside.
	p0, p1 := filepath.Join(f.dir, padDir(f.ids[0])), filepath.Join(f.dir, padDir(f.ids[1]))
	must(t, os.Remove(filepath.Join(p0, "notes.md")))
	must(t, os.Symlink(victim, filepath.Join(p0, "notes.md")))
	must(t, os.RemoveAll(p1))
	must(t, os.Symlink(victimDir, p1))
	hard := filepath.Join(outside, "hard.txt")
	must(t, os.Link(filepath.Join(f.dir, indexName), hard))
	before, err := os.ReadFile(hard)
	must(t, err)
	for _, id := range f.ids[:2] {
		_, err := f.c.Pads.Update(deadline(t), id, &padapi.PadUpdateParams{Notes: padapi.Ptr("new notes")})
		must(t, err)
	}
	f.run(t, Options{})
	for name, want := range map[string]string{victim: "safe", filepath.Join(victimDir, "pad.json"): "safe", hard: string(before)} {
		if got, err := os.ReadFile(name); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v: written through", name, got, err)
		}
	}
	if got, err := os.ReadFile(filepath.Join(p0, "notes.md")); err != nil || string(got) != "new notes\n" {
		t.Errorf("notes.md: %q, %v", got, err)
	}
	if fi, err := os.Lstat(p1); err != nil || !fi.IsDir() {
		t.Errorf("the linked pad folder: %v, %v", fi, err)
	}
	verifyClean(t, f.dir)
	onlyArchive(t, f.dir, "victim.txt", "victimdir", "hard.txt")
}

func TestAFIFOOrALinkedPadsFolderStopsTheRun(t *testing.T) {
	t.Parallel()
	for _, plant := range []func(t *testing.T, dir string){
		func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, indexName)))
			must(t, syscall.Mkfifo(filepath.Join(dir, indexName), 0o644))
		},
		func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, padsDir), filepath.Join(dir, "..", "moved")))
			must(t, os.Symlink(filepath.Join(dir, "..", "moved"), filepath.Join(dir, padsDir)))
		},
		func(t *testing.T, dir string) {
			must(t, os.Remove(filepath.Join(dir, markerName)))
			must(t, syscall.Mkfifo(filepath.Join(dir, markerName), 0o644))
		},
	} {
		f := newFixture(t, 2)
		f.run(t, Options{})
		plant(t, f.dir)
		ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
		_, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate})
		late := ctx.Err()
		cancel()
		if err == nil || late != nil {
			t.Errorf("Run: %v, want a refusal before the deadline", err)
		}
		if _, err := Verify(f.dir); err == nil {
			t.Errorf("Verify: no error")
		}
	}
}

func TestTheKeyIsInNoFile(t *testing.T) {
	t.Parallel()
	const key = "sk_live_0123456789abcdef"
	b64 := base64.StdEncoding.EncodeToString([]byte(key))
	hexed := hex.EncodeToString([]byte(key))
	f := newFixture(t, 0, padapitest.WithAPIKey(key))
	p := f.srv.AddPad(padapi.Pad{Title: "t " + key, Notes: "n " + b64 + " " + url.QueryEscape(key) + " " + strings.ToUpper(hexed), Contents: key, Language: "python", CreatedAt: base,
		Events: []padapi.PadEvent{{Kind: "x", Message: key, CreatedAt: base}}})
	f.srv.AddEnvironment(p.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "k.py", Contents: "KEY = '" + key + "'"}}})
	// A pad with no key in it: the redactor changes none of its texts.
	clean := f.srv.AddPad(padapi.Pad{Title: "clean", Notes: "nothing secret", Language: "python", CreatedAt: base})
	var redacted []string
	f.run(t, Options{
		Redact: redact.New(key).String,
		Progress: func(ev Progress) {
			if ev.Kind == Redacted {
				redacted = append(redacted, ev.Path)
			}
		},
	})
	for p, content := range tree(t, filepath.Dir(f.dir)) {
		for _, form := range []string{key, b64, hexed, url.QueryEscape(key)} {
			if strings.Contains(strings.ToLower(content), strings.ToLower(form)) {
				t.Errorf("%s holds the key (%s)", p, form)
			}
		}
	}
	if len(redacted) < 5 {
		t.Errorf("redactions reported: %q", redacted)
	}
	for _, p := range redacted {
		if strings.HasPrefix(p, padDir(clean.ID)+"/") {
			t.Errorf("%s reported redacted: it holds no key", p)
		}
	}
	verifyClean(t, f.dir)
}

// tooMany answers 429 with Retry-After: 0 to one request in ten before
// they reach the fake.
type tooMany struct {
	base http.RoundTripper
	n    atomic.Int64
}

func (tm *tooMany) RoundTrip(r *http.Request) (*http.Response, error) {
	if tm.n.Add(1)%10 == 0 {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Request: r,
			Header: http.Header{"Retry-After": {"0"}, "Content-Type": {"application/json"}},
			Body:   http.NoBody}, nil
	}
	return tm.base.RoundTrip(r)
}

func TestRateLimitedRunCompletes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 30)
	f.gate = NewGate(&tooMany{base: http.DefaultTransport})
	f.c = f.srv.Client(padapi.WithHTTPClient(&http.Client{Transport: f.gate}))
	paused := 0
	sum := f.run(t, Options{Progress: func(ev Progress) {
		if ev.Kind == Paused {
			paused++
		}
	}})
	if sum.Added != 30 || sum.Failed != 0 || paused == 0 {
		t.Errorf("summary %+v, %d pauses", sum, paused)
	}
	verifyClean(t, f.dir)
}

func TestErrorsAreReported(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	f.srv.FailNext("GET /api/organization/pads", 1, http.StatusForbidden, "")
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	if _, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate}); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("Run: %v", err)
	}
	f.srv.FailNext("GET /api/pad_environments/{id}", 50, http.StatusInternalServerError, "")
	sum, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate})
	if err != nil || sum.Failed != 2 {
		t.Errorf("Run: %+v, %v", sum, err)
	}
	if got := strconv.Itoa(len(indexLines(t, f.dir))); got != "0" {
		t.Errorf("%s index lines after failures", got)
	}
}

// Issue 28 #13: a key in a pad's ID, an environment's ID or a file's path
// names no file or folder, in any encoding the redactor knows: the pad
// whose folder would hold it fails, the file is skipped, each named with
// the key masked, and the rest is archived.
func TestTheKeyNamesNoFile(t *testing.T) {
	t.Parallel()
	const key = "sk_live_0123456789abcdef"
	r := redact.New(key)
	f := newFixture(t, 0, padapitest.WithAPIKey(key))
	keyPad := f.srv.AddPad(padapi.Pad{ID: padapi.ID(key), Title: "t", Language: "python", CreatedAt: base})
	f.srv.AddEnvironment(keyPad.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "k.py", Contents: "x"}}})
	p := f.srv.AddPad(padapi.Pad{Title: "t", Language: "python", CreatedAt: base})
	f.srv.AddEnvironment(p.ID, padapi.PadEnvironment{Files: []padapi.FileContent{
		{Path: "src/" + key + ".py", Contents: "x"}, {Path: strings.ToUpper(hex.EncodeToString([]byte(key))), Contents: "x"},
		{Path: url.PathEscape(strings.ToUpper(key)) + "/a.py", Contents: "x"}, {Path: "clean.py", Contents: "print(1)"},
	}})
	upper := f.srv.AddPad(padapi.Pad{Title: "t", Language: "python", CreatedAt: base})
	f.srv.AddEnvironment(upper.ID, padapi.PadEnvironment{ID: padapi.ID(strings.ToUpper(key)), Files: []padapi.FileContent{{Path: "a.py", Contents: "x"}}})
	var events []Progress
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	sum, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate, Redact: r.String, Progress: func(ev Progress) { events = append(events, ev) }})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	for name := range tree(t, f.dir) {
		unescaped, _ := url.PathUnescape(name)
		if r.Contains(name) || r.Contains(unescaped) {
			t.Errorf("a file or folder named with the key: %s", name)
		}
	}
	if sum.Failed != 2 || sum.Added != 1 {
		t.Errorf("summary %+v, want the pads named by or holding an environment named by the key failed, and the other added", sum)
	}
	skipped := 0
	for _, ev := range events {
		if ev.Err != nil && (r.Contains(ev.Err.Error()) || r.Contains(ev.Path)) {
			t.Errorf("an event shows the key: %+v", ev)
		}
		if ev.Err != nil && errors.Is(ev.Err, safefile.ErrSecretName) && ev.Kind == FileSkipped {
			skipped++
		}
	}
	if skipped != 3 {
		t.Errorf("%d files skipped for the key in their names, want 3; events %+v", skipped, events)
	}
	if got := tree(t, f.dir)[path.Join(padDir(p.ID), envsDir)]; got != "<dir>" {
		t.Errorf("the pad's other files were not archived")
	}
}

// Issue 37 #3: a pad whose ID is a long prefix and then the key: its folder
// name is cut and hashed, so the name check alone passes it, and the raw ID
// went into index.jsonl. No file of the archive may hold the key: the pad
// fails, named with the key masked, and the rest is archived.
func TestTheKeyInALongIDIsInNoFile(t *testing.T) {
	t.Parallel()
	const key = "sk_live_0123456789abcdef"
	r := redact.New(key)
	f := newFixture(t, 1, padapitest.WithAPIKey(key))
	long := f.srv.AddPad(padapi.Pad{ID: padapi.ID(strings.Repeat("a", 50) + key), Title: "t", Language: "python", CreatedAt: base})
	f.srv.AddEnvironment(long.ID, padapi.PadEnvironment{Files: []padapi.FileContent{{Path: "k.py", Contents: "x"}}})
	var events []Progress
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	sum, err := Run(ctx, f.c, f.dir, Options{Gate: f.gate, Redact: r.String, Progress: func(ev Progress) { events = append(events, ev) }})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if sum.Failed != 1 || sum.Added != 1 {
		t.Errorf("summary %+v, want the pad whose ID holds the key failed and the other added", sum)
	}
	for name, content := range tree(t, f.dir) {
		if r.Contains(name) || r.Contains(content) {
			t.Errorf("%s holds the key", name)
		}
	}
	for _, ev := range events {
		if ev.Err != nil && r.Contains(ev.Err.Error()) || r.Contains(string(ev.Pad)) {
			t.Errorf("an event shows the key: %+v", ev)
		}
	}
}

// Issue 37 #13: a name the archive chose itself (its marker, its lock, its
// index, a pad folder's own files) is never refused by the name check,
// even when 8 characters of the key, in slug form, match it: with a key
// holding "-archive", "history" and "environments", a run archives every
// pad and writes its marker.
func TestTheArchivesOwnNamesAreNeverRefused(t *testing.T) {
	t.Parallel()
	const key = "sk-archive-history-environments-notes-pads-index"
	f := newFixture(t, 3, padapitest.WithAPIKey(key))
	sum := f.run(t, Options{Redact: redact.New(key).String})
	if sum.Added != 3 || sum.Failed != 0 {
		t.Errorf("summary %+v, want every pad archived", sum)
	}
	for _, name := range []string{markerName, indexName} {
		if _, err := os.Stat(filepath.Join(f.dir, name)); err != nil {
			t.Errorf("no %s: %v", name, err)
		}
	}
	// The next run opens the archive it wrote.
	if sum := f.run(t, Options{Redact: redact.New(key).String}); sum.Failed != 0 || sum.Unchanged != 3 {
		t.Errorf("the next run: %+v", sum)
	}
}
