package iostreams

// The redactor is padctl's, moved here from mcp_redact.go so that every
// command's streams and the MCP server share it; internal/redact replaces
// it once that lands.

import (
	"encoding/base64"
	"io"
	"strconv"
	"strings"
)

// Redacted replaces the key wherever padctl would show it.
const Redacted = "[REDACTED]"

// Redactor takes API keys out of text, in every encoding a service's echo
// of the key can reasonably take once padctl has decoded or re-encoded it:
// as is; each character JSON-escaped (\u002d, \\u002d after a second
// encoding, \/), percent-encoded (%2D, %252D) or an HTML character
// reference (&#45; &#x2d;), mixed freely; a space as '+'; and the key's
// base64 forms. padctl does this itself rather than trusting the library's
// scrub, since what the service echoes is the service's choice.
type Redactor struct {
	keys  []string
	whole []string // encodings of whole keys: base64 forms
}

// NewRedactor returns a Redactor for keys; empty keys are ignored.
func NewRedactor(keys ...string) *Redactor {
	r := &Redactor{}
	for _, k := range keys {
		if k == "" {
			continue
		}
		r.keys = append(r.keys, k)
		encodings := []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding}
		for _, enc := range encodings {
			r.whole = append(r.whole, enc.EncodeToString([]byte(k)))
		}
		// Inside a longer blob ("Basic " + base64("user:" + key)), the
		// key starts at any of three offsets of a base64 group: the
		// characters that depend on its bytes alone are the same
		// whatever surrounds it. After the whole forms, so that those
		// are replaced whole.
		for _, enc := range encodings[:2] {
			for shift := range 3 {
				full := enc.EncodeToString(append(make([]byte, shift), k...))
				if from, to := (shift*8+5)/6, (shift+len(k))*8/6; to-from >= 8 {
					r.whole = append(r.whole, full[from:to])
				}
			}
		}
	}
	return r
}

// minWireKey is the shortest key redacted from JSON-RPC lines as a whole:
// a shorter one could match the protocol's own text ("id", "2.0") and
// break every message. Results and logs are redacted of every key.
const minWireKey = 8

// Wire returns a redactor for whole JSON-RPC lines: the keys of at least
// minWireKey bytes.
func (r *Redactor) Wire() *Redactor {
	var long []string
	for _, k := range r.keys {
		if len(k) >= minWireKey {
			long = append(long, k)
		}
	}
	return NewRedactor(long...)
}

// Redact returns s with every key, in any of its encodings, replaced.
func (r *Redactor) Redact(s string) string {
	if r == nil || len(r.keys) == 0 {
		return s
	}
	for _, w := range r.whole {
		if strings.Contains(s, w) {
			s = strings.ReplaceAll(s, w, Redacted)
		}
	}
	for _, k := range r.keys {
		s = redactKey(s, k)
	}
	return s
}

// redactKey replaces key in s, each of its characters in any encoding.
func redactKey(s, key string) string {
	// Fast path: without the key as is and without an escape character, no
	// encoded form can be there.
	if !strings.Contains(s, key) && !strings.ContainsAny(s, `\%&+`) {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c != key[0] && c != '\\' && c != '%' && c != '&' && c != '+' {
			i++
			continue
		}
		if end, ok := matchKey(s, i, key); ok {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			i, last = end, end
			continue
		}
		i++
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// matchKey reports whether key, each character in any encoding, starts at
// s[i], and where it ends.
func matchKey(s string, i int, key string) (end int, ok bool) {
	for k := 0; k < len(key); k++ {
		if i >= len(s) {
			return 0, false
		}
		if s[i] == key[k] {
			i++
			continue
		}
		c, n := decodeChar(s[i:])
		if n == 0 || c != key[k] {
			return 0, false
		}
		i += n
	}
	return i, true
}

// decodeChar decodes one encoded ASCII character at the start of s: a JSON
// escape (any number of backslashes, for JSON inside JSON), a percent
// escape (once or twice encoded), an HTML character reference, or '+' for
// a space. n is 0 when s starts with none of them.
func decodeChar(s string) (c byte, n int) {
	switch s[0] {
	case '\\':
		j := 0
		for j < len(s) && s[j] == '\\' {
			j++
		}
		if j < len(s) && s[j] == '/' {
			return '/', j + 1
		}
		if j+5 <= len(s) && s[j] == 'u' {
			if v, err := strconv.ParseUint(s[j+1:j+5], 16, 16); err == nil && v < 0x80 {
				return byte(v), j + 5
			}
		}
	case '%':
		if strings.HasPrefix(s, "%25") && len(s) >= 5 {
			if v, err := strconv.ParseUint(s[3:5], 16, 8); err == nil && v < 0x80 {
				return byte(v), 5
			}
		}
		if len(s) >= 3 {
			if v, err := strconv.ParseUint(s[1:3], 16, 8); err == nil && v < 0x80 {
				return byte(v), 3
			}
		}
	case '&':
		end := strings.IndexByte(s, ';')
		if end < 3 || end > 10 || s[1] != '#' {
			return 0, 0
		}
		num, base := s[2:end], 10
		if num[0] == 'x' || num[0] == 'X' {
			num, base = num[1:], 16
		}
		if v, err := strconv.ParseUint(num, base, 16); err == nil && v < 0x80 {
			return byte(v), end + 1
		}
	case '+':
		return ' ', 1
	}
	return 0, 0
}

// Writer returns w with the keys redacted from every Write. Each Write must
// hold whole messages or lines, as slog and the MCP transport write them.
func (r *Redactor) Writer(w io.Writer) io.Writer {
	return redactWriter{r.Redact, w}
}

// redactWriter holds its redactor behind a func, so that fmt of the
// writer (or of the factory that holds it) cannot print the keys.
type redactWriter struct {
	redact func(string) string
	w      io.Writer
}

// Write writes p redacted, and reports p's length when all of it was
// written, so that callers see a whole write.
func (w redactWriter) Write(p []byte) (int, error) {
	s := w.redact(string(p))
	if _, err := io.WriteString(w.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Keys returns the keys r takes out.
func (r *Redactor) Keys() []string { return r.keys }
