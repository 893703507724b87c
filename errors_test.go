// errors_test.go: tests of APIError, the sentinel errors, and what error texts say.

package padapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// sentinels are the errors an *APIError can match, by name.
var sentinels = map[string]error{
	"ErrBadRequest":       padapi.ErrBadRequest,
	"ErrUnauthorized":     padapi.ErrUnauthorized,
	"ErrForbidden":        padapi.ErrForbidden,
	"ErrNotFound":         padapi.ErrNotFound,
	"ErrOverQuota":        padapi.ErrOverQuota,
	"ErrRateLimited":      padapi.ErrRateLimited,
	"ErrInvalidArgument":  padapi.ErrInvalidArgument,
	"ErrServer":           padapi.ErrServer,
	"ErrOutcomeUnknown":   padapi.ErrOutcomeUnknown,
	"ErrResponseTooLarge": padapi.ErrResponseTooLarge,
}

// matching returns the names of the sentinels err matches, sorted.
func matching(err error) []string {
	var names []string
	for name, s := range sentinels {
		if errors.Is(err, s) {
			names = append(names, name)
		}
	}
	return names
}

var sortStrings = cmpopts.SortSlices(func(a, b string) bool { return a < b })

func TestErrorStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status  int
		body    string
		want    padapi.APIError
		matches []string
	}{
		{400, `{"status":"ERROR","message":"Unsupported language"}`,
			padapi.APIError{StatusCode: 400, Status: "ERROR", Message: "Unsupported language"}, []string{"ErrBadRequest"}},
		{401, `{"status":"ERROR","message":"Invalid API key"}`,
			padapi.APIError{StatusCode: 401, Status: "ERROR", Message: "Invalid API key"}, []string{"ErrUnauthorized"}},
		{403, `{"status":"ERROR","message":"You must be an organization owner"}`,
			padapi.APIError{StatusCode: 403, Status: "ERROR", Message: "You must be an organization owner"}, []string{"ErrForbidden"}},
		{404, `{"status":"ERROR","message":"Not found"}`,
			padapi.APIError{StatusCode: 404, Status: "ERROR", Message: "Not found"}, []string{"ErrNotFound"}},
		{429, `{"status":"ERROR","message":"Over quota"}`,
			padapi.APIError{StatusCode: 429, Status: "ERROR", Message: "Over quota"}, []string{"ErrRateLimited"}},
		{418, ``, padapi.APIError{StatusCode: 418}, nil},
		{409, `{"status":"ERROR"}`, padapi.APIError{StatusCode: 409, Status: "ERROR"}, nil},
		{410, `{"message":"gone for good"}`, padapi.APIError{StatusCode: 410, Message: "gone for good"}, nil},
		{422, `not json at all`, padapi.APIError{StatusCode: 422}, nil},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(tt.status, tt.body))
			q, err := c.Quota.Get(context.Background())
			if q != nil {
				t.Errorf("quota %+v with an error", q)
			}
			var got *padapi.APIError
			if !errors.As(err, &got) {
				t.Fatalf("error = %#v, want an *APIError", err)
			}
			want := tt.want
			want.Method, want.Path, want.Attempts, want.Body = http.MethodGet, "/api/quota", 1, []byte(tt.body)
			if diff := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(padapi.APIError{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("APIError mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.matches, matching(err), sortStrings, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("sentinels matched (-want +got):\n%s", diff)
			}
			msg := tt.want.Message
			if msg == "" {
				msg = http.StatusText(tt.status)
			}
			if want := "padapi: GET /api/quota: " + strconv.Itoa(tt.status) + ": " + msg; err.Error() != want {
				t.Errorf("error text %q, want %q", err, want)
			}
			if n := mt.GetTotalCallCount(); n != 1 {
				t.Errorf("%d calls, want 1 (4xx is not retried)", n)
			}
		})
	}
}

func TestHTMLBadGateway(t *testing.T) {
	t.Parallel()
	const page = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n"
	c, mt := newMockClient(t)
	resp := httpmock.NewStringResponse(http.StatusBadGateway, page)
	resp.Header.Set("Content-Type", "text/html")
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error = %#v, want an *APIError", err)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) {
		t.Errorf("error %v wraps a JSON syntax error", err)
	}
	if apiErr.StatusCode != http.StatusBadGateway || string(apiErr.Body) != page || apiErr.Attempts != 4 {
		t.Errorf("error = %+v, want 502 with the page as body after 4 attempts", apiErr)
	}
	if want := "padapi: GET /api/quota: 502: Bad Gateway"; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
	if diff := cmp.Diff([]string{"ErrServer"}, matching(err)); diff != "" {
		t.Errorf("sentinels matched (-want +got):\n%s", diff)
	}
}

