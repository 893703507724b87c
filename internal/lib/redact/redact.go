// Package redact is the one key redactor of the module: it takes secrets
// (the API key) out of text, in every form a hostile service's echo of the
// key can take once something has decoded or re-encoded it, and out of
// every part of 8 bytes or more of a key that a cut left behind.
//
// A secret is found:
//   - as it is, or upper- or lower-cased (ASCII case is ignored);
//   - with any of its characters escaped, escapes mixed freely: JSON \uXXXX
//     and \/ (a run of backslashes before them, as JSON inside JSON has, is
//     one escape), \xNN, octal \NNN, percent-encoding, quoted-printable
//     (=XX, and = at a line's end, a soft line break, which spells
//     nothing), '+' for a space, HTML character references decimal or
//     hex, zero-padded or not (&#65; &#x041; &#0065;), &amp; &lt; &gt; &quot; &apos;; a text is decoded up to four
//     times, so escapes nest up to four deep, of one kind (%252541,
//     &amp;#65;) or of different kinds (%5Cu0041);
//   - as hex, either case; as base64 or base64url, with or without
//     padding, its bytes starting at any of the three offsets of a 3-byte
//     group (inside a longer blob such as "Basic " + base64("user:" + key));
//     as base32 (either case) at any of the five offsets of a 5-byte group;
//     as base64 or base64url of its UTF-16LE bytes; as hex a byte at a
//     time separated by spaces (<Buffer 73 6b ...>); as its bytes in
//     decimal separated by commas, with or without a space (a Node Buffer
//     in JSON, {"type":"Buffer","data":[115,107,...]}, or a bare array).
//
// Any run of 8 bytes or more of a secret (the whole secret when it is
// shorter) is replaced wherever it stands, in each of those forms: a text
// cut before it came to the redactor, that ends in the first 30 bytes of
// the key, keeps no 8-byte run of it. A run of fewer than 8 bytes is not:
// it would match ordinary text.
//
// What replaces a secret is Mark, in place: the rest of the text keeps its
// bytes and its escapes. Redact first, cut after: Cut does both in that
// order, so what it returns is never longer than its cap, whatever the
// length of the key.
package redact

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Mark replaces a secret, or a run of it, wherever a Redactor finds one.
const Mark = "[REDACTED]"

const (
	// minRun is the length of the shortest part of a secret that is
	// redacted on its own; a secret shorter than that is redacted whole.
	minRun = 8
	// minEncoded is the fewest characters of a binary encoding (base64,
	// base32) a secret must have to be looked for in it: fewer would
	// match ordinary words.
	minEncoded = 4
	// rounds is how many times escapes are undone at most.
	rounds = 4
	// maxRefs bounds the places a gram can stand in the forms: a secret
	// of one repeated character would otherwise make every text position
	// cost as many comparisons as the secret is long.
	maxRefs = 16
	// filterWords sizes the filter that most text positions stop at: 1<<16
	// bits (8 KiB) sit in a core's L1 cache; filterShift keeps the top 16
	// bits of a gram's hash (64 - 16), one of those bits.
	filterWords = 1 << 10
	filterShift = 48
)

// Redactor replaces secrets in text. It is immutable once made, so one
// Redactor serves any number of goroutines; a nil *Redactor redacts
// nothing.
type Redactor struct {
	// forms are the secrets' forms: as is, hex, base64, base32.
	forms []form
	// grams maps every gram (g bytes, lower-cased) of every form to where
	// it stands; filter has a bit set for each of them.
	grams  map[uint64][]ref
	filter []uint64
	// g is the gram length: the shortest run redacted, at most 8 bytes.
	g int
	// space reports whether a secret holds a space, which '+' may spell.
	space bool
	// inSpan holds the bytes that can be part of a redacted span; any
	// other byte ends a span, and a Writer may write up to one.
	inSpan [256]bool
	// hold is how much of an unfinished line a Writer keeps back at most
	// before it writes the rest.
	hold int
}

