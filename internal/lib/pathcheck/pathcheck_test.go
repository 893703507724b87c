package pathcheck

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"/api/pads", "/api/pads/ABC", "/api/pads/a%20b", "/api/questions/12/"} {
		if why := Check(p); why != "" {
			t.Errorf("Check(%q) = %q, want no refusal", p, why)
		}
	}
	for p, want := range map[string]string{
		"api/pads":                             "need an escaped path starting with /",
		"/api/pads?x=1":                        "need an escaped path starting with /",
		"/api/pads/a b":                        "path has a space or control character",
		"/api/pads/%2e%2e":                     "has a . or .. segment",
		"/api/pads/%252e%252e":                 "has a . or .. segment",
		"/api/pads/a%2fb":                      "has an escaped slash or a backslash",
		"/api/pads/a;b":                        "has a ';' parameter",
		"/api/pads/%c0%ae":                     "not UTF-8",
		"/api/pads/%00":                        "NUL or another control character",
		"/api/pads/%zz":                        "has a bad escape",
		"/a%" + strings.Repeat("25", 9) + "41": "escaped more than 8 times over",
	} {
		if why := Check(p); !strings.Contains(why, want) {
			t.Errorf("Check(%q) = %q, want it to say %q", p, why, want)
		}
	}
	if why := Check("/" + strings.Repeat("a", 200) + "/%zz"); len(why) > 150 {
		t.Errorf("a long path is quoted whole: %d bytes", len(why))
	}
}

func TestBaseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://app.example.com/":    "https://app.example.com",
		"https://gw.example.com/pad/": "https://gw.example.com/pad",
		"http://127.0.0.1:8080":       "http://127.0.0.1:8080",
		"http://localhost:1":          "http://localhost:1",
	} {
		if got, err := BaseURL(raw, false); err != nil || got != want {
			t.Errorf("BaseURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, raw := range []string{"http://example.com", "https://u:secret@x.example", "https://x.example/?k=secret", "https://x.example/#secret", "https://x.example/api/", "ftp://x.example", "/relative", "://"} {
		_, err := BaseURL(raw, false)
		if err == nil || strings.Contains(err.Error(), "secret") {
			t.Errorf("BaseURL(%q) error = %v, want a refusal that quotes no secret", raw, err)
		}
	}
	if _, err := BaseURL("http://example.com", true); err != nil {
		t.Errorf("insecure http refused: %v", err)
	}
}
