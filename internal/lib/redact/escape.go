// escape.go: undoing the escapes a text may spell a secret with, keeping
// where each decoded byte came from.

package redact

import (
	"strings"
	"unicode/utf8"
)

// view is a text with its escapes undone one or more times, and for each
// of its bytes the bytes of the original text it came from.
type view struct {
	text       []byte
	start, end []int32
}

// orig returns the bytes of the original text that v's bytes a to b came
// from; a nil view is the original text itself.
func (v *view) orig(a, b int) span {
	if v == nil {
		return span{a, b}
	}
	return span{int(v.start[a]), int(v.end[b-1])}
}

// decodedRuns appends to sp the runs found in s once its escapes are
// undone, once, twice, up to rounds times, while a round still undoes one.
func decodedRuns(r *Redactor, s []byte, sp []span) []span {
	var cur *view
	for range rounds {
		next, changed := decode(r, s, cur)
		if !changed {
			break
		}
		var escaped bool
		sp, escaped = runs(r, next.text, next, sp)
		if !escaped {
			break
		}
		s, cur = next.text, next
	}
	return sp
}

// decode undoes the escapes of s, a view (cur, nil for the original text),
// and reports whether there was one.
func decode(r *Redactor, s []byte, cur *view) (*view, bool) {
	// No escape is shorter than what it spells: the view fits in len(s).
	text, start, end := make([]byte, len(s)), make([]int32, len(s)), make([]int32, len(s))
	n, changed := 0, false
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		out, w := unescape(s[i:], r.space, buf[:0])
		if w == 0 {
			out, w = s[i:i+1], 1
		} else {
			changed = true
		}
		from := cur.orig(i, i+w)
		for _, c := range out {
			text[n], start[n], end[n] = c, int32(from.a), int32(from.b)
			n++
		}
		i += w
	}
	return &view{text[:n], start[:n], end[:n]}, changed
}

// unescape decodes the escape s starts with into buf: the bytes it spells
// and its length w, or w 0 when s starts with none.
func unescape(s []byte, space bool, buf []byte) (out []byte, w int) {
	switch s[0] {
	case '\\':
		return backslash(s, buf)
	case '%':
		return percent(s, buf)
	case '&':
		return entity(s, buf)
	case '=':
		return quotedPrintable(s, buf)
	case '+':
		if space {
			return append(buf, ' '), 1
		}
	}
	return nil, 0
}

// backslash decodes a JSON escape (\uXXXX, \/, \", \') or \xNN; a run of
// backslashes before one (JSON inside JSON) belongs to it. Two backslashes
// before anything else are one.
func backslash(s, buf []byte) ([]byte, int) {
	j := 0
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j == len(s) {
		return nil, 0
	}
	switch s[j] {
	case 'u':
		if v, ok := hexDigits(s[j+1:], 4); ok {
			return utf8.AppendRune(buf, rune(v)), j + 5
		}
	case 'x':
		if v, ok := hexDigits(s[j+1:], 2); ok {
			return append(buf, byte(v)), j + 3
		}
	case '/', '"', '\'':
		return append(buf, s[j]), j + 1
	}
	if v, n := octal(s[j:]); n > 0 {
		return append(buf, byte(v)), j + n
	}
	if j >= 2 {
		return append(buf, '\\'), 2
	}
	return nil, 0
}

// octal reads the 1 to 3 octal digits at the start of s (\163, as C,
// Python and a shell's printf spell a byte), up to 0377, and how many
// there were.
func octal(s []byte) (v, n int) {
	for n < 3 && n < len(s) && '0' <= s[n] && s[n] <= '7' && v*8+int(s[n]-'0') <= 0377 {
		v = v*8 + int(s[n]-'0')
		n++
	}
	return v, n
}

// quotedPrintable decodes quoted-printable's =XX (upper-case hex, as
// RFC 2045 has it: "key=ec" in a query is no escape), and its soft line
// break (= at the end of a line), which spells nothing: a mail or MIME
// part may cut the key across lines so.
func quotedPrintable(s, buf []byte) ([]byte, int) {
	if len(s) > 1 && s[1] == '\n' {
		return buf, 2
	}
	if len(s) > 2 && s[1] == '\r' && s[2] == '\n' {
		return buf, 3
	}
	if len(s) > 2 && isUpperHex(s[1]) && isUpperHex(s[2]) {
		return percent(s, buf)
	}
	return nil, 0
}