func TestEmptyServerErrorBody(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, noRetry)
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusInternalServerError, ""))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 || len(apiErr.Body) != 0 {
		t.Fatalf("error = %#v, want an *APIError 500 with no body", err)
	}
	if want := "padapi: GET /api/quota: 500: Internal Server Error"; err.Error() != want {
		t.Errorf("error text %q, want %q", err, want)
	}
}

func TestErrorBodySnippetCapped(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	big := `{"status":"ERROR","message":"` + strings.Repeat("x", 100<<10) + `"}`
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusBadRequest, big))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("error = %#v, want an *APIError 400", err)
	}
	if len(apiErr.Body) != 64<<10 || string(apiErr.Body) != big[:64<<10] {
		t.Errorf("Body has %d bytes, want the first 64 KiB", len(apiErr.Body))
	}
}

// TestSuccessStatusNotOK covers 2xx answers that are not a success: the body
// says ERROR, or the body is not the expected JSON.
func TestSuccessStatusNotOK(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body  string
		wantStatus  string
		wantMessage string // what the message holds
	}{
		{"status ERROR", `{"status":"ERROR","message":"Pad quota exceeded"}`, "ERROR", "Pad quota exceeded"},
		{"status ERROR without message", `{"status":"ERROR"}`, "ERROR", `response status "ERROR", want "OK"`},
		{"no status", `{"pads_used":1}`, "", `response status "", want "OK"`},
		{"HTML", `<html>hello</html>`, "", "malformed response: not JSON"},
		{"empty", ``, "", "the answer has no body"},
		{"truncated JSON", `{"status":"OK","pads_used":`, "", "malformed response"},
		{"wrong type", `{"status":"OK","pads_used":"many","quota_reset_at":"2024-03-01T00:00:00Z","unlimited":true}`, "", `field "pads_used": cannot decode string as int`},
		{"array", `[1,2,3]`, "", "malformed response"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewStringResponder(http.StatusOK, tt.body))
			_, err := c.Quota.Get(context.Background())
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error = %#v, want an *APIError", err)
			}
			if apiErr.StatusCode != 200 || apiErr.Status != tt.wantStatus || !strings.Contains(apiErr.Message, tt.wantMessage) {
				t.Errorf("error = %+v, want 200, status %q, message holding %q", apiErr, tt.wantStatus, tt.wantMessage)
			}
			if len(matching(err)) != 0 {
				t.Errorf("a 200 GET matches %v", matching(err))
			}
			if n := mt.GetTotalCallCount(); n != 1 {
				t.Errorf("%d calls, want 1", n)
			}
		})
	}
}

// TestCreateAnswerUnreadable checks that a create whose 200 answer cannot be
// decoded is ErrOutcomeUnknown (the pad was probably made), while a create
// the service refused with status ERROR is not.
func TestCreateAnswerUnreadable(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewStringResponder(http.StatusOK, `<html>proxy says hi</html>`))
	_, err := createPad(c)
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 200 || !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("error = %#v, want an *APIError 200 matching ErrOutcomeUnknown", err)
	}

	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewStringResponder(http.StatusOK, `{"status":"ERROR","message":"no"}`))
	_, err = createPad(c)
	if !errors.As(err, &apiErr) || apiErr.Message != "no" || errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("error = %#v, want an *APIError \"no\" not matching ErrOutcomeUnknown", err)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d calls, want 2 (one per create)", n)
	}
}

func TestAPIErrorIs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		want   []string
	}{
		{199, nil},
		{200, nil},
		{302, nil},
		{400, []string{"ErrBadRequest"}},
		{401, []string{"ErrUnauthorized"}},
		{403, []string{"ErrForbidden"}},
		{404, []string{"ErrNotFound"}},
		{405, nil},
		{429, []string{"ErrRateLimited"}},
		{499, nil},
		{500, []string{"ErrServer"}},
		{503, []string{"ErrServer"}},
		{599, []string{"ErrServer"}},
		{600, nil},
	}
	for _, tt := range tests {
		err := error(&padapi.APIError{StatusCode: tt.status})
		if diff := cmp.Diff(tt.want, matching(err), sortStrings, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%d: sentinels matched (-want +got):\n%s", tt.status, diff)
		}
	}
}

