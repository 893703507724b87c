// auth.go: the API key: its checks, its Authorization header, and its scrub.

package padapi

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
)

// checkAPIKey reports what is wrong with a key without ever quoting it: the
// key ends up inside a quoted header value, so a quote, a backslash or a
// control character would corrupt the header or smuggle another one in.
func checkAPIKey(key string) error {
	if key == "" {
		return fmt.Errorf("padapi: the API key is empty")
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return fmt.Errorf("padapi: the API key has a character that is not allowed at byte %d (only printable ASCII without \" or \\)", i)
		}
	}
	return nil
}

// redacted stands for the API key wherever the client scrubs it out.
const redacted = "[REDACTED]"

// credential is what the client keeps of its API key: the header that carries
// it, and what it needs to scrub the key out of text a response brings.
type credential struct {
	// header is the Authorization value the service expects.
	header string
	// redact replaces the key in the forms text may carry it in: as is,
	// URL-escaped (a query or path), JSON-escaped (<, >, & as \u003c).
	redact *strings.Replacer
	// longest is the length of the longest of those forms.
	longest int
}

func newCredential(key string) *credential {
	j, _ := json.Marshal(key)
	forms := []string{key, url.QueryEscape(key), url.PathEscape(key), string(j[1 : len(j)-1])}
	k := &credential{header: `Token token="` + key + `"`}
	var pairs []string
	for _, f := range forms {
		pairs = append(pairs, f, redacted)
		k.longest = max(k.longest, len(f))
	}
	k.redact = strings.NewReplacer(pairs...)
	// A body may spell every character as a six-byte \u escape.
	k.longest = max(k.longest, 6*len(key))
	return k
}

// scrubText returns s with the key replaced by [REDACTED], wherever it
// stands in s as it is or once s's JSON escapes or percent escapes are
// undone (a message that quotes a URL, or JSON escaped twice): then the
// undone, scrubbed text is returned, so no reader that undoes them can find
// the key. For text that is already decoded (a message, a code, an error).
func (k *credential) scrubText(s string) string {
	for range 3 { // an escape of an escape of an escape at most
		s = k.redact.Replace(s)
		if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '%') < 0 {
			return s
		}
		u := unescapeLoose(percentLoose(s))
		if k.redact.Replace(u) == u {
			return s
		}
		s = u
	}
	return k.redact.Replace(s)
}

// percentLoose undoes %XX escapes (either case) wherever they stand in s.
func percentLoose(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				out.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// scrubErr returns err as it is when its text does not hold the key, and
// otherwise an error with the scrubbed text that still matches what err
// matches (errors.Is), without exposing err itself.
func (k *credential) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	if s := err.Error(); k.scrubText(s) != s {
		return &scrubbedError{text: k.scrubText(s), err: err}
	}
	return err
}

// scrubbedError is an error whose text held the key.
type scrubbedError struct {
	text string
	err  error
}

func (e *scrubbedError) Error() string { return e.text }

// Is matches what the scrubbed error matched: context.DeadlineExceeded,
// a sentinel, a net error's kind.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.err, target) }

// scrubBody returns the bytes of a body with the key replaced wherever it
// appears, also where JSON escapes spell it ("\u0073k_live", "\/"): when
// unescaping reveals the key, the unescaped, scrubbed text is kept instead
// of the escaped bytes, so no reader that decodes them can find it. It
// returns b itself when there is nothing to scrub.
func (k *credential) scrubBody(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	s := string(b)
	if r := k.scrubText(s); r != s {
		return []byte(r)
	}
	return b
}

// unescapeLoose undoes JSON string escapes wherever they appear in s,
// whether or not s is valid JSON (a body cut at the snippet's end, an HTML
// page quoting JSON). A surrogate pair becomes its character.
func unescapeLoose(s string) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			out.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			out.WriteByte('\n')
		case 't':
			out.WriteByte('\t')
		case 'r':
			out.WriteByte('\r')
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'u':
			r, n := hexRune(s[i+1:])
			if n == 0 {
				out.WriteString(`\u`)
				continue
			}
			i += n
			if utf16.IsSurrogate(r) && strings.HasPrefix(s[i+1:], `\u`) {
				if r2, n2 := hexRune(s[i+3:]); n2 > 0 {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						r, i = pair, i+2+n2
					}
				}
			}
			out.WriteRune(r)
		default: // \" \\ \/ and anything else: the character itself
			out.WriteByte(s[i])
		}
	}
	return out.String()
}

// hexRune reads the four hex digits of a \u escape; n is 0 when there are
// not four.
func hexRune(s string) (r rune, n int) {
	if len(s) < 4 {
		return 0, 0
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	if err != nil {
		return 0, 0
	}
	return rune(v), 4
}
