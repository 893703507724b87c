// exit_test.go: service text on stderr is one escaped line (root.go's error rendering and exit codes).

package root_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// forged is a service error message that tries to forge a line of padctl's
// own and to drive the terminal: a newline, an OSC title, a screen clear,
// a C1 CSI, a right-to-left override and a line separator.
const forged = `{"status":"ERROR","message":"bad\n padctl: forged \u001b]0;title\u0007 \u001b[2J \u009b31m \u202eevil\u2028next\r"}`

// Whatever text the service sends reaches stderr as one line, with no
// control character, bidi control or line separator left in it.
func TestServiceTextIsOneLine(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/ABC": cmdtest.Reply(http.StatusConflict, forged),
		"GET /api/quota":    cmdtest.Reply(http.StatusBadRequest, forged),
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "get", "ABC"}, "padctl: GET /api/pads/ABC: 409: "},
		{[]string{"quota"}, "padctl: GET /api/quota: 400: "},
	} {
		args, want := tc.args, tc.want
		r := cmdtest.Padctl(t, s.Env(), args...)
		l := cmdtest.Lines(r.Stderr)
		if r.Code != cmdutil.ExitError || len(l) != 1 || !strings.HasPrefix(l[0], want) {
			t.Errorf("padctl %q: exit %d, %d lines on stderr:\n%q", args, r.Code, len(l), r.Stderr)
			continue
		}
		if i := strings.IndexFunc(l[0], iostreams.Unsafe); i >= 0 {
			t.Errorf("padctl %q: stderr has %q at %d:\n%q", args, l[0][i:], i, r.Stderr)
		}
		if !strings.Contains(l[0], `bad  padctl: forged \x1b]0;title\a \x1b[2J \u009b31m \u202eevil\u2028next`) {
			t.Errorf("padctl %q: stderr does not show the message, escaped:\n%s", args, l[0])
		}
	}
}