// form is one encoded form of a secret.
type form struct {
	text string // the form, lower-cased when fold
	fold bool   // compare ignoring ASCII case
	min  int    // the shortest run of text that is redacted
	// head is how much of text a run may start in: all of it, but for
	// the characters after the key's last whole one (its last bits and
	// padding), which a run may only continue into.
	head int
}

// ref is where a gram stands: in which form, at which offset.
type ref struct{ form, off int32 }

// New returns a Redactor of secrets; empty ones are ignored. A secret
// is matched byte for byte (ASCII case aside); escapes that spell a
// character (\u, &#) spell it in UTF-8.
func New(secrets ...string) *Redactor {
	r := &Redactor{g: minRun}
	seen := map[string]bool{}
	for _, s := range secrets {
		if s != "" && !seen[s] {
			seen[s] = true
			r.addSecret(s)
		}
	}
	r.index()
	return r
}

// addSecret adds the forms of one secret.
func (r *Redactor) addSecret(s string) {
	m := min(minRun, len(s))
	seen := map[form]bool{}
	add := func(f form) {
		if f.head == 0 {
			f.head = len(f.text)
		}
		if !seen[f] && len(f.text) >= f.min {
			seen[f] = true
			r.forms = append(r.forms, f)
		}
	}
	add(form{text: lower(s), fold: true, min: m})
	add(form{text: hex.EncodeToString([]byte(s)), fold: true, min: 2 * m})
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for _, f := range binaryForms(enc.EncodeToString, 6, 3, s, m) {
			add(f)
		}
	}
	for _, f := range binaryForms(base32.StdEncoding.EncodeToString, 5, 5, s, m) {
		f.text, f.fold = lower(f.text), true
		add(f)
	}
	// The bytes as decimal numbers, one after the other: what a list
	// of them (a Node Buffer as JSON, {"type":"Buffer","data":[115,107,
	// ...]}, or a bare array) is once squeezed (see squeeze), as space-
	// separated hex (<Buffer 73 6b ...>) squeezed is the hex form.
	add(form{text: separated(s, "%d", ""), min: shortestRun(s, m, "")})
	// Base64 of the key's UTF-16LE bytes (a .NET or PowerShell
	// Convert.ToBase64String(Encoding.Unicode...)): 2 bytes a character.
	wide := utf16LE(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		for _, f := range binaryForms(enc.EncodeToString, 6, 3, wide, 2*m) {
			add(f)
		}
	}
	r.space = r.space || strings.Contains(s, " ")
	// A \u or &# escape takes 6 to 8 bytes a character (more with zeros),
	// up to 4 more for each backslash, %25 or amp; of a nested one.
	r.hold = max(r.hold, 32*len(s))
}

// separated spells each byte of s in format, with sep between them.
func separated(s, format, sep string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 {
			b.WriteString(sep)
		}
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

// shortestRun is the length of the shortest run of m bytes of s as
// decimal numbers joined by sep: the shortest run of that form that is
// redacted.
func shortestRun(s string, m int, sep string) int {
	least := math.MaxInt
	for i := 0; i+m <= len(s); i++ {
		least = min(least, len(separated(s[i:i+m], "%d", sep)))
	}
	return least
}

// utf16LE is s as UTF-16, little-endian, 2 bytes a code unit; a byte that
// is not UTF-8 stands for itself.
func utf16LE(s string) string {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			r = rune(s[i])
		}
		for _, u := range utf16.AppendRune(nil, r) {
			b = append(b, byte(u), byte(u>>8))
		}
		i += w
	}
	return string(b)
}