func TestAPIErrorText(t *testing.T) {
	t.Parallel()
	e := &padapi.APIError{StatusCode: 429, Status: "ERROR", Message: "Over quota", Method: "POST", Path: "/api/pads", Attempts: 1}
	if want := "padapi: POST /api/pads: 429: Over quota"; e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if e.Unwrap() != nil {
		t.Errorf("Unwrap() = %v, want nil for an error the service reported", e.Unwrap())
	}
}

// APIError.Body prints as text, not as a list of byte values, in every
// way fmt shows it.
func TestAPIErrorBodyPrintsAsText(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, gwPrefix+"/", http.StatusOK, []byte(`{"status":"ERROR","message":"no"}`))
	_, err := c.Quota.Get(context.Background())
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want an *APIError", err)
	}
	for _, s := range []string{fmt.Sprint(apiErr.Body), fmt.Sprintf("%s", apiErr.Body), fmt.Sprintf("%+v", *apiErr), fmt.Sprintf("%v", *apiErr)} {
		if !strings.Contains(s, `"message":"no"`) || strings.Contains(s, "123 34") {
			t.Errorf("printed %q, want the body as text", s)
		}
	}
	if got := fmt.Sprintf("%x", apiErr.Body[:2]); got != "7b22" {
		t.Errorf("%%x printed %q, want hex", got)
	}
	if !bytes.HasPrefix(apiErr.Body, []byte(`{"status"`)) {
		t.Errorf("Body %q is not usable as bytes", apiErr.Body)
	}
}

// TestErrorsCarryNoQuery checks that the query string of a list call (page,
// sort) appears in no error, whatever failed.
func TestErrorsCarryNoQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		responder httpmock.Responder
		wantAPI   bool
	}{
		{"404", httpmock.NewStringResponder(404, `{"status":"ERROR","message":"Not found"}`), true},
		{"503 exhausted", busyResponder, true},
		{"decode error", httpmock.NewStringResponder(200, `{"status":"OK","pads":"x"}`), true},
		{"transport error", httpmock.NewErrorResponder(io.ErrUnexpectedEOF), false},
		{"redirect", httpmock.NewStringResponder(302, ``).HeaderSet(http.Header{"Location": {"https://evil.example/?page=3"}}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			var query string
			mt.RegisterResponder(http.MethodGet, padsURL, func(r *http.Request) (*http.Response, error) {
				query = r.URL.RawQuery
				return tt.responder(r)
			})
			_, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Page: 2, Sort: padapi.SortUpdatedDesc})
			if query != "page=2&sort=updated_at%2Cdesc" {
				t.Fatalf("request query %q, want page and sort", query)
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, form := range []string{"%v", "%+v"} {
				s := fmt.Sprintf(form, err)
				if strings.ContainsAny(s, "?") || strings.Contains(s, "page=") || strings.Contains(s, "sort=") {
					t.Errorf("fmt %s of the error holds the query: %s", form, s)
				}
			}
			var apiErr *padapi.APIError
			if errors.As(err, &apiErr) != tt.wantAPI {
				t.Fatalf("error %#v: *APIError %v, want %v", err, !tt.wantAPI, tt.wantAPI)
			}
			if tt.wantAPI && apiErr.Path != "/api/pads" {
				t.Errorf("Path = %q, want /api/pads", apiErr.Path)
			}
		})
	}
}

// Every outcome-unknown error says so in its text, a 5xx answer included.
func TestOutcomeUnknownText(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewStringResponder(http.StatusBadGateway, `<html>bad gateway</html>`))
	_, err := createPad(c)
	if !errors.Is(err, padapi.ErrOutcomeUnknown) || !strings.HasSuffix(err.Error(), ": outcome unknown") {
		t.Errorf("error %q, want ErrOutcomeUnknown saying \"outcome unknown\"", err)
	}
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadGateway {
		t.Errorf("error %#v, want an *APIError with the 502", err)
	}
}

// TestHostileHugeMessageInSuccess: a 2xx answer whose status is not OK
// carries its message into the error, cut to the same 64 KiB as an error
// body; a huge status is cut short in the message.
func TestHostileHugeMessageInSuccess(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	huge := strings.Repeat("é", 512<<10) // 1 MiB of two-byte runes
	for _, tt := range []struct{ name, body string }{
		{"message", `{"status":"ERROR","message":"` + huge + `"}`},
		{"status", `{"status":"` + huge + `"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Quota.Get(answering(http.StatusOK, []byte(tt.body)))
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error = %v, want an *APIError", err)
			}
			if len(apiErr.Message) > 64<<10 || len(apiErr.Status) > 64<<10 || len(apiErr.Body) > 64<<10 {
				t.Errorf("Message, Status and Body have %d, %d and %d bytes, want at most 64 KiB each", len(apiErr.Message), len(apiErr.Status), len(apiErr.Body))
			}
			if !strings.HasPrefix(huge, apiErr.Message) && !strings.HasPrefix(apiErr.Message, `response status "éé`) {
				t.Errorf("message %.80q... is neither the start of the service's message nor about the status", apiErr.Message)
			}
			if tt.name == "status" && len(err.Error()) > 300 {
				t.Errorf("error text is %d bytes: %.300s", len(err.Error()), err)
			}
		})
	}
}

