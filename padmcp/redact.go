// redact.go: the redactor of Options.Secrets.

package padmcp

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// redacted stands for a secret wherever padmcp takes one out.
const redacted = "[REDACTED]"

// newRedactor returns what takes secrets out of a text: each as it is,
// JSON-escaped, URL-escaped and in base64 (whole). It stands in for
// internal/redact, the module's one redactor, until that package lands.
func newRedactor(secrets []string) func(string) string {
	var pairs []string
	for _, s := range secrets {
		if s == "" {
			continue
		}
		j, _ := json.Marshal(s)
		forms := []string{s, string(j[1 : len(j)-1]), url.QueryEscape(s), url.PathEscape(s)}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			forms = append(forms, enc.EncodeToString([]byte(s)))
		}
		// Inside a longer base64 blob ("Basic " + base64("user:" + key)),
		// the key starts at any of three offsets of a group: the characters
		// that depend on its bytes alone are the same whatever surrounds it.
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			for shift := range 3 {
				full := enc.EncodeToString(append(make([]byte, shift), s...))
				if from, to := (shift*8+5)/6, (shift+len(s))*8/6; to-from >= 8 {
					forms = append(forms, full[from:to])
				}
			}
		}
		for _, f := range forms {
			pairs = append(pairs, f, redacted)
		}
	}
	if len(pairs) == 0 {
		return func(s string) string { return s }
	}
	r := strings.NewReplacer(pairs...)
	return r.Replace
}
