package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// Mutation testing (issue 29), with gremlins v0.6.0 from the module root,
// as make mutate runs it:
//
//	GOFLAGS='-short -count=1' gremlins unleash --timeout-coefficient 10 -E lock_other ./internal/app/archive
//
// lock_other.go is not built on Linux. Under -short the SIGKILL test is
// skipped and the crash-at-a-write test tries fewer points.
//
// Equivalent mutants, and why:
//   - run.go collect, time.Since(last) >= r.flushEvery to >: the two
//     differ only when the clock reads exactly flushEvery after the last
//     write; the index is then written at the next pad, or at the end.
//   - run.go run, the results channel's capacity 2*Concurrency to
//     2/Concurrency or 2+Concurrency, and store.go encodeIndex, the size
//     hint len(line)+1 to -1: a capacity, which changes when a worker
//     waits or a buffer grows, not what is written.
//   - verify.go, the two string concatenations (p+": ", e.Dir+"/") to -:
//     they do not compile (NOT VIABLE).
//   - Mutants that make a run wait for ever (no workers, a Gate wait that
//     never ends) fail at the tests' own deadlines, or are TIMED OUT.
//
// NOT COVERED whatever the tests do, as gremlins maps mutants to the
// coverage profile's statement blocks: the conditions of switch cases
// (normalize's concurrency bounds, claim's path check, verifyPad's read
// errors), which TestOptionsAreChecked, TestHostileIDsAndPathsStayInside
// and TestVerifyFindsWhatDiffers run and check; and the arithmetic of the
// constants DefaultOverlap, maxPause and flushEvery (the last checked by
// TestANewRunKnowsWhatTheArchiveHeld).

// base is when the seeded pads were made, an hour apart.
var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// seed adds n pads, each with two environments (the pad's own, one file;
// and one with two files) and a few events, changed an hour apart.
func seed(srv *padapitest.Server, n int) []padapi.ID {
	ids := make([]padapi.ID, n)
	for i := range n {
		at := base.Add(time.Duration(i) * time.Hour)
		p := srv.AddPad(padapi.Pad{
			Title: fmt.Sprintf("Interview %d", i), Language: "python", Contents: fmt.Sprintf("print(%d)\n", i),
			Notes: fmt.Sprintf("Candidate %d did well.", i), CreatedAt: at, UpdatedAt: at,
			Events: []padapi.PadEvent{{Kind: "created", Message: "created", CreatedAt: at}, {Kind: "joined", Message: "joined", CreatedAt: at.Add(time.Minute)}},
		})
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{
			Language: "python", CreatedAt: at, UpdatedAt: at,
			Files: []padapi.FileContent{{Path: "main.py", Contents: "def main(): pass\n"}, {Path: "lib/util.py", Contents: fmt.Sprintf("N = %d\n", i)}},
		})
		ids[i] = p.ID
	}
	return ids
}

// fixture is a fake service, a client that sends through a Gate, and an
// archive folder.
type fixture struct {
	srv  *padapitest.Server
	c    *padapi.Client
	gate *Gate
	dir  string
	ids  []padapi.ID
}

// fixturePage is how many items a page of the fixture's lists holds (the
// service's 50): a test crosses a page boundary with a dozen pads instead
// of 60. Each pad is about 20 files and folders, and creating one costs
// the suite more than anything else does (on a disk with no journal,
// where files were lately deleted, up to 3 ms).
const fixturePage = 10

func newFixture(t *testing.T, pads int, opts ...padapitest.Option) *fixture {
	t.Helper()
	srv := padapitest.NewServer(t, append([]padapitest.Option{padapitest.WithPageSize(fixturePage)}, opts...)...)
	g := NewGate(nil)
	f := &fixture{srv: srv, gate: g, dir: filepath.Join(t.TempDir(), "archive"), ids: seed(srv, pads)}
	f.c = srv.Client(padapi.WithHTTPClient(&http.Client{Transport: g}))
	t.Cleanup(f.c.Close)
	return f
}

// runDeadline bounds one Run of a test, so that a hung run fails the test
// instead of the whole binary. It is generous on purpose: it stops hangs,
// it measures nothing. A 200-pad run once took 30 s under -race on a
// 2-core machine running other builds beside it (every file write synced
// to disk); the tests' largest is 60 pads.
const runDeadline = 3 * time.Minute

