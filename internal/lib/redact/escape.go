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
	if j >= 2 {
		return append(buf, '\\'), 2
	}
	return nil, 0
}

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