// FuzzErrorBody sends a non-2xx answer with any body through the pipeline:
// the error is always an *APIError with the status code, the first 64 KiB
// of the body, the sentinel of the status, and a bounded text.
func FuzzErrorBody(f *testing.F) {
	for _, status := range []uint16{0, 100, 101, 104, 129, 200, 202, 299} {
		f.Add(status, []byte(`{"status":"ERROR","message":"Over quota"}`))
	}
	for _, name := range []string{"error_over_quota.json", "error_pad_not_found.json", "error_server.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint16(200), b)
	}
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, code uint16, body []byte) {
		status := 300 + int(code)%300 // every 3xx, 4xx and 5xx
		for _, post := range []bool{false, true} {
			ctx := answering(status, body)
			var err error
			if post {
				_, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
			} else {
				_, err = c.Quota.Get(ctx)
			}
			checkError(t, err, body)
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
				t.Fatalf("status %d, body %q: error %#v, want an *APIError %d", status, body, err, status)
			}
			if want := body[:min(len(body), maxErrorBody)]; !bytes.Equal(apiErr.Body, want) {
				t.Fatalf("status %d: APIError.Body has %d bytes, want the first %d of the body", status, len(apiErr.Body), len(want))
			}
			if !strings.Contains(err.Error(), " "+strconv.Itoa(status)+": ") {
				t.Fatalf("error text %.200q does not name status %d", err.Error(), status)
			}
			if errors.Is(err, padapi.ErrServer) != (status >= 500) {
				t.Fatalf("status %d: errors.Is(err, ErrServer) = %v", status, !(status >= 500))
			}
			// A create answered with a 5xx or a redirect may have been
			// carried out (a gateway answers a forwarded POST with 303).
			if unknown := post && (status >= 500 || status/100 == 3); errors.Is(err, padapi.ErrOutcomeUnknown) != unknown {
				t.Fatalf("POST %v, status %d: errors.Is(err, ErrOutcomeUnknown) = %v", post, status, !unknown)
			}
		}
	})
}

// A value the codec quotes in a decode error is cut at 64 bytes: the key
// is scrubbed before the cut, so a key the cut crosses leaves no byte of
// itself in the error, its cause or the message (issue 28 #11). Before,
// 23 of its 40 bytes showed.
func TestDecodeErrorScrubsBeforeTheCut(t *testing.T) {
	t.Parallel()
	const key = "sk_live_Qz7Xw9Kp3LmN4bV8cR2tY6uH1jD5fG0a"
	for name, body := range map[string]string{
		"created_at": `{"status":"OK","id":"X","created_at":"` + strings.Repeat("x", 40) + key + `"}`,
		"escaped":    `{"status":"OK","id":"X","created_at":"` + strings.Repeat("x", 50) + strings.ReplaceAll(key, "_", `\u005f`) + `"}`,
		"id":         `{"status":"OK","id":{"e":"` + strings.Repeat("y", 45) + key + `"}}`,
		"envelope":   `{"status":"OK","message":7,"x":"` + strings.Repeat("z", 50) + key + `"}`,
	} {
		c := serve(t, key, http.StatusOK, body, noRetry)
		_, err := c.Pads.Get(context.Background(), "X")
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v, want an *APIError", name, err)
		}
		texts := map[string]string{"Error()": err.Error(), "Message": ae.Message}
		if u := errors.Unwrap(ae); u != nil {
			texts["cause"] = u.Error()
		}
		for what, text := range texts {
			if n := longestRun(text, key); n >= 4 {
				t.Errorf("%s: %s holds %d bytes of the key: %s", name, what, n, text)
			}
		}
		if !strings.Contains(ae.Message, "[REDACTED]") && name != "envelope" {
			t.Errorf("%s: message %q, want the key's place marked", name, ae.Message)
		}
	}
}

// longestRun is the length of the longest run of key's bytes in s.
func longestRun(s, key string) int {
	best := 0
	for i := range key {
		for j := i + best + 1; j <= len(key) && strings.Contains(s, key[i:j]); j++ {
			best = j - i
		}
	}
	return best
}

