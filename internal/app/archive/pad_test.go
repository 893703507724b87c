package archive

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// noRetries makes f's client give up at the first error, so that what is
// retried is the engine's doing.
func (f *fixture) noRetries(t *testing.T) {
	f.c = f.srv.Client(padapi.WithRetry(0, 0, 0), padapi.WithHTTPClient(&http.Client{Transport: f.gate}))
	t.Cleanup(f.c.Close)
}

// padGets counts the requests for the pad itself (GET /api/pads/ID).
func padGets(f *fixture, id padapi.ID) int {
	n := 0
	for _, r := range f.srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api/pads/"+string(id) {
			n++
		}
	}
	return n
}

func TestAPadRefusedWith429IsTriedAgain(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		refused, failed int
	}{
		{maxAttempts - 1, 0}, // the last try gets through
		{maxAttempts, 1},     // every try refused: the pad fails, the next run tries it
	} {
		f := newFixture(t, 1)
		f.noRetries(t)
		f.srv.FailNext("GET /api/pads/{id}", c.refused, http.StatusTooManyRequests, "")
		sum := f.run(t, Options{NoHistory: true})
		if sum.Failed != c.failed || sum.Added != 1-c.failed {
			t.Errorf("%d of the pad's requests refused: summary %+v", c.refused, sum)
		}
		if got := padGets(f, f.ids[0]); got != min(c.refused+1, maxAttempts) {
			t.Errorf("%d of the pad's requests refused: the pad was asked for %d times", c.refused, got)
		}
	}
}

func TestAPadThatFailsMidWriteLeavesNoTemporaryFolder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 1)
	f.noRetries(t)
	// Its first edit-history document fails after the pad's folder is
	// begun: the pad fails, and what was written of it goes.
	f.srv.FailNext("GET /history/{env}/{file}", 1, http.StatusInternalServerError, "")
	sum := f.run(t, Options{})
	if sum.Failed != 1 || sum.Added != 0 {
		t.Fatalf("summary %+v", sum)
	}
	entries, err := os.ReadDir(filepath.Join(f.dir, padsDir))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), safefile.TempPrefix) {
			t.Errorf("pads/%s left behind by the failed pad", e.Name())
		}
	}
	if len(entries) != 0 {
		t.Errorf("pads/ holds %d entries after the only pad failed", len(entries))
	}
}

// A history document is stored as the service sent it, byte for byte,
// never decoded into operations: one whose operations the library's
// decoder would refuse (a shape from a later editor) is kept all the same,
// its spacing too.
func TestHistoryIsStoredAsSentNotDecoded(t *testing.T) {
	t.Parallel()
	doc := "{\n  \"e1\": {\"a\": \"ada\", \"o\": [{\"later\": [1, 2]}], \"t\": 1777626600000}\n}\n"
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(doc))
	}))
	t.Cleanup(hs.Close)
	f := newFixture(t, 0)
	p := f.srv.AddPad(padapi.Pad{ID: "H1", Title: "h", Language: "python", CreatedAt: base, UpdatedAt: base})
	env := f.srv.AddEnvironment(p.ID, padapi.PadEnvironment{Language: "python", CreatedAt: base,
		Files: []padapi.FileContent{{Path: "main.py", Contents: "x\n", History: hs.URL + "/history/main"}}})
	if _, err := f.c.Pads.History(deadline(t), hs.URL+"/history/main"); err == nil {
		t.Fatal("the library's decoder takes the document: it tests nothing")
	}
	sum := f.run(t, Options{})
	if sum.Added != 1 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	got, err := os.ReadFile(filepath.Join(f.dir, "pads", "H1", histDir, nameOf(env.ID), "main.py.json"))
	if err != nil || string(got) != doc {
		t.Errorf("history document %q, %v; the service sent %q", got, err, doc)
	}
	verifyClean(t, f.dir)
}
