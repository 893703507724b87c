// auth_forms_test.go: the key spelled five more ways in a 401's message.

package padapi_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
)

// A 401 whose message echoes the key as space-separated hex, a Node
// Buffer in JSON or a bare array of its bytes, quoted-printable (with
// soft line breaks), octal escapes, or base64 of its UTF-16LE bytes puts
// no 8 bytes of the key in the error: 0 of 5 (issue 37 #11).
func TestKeyInFiveMoreSpellings(t *testing.T) {
	t.Parallel()
	const key = "sk_live_archive_Qz7Xw9Kp3LmN4bV8"
	each := func(format, sep string) string {
		parts := make([]string, len(key))
		for i := range len(key) {
			parts[i] = fmt.Sprintf(format, key[i])
		}
		return strings.Join(parts, sep)
	}
	wide := make([]byte, 0, 2*len(key))
	for i := range len(key) {
		wide = append(wide, key[i], 0)
	}
	qp := each("=%02X", "")
	for _, spelled := range []struct{ before, key, after string }{
		{"", each("%02x", " "), ""},
		{"<Buffer ", each("%02x", " "), ">"},
		{`{"type":"Buffer","data":[`, each("%d", ","), `]}`},
		{"[", each("%d", ", "), "]"},
		{"", qp[:60] + "=\r\n" + qp[60:], ""},
		{"", each(`\%03o`, ""), ""},
		{"", base64.StdEncoding.EncodeToString(wide), ""},
	} {
		echo := spelled.before + spelled.key + spelled.after
		// The message holds the echo as JSON text: encode it so.
		body := fmt.Sprintf(`{"status":"ERROR","message":%q}`, "bad key "+echo)
		c := serve(t, key, http.StatusUnauthorized, body, noRetry)
		_, err := c.Quota.Get(context.Background())
		var ae *padapi.APIError
		if !errors.As(err, &ae) || !errors.Is(err, padapi.ErrUnauthorized) {
			t.Fatalf("%s: err = %v, want a 401 *APIError", echo, err)
		}
		for what, text := range map[string]string{"error": err.Error(), "message": ae.Message, "body": string(ae.Body)} {
			k := spelled.key
			for _, found := range []string{k[:24], k[len(k)/2-12 : len(k)/2+12], k[len(k)-24:], key[:8]} {
				if strings.Contains(text, found) {
					t.Errorf("echo %q: the %s keeps %q: %q", echo, what, found, text)
				}
			}
		}
	}
}