// A message longer than the 64 KiB cap is cut at a rune's start: a rune
// that the cap would split is left out whole, so the message stays valid
// UTF-8 (a JSON encoder would otherwise turn the stray byte into U+FFFD,
// and a terminal into garbage).
func TestAPIErrorMessageCutAtRune(t *testing.T) {
	t.Parallel()
	msg := strings.Repeat("a", maxErrorBody-1) + "é" + strings.Repeat("b", 100) // é spans the cap
	body := `{"status":"ERROR","message":"` + msg + `"}`
	_, err := memoryClient(t).Quota.Get(answering(http.StatusOK, []byte(body)))
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("error %v, want an *APIError", err)
	}
	if !utf8.ValidString(apiErr.Message) {
		t.Errorf("message ends in %q: not valid UTF-8", apiErr.Message[len(apiErr.Message)-4:])
	}
	if want := msg[:maxErrorBody-1]; apiErr.Message != want {
		t.Errorf("message is %d bytes ending in %q, want the %d bytes before the split rune", len(apiErr.Message), apiErr.Message[max(0, len(apiErr.Message)-4):], len(want))
	}
}

// A list page that does not decode is reported from the stream: the page
// keeps only its first KiB while it streams, so the message names the
// field and quotes the bad value, past that KiB, from what the decoder
// read, with the key scrubbed out of the quote before it is cut (issue 28
// #11 for pages).
func TestPageDecodeErrorFromTheStream(t *testing.T) {
	t.Parallel()
	const key = "sk_live_Qz7Xw9Kp3LmN4bV8cR2tY6uH1jD5fG0a"
	good := strings.Repeat(`{"id":"P0","title":"`+strings.Repeat("t", 200)+`","created_at":"2024-01-01T00:00:00Z"},`, 10)
	for name, tt := range map[string]struct{ pad, field string }{
		"created_at": {`{"id":"X","created_at":"` + strings.Repeat("x", 40) + key + `"}`, `"pads.created_at": cannot decode timestamp "xxx`},
		"escaped":    {`{"id":"X","created_at":"` + strings.Repeat("x", 50) + strings.ReplaceAll(key, "_", `\u005f`) + `"}`, `"pads.created_at": cannot decode timestamp "xxx`},
		"id":         {`{"id":{"e":"` + strings.Repeat("y", 45) + key + `"}}`, `"pads.id": cannot decode ID {"e":"yyy`},
		"events":     {`{"id":"X","events":{"e":"` + strings.Repeat("z", 40) + key + `"}}`, `"pads.events": cannot decode events {"e":"zzz`},
	} {
		body := `{"status":"OK","pads":[` + good + tt.pad + `],"total":11}`
		c := serve(t, key, http.StatusOK, body, noRetry)
		_, err := c.Pads.List(context.Background(), nil)
		var ae *padapi.APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: err = %v, want an *APIError", name, err)
		}
		if !strings.Contains(ae.Message, tt.field) || !strings.Contains(ae.Message, "[REDACTED]") {
			t.Errorf("%s: message %q, want it to say %s... with the key's place marked", name, ae.Message, tt.field)
		}
		texts := map[string]string{"Error()": err.Error(), "Message": ae.Message, "cause": errors.Unwrap(ae).Error()}
		for what, text := range texts {
			if n := longestRun(text, key); n >= 4 {
				t.Errorf("%s: %s holds %d bytes of the key: %s", name, what, n, text)
			}
			if len(text) > 300 {
				t.Errorf("%s: %s is %d bytes", name, what, len(text))
			}
		}
		if len(ae.Body) > 2<<10 || !strings.HasPrefix(body, string(ae.Body)) {
			t.Errorf("%s: Body is %d bytes, want the body's start, at most its first 2 KiB", name, len(ae.Body))
		}
	}
}

// A status other than OK is the answer's meaning even beside a list that
// does not decode, whichever comes first in the page.
func TestPageStatusBesideAMalformedList(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	for _, body := range []string{
		`{"pads":[{"id":{"x":1}}],"status":"ERROR","message":"pad list is locked"}`,
		`{"status":"ERROR","pads":{"oops":true},"message":"pad list is locked"}`,
	} {
		_, err := c.Pads.List(answering(http.StatusOK, []byte(body)), nil)
		var ae *padapi.APIError
		if !errors.As(err, &ae) || ae.Status != "ERROR" || ae.Message != "pad list is locked" {
			t.Errorf("%s: err = %v, want the service's ERROR", body, err)
		}
	}
}
