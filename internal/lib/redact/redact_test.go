// Mutation testing (make mutate, gremlins v0.6.0): 99.46 % test efficacy
// (one mutant lived), 100 % mutator coverage, 1 mutant timed out.
// Equivalent mutants, which no test can kill:
//   - runs, "i+g <= reach" made "i+g < reach": the skip is an optimisation.
//     A run that starts inside the runs found and reaches past their end
//     (reach) has a gram at reach-g+1, which both versions look at; the
//     mutant only looks at one position more (reach-g), where what it finds
//     is inside what is found anyway.
//   - decode, "w == 0" negated: it loops for ever on a text with no escape
//     (gremlins reports it TIMED OUT: the tests do notice it).

package redact

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"net/url"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// Keys of the lengths the promises name: shorter than the mark, just over
// a run, a usual API key, and a long one with every character an escape
// may stand for.
var (
	key4   = "Qz7X"
	key9   = "Qz7Xw9Kp3"
	key40  = "sk_live_Qz7Xw9Kp3LmN4bV8cR2tY6uH1jD5fG0a"
	key200 = func() string {
		const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/=<>&%!*()"
		rng := rand.New(rand.NewPCG(1, 2))
		b := make([]byte, 200)
		for i := range b {
			b[i] = chars[rng.IntN(len(chars))]
		}
		return string(b)
	}()
	keys = map[string]string{"4": key4, "9": key9, "40": key40, "200": key200}
)

// Encoders written here, apart from the package's, spell a key as a
// hostile service would.
func eachByte(s, format string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, format, s[i])
	}
	return b.String()
}

func nest(s, old, new string, rounds int) string {
	for range rounds - 1 {
		s = strings.ReplaceAll(s, old, new)
	}
	return s
}

// softBreaks cuts s into quoted-printable lines of at most 76
// characters, each but the last ended by a soft break ("=\r\n"), never
// inside an =XX.
func softBreaks(s string) string {
	var b strings.Builder
	for len(s) > 73 {
		n := 73 - 73%3
		b.WriteString(s[:n] + "=\r\n")
		s = s[n:]
	}
	return b.String() + s
}

// utf16LEBytes is s, ASCII, as UTF-16LE.
func utf16LEBytes(s string) []byte {
	var b []byte
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return b
}

