package main

import (
	"net/http"
	"strings"
	"testing"
	"unicode"
)

// forged is a service error message that tries to forge a line of padctl's
// own and to drive the terminal: a newline, an OSC title, a screen clear,
// a C1 CSI, a right-to-left override and a line separator.
const forged = `{"status":"ERROR","message":"bad\n padctl: forged \u001b]0;title\u0007 \u001b[2J \u009b31m \u202eevil\u2028next\r"}`

// Whatever text the service sends reaches stderr as one line, with no
// control character, bidi control or line separator left in it.
func TestServiceTextIsOneLine(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{
		"GET /api/pads/ABC": reply(http.StatusNotFound, forged),
		"GET /api/quota":    reply(http.StatusBadRequest, forged),
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"pads", "get", "ABC"}, "padctl: GET /api/pads/ABC: 404: "},
		{[]string{"quota"}, "padctl: GET /api/quota: 400: "},
	} {
		args, want := tc.args, tc.want
		r := padctl(t, s.env(), args...)
		l := lines(r.stderr)
		if r.code != exitError || len(l) != 1 || !strings.HasPrefix(l[0], want) {
			t.Errorf("padctl %q: exit %d, %d lines on stderr:\n%q", args, r.code, len(l), r.stderr)
			continue
		}
		if i := strings.IndexFunc(l[0], unsafeRune); i >= 0 {
			t.Errorf("padctl %q: stderr has %q at %d:\n%q", args, l[0][i:], i, r.stderr)
		}
		if !strings.Contains(l[0], `bad  padctl: forged \x1b]0;title\a \x1b[2J \u009b31m \u202eevil\u2028next`) {
			t.Errorf("padctl %q: stderr does not show the message, escaped:\n%s", args, l[0])
		}
	}
}

func TestOneLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é and 日本", "plain text, é and 日本"},
		{"a\nb\r\nc\td", "a b  c d"},
		{"\x1b[2J\x07\x00\x7f", `\x1b[2J\a\x00\x7f`},
		{"\u0085\u009b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029", `\u0085\u009b\u061c\u200e\u200f\u202a\u202e\u2066\u2069\u2028\u2029`},
		{"bad \xff byte", "bad \uFFFD byte"},
	} {
		got := oneLine(tc.in)
		if got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.ContainsFunc(got, func(r rune) bool { return unicode.IsControl(r) || unsafeRune(r) }) {
			t.Errorf("oneLine(%q) = %q: a control character is left", tc.in, got)
		}
	}
}
