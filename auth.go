// auth.go: the API key: its checks, its Authorization header, and its scrub.

package padapi

import (
	"errors"
	"fmt"

	"github.com/padinterview/padapi/internal/lib/redact"
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

// credential is what the client keeps of its API key: the header that carries
// it, and the redactor that scrubs it out of text a response brings.
type credential struct {
	// header is the Authorization value the service expects.
	header string
	// red finds the key in every form internal/lib/redact knows.
	red *redact.Redactor
	// longest is how far past a cut to read so that a key the cut crosses
	// is still found whole: a body may spell each character of the key as
	// an escape of up to 8 bytes (&#x0073;).
	longest int
}

func newCredential(key string) *credential {
	return &credential{header: `Token token="` + key + `"`, red: redact.New(key), longest: 8 * len(key)}
}

// scrubText returns s with the key, and any run of 8 bytes or more of it,
// replaced by [REDACTED], in whatever form it takes (escaped, encoded,
// upper-cased; see internal/lib/redact). For text that is already decoded (a
// message, a code, an error) as well as for raw bytes.
func (k *credential) scrubText(s string) string { return k.red.String(s) }

// scrubErr returns err as it is when its text does not hold the key, and
// otherwise an error with the scrubbed text that still matches what err
// matches (errors.Is), without exposing err itself.
func (k *credential) scrubErr(err error) error {
	if err == nil {
		return nil
	}
	if s := err.Error(); k.red.Contains(s) {
		return &scrubbedError{text: k.red.String(s), err: err}
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
// appears, in any form (see scrubText); the rest of the bytes stay as they
// came. It returns b itself when there is nothing to scrub, and nil for an
// empty body.
func (k *credential) scrubBody(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return k.red.Bytes(b)
}
