package qsync

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
	"github.com/padinterview/padapi/padapitest"
)

// stateText returns the folder's state file, "" when it has none.
func (e *env) stateText() string {
	b, err := os.ReadFile(filepath.Join(e.dir, qfolder.StateFile))
	if err != nil && !os.IsNotExist(err) {
		e.t.Fatal(err)
	}
	return string(b)
}

// Issue 37 #15: a library records the service and the organization it was
// synced with, and a plan against another is refused (nothing sent that
// changes anything, nothing written) unless Force.
func TestOriginRecordedAndRefused(t *testing.T) {
	e := newEnv(t)
	e.srv.AddQuestion(padapi.Question{Title: "Seven", Language: "go", OrganizationName: "Acme"})
	e.must(Pull, Options{BaseURL: "https://Pad.example.com/"})
	lib := e.lib()
	if o := lib.State.Origin; o == nil || *o != (qfolder.Origin{BaseURL: "https://pad.example.com", Organization: "Acme"}) {
		t.Fatalf("recorded origin %+v", o)
	}
	before := e.stateText()

	// Another organization on the same service: refused after the list,
	// for every mode.
	other := padapitest.NewServer(t)
	other.AddQuestion(padapi.Question{Title: "Seven", Language: "go", OrganizationName: "Globex"})
	e.srv = other
	for _, mode := range []Mode{Push, Pull} {
		_, err := e.run(mode, Options{BaseURL: "https://pad.example.com"})
		var oe *OriginError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), `"Acme"`) || !strings.Contains(err.Error(), `"Globex"`) {
			t.Errorf("mode %d against another organization: %v", mode, err)
		}
	}
	// Another service: refused before any request.
	n := len(other.Requests())
	_, err := e.run(Push, Options{BaseURL: "https://other.example.com"})
	if !strings.Contains(err.Error(), "https://pad.example.com") || !strings.Contains(err.Error(), "https://other.example.com") {
		t.Errorf("against another service: %v", err)
	}
	if got := len(other.Requests()) - n; got != 0 {
		t.Errorf("a refused plan sent %d requests", got)
	}
	if got := e.stateText(); got != before {
		t.Errorf("a refused plan changed the state file:\n%s\nwas\n%s", got, before)
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		if len(line) > 200 {
			t.Errorf("a line of %d characters: %q", len(line), line)
		}
	}

	// Force plans anyway, and an apply records the new origin.
	if p := e.plan(Push, Options{BaseURL: "https://other.example.com", Force: true}); p == nil {
		t.Fatal("no plan")
	}
	e.must(Push, Options{BaseURL: "https://other.example.com", Force: true})
	if o := e.lib().State.Origin; o == nil || *o != (qfolder.Origin{BaseURL: "https://other.example.com", Organization: "Globex"}) {
		t.Errorf("after apply --force: origin %+v", o)
	}
}

// A library synced before origins were recorded works as it did, and
// records its origin on the next apply; one whose service names no
// organization is checked on the base URL alone.
func TestOriginAdoptedByAnOldLibrary(t *testing.T) {
	e := newEnv(t)
	e.write(sample)
	e.must(Push, Options{})
	lib := e.lib()
	lib.State.Origin = nil
	w, err := qfolder.NewWriter(e.dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Save(lib.State); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if strings.Contains(e.stateText(), "origin") {
		t.Fatal("the old state file has an origin")
	}
	if p := e.plan(Push, Options{BaseURL: "https://a.example.com"}); p.Changes() {
		t.Errorf("an old library plans changes: %v", kinds(p))
	}
	e.must(Push, Options{BaseURL: "https://a.example.com"})
	o := e.lib().State.Origin
	if o == nil || o.BaseURL != "https://a.example.com" || o.Organization == "" {
		t.Errorf("origin adopted: %+v", o)
	}
}