// run archives with opts (the fixture's gate set) within runDeadline.
func (f *fixture) run(t *testing.T, opts Options) Summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	defer cancel()
	opts.Gate = f.gate
	sum, err := Run(ctx, f.c, f.dir, opts)
	if err != nil {
		t.Fatalf("Run: %v (summary %+v)", err, sum)
	}
	return sum
}

// tree reads every file, folder and link below dir: path -> content, "<dir>"
// or "<link>". The marker's last_full, the clock of the run that wrote it,
// reads "<time>".
var lastFull = regexp.MustCompile(`"last_full":"[^"]*"`)

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			out[rel] = "<link>"
		case d.IsDir():
			out[rel] = "<dir>"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = lastFull.ReplaceAllString(string(b), `"last_full":"<time>"`)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func verifyClean(t *testing.T, dir string) {
	t.Helper()
	diffs, err := Verify(dir)
	if err != nil || len(diffs) > 0 {
		t.Fatalf("Verify: %v, %v", diffs, err)
	}
}

func indexLines(t *testing.T, dir string) []entry {
	t.Helper()
	st := &store{index: map[padapi.ID]*entry{}}
	d, err := openDirForTest(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	st.dir = d
	if err := st.loadIndex(); err != nil {
		t.Fatal(err)
	}
	var out []entry
	for _, e := range st.index {
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b entry) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return out
}

func TestFirstRunWritesEveryPad(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	sum := f.run(t, Options{})
	if sum.Added != 12 || sum.Updated != 0 || sum.Failed != 0 || sum.Unchanged != 0 {
		t.Fatalf("summary %+v, want 12 added", sum)
	}
	// Per pad: get, events, 2 environments, 3 histories; plus 2 list pages.
	if want := 12*7 + 2; sum.Requests != want {
		t.Errorf("requests %d, want %d", sum.Requests, want)
	}
	verifyClean(t, f.dir)
	got := tree(t, f.dir)
	pad := padDir(f.ids[7])
	envs := f.srv.Environments(f.ids[7])
	e0, e1 := nameOf(envs[0].ID), nameOf(envs[1].ID)
	for _, name := range []string{
		"pad.json", "events.json", "notes.md",
		"environments/" + e0 + ".json", "environments/" + e1 + ".json",
		e0 + "/main.py", e1 + "/main.py", e1 + "/lib/util.py",
		"history/" + e0 + "/main.py.json", "history/" + e1 + "/lib/util.py.json",
	} {
		if _, ok := got[filepath.Join(pad, name)]; !ok {
			t.Errorf("no %s in the pad's folder", name)
		}
	}
	if got[filepath.Join(pad, e1, "lib/util.py")] != "N = 7\n" {
		t.Errorf("lib/util.py = %q", got[filepath.Join(pad, e1, "lib/util.py")])
	}
	if got[filepath.Join(pad, "notes.md")] != "Candidate 7 did well.\n" {
		t.Errorf("notes.md = %q", got[filepath.Join(pad, "notes.md")])
	}
	lines := indexLines(t, f.dir)
	if len(lines) != 12 || lines[0].Title == "" || len(lines[0].Files) != 11 {
		t.Fatalf("index: %d lines, first %+v", len(lines), lines[0])
	}
	raw, _ := os.ReadFile(filepath.Join(f.dir, indexName))
	var ids []string
	for line := range strings.Lines(string(raw)) {
		ids = append(ids, strings.SplitN(line, `"`, 5)[3])
	}
	if !slices.IsSorted(ids) {
		t.Errorf("index not sorted by id: %v", ids)
	}
}

func TestNoHistorySkipsHistories(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	sum := f.run(t, Options{NoHistory: true})
	if want := 3*4 + 1; sum.Requests != want {
		t.Errorf("requests %d, want %d", sum.Requests, want)
	}
	for p := range tree(t, f.dir) {
		if strings.Contains(p, "/history/") {
			t.Errorf("%s written with NoHistory", p)
		}
	}
}

func TestRerunWithNothingChangedSendsOneRequest(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	f.run(t, Options{NoHistory: true})
	before := tree(t, f.dir)
	index, err := os.Stat(filepath.Join(f.dir, indexName))
	must(t, err)
	mark, err := os.Stat(filepath.Join(f.dir, markerName))
	must(t, err)
	n := len(f.srv.Requests())
	sum := f.run(t, Options{NoHistory: true})
	// Nothing is written again: the same files, not copies.
	for _, old := range []os.FileInfo{index, mark} {
		if now, err := os.Stat(filepath.Join(f.dir, old.Name())); err != nil || !os.SameFile(old, now) {
			t.Errorf("%s written again", old.Name())
		}
	}
	if got := len(f.srv.Requests()) - n; got > 2 || sum.Requests != got {
		t.Errorf("re-run sent %d requests (summary %d), want at most 2", got, sum.Requests)
	}
	if sum.Added+sum.Updated+sum.Failed != 0 || sum.Unchanged != 12 {
		t.Errorf("summary %+v", sum)
	}
	if diff := cmp.Diff(before, tree(t, f.dir)); diff != "" {
		t.Errorf("re-run changed the archive (-before +after):\n%s", diff)
	}
}

func TestChangedPadsAreFetchedAgainAndNoOther(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 12)
	f.run(t, Options{NoHistory: true})
	changed := map[string]bool{}
	for i := 0; i < 12; i += 3 {
		id := f.ids[i]
		if _, err := f.c.Pads.Update(deadline(t), id, &padapi.PadUpdateParams{Notes: padapi.Ptr("changed")}); err != nil {
			t.Fatal(err)
		}
		changed[string(id)] = true
	}
	n := len(f.srv.Requests())
	sum := f.run(t, Options{NoHistory: true})
	if sum.Updated != 4 || sum.Added != 0 || sum.Unchanged != 8 {
		t.Errorf("summary %+v, want 4 updated", sum)
	}
	fetched := map[string]bool{}
	for _, r := range f.srv.Requests()[n:] {
		// GET .../pads/ID: a pad fetched.
		if dir, id := path.Split(r.Path); strings.HasSuffix(dir, "/pads/") && strings.Count(r.Path, "/") == 3 {
			fetched[id] = true
		}
	}
	if diff := cmp.Diff(changed, fetched); diff != "" {
		t.Errorf("pads fetched (-want +got):\n%s", diff)
	}
	notes, err := os.ReadFile(filepath.Join(f.dir, padDir(f.ids[6]), "notes.md"))
	if err != nil || string(notes) != "changed\n" {
		t.Errorf("notes of a changed pad: %q, %v", notes, err)
	}
	verifyClean(t, f.dir)
}