// textForms are the forms of a key that the redactor replaces whole, so
// that "before " + form + " after" redacts to "before [REDACTED] after".
func textForms(key string) map[string]string {
	return map[string]string{
		"raw":                 key,
		"upper":               strings.ToUpper(key),
		"lower":               strings.ToLower(key),
		"json \\u":            eachByte(key, `\u%04x`),
		"json \\u upper hex":  eachByte(key, `\u%04X`),
		"json \\u first char": eachByte(key[:1], `\u%04x`) + key[1:],
		"json \\u every other": func() string {
			var b strings.Builder
			for i := 0; i < len(key); i++ {
				if i%2 == 0 {
					fmt.Fprintf(&b, `\u%04x`, key[i])
				} else {
					b.WriteByte(key[i])
				}
			}
			return b.String()
		}(),
		"json \\\\u twice":       nest(eachByte(key, `\u%04x`), `\`, `\\`, 2),
		"json \\\\\\\\u 3 times": nest(eachByte(key, `\u%04x`), `\`, `\\`, 3),
		"json \\\\u 4 times":     nest(eachByte(key, `\u%04x`), `\`, `\\`, 4),
		"json \\/":               strings.ReplaceAll(key, "/", `\/`),
		"percent upper":          eachByte(key, "%%%02X"),
		"percent lower":          eachByte(key, "%%%02x"),
		"percent twice":          nest(eachByte(key, "%%%02X"), "%", "%25", 2),
		"percent 3 times":        nest(eachByte(key, "%%%02X"), "%", "%25", 3),
		"query escape":           url.QueryEscape(key),
		"query escape twice":     url.QueryEscape(url.QueryEscape(key)),
		"path escape":            url.PathEscape(key),
		"html decimal":           eachByte(key, "&#%d;"),
		"html decimal padded":    eachByte(key, "&#%04d;"),
		"html hex":               eachByte(key, "&#x%x;"),
		"html hex padded":        eachByte(key, "&#x%03x;"),
		"html hex upper X":       eachByte(key, "&#X%X;"),
		"html &amp;#":            eachByte(key, "&amp;#%d;"),
		"html &amp;amp;#x":       eachByte(key, "&amp;amp;#x%x;"),
		"\\xNN":                  eachByte(key, `\x%02x`),
		"\\\\xNN":                eachByte(key, `\\x%02X`),
		"hex lower":              hex.EncodeToString([]byte(key)),
		"hex upper":              strings.ToUpper(hex.EncodeToString([]byte(key))),
		"percent of \\u":         eachByte(key, "%%5Cu%04x"),
		"\\u of percent":         eachByte(key, `\u0025%02x`),
		"html of percent":        eachByte(key, "&#37;%02X"),
		"base64":                 base64.StdEncoding.EncodeToString([]byte(key)),
		"base64 raw":             base64.RawStdEncoding.EncodeToString([]byte(key)),
		"base64url":              base64.URLEncoding.EncodeToString([]byte(key)),
		"base64url raw":          base64.RawURLEncoding.EncodeToString([]byte(key)),
		"base32":                 base32.StdEncoding.EncodeToString([]byte(key)),
		"base32 lower":           strings.ToLower(base32.StdEncoding.EncodeToString([]byte(key))),
		"base32 raw":             base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte(key)),
		"html specials":          strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(key),
		// Issue 37 #11: five more spellings.
		"hex spaced":             strings.TrimSpace(eachByte(key, "%02x ")),
		"hex spaced upper":       strings.TrimSpace(eachByte(key, "%02X ")),
		"node buffer data":       strings.TrimSuffix(eachByte(key, "%d,"), ","),
		"byte array":             strings.TrimSuffix(eachByte(key, "%d, "), ", "),
		"quoted-printable":       eachByte(key, "=%02X"),
		"quoted-printable lines": softBreaks(eachByte(key, "=%02X")),
		"octal":                  eachByte(key, `\%03o`),
		"octal short":            eachByte(key, `\%o`),
		"base64 utf-16le":        base64.StdEncoding.EncodeToString(utf16LEBytes(key)),
		"base64url utf-16le raw": base64.RawURLEncoding.EncodeToString(utf16LEBytes(key)),
	}
}

func TestEveryForm(t *testing.T) {
	t.Parallel()
	for size, key := range keys {
		r := New(key)
		for name, form := range textForms(key) {
			in := "before " + form + " after"
			want := "before " + Mark + " after"
			if got := r.String(in); got != want {
				t.Errorf("key %s, %s: String(%.300q) = %.300q, want %q", size, name, in, got, want)
			}
			if got := r.Bytes([]byte(in)); string(got) != want {
				t.Errorf("key %s, %s: Bytes = %.300q", size, name, got)
			}
			if !r.Contains(in) {
				t.Errorf("key %s, %s: Contains = false", size, name)
			}
		}
	}
}

// A space in a key may come as '+' (a form or a query).
func TestPlusForSpace(t *testing.T) {
	t.Parallel()
	const key = "pass phrase 0123 with spaces"
	r := New(key)
	for _, form := range []string{url.QueryEscape(key), strings.ReplaceAll(key, " ", "+"), strings.ReplaceAll(key, " ", "%20")} {
		if got := r.String("q=" + form + "&x=1"); got != "q="+Mark+"&x=1" {
			t.Errorf("String(%q) = %q", form, got)
		}
	}
	// Without a space in the key, '+' is itself.
	if got := New(key40).String("a+b+c"); got != "a+b+c" {
		t.Errorf("'+' decoded without a space in the key: %q", got)
	}
}

// onlyKey returns the characters of an encoding of pre+key+post that the
// key's bytes alone decide, for a binary encoding of bits bits a character.
func onlyKey(encoded string, pre, keyLen, bits int) string {
	from, to := (8*pre+bits-1)/bits, 8*(pre+keyLen)/bits
	return encoded[from:to]
}

// The key inside a longer blob, starting at every offset of the
// encoding's group: no 4 characters that depend on the key alone remain.
func TestBinaryFormsAtEveryOffset(t *testing.T) {
	t.Parallel()
	type enc struct {
		name   string
		encode func([]byte) string
		bits   int
		group  int
	}
	encs := []enc{
		{"base64", base64.StdEncoding.EncodeToString, 6, 3},
		{"base64url", base64.URLEncoding.EncodeToString, 6, 3},
		{"base64 raw", base64.RawStdEncoding.EncodeToString, 6, 3},
		{"base32", base32.StdEncoding.EncodeToString, 5, 5},
		{"base32 lower", func(b []byte) string { return strings.ToLower(base32.StdEncoding.EncodeToString(b)) }, 5, 5},
	}
	for size, key := range keys {
		r := New(key)
		for _, e := range encs {
			for pre := range 2 * e.group {
				// 0xff after the key: the character it shares with the
				// key is not the one a zero would give.
				blob := []byte(strings.Repeat("u", pre) + key + "\xfftail")
				encoded := e.encode(blob)
				in := "Basic " + encoded + " end"
				got := r.String(in)
				inner := onlyKey(encoded, pre, len(key), e.bits)
				from, to := strings.Index(encoded, inner), strings.Index(encoded, inner)+len(inner)
				if want := "Basic " + encoded[:from] + Mark + encoded[to:] + " end"; got != want {
					t.Errorf("key %s, %s at %d: %q, want %q", size, e.name, pre, got, want)
					continue
				}
				for i := 0; i+4 <= len(inner); i++ {
					if strings.Contains(got, inner[i:i+4]) {
						t.Errorf("key %s, %s at %d: %q keeps %q of the key's characters", size, e.name, pre, got, inner[i:i+4])
						break
					}
				}
			}
		}
	}
}

// keyRun reports whether s holds a run of n bytes of key, ASCII case
// ignored.
func keyRun(s, key string, n int) bool {
	s, key = strings.ToLower(s), strings.ToLower(key)
	for i := 0; i+n <= len(key); i++ {
		if strings.Contains(s, key[i:i+n]) {
			return true
		}
	}
	return false
}

// A text cut before it came here keeps no 8-byte run of the key, raw or
// in a form: not at its end (the first 30 bytes), not at its start (the
// last 30), not in its middle.
func TestCutKey(t *testing.T) {
	t.Parallel()
	key := key40
	r := New(key)
	parts := map[string]string{"head": key[:30], "tail": key[10:], "middle": key[5:25], "8 bytes": key[20:28], "last 8": key[32:], "first 8": key[:8]}
	for where, part := range parts {
		for name, form := range map[string]string{
			"raw":     part,
			"upper":   strings.ToUpper(part),
			"json":    eachByte(part, `\u%04x`),
			"percent": nest(eachByte(part, "%%%02X"), "%", "%25", 3),
			"html":    eachByte(part, "&#x%03x;"),
			"hex":     hex.EncodeToString([]byte(part)),
		} {
			for _, in := range []string{form, "x " + form, form + " y", `{"m":"` + form + `"}`} {
				got := r.String(in)
				if strings.Contains(got, form) || keyRun(got, key, 8) || !strings.Contains(got, Mark) {
					t.Errorf("%s of the key, %s: String(%q) = %q", where, name, in, got)
				}
			}
		}
	}
	// As the library reads them: a body cut at its cap, then decoded.
	for _, in := range []string{"...." + key[:30], key[31:] + "....", strings.Repeat("x", 40) + key[:9]} {
		if got := r.String(in); keyRun(got, key, 8) {
			t.Errorf("String(%q) = %q keeps 8 bytes of the key", in, got)
		}
	}
	// Seven bytes are not a run: they stay.
	if got := r.String("id " + key[3:10] + "."); got != "id "+key[3:10]+"." {
		t.Errorf("7 bytes of the key redacted: %q", got)
	}
}

// Ordinary text, escapes and encodings of other things are left alone.
func TestNoFalsePositives(t *testing.T) {
	t.Parallel()
	other := "sk_test_AAAAbbbbCCCCddddEEEEffffGGGGhhhh"
	texts := []string{
		"", "a", "plain text, nothing to see.", `a\nb %zz &amp; + \u00e9 & &# &#; &#x; \u12 \x4 %4`,
		`{"status":"ERROR","message":"Invalid API key","code":"Unauthorized"}`,
		"https://example.com/api/pads?page=2&per_page=50&sort=created_at%20desc",
		"&lt;b&gt;bold&lt;/b&gt; &quot;quoted&quot; &#169; &#x2603; &#0000065;",
		`C:\\Users\\x \\\\server\\share \"quoted\" \/path`,
		other, strings.ToUpper(other), hex.EncodeToString([]byte(other)),
		base64.StdEncoding.EncodeToString([]byte(other)), base32.StdEncoding.EncodeToString([]byte(other)),
		"sk_live", key40[:7], key40[10:17] + " " + key40[20:27], // runs of 7 bytes
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 50),
		"%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%25%252%2525%", `\\\\\\\\\\\\\\\\\\\\u`, "&amp;amp;amp;amp;amp;#",
		"0123456789abcdef0123456789ABCDEF", "é日本語🙂",
		// Texts that end inside an escape.
		"0123456789 \\", "0123456789 \\u00", "0123456789 \\x4", "0123456789 %", "0123456789 %4", "0123456789 &",
		"0123456789 &#", "0123456789 &#12", "0123456789 &#x", "0123456789 &am", "&#99999999999999999999;&#x110000;",
	}
	r := New(key40, key9)
	for _, s := range texts {
		if got := r.String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
		if r.Contains(s) {
			t.Errorf("Contains(%q) = true", s)
		}
		if b := []byte(s); len(b) > 0 && &r.Bytes(b)[0] != &b[0] {
			t.Errorf("Bytes(%q) copied a text it left unchanged", s)
		}
	}
}

