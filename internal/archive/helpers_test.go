package archive

import (
	"context"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/safefile"
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
