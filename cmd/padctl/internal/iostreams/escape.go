package iostreams

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mode says what Escape does with a character that must not reach a
// terminal raw.
type Mode int

const (
	// Line makes s one line: a line break or tab becomes a space, every
	// other unsafe character an escape (\x1b, \u202e) as Go quotes it.
	// For messages, notes and errors.
	Line Mode = iota
	// Cell makes s one table cell: every unsafe character, tab and line
	// breaks included, becomes a space.
	Cell
	// Text keeps a multi-line text's newlines and tabs; every other unsafe
	// character becomes a space.
	Text
	// Quoted keeps tabs and writes every other unsafe character, line
	// breaks included, as an escape: a line of a diff.
	Quoted
)

// Escape returns s safe for a terminal, as mode says: padctl's one
// control-character escaper. Unsafe are the control characters (C0, DEL,
// C1), the Unicode characters that reorder text (bidi controls and marks)
// and the line and paragraph separators. Bytes that are not UTF-8 become
// U+FFFD. Text from the service can then neither forge a line of padctl's
// own nor drive the terminal.
func Escape(s string, mode Mode) string {
	if !strings.ContainsFunc(s, Unsafe) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case !Unsafe(r), r == '\t' && (mode == Text || mode == Quoted), r == '\n' && mode == Text:
			b.WriteRune(r)
		case mode == Cell || mode == Text, mode == Line && (r == '\n' || r == '\r' || r == '\t'):
			b.WriteByte(' ')
		default:
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// Unsafe reports whether r must not reach a terminal as it is: a control
// character (C0, DEL, C1), a bidi control or mark, or a line or paragraph
// separator.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidi marks, embeddings, overrides and isolates
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	return false
}
