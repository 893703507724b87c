package archive

import (
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/safefile"
)

func openDirForTest(dir string) (*safefile.Dir, error) { return safefile.Open(dir) }

// nameOf is an environment's folder name.
func nameOf(id padapi.ID) string { return safefile.Name(string(id), histDir, envsDir) }