// The assertions of padctl's redactor (mcp_redact.go) that this one
// replaced, on its key.
func TestPadctlForms(t *testing.T) {
	t.Parallel()
	const key = "padctl-secret-Qz7Xw9Kp3Lm"
	html := func(s string) string {
		var b strings.Builder
		for i, c := range s {
			if i%2 == 0 {
				fmt.Fprintf(&b, "&#%d;", c)
			} else {
				fmt.Fprintf(&b, "&#x%x;", c)
			}
		}
		return b.String()
	}
	r := New(key)
	for _, form := range []string{
		key,
		eachByte(key, `\u%04x`),
		eachByte(key, `\u%04X`),
		"padctl\\u002dsecret-Qz7Xw9Kp3Lm", // one character escaped
		"padctl\\\\u002dsecret\\\\u002dQz7Xw9Kp3Lm", // JSON inside JSON
		eachByte(key, "%%%02X"),
		strings.ReplaceAll(eachByte(key, "%%%02X"), "%", "%25"),
		html(key),
		base64.StdEncoding.EncodeToString([]byte(key)),
		base64.RawURLEncoding.EncodeToString([]byte(key)),
	} {
		in := `{"message":"bad key ` + form + `!"}`
		out := r.String(in)
		if strings.Contains(out, form) || out != `{"message":"bad key [REDACTED]!"}` {
			t.Errorf("String(%q) = %q", in, out)
		}
	}
	for _, s := range []string{"", "plain text", `a\nb %zz &amp; + \u00e9`} {
		if got := r.String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
	}
	// padctl kept a key less its last byte; now a run of 8 bytes is enough.
	for _, s := range []string{"padctl-secret-Qz7Xw9Kp3L", "padctl-secret-Qz7Xw9Kp3Lx"[:24]} {
		if got := r.String(s); got != Mark {
			t.Errorf("String(%q) = %q, want %q", s, got, Mark)
		}
	}
}

