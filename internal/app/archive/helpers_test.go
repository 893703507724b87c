package archive

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
	"github.com/padinterview/padapi/padapitest"
)

func openDirForTest(dir string) (*safefile.Dir, error) { return safefile.Open(dir) }

// nameOf is an environment's folder name.
func nameOf(id padapi.ID) string { return safefile.Name(string(id), histDir, envsDir) }

// deadline is t's context, cut off after 30 s: each test that waits on the
// fake or on a run waits no longer than that.
func deadline(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), runDeadline)
	t.Cleanup(cancel)
	return ctx
}

// childEnv is what a test passes the child process it runs (its test
// binary, as the test named by the caller): the archive folder and the
// fake's URL and key, under the variables prefix_DIR, _URL and _KEY.
func childEnv(prefix, dir string, srv *padapitest.Server) []string {
	return append(os.Environ(), prefix+"_DIR="+dir, prefix+"_URL="+srv.URL, prefix+"_KEY="+srv.APIKey)
}

// childClient reads childEnv back in the child: the folder ("" when the
// test runs as itself, not as a child), and a client that sends through
// a new Gate.
func childClient(t *testing.T, prefix string) (string, *padapi.Client, *Gate) {
	dir := os.Getenv(prefix + "_DIR")
	if dir == "" {
		return "", nil, nil
	}
	g := NewGate(nil)
	c, err := padapi.NewClient(os.Getenv(prefix+"_URL"), os.Getenv(prefix+"_KEY"), padapi.WithHTTPClient(&http.Client{Transport: g}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return dir, c, g
}

// padapiHTTP are the client options that send through g.
func padapiHTTP(g *Gate) []padapi.Option {
	return []padapi.Option{padapi.WithHTTPClient(&http.Client{Transport: g})}
}