// isUpperHex reports whether c is a digit or one of A to F.
func isUpperHex(c byte) bool { return isDigit(c) || 'A' <= c && c <= 'F' }

// percent decodes %XX. A nested one (%2541) is undone a round at a time:
// "%25" may be a '%' the secret holds.
func percent(s, buf []byte) ([]byte, int) {
	if v, ok := hexDigits(s[1:], 2); ok {
		return append(buf, byte(v)), 3
	}
	return nil, 0
}

// named are the HTML entities a secret's characters may be spelled with
// besides numbers.
var named = []struct {
	name string
	c    byte
}{{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}}

// entity decodes an HTML character reference (&#65; &#x41; &#X0041;), or
// &amp; &lt; &gt; &quot; &apos;. &amp;#65; (an escape of an escape) is
// undone a round at a time: "&#65;" may be text the secret holds.
func entity(s, buf []byte) ([]byte, int) {
	if len(s) > 1 && s[1] == '#' {
		return charRef(s, 2, buf)
	}
	for _, e := range named {
		if hasPrefixFold(s[1:], e.name) {
			return append(buf, e.c), 1 + len(e.name)
		}
	}
	return nil, 0
}

// charRef decodes the number of a character reference that starts at
// s[j] (after "&#"), up to its ';', with any number of leading zeros.
func charRef(s []byte, j int, buf []byte) ([]byte, int) {
	base := 10
	if j < len(s) && (s[j] == 'x' || s[j] == 'X') {
		base, j = 16, j+1
	}
	v := 0
	k := j
	for ; k < len(s); k++ {
		d := digit(s[k])
		if d < 0 || d >= base {
			break
		}
		if v = v*base + d; v > utf8.MaxRune {
			return nil, 0
		}
	}
	if k == j || k >= len(s) || s[k] != ';' {
		return nil, 0
	}
	return utf8.AppendRune(buf, rune(v)), k + 1
}

// hexDigits reads exactly n hex digits at the start of s.
func hexDigits(s []byte, n int) (int, bool) {
	if len(s) < n {
		return 0, false
	}
	v := 0
	for _, c := range s[:n] {
		d := digit(c)
		if d < 0 {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// digit is the value of c as a hex digit, or -1.
func digit(c byte) int { return strings.IndexByte("0123456789abcdef", lowerTable[c]) }

// hasPrefixFold reports whether s starts with prefix (small letters),
// ASCII case ignored.
func hasPrefixFold(s []byte, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerTable[s[i]] != prefix[i] {
			return false
		}
	}
	return true
}

// squeeze returns s without the separators of a list of numbers: a ", "
// or ',' between two decimal digits, a ' ' between two hex digits (73 6b
// 2d), so that the decimal and hex forms find a key spelled as a list of
// its bytes. It reports false, and makes nothing, when s has none.
func squeeze(s []byte) (*view, bool) {
	first := -1
	for i := 1; i+1 < len(s); i++ {
		if sepAt(s, i) > 0 {
			first = i
			break
		}
	}
	if first < 0 {
		return nil, false
	}
	v := &view{text: make([]byte, 0, len(s)), start: make([]int32, 0, len(s)), end: make([]int32, 0, len(s))}
	for i := 0; i < len(s); i++ {
		if i >= first {
			if n := sepAt(s, i); n > 0 {
				i += n - 1
				continue
			}
		}
		v.text = append(v.text, s[i])
		v.start, v.end = append(v.start, int32(i)), append(v.end, int32(i+1))
	}
	return v, true
}

// sepAt is the length of the separator of a list of numbers at s[i] (0:
// none): ',' or ", " between decimal digits, ' ' between hex digits.
func sepAt(s []byte, i int) int {
	if i == 0 || i+1 >= len(s) {
		return 0
	}
	prev := s[i-1]
	switch {
	case s[i] == ',' && isDigit(prev) && isDigit(s[i+1]):
		return 1
	case s[i] == ',' && s[i+1] == ' ' && i+2 < len(s) && isDigit(prev) && isDigit(s[i+2]):
		return 2
	case s[i] == ' ' && digit(prev) >= 0 && digit(s[i+1]) >= 0:
		return 1
	}
	return 0
}

// isDigit reports whether c is a decimal digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