func TestDeletedPadStaysMarked(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	gone := f.ids[3]
	if err := f.c.Pads.Delete(deadline(t), gone); err != nil {
		t.Fatal(err)
	}
	var events []Progress
	sum := f.run(t, Options{NoHistory: true, Progress: func(p Progress) { events = append(events, p) }})
	if sum.Deleted != 1 || sum.Unchanged != 10 {
		t.Errorf("summary %+v, want 1 deleted", sum)
	}
	if !slices.ContainsFunc(events, func(p Progress) bool { return p.Kind == PadDeleted && p.Pad == gone }) {
		t.Errorf("no deleted event for %s: %v", gone, events)
	}
	for _, e := range indexLines(t, f.dir) {
		if e.Deleted != (e.ID == gone) {
			t.Errorf("%s: deleted %v", e.ID, e.Deleted)
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, padDir(gone), "pad.json")); err != nil {
		t.Errorf("the deleted pad's folder: %v", err)
	}
	verifyClean(t, f.dir)
	n := len(f.srv.Requests())
	if sum := f.run(t, Options{NoHistory: true}); sum.Deleted != 0 || len(f.srv.Requests())-n > 2 {
		t.Errorf("a run after: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
	// The pad comes back: fetched again, no longer marked.
	f.srv.AddPad(padapi.Pad{ID: gone, Title: "back", Language: "python", CreatedAt: base, UpdatedAt: base.Add(1000 * time.Hour)})
	if sum := f.run(t, Options{NoHistory: true}); sum.Updated != 1 || sum.Unchanged != 10 {
		t.Errorf("the pad back: %+v", sum)
	}
	for _, e := range indexLines(t, f.dir) {
		if e.ID == gone && (e.Deleted || e.Title != "back") {
			t.Errorf("the pad back: %+v", e)
		}
	}
}

func TestAnIndexLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0)
	f.srv.AddPad(padapi.Pad{ID: "Q1", Title: "<Go> & more", State: "ended", Language: "python", Notes: "n", CreatedAt: base})
	f.run(t, Options{NoHistory: true})
	raw, err := os.ReadFile(filepath.Join(f.dir, indexName))
	must(t, err)
	line := string(raw)
	env := nameOf(f.srv.Environments("Q1")[0].ID)
	for _, want := range []string{
		`{"id":"Q1","title":"\u003cGo\u003e \u0026 more","state":"ended","updated_at":"2026-01-01T00:00:00Z","dir":"pads/Q1","files":{`,
		`"` + env + `/main.py":"`, `"environments/` + env + `.json":"`, `"events.json":"`, `"notes.md":"`, `"pad.json":"`,
	} {
		if !strings.Contains(line, want) {
			t.Errorf("index line %s\nholds no %s", line, want)
		}
	}
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "}}\n") {
		t.Errorf("index: %q", line)
	}
}

