// hostile_test.go: the key scrub against a hostile server: the key in no error, APIError field or log line, however the server echoes it.

package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/padinterview/padapi"
)

// escapeAll spells every character of s as a JSON \u escape.
func escapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// A gateway that echoes the key in an error body with JSON escapes gets it
// into no error text, no APIError field and no log line.
func TestKeyNeverLeaksThroughJSONEscapes(t *testing.T) {
	t.Parallel()
	const key = "sk_live/Abc<123>&xyz"
	spellings := map[string]string{
		"first letter":     `\u0073k_live\/Abc<123>&xyz`,
		"every character":  escapeAll(key),
		"upper-case hex":   strings.ToUpper(escapeAll(key)[:12]) + key[2:],
		"solidus escaped":  `sk_live\/Abc<123>&xyz`,
		"html escapes":     `sk_live/Abc\u003c123\u003e\u0026xyz`,
		"mixed":            `s\u006b_live\/Abc\u003c123>&x\u0079z`,
		"plain, in a code": key,
	}
	for name, spelled := range spellings {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			body := `{"status":"ERROR","message":"bad token ` + spelled + `","code":"` + spelled + `"}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				respond(w, http.StatusUnauthorized, []byte(body))
			}))
			t.Cleanup(srv.Close)
			var logs bytes.Buffer
			for _, h := range []slog.Handler{slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}), slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})} {
				c := newTestClient(t, srv.URL, key, noRetry, padapi.WithLogger(slog.New(h)))
				_, err := c.Quota.Get(context.Background())
				var apiErr *padapi.APIError
				if !errors.As(err, &apiErr) {
					t.Fatalf("err = %v, want an *APIError", err)
				}
				for what, text := range map[string]string{
					"Error()": err.Error(), "Message": apiErr.Message, "Code": apiErr.Code,
					"Status": apiErr.Status, "Body": string(apiErr.Body), "%+v": fmt.Sprintf("%+v", *apiErr),
				} {
					if strings.Contains(text, key) || strings.Contains(unescapeJSON(text), key) {
						t.Errorf("%s holds the key: %s", what, text)
					}
				}
			}
			if strings.Contains(logs.String(), key) || strings.Contains(unescapeJSON(logs.String()), key) {
				t.Errorf("the log holds the key:\n%s", logs.String())
			}
		})
	}
}

// unescapeJSON undoes JSON string escapes as a reader of the text would.
func unescapeJSON(s string) string {
	var out string
	if json.Unmarshal([]byte(`"`+strings.NewReplacer(`"`, `\"`, "\n", `\n`).Replace(s)+`"`), &out) != nil {
		return s
	}
	return out
}

// reviewKey is the key of the tests below, which a hostile server echoes.
const reviewKey = "sk_live_0123456789abcdefghijKLMNOP"

// holdsKey reports whether s holds the key or its first half.
func holdsKey(s string) bool {
	return strings.Contains(s, reviewKey) || strings.Contains(s, reviewKey[:len(reviewKey)/2])
}

// A decoding error quotes a few bytes of the body: when they are the key,
// it is scrubbed from the message, the error, its cause and the log.
func TestKeyNeverInDecodeErrors(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"timestamp": `{"status":"OK","id":"X","created_at":"` + reviewKey + `"}`,
		"id":        `{"status":"OK","id":{"echo":"` + reviewKey + `"}}`,
		"events":    `{"status":"OK","id":"X","events":{"echo":"` + reviewKey + `"}}`,
		"a number":  `{"status":"OK","id":"X","title":` + strings.Repeat("7", 10) + `,"x":"` + reviewKey + `"}`,
	} {
		var logs bytes.Buffer
		c := serve(t, reviewKey, http.StatusOK, body, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		_, err := c.Pads.Get(context.Background(), "X")
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v, want an *APIError", name, err)
		}
		for what, text := range map[string]string{"Error()": err.Error(), "Message": ae.Message, "log": logs.String()} {
			if holdsKey(text) {
				t.Errorf("%s: %s holds the key: %.200s", name, what, text)
			}
		}
		if u := errors.Unwrap(ae); u != nil && holdsKey(u.Error()) {
			t.Errorf("%s: the cause holds the key: %.200s", name, u)
		}
	}
}

// A server that echoes the Authorization header in a malformed status line
// gets it into no transport error and no log line.
func TestKeyNeverInTransportErrors(t *testing.T) {
	t.Parallel()
	base := rawServerFunc(t, func(r *http.Request) string {
		return "BAD" + strings.ReplaceAll(r.Header.Get("Authorization"), " ", "_") + "\r\n\r\n"
	})
	var logs bytes.Buffer
	c := newTestClient(t, base, reviewKey, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, err := c.Quota.Get(context.Background())
	if err == nil || holdsKey(err.Error()) || holdsKey(logs.String()) {
		t.Errorf("err = %v\nlog:\n%s\nwant an error, and the key in neither", err, logs.String())
	}
}

// A key that crosses the 64 KiB cut of a message or of the body snippet,
// as it is or \u-escaped, leaves no part of itself behind.
func TestKeyCutAtTheCap(t *testing.T) {
	t.Parallel()
	var esc strings.Builder
	for _, r := range reviewKey {
		fmt.Fprintf(&esc, `\u%04x`, r)
	}
	for name, body := range map[string]string{
		"message": `{"status":"ERROR","message":"` + strings.Repeat("a", 64<<10-len(reviewKey)/2) + reviewKey + ` tail"}`,
		"escaped": `{"message":"` + strings.Repeat("a", 64<<10-4*len(reviewKey)-len(`{"message":"`)) + esc.String() + `"}`,
	} {
		c := serve(t, reviewKey, http.StatusUnauthorized, body, noRetry)
		_, err := c.Quota.Get(context.Background())
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v", name, err)
		}
		if holdsKey(ae.Message) || holdsKey(err.Error()) {
			t.Errorf("%s: the message keeps part of the key: ...%s", name, ae.Message[max(0, len(ae.Message)-60):])
		}
		if tail := string(ae.Body[max(0, len(ae.Body)-300):]); holdsKey(unescapeJSON(tail)) || holdsKey(tail) {
			t.Errorf("%s: the body keeps part of the key: ...%s", name, tail)
		}
	}
}

// The key echoed percent-escaped (either case, or in part), or JSON-escaped
// twice, is scrubbed as well.
func TestKeyInOtherEscapes(t *testing.T) {
	t.Parallel()
	const key = "sk/live+key=abc0123456789"
	var twice strings.Builder
	for _, r := range key {
		fmt.Fprintf(&twice, `\\u%04x`, r)
	}
	for _, echo := range []string{"sk%2flive%2bkey%3dabc0123456789", "sk/live+key%3Dabc0123456789", "%73%6b/live+key=abc0123456789", twice.String()} {
		c := serve(t, key, http.StatusForbidden, `{"status":"ERROR","message":"denied for /x?key=`+echo+`"}`, noRetry)
		_, err := c.Quota.Get(context.Background())
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v", echo, err)
		}
		for _, view := range []string{ae.Message, unescapeJSON(ae.Message), strings.ToLower(ae.Message)} {
			if strings.Contains(view, echo) || strings.Contains(view, key) {
				t.Errorf("echo %q: the message keeps the key: %q", echo, ae.Message)
			}
		}
	}
}
