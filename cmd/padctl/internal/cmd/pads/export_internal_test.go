// export_internal_test.go: export.go's folder-name mapping, from inside the package.

package pads

import (
	"slices"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
)

// safeName gives different IDs different names, whatever their case, and
// never a name the file system treats specially or the export uses.
func TestSafeName(t *testing.T) {
	ids := []string{"", ".", "..", "...", "/", "a/b", `a\b`, "\x00", "A", "a", "%41", "~", "history", "History",
		"pad.json", "events.json", "notes.md", "7", "07", strings.Repeat("x", 64), strings.Repeat("x", 65),
		strings.Repeat("x", 1000), strings.Repeat("%", 1000), strings.Repeat("é", 500), "héllo", "\u202e", "con", "a b"}
	seen := map[string]string{}
	for _, id := range ids {
		name := envName(padapi.ID(id))
		switch {
		case name == "" || name == "." || name == ".." || len(name) > 64:
			t.Errorf("safeName(%q) = %q", id, name)
		case strings.ContainsAny(name, "/\\\x00.") || strings.ToLower(name) != name:
			t.Errorf("safeName(%q) = %q: a separator, a dot or an upper-case letter", id, name)
		case slices.Contains(ownNames, name):
			t.Errorf("safeName(%q) = %q: one of the export's own names", id, name)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("safeName(%q) = safeName(%q) = %q", id, other, name)
		}
		seen[name] = id
		if again := envName(padapi.ID(id)); again != name {
			t.Errorf("safeName(%q) = %q, then %q", id, name, again)
		}
	}
}