func TestNewPadsBelowTheMarkAreFound(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	// A pad the list shows late, older than the mark: the total says one
	// more than the archive holds, so the run lists to the end.
	late := f.srv.AddPad(padapi.Pad{Title: "late", Language: "python", CreatedAt: base.Add(-time.Hour)})
	sum := f.run(t, Options{NoHistory: true})
	if sum.Added != 1 || sum.Unchanged != 11 {
		t.Errorf("summary %+v", sum)
	}
	if _, err := os.Stat(filepath.Join(f.dir, padDir(late.ID))); err != nil {
		t.Error(err)
	}
}

func TestMineListsTheCallersPads(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 5)
	f.run(t, Options{Mine: true})
	var list []string
	for _, r := range f.srv.Requests() {
		if path.Base(r.Path) == "pads" {
			list = append(list, r.Path)
		}
	}
	if len(list) != 1 || strings.Contains(list[0], "organization") {
		t.Errorf("list requests %v", list)
	}
	verifyClean(t, f.dir)
}

func TestOptionsAreChecked(t *testing.T) {
	t.Parallel()
	for _, n := range []int{-1, 17} {
		if _, err := Run(t.Context(), nil, t.TempDir(), Options{Concurrency: n}); err == nil {
			t.Errorf("concurrency %d accepted", n)
		}
	}
	o, err := Options{Concurrency: 16}.normalize()
	if err != nil || o.Concurrency != 16 || o.Overlap != DefaultOverlap || o.Redact("k") != "k" {
		t.Errorf("normalize: %+v, %v", o, err)
	}
	if o, _ := (Options{}).normalize(); o.Concurrency != MaxConcurrency || !o.adaptive {
		t.Errorf("default concurrency %d, adaptive %v; want workers for %d, adaptive", o.Concurrency, o.adaptive, MaxConcurrency)
	}
	if o.adaptive {
		t.Errorf("concurrency 16 given: adaptive")
	}
}

func TestRefusesAForeignFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), nil, dir, Options{}); !errors.Is(err, ErrNotArchive) {
		t.Fatalf("Run on a foreign folder: %v", err)
	}
	if _, err := Verify(dir); !errors.Is(err, ErrNotArchive) {
		t.Fatalf("Verify on a foreign folder: %v", err)
	}
	if got := tree(t, dir); len(got) != 2 {
		t.Errorf("the folder was written to: %v", got)
	}
}

func TestASecondRunRefuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 2)
	f.run(t, Options{})
	unlock, err := lock(f.dir, lockName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(deadline(t), f.c, f.dir, Options{}); !errors.Is(err, ErrLocked) {
		t.Errorf("Run while locked: %v", err)
	}
	unlock()
	f.run(t, Options{})
}