// The spellings of the key the library's tests of its scrub named
// (auth_test.go, hostile_test.go), each redacted here.
func TestLibraryForms(t *testing.T) {
	t.Parallel()
	for key, forms := range map[string][]string{
		"sk_live/Abc<123>&xyz": {`\u0073k_live\/Abc<123>&xyz`, eachByte("sk_live/Abc<123>&xyz", `\u%04x`), `sk_live\/Abc<123>&xyz`,
			`sk_live/Abc\u003c123\u003e\u0026xyz`, `s\u006b_live\/Abc\u003c123>&x\u0079z`},
		"sk/live+key=abc0123456789": {"sk%2flive%2bkey%3dabc0123456789", "sk/live+key%3Dabc0123456789", "%73%6b/live+key=abc0123456789",
			nest(eachByte("sk/live+key=abc0123456789", `\u%04x`), `\`, `\\`, 2)},
		`echo+K3y/<&>`: {`echo+K3y/\u003c\u0026\u003e`, "echo%2BK3y%2F%3C%26%3E"},
	} {
		r := New(key)
		for _, form := range forms {
			if got := r.String("denied for /x?key=" + form + " ok"); got != "denied for /x?key="+Mark+" ok" {
				t.Errorf("key %q, %q: %q", key, form, got)
			}
		}
	}
}

// A key that holds backslashes, JSON-escaped once or twice, and
// characters that only named entities spell.
func TestBackslashKey(t *testing.T) {
	t.Parallel()
	const key = `dom\user<&>"'`
	r := New(key)
	for _, form := range []string{
		strings.ReplaceAll(key, `\`, `\\`),
		strings.ReplaceAll(strings.ReplaceAll(key, `\`, `\\`), `\`, `\\`),
		strings.NewReplacer(`<`, "&lt;", `&`, "&amp;", `>`, "&GT;", `"`, "&quot;", `'`, "&apos;").Replace(key),
		strings.NewReplacer(`"`, `\"`, `'`, `\'`).Replace(key),
	} {
		if got := r.String("[" + form + "]"); got != "["+Mark+"]" {
			t.Errorf("String(%q) = %q", form, got)
		}
	}
}

// A run that starts inside one already found is redacted from g bytes on
// (it continues that run); elsewhere only from its form's own minimum.
func TestRunInside(t *testing.T) {
	t.Parallel()
	r := New(key40)
	h := hex.EncodeToString([]byte(key40))[:8] // 8 characters: 4 bytes
	k := pack(h)
	if n := longest(r, h, 0, k, true); n != 8 {
		t.Errorf("inside a run: %d, want 8", n)
	}
	if n := longest(r, h, 0, k, false); n != 0 {
		t.Errorf("outside a run: %d, want 0", n)
	}
	// A hex run of 8 characters after a run, not inside it, is too short.
	if got := r.String(key40 + h + " end"); got != Mark+h+" end" {
		t.Errorf("a short run after a run: %q", got)
	}
	// The hex form of a second secret, starting inside the first's run.
	hx := New("abcdefgh3132", "1234wxyz")
	if got := hx.String("abcdefgh3132" + "3334 end"); got != Mark+" end" {
		t.Errorf("a short run inside a run: %q", got)
	}
	// Two secrets, the second continuing the first: one span.
	two := New("0123456789abcdef", "cdefGHIJKLMNOPQR")
	if got := two.String("x 0123456789abcdefGHIJKLMNOPQR y"); got != "x "+Mark+" y" {
		t.Errorf("overlapping secrets: %q", got)
	}
}

func TestSecrets(t *testing.T) {
	t.Parallel()
	var none *Redactor
	for _, r := range []*Redactor{none, New(), New("")} {
		if got := r.String(key40); got != key40 || r.Contains(key40) || string(r.Bytes([]byte(key40))) != key40 || r.Cut(key40, 5) != key40[:5] {
			t.Errorf("a redactor without secrets changed %q: %q", key40, got)
		}
		var b bytes.Buffer
		if _, err := r.Writer(&b).Write([]byte(key40)); err != nil || b.String() != key40 {
			t.Errorf("a writer without secrets: %q, %v", b.String(), err)
		}
	}
	r := New(key40, "", key9, key40)
	if got := r.String(key40 + " " + key9); got != Mark+" "+Mark {
		t.Errorf("two secrets: %q", got)
	}
	// Two keys in a row are two marks; overlapping runs are one.
	if got := r.String(key40 + key40); got != Mark+Mark {
		t.Errorf("key twice: %q", got)
	}
	if got := r.String(key40[:20] + "%" + fmt.Sprintf("%02X", key40[20]) + key40[21:]); got != Mark {
		t.Errorf("a run and an escaped key over it: %q", got)
	}
}

// A one-character key made only of one character costs no more than a
// bounded number of comparisons a position, and is still found.
func TestRepeatedKey(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("a", 100)
	r := New(key)
	if got := r.String("x" + strings.Repeat("a", 1000) + "x"); got != "x"+Mark+"x" {
		t.Errorf("repeated: %q", got)
	}
	if got := r.String("x" + strings.Repeat("A", 9) + "x"); got != "x"+Mark+"x" {
		t.Errorf("9 of 100: %q", got)
	}
	if n := len(r.grams[pack("aaaaaaaa")]); n != maxRefs {
		t.Errorf("a gram at 93 places keeps %d, want %d", n, maxRefs)
	}
}

// The filter spreads the grams over its bits: most positions of a text
// stop at it.
func TestFilterSpread(t *testing.T) {
	t.Parallel()
	r := New(key40)
	set := 0
	for _, w := range r.filter {
		set += bits.OnesCount64(w)
	}
	if grams := len(r.grams); set < grams*9/10 || set > grams {
		t.Errorf("%d grams set %d bits of the filter", grams, set)
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	for size, key := range keys {
		r := New(key)
		n := 320/len(key) + 1
		for _, text := range []string{strings.Repeat(key+" ", n), strings.Repeat("é", 100) + key + strings.Repeat(key, n)} {
			for max := range 300 {
				got := r.Cut(text, max)
				if len(got) > max || !utf8.ValidString(got) || keyRun(got, key, min(8, len(key))) {
					t.Fatalf("key %s: Cut(..., %d) = %d bytes %q", size, max, len(got), got)
				}
				if full := r.String(text); !strings.HasPrefix(full, got) || len(full) > max && max > 4 && len(got) < max-3 {
					t.Fatalf("key %s: Cut(..., %d) = %q, not the longest start of %q", size, max, got, full)
				}
			}
		}
	}
	r := New(key40)
	if got := r.Cut("short", 100); got != "short" {
		t.Errorf("Cut of a short text: %q", got)
	}
	if got := r.Cut("abc", -1); got != "" {
		t.Errorf("Cut(-1): %q", got)
	}
	if got := r.Cut("aé", 2); got != "a" {
		t.Errorf("Cut inside a character: %q", got)
	}
	if got := r.Cut("aé", 3); got != "aé" {
		t.Errorf("Cut at the end: %q", got)
	}
	if got := r.Cut("\x80\x80abc", 1); got != "" {
		t.Errorf("Cut of bytes that start no character: %q", got)
	}
}

// A key split across two Writes, at every byte, raw and escaped, is
// redacted as if written at once.
func TestWriterSplitKey(t *testing.T) {
	t.Parallel()
	r := New(key40)
	for _, form := range []string{key40, eachByte(key40, `\u%04x`), eachByte(key40, "&#x%03x;"), base64.StdEncoding.EncodeToString([]byte(key40))} {
		text := `{"title":"` + form + "\"}\nnext line " + form[:20] + "\n"
		want := r.String(text)
		for i := range len(text) + 1 {
			var b bytes.Buffer
			w := r.Writer(&b)
			for _, part := range []string{text[:i], text[i:]} {
				if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if b.String() != want {
				t.Fatalf("split at %d: %q, want %q", i, b.String(), want)
			}
		}
	}
}

// A Writer writes each line as it comes, keeps back only what could still
// become a key, and writes it on Flush.
func TestWriterKeepsBackOnlyAPossibleKey(t *testing.T) {
	t.Parallel()
	r := New(key40)
	var b bytes.Buffer
	w := r.Writer(&b)
	_, _ = w.Write([]byte("fetched 50 pads...\rline: " + key40[:12]))
	if b.String() != "fetched 50 pads...\rline: " {
		t.Errorf("written before the key's end: %q", b.String())
	}
	_, _ = w.Write([]byte(key40[12:] + "\n"))
	if want := "fetched 50 pads...\rline: " + Mark + "\n"; b.String() != want {
		t.Errorf("after the line: %q, want %q", b.String(), want)
	}
	_, _ = w.Write([]byte("tail"))
	if err := w.Flush(); err != nil || !strings.HasSuffix(b.String(), "\ntail") {
		t.Errorf("Flush: %q, %v", b.String(), err)
	}
	if err := w.Flush(); err != nil || !strings.HasSuffix(b.String(), "\ntail") {
		t.Errorf("second Flush: %q, %v", b.String(), err)
	}
}

// A line with no byte that ends a key is written once it is long, but
// for its last part, which may hold a key's start: the key is still
// caught, and what is kept is bounded.
func TestWriterLongLine(t *testing.T) {
	t.Parallel()
	r := New(key40)
	var b bytes.Buffer
	w := r.Writer(&b)
	long := strings.Repeat("x", 100<<10)
	_, _ = w.Write([]byte(long + key40[:20]))
	if b.Len() == 0 || b.Len() > len(long) {
		t.Errorf("wrote %d bytes of a %d-byte line", b.Len(), len(long)+20)
	}
	if kept := len(long) + 20 - b.Len(); kept > r.hold+20 {
		t.Errorf("kept %d bytes, want at most %d", kept, r.hold+20)
	}
	_, _ = w.Write([]byte(key40[20:] + strings.Repeat("y", 100<<10)))
	_ = w.Flush()
	if want := long + Mark + strings.Repeat("y", 100<<10); b.String() != want {
		t.Errorf("long line: %d bytes, key redacted: %v", b.Len(), strings.Contains(b.String(), Mark))
	}
	// A cut that would split a key found in the line moves before it.
	b.Reset()
	_, _ = w.Write([]byte(strings.Repeat("x", 70<<10-r.hold+10) + key40 + strings.Repeat("z", r.hold)))
	_ = w.Flush()
	if strings.Contains(b.String(), key40[:8]) || !strings.Contains(b.String(), Mark) {
		t.Errorf("a key across the cut: %q", b.String()[70<<10-r.hold-10:70<<10-r.hold+60])
	}
}

// A key so long that the Writer may keep a line four times its escaped
// length keeps it whole; a span that ends where the cut falls is written
// with the part before the cut.
func TestWriterBounds(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("k", 5000)
	r := New(big)
	var b bytes.Buffer
	w := r.Writer(&b)
	_, _ = w.Write([]byte(strings.Repeat("x", 100<<10)))
	if b.Len() != 0 {
		t.Errorf("with a 5000-byte key, a 100 KiB line: %d bytes written, want it kept", b.Len())
	}
	// What follows the last separator is kept up to 64 KiB.
	r = New(key40)
	for _, c := range []struct{ before, after, written int }{{40 << 10, 30 << 10, 40<<10 + 1}, {0, 64 << 10, 1}, {0, 64<<10 + 1, 64<<10 + 2 - r.hold}} {
		b.Reset()
		w = r.Writer(&b)
		_, _ = w.Write([]byte(strings.Repeat("x", c.before) + " " + strings.Repeat("y", c.after)))
		if b.Len() != c.written {
			t.Errorf("%d bytes, a space, %d bytes: %d written, want %d", c.before, c.after, b.Len(), c.written)
		}
	}
	b.Reset()
	w = r.Writer(&b)
	pre := strings.Repeat("x", 70<<10)
	_, _ = w.Write([]byte(pre + key40 + strings.Repeat("z", r.hold)))
	if want := pre + Mark; b.String() != want {
		t.Errorf("a key that ends at the cut: %d bytes written, want %d", b.Len(), len(want))
	}
	// The longest escape the redactor undoes, across the cut.
	b.Reset()
	w = r.Writer(&b)
	long := eachByte(key40, "&amp;amp;amp;#x0000%02x;")
	_, _ = w.Write([]byte(pre + long[:len(long)/2]))
	_, _ = w.Write([]byte(long[len(long)/2:] + "z"))
	_ = w.Flush()
	if want := pre + Mark + "z"; b.String() != want {
		t.Errorf("an escaped key across the cut: %q", b.String()[len(pre)-10:])
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterError(t *testing.T) {
	t.Parallel()
	w := New(key40).Writer(failWriter{})
	if n, err := w.Write([]byte("line\n")); n != 0 || err == nil {
		t.Errorf("Write = %d, %v, want 0 and the error", n, err)
	}
	if _, err := w.Write([]byte("noend")); err != nil {
		t.Errorf("kept back: %v", err)
	}
	if err := w.Flush(); err == nil {
		t.Error("Flush: no error")
	}
}

// Many goroutines share a Redactor and a Writer (go test -race).
func TestConcurrent(t *testing.T) {
	t.Parallel()
	r := New(key40)
	var b bytes.Buffer
	w := r.Writer(&b)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if r.String(key40) != Mark {
					t.Error("String under concurrency")
				}
				_, _ = w.Write([]byte("k=" + key40 + "\n"))
			}
		})
	}
	wg.Wait()
	if strings.Count(b.String(), "k="+Mark+"\n") != 400 {
		t.Errorf("concurrent writes: %d lines", strings.Count(b.String(), "\n"))
	}
}

// The gram length and the shortest runs follow from the key's length.
func TestForms(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		key        string
		g, nForms  int
		hexMin     int
		base64Min  int
		base32Min  int
		noBinaries bool
	}{
		{key: key4, g: 4, hexMin: 8, base64Min: 4, base32Min: 5},
		{key: key9, g: 8, hexMin: 16, base64Min: 10, base32Min: 12},
		{key: key40, g: 8, hexMin: 16, base64Min: 10, base32Min: 12},
		{key: "abc", g: 3, hexMin: 6, noBinaries: true},
	} {
		r := New(c.key)
		if r.g != c.g {
			t.Errorf("key %q: gram %d, want %d", c.key, r.g, c.g)
		}
		if got := r.forms[1].min; got != c.hexMin {
			t.Errorf("key %q: hex run %d, want %d", c.key, got, c.hexMin)
		}
		// The last fold forms are base32's; the forms after them, the
		// key in decimal and base64 of its UTF-16LE bytes, fold none.
		b32 := len(r.forms) - 1
		for !r.forms[b32].fold {
			b32--
		}
		if c.noBinaries {
			for _, f := range r.forms[2 : b32+1] {
				if !f.fold || f.min != 4 {
					t.Errorf("key %q: a base64 form, or a base32 one of %d characters: %+v", c.key, f.min, f)
				}
			}
			continue
		}
		if got := r.forms[2].min; got != c.base64Min {
			t.Errorf("key %q: base64 run %d, want %d", c.key, got, c.base64Min)
		}
		if got := r.forms[b32].min; got != c.base32Min {
			t.Errorf("key %q: base32 run %d, want %d", c.key, got, c.base32Min)
		}
	}
}

// The hot path: a text with no trace of the key costs one pass.
//
// Measured on the helper machine (2 cores, go1.26, amd64) while other
// builds and mutation runs loaded it (load average 13 to 35), so absolute
// times are several times what an idle machine gives; the ratios hold:
//   - clean-1KiB: 0 allocations, 7.6-11 µs at load 13; 67-82 µs at load 35,
//     against 88-106 µs for replacer-clean-1KiB, the strings.Replacer the
//     library's scrub used before: the same cost or less (0.8x).
//   - clean-64KiB: 0 allocations, 0.61 ms at load 13 (about 9 ns a byte).
//   - escaped-1KiB (escapes, no key): about 8x clean-1KiB, 18 KiB in 8
//     allocations (the decoded views), paid only by text that has a
//     backslash, a '%' or a '&'.
//   - key200-dense-64KiB (nothing but the key): linear, 11 ms at load 13.
func BenchmarkString(b *testing.B) {
	r := New(key40)
	line := `{"id":"ABC123","title":"Interview with a candidate","state":"ended","language":"python","notes":"ok"},`
	plain := strings.Repeat(line, 11)
	escaped := strings.Repeat(`{"title":"caf\u00e9 50% &amp; more","url":"https://x.example/a%20b"},`, 20)
	for _, c := range []struct{ name, text string }{
		{"clean-1KiB", plain[:1024]},
		{"escaped-1KiB", escaped[:1024]},
		{"clean-64KiB", strings.Repeat(plain, 64)[:64<<10]},
		{"key-1KiB", plain[:1000] + key40},
		{"key200-dense-64KiB", strings.Repeat(key200, 330)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			b.ReportAllocs()
			for b.Loop() {
				_ = r.String(c.text)
			}
		})
	}
	// What the library's scrub cost before (a strings.Replacer of four
	// forms), on the clean 1 KiB, for scale.
	old := strings.NewReplacer(key40, Mark, url.QueryEscape(key40), Mark)
	b.Run("replacer-clean-1KiB", func(b *testing.B) {
		b.SetBytes(1024)
		for b.Loop() {
			_ = old.Replace(plain[:1024])
		}
	})
}

// Each escape alone: what it spells, and how long it is; w 0 for none.
func TestUnescape(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		space bool
		out   string
		w     int
	}{
		{`\u0041x`, false, "A", 6}, {`\u004f`, false, "O", 6}, {`\u004F`, false, "O", 6}, {`\u00e9`, false, "é", 6},
		{`\\\u0041`, false, "A", 8}, {`\u004g`, false, "", 0}, {`\u004`, false, "", 0}, {`\U0041`, false, "", 0},
		{`\x41`, false, "A", 4}, {`\x1g`, false, "", 0}, {`\x4`, false, "", 0}, {`\\x41`, false, "A", 5},
		{`\/`, false, "/", 2}, {`\"`, false, `"`, 2}, {`\'`, false, "'", 2}, {`\\n`, false, `\`, 2}, {`\n`, false, "", 0}, {`\`, false, "", 0},
		{"%41", false, "A", 3}, {"%4a", false, "J", 3}, {"%4G", false, "", 0}, {"%4", false, "", 0}, {"%2541", false, "%", 3},
		{"&#65;", false, "A", 5}, {"&#x41;", false, "A", 6}, {"&#X41;", false, "A", 6}, {"&#00000000000065;", false, "A", 17},
		{"&#6a;", false, "", 0}, {"&#x4g;", false, "", 0}, {"&#65", false, "", 0}, {"&#;", false, "", 0}, {"&#x;", false, "", 0},
		{"&#1114111;", false, "\U0010FFFF", 10}, {"&#1114112;", false, "", 0}, {"&#x110000;", false, "", 0},
		{"&#99999999999999999999;", false, "", 0},
		{"&amp;#65;", false, "&", 5}, {"&AMP;", false, "&", 5}, {"&lt;", false, "<", 4}, {"&Gt;", false, ">", 4},
		{"&quot;", false, `"`, 6}, {"&apos;", false, "'", 6}, {"&am", false, "", 0}, {"&", false, "", 0}, {"&x;", false, "", 0},
		{"+", true, " ", 1}, {"+", false, "", 0}, {"a", true, "", 0},
		// Octal: 1 to 3 digits, up to 0377.
		{`\163k`, false, "s", 4}, {`\0`, false, "\x00", 2}, {`\7`, false, "\x07", 2}, {`\77`, false, "?", 3},
		{`\377`, false, "\xff", 4}, {`\400`, false, " ", 3}, {`\1234`, false, "S", 4}, {`\8`, false, "", 0},
		{`\0001`, false, "\x00", 4}, {`\401`, false, " ", 3},
		{`\\163`, false, "s", 5}, {`\/0`, false, "/", 2},
		// Quoted-printable: =XX in capitals, and soft line breaks.
		{"=4A", false, "J", 3}, {"=09", false, "\t", 3}, {"=FF", false, "\xff", 3}, {"=4a", false, "", 0}, {"=G1", false, "", 0},
		{"=4", false, "", 0}, {"=", false, "", 0}, {"=\r\nx", false, "", 3}, {"=\nx", false, "", 2}, {"=\rx", false, "", 0},
		{"=\r", false, "", 0}, {"=\n", false, "", 2},
		{"=@A", false, "", 0}, {"=A@", false, "", 0}, {"=/0", false, "", 0}, {"=0:", false, "", 0},
	} {
		out, w := unescape([]byte(c.in), c.space, nil)
		if string(out) != c.out || w != c.w {
			t.Errorf("unescape(%q) = %q, %d, want %q, %d", c.in, out, w, c.out, c.w)
		}
	}
}

// A list of numbers loses its separators, and only those: ',' or ", "
// between decimal digits, ' ' between hex digits.
func TestSqueeze(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"115,107, 45":     "11510745",
		"73 6b 2D":        "736b2D",
		"[1,2]":           "[12]",
		"a b, c":          "ab, c",
		"9 ,1 ":           "9 ,1 ",
		"x,1 1,x ,":       "x,11,x ,",
		"0,9 9, 0 f F 0":  "0990fF0",
		"0/9 :0 @a `f g0": "0/9 :0 @a `f g0",
	} {
		v, ok := squeeze([]byte(in))
		got := in
		if ok {
			got = string(v.text)
			for i := range v.text {
				if in[v.start[i]] != v.text[i] || v.end[i] != v.start[i]+1 {
					t.Errorf("squeeze(%q): byte %d maps to %d..%d", in, i, v.start[i], v.end[i])
				}
			}
		}
		if got != want || ok != (want != in) {
			t.Errorf("squeeze(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestUTF16LE(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"ab":   "a\x00b\x00",
		"é":    "\xe9\x00",
		"😀":    "\x3d\xd8\x00\xde",
		"\xff": "\xff\x00",
		"":     "",
	} {
		if got := utf16LE(in); got != want {
			t.Errorf("utf16LE(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShortestRun(t *testing.T) {
	t.Parallel()
	// 1 (49) 0 (48) a (97) z (122): the shortest two in a row are "4948".
	if got := shortestRun("10az", 2, ""); got != 4 {
		t.Errorf("shortestRun = %d, want 4", got)
	}
	if got := shortestRun("za", 2, ", "); got != len("122, 97") {
		t.Errorf("shortestRun with a separator = %d", got)
	}
	if got := separated("ab", "%02x", " "); got != "61 62" {
		t.Errorf("separated = %q", got)
	}
}
