package iostreams

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

func TestRedactor(t *testing.T) {
	const key = "padctl-secret-Qz7Xw9Kp3Lm"
	uesc := func(s string, upper bool) string {
		var b strings.Builder
		for _, c := range s {
			f := "\\u%04x"
			if upper {
				f = "\\u%04X"
			}
			fmt.Fprintf(&b, f, c)
		}
		return b.String()
	}
	pct := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		return b.String()
	}
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
	r := NewRedactor(key)
	for _, form := range []string{
		key,
		uesc(key, false),
		uesc(key, true),
		"padctl\\u002dsecret-Qz7Xw9Kp3Lm", // one character escaped
		"padctl\\\\u002dsecret\\\\u002dQz7Xw9Kp3Lm", // JSON inside JSON
		pct(key),
		strings.ReplaceAll(pct(key), "%", "%25"),
		html(key),
		base64.StdEncoding.EncodeToString([]byte(key)),
		base64.RawURLEncoding.EncodeToString([]byte(key)),
	} {
		in := `{"message":"bad key ` + form + `!"}`
		out := r.Redact(in)
		if strings.Contains(out, form) || !strings.Contains(out, `bad key [REDACTED]!`) {
			t.Errorf("redact(%q) = %q", in, out)
		}
	}
	for _, s := range []string{"", "plain text", `a\nb %zz &amp; + \u00e9`, "padctl-secret-Qz7Xw9Kp3L", "padctl-secret-Qz7Xw9Kp3Lx"[:24]} {
		if got := r.Redact(s); got != s {
			t.Errorf("redact(%q) = %q, want it unchanged", s, got)
		}
	}
	if w := NewRedactor("short", key).Wire(); len(w.Keys()) != 1 || w.Keys()[0] != key {
		t.Errorf("wire redactor keys %q, want only %q", w.Keys(), key)
	}
	var b bytes.Buffer
	if n, err := r.Writer(&b).Write([]byte("k=" + key + "\n")); n != len(key)+3 || err != nil || b.String() != "k=[REDACTED]\n" {
		t.Errorf("writer: %d, %v, %q", n, err, b.String())
	}
}