func TestVerifyFindsWhatDiffers(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 3)
	f.run(t, Options{})
	pad := filepath.Join(f.dir, padDir(f.ids[1]))
	must(t, os.WriteFile(filepath.Join(pad, "notes.md"), []byte("edited"), 0o644))
	must(t, os.Remove(filepath.Join(pad, "events.json")))
	must(t, os.WriteFile(filepath.Join(pad, "extra.txt"), []byte("x"), 0o644))
	must(t, os.Mkdir(filepath.Join(f.dir, "pads", "stray"), 0o755))
	diffs, err := Verify(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	rel := padDir(f.ids[1])
	want := []Difference{
		{Path: rel + "/events.json", Problem: "missing"},
		{Path: rel + "/notes.md", Problem: "changed"},
		{Path: rel + "/extra.txt", Problem: "not in the index"},
		{Path: "pads/stray", Problem: "not in the index"},
	}
	if diff := cmp.Diff(want, diffs); diff != "" {
		t.Errorf("Verify (-want +got):\n%s", diff)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestCancelledRunKeepsWhatIsDone(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 20)
	ctx, cancel := context.WithCancel(deadline(t))
	defer cancel()
	var once sync.Once
	done := 0
	opts := Options{Gate: f.gate, NoHistory: true, Progress: func(p Progress) {
		if p.Kind == PadDone {
			if done++; done == 10 {
				once.Do(cancel)
			}
		}
	}}
	sum, err := Run(ctx, f.c, f.dir, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v", err)
	}
	lines := indexLines(t, f.dir)
	if len(lines) < 10 || len(lines) != sum.Added {
		t.Errorf("%d index lines, %d added", len(lines), sum.Added)
	}
	verifyClean(t, f.dir)
	sum = f.run(t, Options{NoHistory: true})
	if sum.Added != 20-len(lines) {
		t.Errorf("the next run added %d, want %d", sum.Added, 20-len(lines))
	}
	verifyClean(t, f.dir)
}

func TestDocumentsAreTheServicesBytes(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 1)
	id := f.ids[0]
	for i := range 60 { // pages of events
		f.srv.AddEvent(id, padapi.PadEvent{Kind: "ran", Message: fmt.Sprintf("run %d", i), CreatedAt: base.Add(time.Duration(i+2) * time.Minute)})
	}
	f.run(t, Options{})
	dir := filepath.Join(f.dir, padDir(id))
	ctx := deadline(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		must(t, err)
		return string(b)
	}
	var resp padapi.Response
	_, err := f.c.Pads.Get(padapi.WithResponse(ctx, &resp), id)
	must(t, err)
	if got := read("pad.json"); got != string(resp.Body) {
		t.Errorf("pad.json:\n%s\nthe service sent:\n%s", got, resp.Body)
	}
	var events []json.RawMessage
	must(t, json.Unmarshal([]byte(read("events.json")), &events))
	if len(events) != 62 || !strings.Contains(string(events[61]), `"run 59"`) {
		t.Errorf("events.json: %d events, last %s", len(events), events[len(events)-1])
	}
	var page struct{ Events []json.RawMessage }
	_, err = f.c.Pads.ListEvents(padapi.WithResponse(ctx, &resp), id, &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc})
	must(t, err)
	must(t, json.Unmarshal(resp.Body, &page))
	for i, e := range page.Events {
		if string(e) != string(events[i]) {
			t.Errorf("event %d: %s, the service sent %s", i, events[i], e)
		}
	}
	for _, env := range f.srv.Environments(id) {
		e, err := f.c.Pads.Environment(padapi.WithResponse(ctx, &resp), env.ID)
		must(t, err)
		if got := read("environments/" + nameOf(env.ID) + ".json"); got != string(resp.Body) {
			t.Errorf("environment %s: %s, the service sent %s", env.ID, got, resp.Body)
		}
		for _, file := range e.Files {
			_, err := f.c.Pads.History(padapi.WithResponse(ctx, &resp), file.History)
			must(t, err)
			if got := read("history/" + nameOf(env.ID) + "/" + file.Path + ".json"); got != string(resp.Body) {
				t.Errorf("history of %s: %s, the service sent %s", file.Path, got, resp.Body)
			}
		}
	}
}

func TestAPadWithinTheOverlapIsFoundWithoutRelisting(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	// The mark is the newest pad's updated_at; a pad the list shows late,
	// a minute before it, is within the overlap of two minutes.
	mark := base.Add(10 * time.Hour)
	late := f.srv.AddPad(padapi.Pad{Title: "late", Language: "python", CreatedAt: mark.Add(-time.Minute)})
	n := len(f.srv.Requests())
	relisted := false
	sum := f.run(t, Options{NoHistory: true, Progress: func(p Progress) { relisted = relisted || p.Kind == Relisting }})
	if sum.Added != 1 || relisted {
		t.Errorf("summary %+v, relisted %v", sum, relisted)
	}
	lists := 0
	for _, r := range f.srv.Requests()[n:] {
		if path.Base(r.Path) == "pads" {
			lists++
		}
	}
	if lists != 1 {
		t.Errorf("%d list requests, want 1", lists)
	}
	if _, err := os.Stat(filepath.Join(f.dir, padDir(late.ID))); err != nil {
		t.Error(err)
	}
	// With no overlap to speak of, the same pad is below the mark: only
	// the total finds it, by listing to the end.
	g := newFixture(t, 11)
	g.run(t, Options{NoHistory: true})
	g.srv.AddPad(padapi.Pad{Title: "late", Language: "python", CreatedAt: mark.Add(-time.Minute)})
	sum = g.run(t, Options{NoHistory: true, Overlap: time.Second, Progress: func(p Progress) { relisted = relisted || p.Kind == Relisting }})
	if sum.Added != 1 || !relisted {
		t.Errorf("summary %+v, relisted %v", sum, relisted)
	}
}

