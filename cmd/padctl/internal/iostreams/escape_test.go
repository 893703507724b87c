package iostreams_test

import (
	"strings"
	"testing"
	"unicode"

	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é and 日本", "plain text, é and 日本"},
		{"a\nb\r\nc\td", "a b  c d"},
		{"\x1b[2J\x07\x00\x7f", `\x1b[2J\a\x00\x7f`},
		{"\u0085\u009b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029", `\u0085\u009b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029`},
		{"bad \xff byte", "bad \uFFFD byte"},
	} {
		got := iostreams.Escape(tc.in, iostreams.Line)
		if got != tc.want {
			t.Errorf("Escape(%q, Line) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsFunc(got, func(r rune) bool { return unicode.IsControl(r) || iostreams.Unsafe(r) }) {
			t.Errorf("Escape(%q, Line) = %q: a control character is left", tc.in, got)
		}
	}
}