// binaryForms returns the forms of s in a binary encoding of bits bits a
// character in groups of group bytes, with s starting at each offset of a
// group: only the characters that s's bytes alone decide, and for offset 0
// the whole encoding with its padding. None when a run of m bytes decides
// fewer than minEncoded characters.
func binaryForms(encode func([]byte) string, bits, group int, s string, m int) []form {
	least := fullChars(m, bits, group)
	if least < minEncoded {
		return nil
	}
	var forms []form
	for shift := range group {
		whole := encode(append(make([]byte, shift), s...))
		from, to := (8*shift+bits-1)/bits, 8*(shift+len(s))/bits
		f := form{whole[from:to], false, least, to - from}
		if shift == 0 {
			f.text = whole
		}
		forms = append(forms, f)
	}
	return forms
}

// fullChars is the fewest characters of an encoding of bits bits a
// character that m bytes decide alone, wherever in a group of group bytes
// they start.
func fullChars(m, bits, group int) int {
	least := math.MaxInt
	for shift := range group {
		least = min(least, 8*(shift+m)/bits-(8*shift+bits-1)/bits)
	}
	return least
}

// index builds the grams, the filter and the set of span bytes.
func (r *Redactor) index() {
	for _, f := range r.forms {
		r.g = min(r.g, f.min)
	}
	r.grams = map[uint64][]ref{}
	r.filter = make([]uint64, filterWords)
	for i, f := range r.forms {
		for off := 0; off+r.g <= f.head; off++ {
			k := pack(f.text[off : off+r.g])
			if refs := r.grams[k]; len(refs) < maxRefs {
				r.grams[k] = append(refs, ref{int32(i), int32(off)})
			}
			h := hash(k)
			r.filter[h/64] |= 1 << (h % 64)
		}
	}
	// A byte that no form and no escape holds ends a span: a Writer may
	// write up to it. A secret's own bytes, in either case, never do.
	for c := range 256 {
		r.inSpan[c] = true
	}
	for i := 0; i < len(separators); i++ {
		c := separators[i]
		r.inSpan[c] = r.inForms(c)
	}
}