// deleteAndLate deletes one of f's pads and adds one the list shows late,
// older than the mark: the list's total stays what the archive holds.
func (f *fixture) deleteAndLate(t *testing.T, gone padapi.ID) padapi.ID {
	t.Helper()
	must(t, f.c.Pads.Delete(deadline(t), gone))
	return f.srv.AddPad(padapi.Pad{Title: "late", Language: "python", CreatedAt: base.Add(-time.Hour), UpdatedAt: base.Add(-time.Hour)}).ID
}

// checkIdentity checks that the index archives late and marks gone
// deleted, as one JSON object a line, each with its id.
func checkIdentity(t *testing.T, dir string, gone, late padapi.ID) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, indexName))
	must(t, err)
	found := map[padapi.ID]map[string]any{}
	for line := range strings.Lines(string(raw)) {
		var obj map[string]any
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("index line %q: %v", line, err)
		}
		id, _ := obj["id"].(string)
		found[padapi.ID(id)] = obj
	}
	if found[gone]["deleted"] != true {
		t.Errorf("the deleted pad's line: %v", found[gone])
	}
	if obj, ok := found[late]; !ok || obj["deleted"] != nil {
		t.Errorf("the late pad's line: %v", obj)
	}
	verifyClean(t, dir)
}

// A pad deleted and another one listed late below the mark leave the
// totals as they were: a run between full walks sends its one or two
// requests and finds neither; a run with Full finds both, by identity.
func TestFullFindsADeleteAndALatePad(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	gone := f.ids[3]
	late := f.deleteAndLate(t, gone)
	n := len(f.srv.Requests())
	if sum := f.run(t, Options{NoHistory: true}); sum.Added != 0 || sum.Deleted != 0 || len(f.srv.Requests())-n > 2 {
		t.Errorf("a run between full walks: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
	sum := f.run(t, Options{NoHistory: true, Full: true})
	if sum.Added != 1 || sum.Deleted != 1 || sum.Unchanged != 10 {
		t.Errorf("a full run: %+v, want 1 added and 1 deleted", sum)
	}
	checkIdentity(t, f.dir, gone, late)
	n = len(f.srv.Requests())
	if sum := f.run(t, Options{NoHistory: true}); sum.Added+sum.Deleted+sum.Updated != 0 || len(f.srv.Requests())-n > 2 {
		t.Errorf("the run after: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
}

// A run whose last full walk is a day old walks the whole list again.
func TestADayOldFullWalkIsDoneAgain(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 11)
	f.run(t, Options{NoHistory: true})
	gone := f.ids[3]
	late := f.deleteAndLate(t, gone)
	// The marker as a run a day and a minute ago left it.
	raw, err := os.ReadFile(filepath.Join(f.dir, markerName))
	must(t, err)
	var m map[string]any
	must(t, json.Unmarshal(raw, &m))
	m["last_full"] = time.Now().Add(-24*time.Hour - time.Minute).Format(time.RFC3339Nano)
	raw, err = json.Marshal(m)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(f.dir, markerName), raw, 0o600))
	sum := f.run(t, Options{NoHistory: true})
	if sum.Added != 1 || sum.Deleted != 1 {
		t.Errorf("a day after the last full walk: %+v, want 1 added and 1 deleted", sum)
	}
	checkIdentity(t, f.dir, gone, late)
	n := len(f.srv.Requests())
	if sum := f.run(t, Options{NoHistory: true}); sum.Added+sum.Deleted != 0 || len(f.srv.Requests())-n > 2 {
		t.Errorf("the run after: %+v, %d requests", sum, len(f.srv.Requests())-n)
	}
}
