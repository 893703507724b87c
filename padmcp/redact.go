// redact.go: the redactor of Options.Secrets.

package padmcp

import "github.com/padinterview/padapi/internal/lib/redact"

// redacted stands for a secret wherever padmcp takes one out.
const redacted = redact.Mark

// newRedactor returns what takes secrets out of a text: the module's one
// redactor (internal/lib/redact), in every encoding it knows, and every run of
// 8 bytes or more of a secret.
func newRedactor(secrets []string) func(string) string {
	return redact.New(secrets...).String
}