// separators are the bytes that no escape and no binary encoding uses:
// white space, control characters and some punctuation.
const separators = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f !$()*,.:<>?@[]^`{|}~"

// inForms reports whether c, an ASCII byte that is not a letter, is a
// byte of one of r's forms (of a secret: no encoding uses a separator).
func (r *Redactor) inForms(c byte) bool {
	for _, f := range r.forms {
		if strings.ContainsRune(f.text, rune(c)) {
			return true
		}
	}
	return false
}

// pack puts the bytes of s (at most 8), lower-cased, into a uint64, the
// first in the lowest byte.
func pack(s string) uint64 {
	var k uint64
	for i := len(s) - 1; i >= 0; i-- {
		k = k<<8 | uint64(lowerTable[s[i]])
	}
	return k
}

// hash picks a gram's bit in the filter.
func hash(k uint64) uint64 { return k * 0x9E3779B97F4A7C15 >> filterShift }

// lowerTable maps every byte to itself, ASCII capitals to small letters.
var lowerTable = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// lower returns s with ASCII capitals as small letters.
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lowerTable[c]
	}
	return string(b)
}

// empty reports whether r has no secret to redact.
func (r *Redactor) empty() bool { return r == nil || len(r.forms) == 0 }

// String returns s with every secret, and every run of 8 bytes or more of
// one, in any of its forms, replaced by Mark. It returns s itself when there
// is nothing to replace.
func (r *Redactor) String(s string) string {
	sp := find(r, s)
	if sp == nil {
		return s
	}
	return string(replace(s, sp))
}

// Bytes is String for bytes: it returns b itself when there is nothing to
// replace, and otherwise a new slice.
func (r *Redactor) Bytes(b []byte) []byte {
	sp := find(r, b)
	if sp == nil {
		return b
	}
	return replace(b, sp)
}

// Contains reports whether s holds a secret, or a run of 8 bytes or more of
// one, in any of its forms: whether String would change it.
func (r *Redactor) Contains(s string) bool { return find(r, s) != nil }

// Cut redacts s, then cuts what is left to at most limit bytes, at a
// character boundary: the result is never longer than limit, whatever the
// length of the secrets (Mark may be longer than a short key). It adds no
// mark of its own where it cut.
func (r *Redactor) Cut(s string, limit int) string {
	s = r.String(s)
	if len(s) <= limit {
		return s
	}
	n := max(limit, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// text is what a Redactor reads.
type text interface{ ~string | ~[]byte }

// span is a part of a text to replace: its bytes a to b.
type span struct{ a, b int }

// find returns the spans of s to replace, sorted and merged, or nil.
func find[T text](r *Redactor, s T) []span {
	if r.empty() {
		return nil
	}
	sp, escaped := runs(r, s, nil, nil)
	if escaped {
		sp = decodedRuns(r, []byte(s), sp)
	}
	if v, ok := squeeze([]byte(s)); ok {
		sp, _ = runs(r, v.text, v, sp)
	}
	if len(sp) == 0 {
		return nil
	}
	return merge(sp)
}

// runs appends to sp the runs of the forms found in v, in the original
// text's bytes (v's own when m is nil, else through m), and reports whether
// v holds a character an escape starts with.
func runs[T text](r *Redactor, v T, m *view, sp []span) ([]span, bool) {
	var isEsc [256]bool
	isEsc['\\'], isEsc['%'], isEsc['&'], isEsc['='], isEsc['+'] = true, true, true, true, r.space
	escaped := false
	g := r.g
	if len(v) < g {
		return sp, false // nor will its escapes, undone, hold a run
	}
	top := 8 * (g - 1)
	var k uint64
	for i := 0; i < g-1; i++ {
		k = k>>8 | uint64(lowerTable[v[i]])<<top
		escaped = escaped || isEsc[v[i]]
	}
	// reach is the end of the runs found so far. A run that starts before
	// it and reaches past it has a gram that starts g-1 bytes before it,
	// so the positions before that are not looked at again; and a run that
	// starts before it is redacted whatever its length, as the rest of the
	// run it continues. That keeps a text made of the key linear.
	reach := 0
	for i := 0; i+g <= len(v); i++ {
		c := v[i+g-1]
		escaped = escaped || isEsc[c]
		k = k>>8 | uint64(lowerTable[c])<<top
		if h := hash(k); i+g <= reach || r.filter[h/64]&(1<<(h%64)) == 0 {
			continue
		}
		if n := longest(r, v, i, k, i < reach); n > 0 {
			sp = append(sp, m.orig(i, i+n))
			reach = max(reach, i+n)
		}
	}
	return sp, escaped
}

// longest returns the length of the longest run of a form that starts at
// v[i] and is long enough to redact (any length of g bytes or more when
// inside, as it continues a run), or 0; k is the gram at v[i].
func longest[T text](r *Redactor, v T, i int, k uint64, inside bool) int {
	best := 0
	for _, at := range r.grams[k] {
		f := &r.forms[at.form]
		n := 0
		for off := int(at.off); i+n < len(v) && off+n < len(f.text); n++ {
			c := v[i+n]
			if f.fold {
				c = lowerTable[c]
			}
			if c != f.text[off+n] {
				break
			}
		}
		if n >= f.min || inside && n >= r.g {
			best = max(best, n)
		}
	}
	return best
}

// merge sorts spans and joins those that overlap.
func merge(sp []span) []span {
	slices.SortFunc(sp, func(x, y span) int { return x.a - y.a })
	out := sp[:1]
	for _, s := range sp[1:] {
		last := &out[len(out)-1]
		if s.a < last.b {
			last.b = max(last.b, s.b)
			continue
		}
		out = append(out, s)
	}
	return out
}

// replace returns s with each span replaced by Mark.
func replace[T text](s T, sp []span) []byte {
	out := make([]byte, 0, len(s))
	last := 0
	for _, x := range sp {
		out = append(out, s[last:x.a]...)
		out = append(out, Mark...)
		last = x.b
	}
	return append(out, s[last:]...)
}
