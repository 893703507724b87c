package padapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
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
	// redact replaces the key in the forms a response may echo it in: as
	// is, URL-escaped (a query or path), JSON-escaped (<, >, & as \u003c).
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
	return k
}

// scrub returns b with the key replaced by [REDACTED] wherever it appears,
// or b itself when it does not.
func (k *credential) scrub(b []byte) []byte {
	s := k.redact.Replace(string(b))
	if len(s) == len(b) && s == string(b) {
		return b
	}
	return []byte(s)
}
