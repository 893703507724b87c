// pads_history_test.go: tests of History: decoding, replaying, fetching a link.

package padapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// doc builds an edit-history document from entries "ID t ops...", each
// op a JSON value: doc("e1 1 \"ab\"", "e2 2 1 -1") is
// {"e1":{"a":"u","t":1,"o":["ab"]},"e2":{"a":"u","t":2,"o":[1,-1]}}.
func doc(entries ...string) string {
	var parts []string
	for _, e := range entries {
		f := strings.SplitN(e, " ", 3)
		ops := ""
		if len(f) == 3 {
			ops = opList(f[2])
		}
		parts = append(parts, fmt.Sprintf(`%q:{"a":"u","t":%s,"o":[%s]}`, f[0], f[1], ops))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// opList turns space-separated JSON values into a comma-separated list,
// keeping the spaces inside strings.
func opList(s string) string {
	dec := json.NewDecoder(strings.NewReader(s))
	var out []string
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return strings.Join(out, ",")
		}
		out = append(out, string(v))
	}
}

// replay decodes doc and replays it.
func replay(t *testing.T, doc string) (string, error) {
	t.Helper()
	var h padapi.History
	if err := json.Unmarshal([]byte(doc), &h); err != nil {
		t.Fatalf("decoding %s: %v", doc, err)
	}
	return h.Replay()
}

// Replay counts in UTF-16 code units, as the JavaScript editor does. The
// cases marked "code points differ" give another text (or an error) when
// counted in code points, as the other public client does.
func TestHistoryReplay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  string
		want string
	}{
		{"null document", `null`, ""},
		{"empty document", `{}`, ""},
		{"one insert", doc(`e1 1 "hello"`), "hello"},
		{"the rest of the text is kept", doc(`e1 1 "hello world"`, `e2 2 6 "big "`), "hello big world"},
		{"delete", doc(`e1 1 "hello world"`, `e2 2 -6`), "world"},
		{"retain to the end", doc(`e1 1 "abc"`, `e2 2 3 "d"`), "abcd"},
		{"no operations", doc(`e1 1 "abc"`, `e2 2`), "abc"},
		{"a zero operation changes nothing", doc(`e1 1 "abc"`, `e2 2 0 1 0 -1 0`), "ac"},
		{"an empty insert changes nothing", doc(`e1 1 "abc"`, `e2 2 "" 3 ""`), "abc"},
		{"insert, delete, insert", doc(`e1 1 "one two three"`, `e2 2 "zero " 4 -3 "2" 1 -5 "3"`), "zero one 2 3"},
		// An emoji is 2 code units: deleting 2 deletes the emoji alone.
		{"delete an emoji (code points differ)", doc(`e1 1 "hi 👋!"`, `e2 2 3 -2`), "hi !"},
		// Retaining 2 keeps the emoji alone.
		{"retain an emoji (code points differ)", doc(`e1 1 "👋a"`, `e2 2 2 "b"`), "👋ba"},
		{"insert after emoji (code points differ)", doc(`e1 1 "😀😀x"`, `e2 2 4 "-"`), "😀😀-x"},
		// A pair split by one entry and joined by the next comes out
		// whole: the text stays in code units between entries.
		{"a surrogate pair split then joined", doc(`e1 1 "😀"`, `e2 2 1 "x"`, `e3 3 1 -1`), "😀"},
		{"CJK counts 1 each", doc(`e1 1 "你好世界"`, `e2 2 2 -1 "們"`), "你好們界"},
		{"CJK outside the BMP counts 2", doc(`e1 1 "𠀀x"`, `e2 2 2 -1`), "𠀀"},
		{"a combining mark counts 1", doc(`e1 1 "cafe\u0301!"`, `e2 2 4 -1`), "cafe!"},
		{"a flag is 4 code units (code points differ)", doc(`e1 1 "🇫🇷!"`, `e2 2 4 "?"`), "🇫🇷?!"},
		{"a ZWJ family is 8 code units (code points differ)", doc(`e1 1 "👩‍👩‍👧 ok"`, `e2 2 8 -3`), "👩‍👩‍👧"},
		{"escaped surrogates in JSON", doc(`e1 1 "\ud83d\ude00 \u00e9"`, `e2 2 3 -1`), "😀 "},
		// Entries apply by time, not by their order in the document.
		{"time order", `{"b":{"t":2,"o":[5," world"]},"a":{"t":1,"o":["hello"]}}`, "hello world"},
		{"fractional times", `{"b":{"t":1.5,"o":[1,"b"]},"a":{"t":1,"o":["a"]},"c":{"t":1.75,"o":[2,"c"]}}`, "abc"},
		{"negative times", `{"b":{"t":0,"o":[1,"b"]},"a":{"t":-1,"o":["a"]}}`, "ab"},
		// At the same time, by entry ID, byte by byte ("-Z" < "-a").
		{"ID order at the same time", `{"k2":{"t":5,"o":[1,"2"]},"k1":{"t":5,"o":["1"]}}`, "12"},
		{"ID order is bytewise", `{"-a":{"t":5,"o":[1,"a"]},"-Z":{"t":5,"o":["Z"]}}`, "Za"},
		{"unknown fields and a numeric author", `{"e1":{"a":42,"t":1,"o":["x"],"x":{"y":[1]}}}`, "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := replay(t, tc.doc)
			if err != nil || got != tc.want {
				t.Errorf("Replay() = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// An operation past the end of the text is an error that names the entry
// and the operation, never a panic; so is an operation the decoder could
// not have made.
func TestHistoryReplayErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		h    padapi.History
		want string
	}{
		{"retain past the end", history(t, doc(`e1 1 "ab"`, `e2 2 3`)), `history entry "e2", operation 0: retain 3 runs past the end of the text (2 left)`},
		{"delete past the end", history(t, doc(`e1 1 "ab"`, `e2 2 1 -2`)), `history entry "e2", operation 1: delete 2 runs past the end of the text (1 left)`},
		{"retain past an emoji's end", history(t, doc(`e1 1 "👋"`, `e2 2 3`)), `history entry "e2", operation 0: retain 3`},
		{"retain on nothing", history(t, doc(`first 1 1`)), `history entry "first", operation 0: retain 1`},
		{"the largest retain", history(t, doc(`e1 1 "a"`, `e2 2 9223372036854775807`)), `history entry "e2", operation 0: retain 9223372036854775807`},
		{"the largest delete", history(t, doc(`e1 1 "a"`, `e2 2 -9223372036854775807`)), `history entry "e2", operation 0: delete 9223372036854775807`},
		{"a quoted ID", history(t, `{"a\"b\n":{"t":1,"o":[1]}}`), `history entry "a\"b\n", operation 0`},
		{"a negative retain", padapi.History{Entries: []padapi.HistoryEntry{padapi.NewHistoryEntry("x", "", time.Time{}, []padapi.HistoryOp{{Retain: -1}}...)}}, `history entry "x", operation 0: negative count`},
		{"a negative delete", padapi.History{Entries: []padapi.HistoryEntry{padapi.NewHistoryEntry("x", "", time.Time{}, []padapi.HistoryOp{{Insert: "a"}, {Delete: -5}}...)}}, `history entry "x", operation 1: negative count`},
		{"retain and insert", padapi.History{Entries: []padapi.HistoryEntry{padapi.NewHistoryEntry("x", "", time.Time{}, []padapi.HistoryOp{{Retain: 1, Insert: "a"}}...)}}, `history entry "x", operation 0: more than one`},
		{"retain and delete", padapi.History{Entries: []padapi.HistoryEntry{padapi.NewHistoryEntry("x", "", time.Time{}, []padapi.HistoryOp{{Insert: "ab"}, {Retain: 1, Delete: 1}}...)}}, `history entry "x", operation 1: more than one`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.h.Replay()
			if err == nil || !strings.HasPrefix(err.Error(), "padapi: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Replay() = %q, %v; want an error saying %q", got, err, tc.want)
			}
			if got != "" {
				t.Errorf("Replay() returned %q with its error", got)
			}
			if _, err := tc.h.ReplayUntil(time.Unix(1<<40, 0)); err == nil {
				t.Error("ReplayUntil past the end: no error")
			}
		})
	}
}

// A null history document is an empty history, and an empty history
// marshals back to null.
func TestHistoryNullDocument(t *testing.T) {
	t.Parallel()
	var h padapi.History
	if err := json.Unmarshal(fixture(t, "history_null.json"), &h); err != nil || len(h.Entries) != 0 {
		t.Errorf("null history: %+v, %v; want no entries", h, err)
	}
	if b, err := json.Marshal(padapi.History{}); err != nil || string(b) != "null" {
		t.Errorf("empty history marshals as %s, %v; want null", b, err)
	}
}

// history decodes an edit-history document.
func history(t *testing.T, doc string) padapi.History {
	t.Helper()
	var h padapi.History
	if err := json.Unmarshal([]byte(doc), &h); err != nil {
		t.Fatalf("decoding %s: %v", doc, err)
	}
	return h
}

// A document that is not an edit history is a decode error.
func TestHistoryDecodeErrors(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`[]`, `"x"`, `1`, `true`,
		`{"e":1}`,
		`{"e":{"o":"abc","t":1}}`,
		`{"e":{"o":[1.5],"t":1}}`,
		`{"e":{"o":[1e3],"t":1}}`,
		`{"e":{"o":[true],"t":1}}`,
		`{"e":{"o":[null],"t":1}}`,
		`{"e":{"o":[{"insert":"x"}],"t":1}}`,
		`{"e":{"o":[["x"]],"t":1}}`,
		`{"e":{"o":[-9223372036854775808],"t":1}}`,
		`{"e":{"o":[9223372036854775808],"t":1}}`,
		`{"e":{"o":[],"t":"yesterday"}}`,
		`{"e":{"o":[],"t":1e300}}`,
		`{"e":{"o":[],"t":-1e300}}`,
		`{"e":{"o":[],"t":true}}`,
		`{"e":{"o":[],"t":1},"f":{"o":[1.5],"t":2}}`,
	} {
		var h padapi.History
		if err := json.Unmarshal([]byte(doc), &h); err == nil {
			t.Errorf("%s decoded as %+v, want an error", doc, h)
		}
	}
}

// ReplayUntil stops after the last entry at or before the moment; entries
// at the same millisecond come together.
func TestHistoryReplayUntil(t *testing.T) {
	t.Parallel()
	h := historyLive()
	const (
		t1 = "def greet():\n    return 'hi 👋'\n"
		t3 = "def greet():\n    return 'hi there'\nprint(greet())\n"
	)
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Time{}, ""},
		{time.UnixMilli(1709633729999), ""},
		{time.UnixMilli(1709633730000), t1},
		{time.UnixMilli(1709633789999), t1},
		{time.UnixMilli(1709633790000), t3},
		{time.UnixMilli(1709633850000), t3},
		{time.UnixMilli(1709633850000).Add(499 * time.Microsecond), t3},
		{time.UnixMilli(1709633850000).Add(500 * time.Microsecond), mainPy},
		{time.UnixMilli(1709633850000).Add(500 * time.Microsecond).In(offset(-8, 0)), mainPy},
		{time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), mainPy},
	} {
		got, err := h.ReplayUntil(tc.at)
		if err != nil || got != tc.want {
			t.Errorf("ReplayUntil(%v) = %q, %v; want %q", tc.at, got, err, tc.want)
		}
		got, err = h.ReplayUntilContext(context.Background(), tc.at)
		if err != nil || got != tc.want {
			t.Errorf("ReplayUntilContext(%v) = %q, %v; want %q", tc.at, got, err, tc.want)
		}
	}
	if got, err := h.Replay(); err != nil || got != mainPy {
		t.Errorf("Replay() = %q, %v; want %q", got, err, mainPy)
	}
	// Replaying does not change the history: twice gives the same text.
	if again, err := h.Replay(); err != nil || again != mainPy {
		t.Errorf("second Replay() = %q, %v", again, err)
	}
}

// Operations marshal as the editor writes them, and a history survives a
// trip through its JSON: the same entries, the same text.
func TestHistoryJSON(t *testing.T) {
	t.Parallel()
	for op, want := range map[padapi.HistoryOp]string{
		{Retain: 3}:      `3`,
		{Delete: 2}:      `-2`,
		{Insert: "a\"b"}: `"a\"b"`,
		{Insert: "👋"}:    `"👋"`,
		{}:               `""`,
	} {
		if b, err := json.Marshal(op); err != nil || string(b) != want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", op, b, err, want)
		}
	}
	for _, doc := range []string{
		string(fixture(t, "history_live.json")),
		doc(`e1 0.123457 "a"`, `e2 1.1 1 "b"`, `e3 -1.5 "c"`, `e4 1709633850000.123 -1`),
		`{"e":{"t":1,"o":[]},"f":{"t":1}}`,
	} {
		h := history(t, doc)
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		again := history(t, string(b))
		if diff := cmp.Diff(h, again); diff != "" {
			t.Errorf("%s: round trip through %s changed it (-before +after):\n%s", doc, b, diff)
		}
		before, err1 := h.Replay()
		after, err2 := again.Replay()
		if before != after || (err1 == nil) != (err2 == nil) {
			t.Errorf("%s: replay %q, %v before the trip, %q, %v after", doc, before, err1, after, err2)
		}
	}
}

// historyServer serves testdata/history_live.json at /doc.json on a
// loopback http server that fails the test on any request carrying an
// Authorization header or the API key anywhere, and counts requests.
func historyServer(t *testing.T, tlsServer bool) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	doc := fixture(t, "history_live.json")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		noKey(t, r)
		if r.URL.Path != "/pads/K3P9ZR2A/main.json" {
			t.Errorf("path %q", r.URL.Path)
		}
		respond(w, http.StatusOK, doc)
	})
	var srv *httptest.Server
	if tlsServer {
		srv = httptest.NewTLSServer(h)
	} else {
		srv = httptest.NewServer(h)
	}
	t.Cleanup(srv.Close)
	return srv, &n
}

// noKey fails the test when r carries an Authorization header or the
// API key anywhere in its URL or headers.
func noKey(t *testing.T, r *http.Request) {
	t.Helper()
	if v, ok := r.Header["Authorization"]; ok {
		t.Errorf("history request carries Authorization %q", v)
	}
	var all bytes.Buffer
	_ = r.Header.Write(&all)
	if strings.Contains(all.String()+r.URL.String(), testKey) {
		t.Errorf("history request carries the API key: %s %s", r.URL, all.String())
	}
}

// Pads.History fetches the link without the API key, on plain http to a
// loopback host or on https, and decodes the document.
func TestPadsHistoryFetch(t *testing.T) {
	t.Parallel()
	for _, useTLS := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", useTLS), func(t *testing.T) {
			srv, n := historyServer(t, useTLS)
			opts := []padapi.Option{noRetry}
			if useTLS {
				opts = append(opts, padapi.WithHTTPClient(srv.Client()))
			}
			// The API's own base URL is elsewhere: the link names its host.
			c := newTestClient(t, "https://pad.example.test/gw", testKey, opts...)
			h, err := c.Pads.History(context.Background(), srv.URL+"/pads/K3P9ZR2A/main.json?auth=x#top")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(historyLive(), h); diff != "" {
				t.Errorf("history mismatch (-want +got):\n%s", diff)
			}
			if text, err := h.Replay(); err != nil || text != mainPy {
				t.Errorf("Replay() = %q, %v; want %q", text, err, mainPy)
			}
			if got := n.Load(); got != 1 {
				t.Errorf("%d requests, want 1", got)
			}
		})
	}
}

// The request is a plain GET with the client's headers but the key, and
// it goes through the caller's transport.
func TestPadsHistoryRequest(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t, padapi.WithUserAgent("scheduler/1.0"))
	const link = "https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/main.json?auth=tok&print=pretty"
	mt.RegisterResponder("GET", link, func(r *http.Request) (*http.Response, error) {
		noKey(t, r)
		if r.Body != nil && r.Body != http.NoBody {
			if b, _ := io.ReadAll(r.Body); len(b) > 0 {
				t.Errorf("body %q", b)
			}
		}
		if got := r.Header.Get("Accept"); got != "application/json" {
			t.Errorf("Accept %q", got)
		}
		if got := r.Header.Get("User-Agent"); !strings.HasPrefix(got, "scheduler/1.0 padapi-go/") {
			t.Errorf("User-Agent %q", got)
		}
		return httpmock.NewStringResponse(200, `null`), nil
	})
	h, err := c.Pads.History(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Entries) != 0 {
		t.Errorf("null document: %d entries", len(h.Entries))
	}
	if text, err := h.Replay(); text != "" || err != nil {
		t.Errorf("Replay() of no edits = %q, %v", text, err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls through the caller's transport, want 1", n)
	}
}

// A link that is not https, or plain http to a loopback host, or that
// carries user information, is refused before any request, with or
// without WithInsecureHTTP, and the refusal does not quote the link.
func TestPadsHistoryRefusedLinks(t *testing.T) {
	t.Parallel()
	for _, link := range []string{
		"",
		"/pads/K3P9ZR2A/main.json",
		"pad-history.example.com/doc.json",
		"http://pad-history.example.com/doc.json",
		"http://10.0.0.1/doc.json",
		"http://127.0.0.1.nip.io/doc.json",
		"ftp://pad-history.example.com/doc.json",
		"file:///etc/passwd",
		"javascript:alert(1)",
		"https://",
		"https:///doc.json",
		"https://user:s3cret@pad-history.example.com/doc.json",
		"https://s3cret@pad-history.example.com/doc.json",
		"http://user:s3cret@127.0.0.1/doc.json",
		"https://pad-history.example.com/%zz?s3cret",
		" https://pad-history.example.com/doc.json?s3cret",
	} {
		for _, insecure := range []bool{false, true} {
			var opts []padapi.Option
			if insecure {
				opts = append(opts, padapi.WithInsecureHTTP())
			}
			c, mt := newMockClient(t, opts...)
			h, err := c.Pads.History(context.Background(), link)
			if !errors.Is(err, padapi.ErrInvalidArgument) || h != nil {
				t.Errorf("History(%q), insecure %v: %v, %v; want ErrInvalidArgument", link, insecure, h, err)
				continue
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("History(%q): the error quotes the link: %v", link, err)
			}
			if n := mt.GetTotalCallCount(); n != 0 {
				t.Errorf("History(%q): %d requests, want 0", link, n)
			}
		}
	}
}

// Plain http is taken to every loopback host, by name or address.
func TestPadsHistoryLoopbackHTTP(t *testing.T) {
	t.Parallel()
	for _, link := range []string{
		"http://localhost:9/doc.json",
		"http://127.0.0.1:9/doc.json",
		"http://127.8.9.10/doc.json",
		"http://[::1]:9/doc.json",
	} {
		c, mt := newMockClient(t)
		mt.RegisterResponder("GET", link, httpmock.NewStringResponder(200, doc(`e1 1 "ok"`)))
		h, err := c.Pads.History(context.Background(), link)
		if err != nil {
			t.Errorf("History(%q): %v", link, err)
			continue
		}
		if text, _ := h.Replay(); text != "ok" {
			t.Errorf("History(%q) replays to %q", link, text)
		}
	}
}

// A redirect is an error, and its target is never asked: the link's host
// decides nothing about where else the client goes.
func TestPadsHistoryNoRedirect(t *testing.T) {
	t.Parallel()
	var target atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target.Add(1)
		respond(w, http.StatusOK, []byte(`null`))
	}))
	t.Cleanup(other.Close)
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/doc.json", code)
		}))
		c := newTestClient(t, testBase, testKey, fastRetry)
		_, err := c.Pads.History(context.Background(), srv.URL+"/doc.json")
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != code {
			t.Errorf("redirect %d: error %v, want an *APIError %d", code, err, code)
		}
		srv.Close()
	}
	if n := target.Load(); n != 0 {
		t.Errorf("the redirect target got %d requests, want 0", n)
	}
}

// The body is capped like every answer, with or without a Content-Length.
func TestPadsHistorySizeCap(t *testing.T) {
	t.Parallel()
	doc := doc(`e1 1 "` + strings.Repeat("x", 4<<10) + `"`)
	for _, chunked := range []bool{false, true} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if chunked {
				w.WriteHeader(http.StatusOK)
				for i := 0; i < len(doc); i += 512 {
					_, _ = io.WriteString(w, doc[i:min(i+512, len(doc))])
					w.(http.Flusher).Flush()
				}
				return
			}
			respond(w, http.StatusOK, []byte(doc))
		}))
		c := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(1<<10))
		_, err := c.Pads.History(context.Background(), srv.URL+"/doc.json")
		if !errors.Is(err, padapi.ErrResponseTooLarge) {
			t.Errorf("chunked %v: error %v, want ErrResponseTooLarge", chunked, err)
		}
		// The same document fits under a cap its size.
		c = newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(int64(len(doc))))
		if _, err := c.Pads.History(context.Background(), srv.URL+"/doc.json"); err != nil {
			t.Errorf("chunked %v, under the cap: %v", chunked, err)
		}
		srv.Close()
	}
}

// A history fetch is retried like any GET: after a 5xx or a dropped
// connection, and not after a 4xx. When retries run out the error is the
// service's last answer.
func TestPadsHistoryRetried(t *testing.T) {
	t.Parallel()
	const link = "https://pad-history.example.firebaseio.com/doc.json"
	ok := httpmock.NewStringResponder(200, doc(`e1 1 "done"`))
	for _, tc := range []struct {
		name      string
		responder httpmock.Responder
		calls     int
		is        error // nil: success
	}{
		{"503 then 200", httpmock.NewStringResponder(503, "busy").Then(ok), 2, nil},
		{"dropped then 500 then 200", httpmock.NewErrorResponder(io.ErrUnexpectedEOF).Then(httpmock.NewStringResponder(500, "oops")).Then(ok), 3, nil},
		{"always 502", httpmock.NewStringResponder(502, "<html>bad gateway</html>"), 4, padapi.ErrServer},
		{"404", httpmock.NewStringResponder(404, `{"error":"not found"}`), 1, padapi.ErrNotFound},
		{"401", httpmock.NewStringResponder(401, `{"error":"Permission denied"}`), 1, padapi.ErrUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder("GET", link, tc.responder)
			h, err := c.Pads.History(context.Background(), link)
			if n := mt.GetTotalCallCount(); n != tc.calls {
				t.Errorf("%d calls, want %d", n, tc.calls)
			}
			if tc.is == nil {
				if text, _ := h.Replay(); err != nil || text != "done" {
					t.Errorf("History: %q, %v; want \"done\"", text, err)
				}
				return
			}
			var apiErr *padapi.APIError
			if !errors.Is(err, tc.is) || !errors.As(err, &apiErr) || apiErr.Attempts != tc.calls {
				t.Errorf("error %v (%+v), want %v after %d attempts", err, apiErr, tc.is, tc.calls)
			}
		})
	}
}

// Neither the API key nor the link's query (which may hold the other
// host's token) reaches an error or a log line, even when the history host
// echoes the request back.
func TestPadsHistoryKeepsSecrets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		noKey(t, r)
		var echo bytes.Buffer
		_ = r.Write(&echo)
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write(echo.Bytes())
	}))
	t.Cleanup(srv.Close)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newTestClient(t, testBase, testKey, padapi.WithRetry(1, 0, 0), padapi.WithLogger(logger))
	_, err := c.Pads.History(context.Background(), srv.URL+"/doc.json?auth=tok-s3cret")
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 {
		t.Fatalf("error %v, want an *APIError 500", err)
	}
	for what, text := range map[string]string{"error": err.Error(), "message": apiErr.Message, "path": apiErr.Path, "logs": logs.String()} {
		if strings.Contains(text, testKey) || strings.Contains(text, "s3cret") {
			t.Errorf("the %s holds a secret: %q", what, text)
		}
	}
	if !strings.Contains(err.Error(), "/doc.json") || !strings.Contains(logs.String(), "/doc.json") {
		t.Errorf("error %q and logs %q should name the link's path", err, logs.String())
	}
}

// An answer that is no history is an error; a history whose replay fails
// decodes, and Replay names the entry.
func TestPadsHistoryAnswers(t *testing.T) {
	t.Parallel()
	const link = "https://pad-history.example.firebaseio.com/doc.json"
	c := memoryClient(t)
	for body, want := range map[string]string{
		``:                           "the answer has no body",
		`<html>hello</html>`:         "not JSON",
		`[1,2]`:                      `field "(top level)": cannot decode array as padapi.History`,
		`{"e":{"t":1,"o":[1.5]}}`:    `field "e.o": cannot decode operation 1.5 as padapi.HistoryOp`,
		`{"e":{"t":1,"o":"abc"}}`:    `field "e.o": cannot decode string as []padapi.HistoryOp`,
		`{"status":"ERROR","x":{}}`:  `field "status": cannot decode string as padapi.HistoryEntry`,
		`{"e":{"t":"noon","o":[]}}`:  `field "e.t": cannot decode timestamp "noon" as time.Time`,
		`{"e":{"t":1e300,"o":[]}}`:   `field "e.t": cannot decode timestamp 1e300 as time.Time`,
		`{"e":{"a":[],"t":1}}`:       `field "e.a": cannot decode array as string`,
		`{"e":{"t":1,"o":[]}} trail`: "not JSON",
	} {
		h, err := c.Pads.History(answering(http.StatusOK, []byte(body)), link)
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || !strings.Contains(err.Error(), want) || h != nil {
			t.Errorf("body %q: %v, %v; want an *APIError saying %q", body, h, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "Wire") {
			t.Errorf("body %q: the error names an internal type: %v", body, err)
		}
	}
	// A long entry ID is cut short in the error.
	long := strings.Repeat("k", 10<<10)
	if _, err := c.Pads.History(answering(http.StatusOK, []byte(`{"`+long+`":{"t":"x"}}`)), link); err == nil || len(err.Error()) > 1<<10 {
		t.Errorf("an error about a 10 KiB entry ID is %d bytes", len(fmt.Sprint(err)))
	}
	// json.Unmarshal gives the same errors, naming public types only.
	var h0 padapi.History
	if err := json.Unmarshal([]byte(`{"e":7}`), &h0); err == nil || !strings.Contains(err.Error(), "padapi.HistoryEntry") {
		t.Errorf("json.Unmarshal of a number entry: %v", err)
	}
	h, err := c.Pads.History(answering(http.StatusOK, []byte(doc(`e1 1 "a"`, `e2 2 5`))), link)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Replay(); err == nil || !strings.Contains(err.Error(), `"e2"`) {
		t.Errorf("Replay() error %v, want one naming e2", err)
	}
}

// A cancelled context ends the fetch with the context's error; a nil one
// is refused.
func TestPadsHistoryContext(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Pads.History(ctx, "https://h.example.com/doc.json"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	var nilCtx context.Context
	if _, err := c.Pads.History(nilCtx, "https://h.example.com/doc.json"); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("nil context: %v, want ErrInvalidArgument", err)
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d calls, want 0", n)
	}
}

// typing returns a history of edits one character each: entries of per
// edits, edits in all. Each edit, at a pseudo-random place after the
// previous one of its entry, inserts a character (now and then an emoji,
// 2 code units) or deletes one. The same arguments give the same history.
// size is the length of its text in code units.
func typing(edits, per int) (h *padapi.History, size int) {
	rng := rand.New(rand.NewPCG(uint64(edits), uint64(per)))
	h = &padapi.History{Entries: make([]padapi.HistoryEntry, 0, (edits+per-1)/per)}
	ops := make([]padapi.HistoryOp, 0, 2*edits)
	start := time.UnixMilli(1709633730000).UTC()
	for done := 0; done < edits; {
		n := min(per, edits-done)
		first, pos := len(ops), 0
		for j := range n {
			// Spread the entry's edits over what is left of the text.
			if gap := rng.IntN((size-pos)/(n-j) + 1); gap > 0 {
				ops = append(ops, padapi.HistoryOp{Retain: gap})
				pos += gap
			}
			switch {
			case pos < size && rng.IntN(4) == 0:
				ops = append(ops, padapi.HistoryOp{Delete: 1})
				size--
			case rng.IntN(64) == 0:
				ops = append(ops, padapi.HistoryOp{Insert: "👋"})
				pos, size = pos+2, size+2
			default:
				ops = append(ops, padapi.HistoryOp{Insert: string(rune('a' + rng.IntN(26)))})
				pos, size = pos+1, size+1
			}
		}
		h.Entries = append(h.Entries, padapi.NewHistoryEntry("e", "u", start.Add(time.Duration(len(h.Entries))*time.Millisecond), ops[first:]...))
		done += n
	}
	return h, size
}

// BenchmarkReplay replays 10 000, 100 000 and 1 000 000 one-character
// edits, one edit an entry (typing, where each entry rewrites the text
// once) and all in one entry.
func BenchmarkReplay(b *testing.B) {
	for _, edits := range []int{10_000, 100_000, 1_000_000} {
		for _, shape := range []struct {
			name string
			per  int
		}{{"entry-per-edit", 1}, {"one-entry", edits}} {
			b.Run(fmt.Sprintf("%s/edits=%d", shape.name, edits), func(b *testing.B) {
				h, _ := typing(edits, shape.per)
				b.ResetTimer()
				for range b.N {
					if _, err := h.Replay(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// randomHistory returns a history of entries pseudo-random edits each,
// of any length: inserts of up to maxInsert characters (some outside the
// BMP, some invalid UTF-8), deletes of any length, now and then of
// everything, and retains between them. Its times repeat, so that
// ReplayUntil takes several entries at once.
func randomHistory(seed uint64, entries, maxInsert int) *padapi.History {
	rng := rand.New(rand.NewPCG(seed, 1))
	alphabet := []string{"a", "b", "é", "你", "👋", "🇫🇷", "\xff", "\n"}
	units := make([]int, len(alphabet)) // the UTF-16 code units of each
	for i, a := range alphabet {
		units[i] = len(utf16.Encode([]rune(a)))
	}
	h := &padapi.History{}
	size := 0
	for i := range entries {
		var ops []padapi.HistoryOp
		pos := 0
		for range rng.IntN(8) {
			if gap := rng.IntN(size - pos + 1); gap > 0 && rng.IntN(3) > 0 {
				ops = append(ops, padapi.HistoryOp{Retain: gap})
				pos += gap
			}
			switch r := rng.IntN(10); {
			case r < 3 && pos < size:
				n := 1 + rng.IntN(size-pos)
				if rng.IntN(4) > 0 {
					n = 1 + rng.IntN(min(size-pos, 1+maxInsert/4))
				}
				ops = append(ops, padapi.HistoryOp{Delete: n})
				size -= n
			case r == 3 && pos == 0 && size > 0:
				ops = append(ops, padapi.HistoryOp{Delete: size}) // everything
				size = 0
			default:
				var b strings.Builder
				n := 0
				for range rng.IntN(maxInsert + 1) {
					i := rng.IntN(len(alphabet))
					b.WriteString(alphabet[i])
					n += units[i]
				}
				ops = append(ops, padapi.HistoryOp{Insert: b.String()})
				pos, size = pos+n, size+n
			}
		}
		if rng.IntN(2) == 0 && pos < size {
			ops = append(ops, padapi.HistoryOp{Retain: size - pos})
		}
		h.Entries = append(h.Entries, padapi.NewHistoryEntry(fmt.Sprintf("e%06d", i), "", time.UnixMilli(int64(i/3)).UTC(), ops...))
	}
	return h
}

// Replay and ReplayUntil give what the plain replay gives (one copy of the
// text an entry, refReplay), on texts small and large enough to fill
// many leaves and levels of the replay's tree, with deletes that empty it
// and astral characters whose halves operations split.
func TestHistoryReplayMatchesPlainReplay(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name               string
		entries, maxInsert int
		seeds              uint64
	}{
		{"short texts", 40, 8, 200},
		{"one leaf and a few", 60, 400, 30},
		{"many leaves", 100, 2000, 4},
		// Up to 300 000 code units: inner nodes split below the root.
		{"deep tree", 24, 10000, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := range tc.seeds {
				h := randomHistory(seed, tc.entries, tc.maxInsert)
				got, err := h.Replay()
				want, ok := refReplay(h.Entries, nil)
				if err != nil || !ok || got != want {
					t.Fatalf("seed %d: Replay() = %d bytes, %v; the plain replay gives %d bytes, %v", seed, len(got), err, len(want), ok)
				}
				at := h.Entries[len(h.Entries)/2].Time
				got, err = h.ReplayUntil(at)
				want, _ = refReplay(h.Entries, &at)
				if err != nil || got != want {
					t.Fatalf("seed %d: ReplayUntil(%v) = %d bytes, %v; the plain replay gives %d bytes", seed, at, len(got), err, len(want))
				}
			}
		})
	}
}

// A history of many entries replays in time linear in its operations.
// Time on a shared machine proves nothing (a million edits replay in about
// 0.15 s, 2 s under -race, and over 30 s under -race on a loaded 2-core
// runner), so the test counts what a replay allocates instead: about 16
// bytes an operation, the same at 50 000 and at 1 000 000 edits. A replay
// that copies the text once an entry, as before (11 s for a million),
// allocates the whole text again for every entry: some 200 000 bytes an
// operation at the 200 000 edits here. The name keeps docs/reliability.md's figure;
// BenchmarkReplay measures the million.
//
// Not parallel: allocated counts what the whole process allocates.
func TestHistoryReplayMillionEdits(t *testing.T) {
	const edits, perOp = 200_000, 64
	h, size := typing(edits, 1)
	// The deadline only guards against a hang.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	var text string
	var err error
	bytes := allocated(1, func() { text, err = h.ReplayContext(ctx) })
	if err != nil {
		t.Fatalf("ReplayContext: %v", err)
	}
	if n := len(utf16.Encode([]rune(text))); n != size {
		t.Errorf("replayed text is %d code units, want %d", n, size)
	}
	if bytes > edits*perOp {
		t.Errorf("replaying %d edits allocated %d bytes, %d an edit; want at most %d an edit", edits, bytes, bytes/edits, perOp)
	}
}

// countingContext is a context whose Err reports context.Canceled from
// its after+1th call on, and counts the calls.
type countingContext struct {
	context.Context
	after int32
	calls atomic.Int32
}

func (c *countingContext) Err() error {
	if c.calls.Add(1) > c.after {
		return context.Canceled
	}
	return nil
}

// A replay looks at its context before it starts and then every few
// thousand operations: cancelled, it stops there with an error wrapping
// the context's, and no text.
func TestHistoryReplayContextCancelled(t *testing.T) {
	t.Parallel()
	h, _ := typing(200_000, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	for name, replay := range map[string]func() (string, error){
		"ReplayContext":      func() (string, error) { return h.ReplayContext(ctx) },
		"ReplayUntilContext": func() (string, error) { return h.ReplayUntilContext(ctx, time.Now()) },
	} {
		if text, err := replay(); !errors.Is(err, context.Canceled) || text != "" || !strings.HasPrefix(err.Error(), "padapi: ") {
			t.Errorf("%s with a cancelled context = %d bytes, %v; want context.Canceled", name, len(text), err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("cancelled replays took %v", d)
	}
	// So is a history too short for a look during the replay.
	if text, err := historyLive().ReplayContext(ctx); !errors.Is(err, context.Canceled) || text != "" {
		t.Errorf("a short replay with a cancelled context = %q, %v; want context.Canceled", text, err)
	}
	// Cancelled during the replay: it stops at its next look, long before
	// the end of the 400 000 operations (its first look is the start).
	for _, after := range []int32{1, 3} {
		cc := &countingContext{Context: context.Background(), after: after}
		text, err := h.ReplayContext(cc)
		if !errors.Is(err, context.Canceled) || text != "" {
			t.Errorf("cancelled after %d looks: %d bytes, %v; want context.Canceled", after, len(text), err)
		}
		if n := cc.calls.Load(); n != after+1 {
			t.Errorf("cancelled after %d looks: %d looks, want %d", after, n, after+1)
		}
	}
	// Not cancelled, the same replay looks about once every 4 096
	// operations: often enough to stop within milliseconds, seldom enough
	// to cost nothing.
	cc := &countingContext{Context: context.Background(), after: 1 << 30}
	if _, err := h.ReplayContext(cc); err != nil {
		t.Fatal(err)
	}
	if n := cc.calls.Load(); n < 50 || n > 1000 {
		t.Errorf("%d looks at the context over about 500 000 operations", n)
	}
	var nilCtx context.Context
	if _, err := h.ReplayContext(nilCtx); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("nil context: %v, want ErrInvalidArgument", err)
	}
}

// An entry's time is its milliseconds, a fraction of them rounded to the
// nearest nanosecond, halves to the later one; truncating would turn
// 1500.6 into 1500.599999 (0.6 is 0.5999999999999091 in binary).
func TestHistoryTimesRounded(t *testing.T) {
	t.Parallel()
	ms := func(n int64) time.Time { return time.UnixMilli(n).UTC() }
	for _, tc := range []struct {
		t    string
		want time.Time
	}{
		{`1500`, ms(1500)},
		{`1500.6`, ms(1500).Add(600 * time.Microsecond)},
		{`"1500.6"`, ms(1500).Add(600 * time.Microsecond)},
		{`0.123457`, ms(0).Add(123457)},
		// 2^-20 ms is 0.95367431640625 ns exactly: up to 1 ns.
		{`1500.00000095367431640625`, ms(1500).Add(1)},
		// 2^-21 ms is 0.476837158203125 ns exactly: down to 0.
		{`1500.000000476837158203125`, ms(1500)},
		// 1/128 ms is 7812.5 ns exactly: a half, up.
		{`1500.0078125`, ms(1500).Add(7813)},
		{`-1500.6`, ms(-1501).Add(400 * time.Microsecond)},
		// -1500.0078125 ms is -1500007812.5 ns: a half, up too.
		{`-1500.0078125`, ms(-1500).Add(-7812)},
		{`1709633850000.5`, ms(1709633850000).Add(500 * time.Microsecond)},
	} {
		h := history(t, `{"e":{"t":`+tc.t+`,"o":[]}}`)
		if got := h.Entries[0].Time; !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("t %s: time %v (%d ns), want %v (%d ns)", tc.t, got, got.UnixNano(), tc.want, tc.want.UnixNano())
		}
	}
}

// historyLink is the link the fuzz targets fetch; memoryClient answers
// it like any request.
const historyLink = "https://pad-history.example.test/pads/P1/main.json?auth=tok"

// historySeeds are edit-history documents beyond testdata's: the replay
// cases that count code units, and the errors.
var historySeeds = []string{
	`{}`,
	`{"e1":{"a":"u","t":1,"o":["hi 👋!"]},"e2":{"a":"u","t":2,"o":[3,-2]}}`,
	`{"e1":{"t":1,"o":["😀"]},"e2":{"t":2,"o":[1,"x"]},"e3":{"t":3,"o":[1,-1]}}`,
	`{"e1":{"t":1,"o":["\ud83d"]},"e2":{"t":2,"o":[1,"\ude00"]}}`,
	`{"-a":{"t":5,"o":[1,"a"]},"-Z":{"t":5,"o":["Z"]}}`,
	`{"b":{"t":1.5,"o":[1,"b"]},"a":{"t":1,"o":["a"]},"c":{"t":"1.75","o":[2,"c"]}}`,
	`{"e1":{"t":1,"o":["ab"]},"e2":{"t":2,"o":[3]}}`,
	`{"e1":{"t":1,"o":["a"]},"e2":{"t":2,"o":[9223372036854775807]}}`,
	`{"e1":{"t":1,"o":[-9223372036854775807]}}`,
	`{"e":{"t":0.123457,"o":[0,"",0]}}`,
	`{"e":{"t":-1.5,"o":null,"a":12}}`,
	`{"e":{"o":[1.5],"t":1}}`,
	`{"e":7}`,
	`[1]`,
}

// addHistorySeeds adds testdata's history documents and historySeeds.
func addHistorySeeds(f *testing.F) {
	addFiles(f, "history_*.json")
	for _, s := range historySeeds {
		f.Add([]byte(s))
	}
}

// refReplay replays entries in the order given, up to and including the
// last at or before until (all of them when until is nil), the plain way:
// the text as UTF-16 code units, one operation after the other. ok is
// false when an operation runs past the end.
func refReplay(entries []padapi.HistoryEntry, until *time.Time) (text string, ok bool) {
	// Each entry copies the text into out, the other of two buffers kept
	// from entry to entry: a copy an entry, without an allocation each.
	var units, out []uint16
	for _, e := range entries {
		if until != nil && e.Time.After(*until) {
			break
		}
		out = out[:0]
		pos := 0
		for _, op := range e.Ops() {
			switch {
			case op.Retain > 0:
				if op.Retain > len(units)-pos {
					return "", false
				}
				out = append(out, units[pos:pos+op.Retain]...)
				pos += op.Retain
			case op.Delete > 0:
				if op.Delete > len(units)-pos {
					return "", false
				}
				pos += op.Delete
			default:
				for _, r := range op.Insert { // invalid UTF-8 as U+FFFD, as []rune(op.Insert)
					out = utf16.AppendRune(out, r)
				}
			}
		}
		units, out = append(out, units[pos:]...), units
	}
	return string(utf16.Decode(units)), true
}

// checkReplayErr checks a replay error: it starts by naming an entry of
// h (its ID cut at 64 bytes) and the operation, and stays short.
func checkReplayErr(t *testing.T, h *padapi.History, err error) {
	t.Helper()
	text := err.Error()
	if len(text) > maxErrorText {
		t.Fatalf("replay error is %d bytes: %.300q", len(text), text)
	}
	for _, e := range h.Entries {
		id := e.ID
		if len(id) > 64 {
			id = id[:64] + "..."
		}
		if strings.HasPrefix(text, fmt.Sprintf("padapi: history entry %q, operation ", id)) {
			return
		}
	}
	t.Fatalf("replay error %.300q names no entry", text)
}

// FuzzHistoryReplay decodes any document with json.Unmarshal and replays
// it: entries come in apply order, Replay and every ReplayUntil agree with
// a plain UTF-16 replay, errors name an entry, and the history survives a
// trip through its JSON.
func FuzzHistoryReplay(f *testing.F) {
	addHistorySeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var h padapi.History
		if err := json.Unmarshal(body, &h); err != nil {
			if strings.Contains(err.Error(), "Wire") || strings.Contains(err.Error(), "historyEntry") {
				t.Fatalf("decode error names an internal type: %.300q", err)
			}
			return
		}
		for i := 1; i < len(h.Entries); i++ {
			a, b := h.Entries[i-1], h.Entries[i]
			if a.Time.After(b.Time) || (a.Time.Equal(b.Time) && a.ID >= b.ID) {
				t.Fatalf("entries %q (%v) and %q (%v) out of order", a.ID, a.Time, b.ID, b.Time)
			}
		}
		text, err := h.Replay()
		want, ok := refReplay(h.Entries, nil)
		if (err == nil) != ok || text != want {
			t.Fatalf("Replay() = %q, %v; the plain replay gives %q, %v", text, err, want, ok)
		}
		if err != nil {
			checkReplayErr(t, &h, err)
		} else if !utf8.ValidString(text) {
			t.Fatalf("Replay() = %q, not UTF-8", text)
		}
		for _, e := range h.Entries[:min(len(h.Entries), 16)] {
			at := e.Time
			text, err := h.ReplayUntil(at)
			want, ok := refReplay(h.Entries, &at)
			if (err == nil) != ok || text != want {
				t.Fatalf("ReplayUntil(%v) = %q, %v; the plain replay gives %q, %v", at, text, err, want, ok)
			}
		}
		out, err := json.Marshal(h)
		if err != nil {
			t.Fatalf("%q decodes, but does not marshal: %v", body, err)
		}
		var again padapi.History
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("%q marshals as %s, which does not decode: %v", body, out, err)
		}
		if diff := cmp.Diff(h, again); diff != "" {
			t.Fatalf("%q: a trip through %s changes it (-before +after):\n%s", body, out, diff)
		}
	})
}

// FuzzHistoryFetch sends any body as the answer to Pads.History: no
// panic, bounded errors, and what decodes is what json.Unmarshal finds.
func FuzzHistoryFetch(f *testing.F) {
	addHistorySeeds(f)
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := c.Pads.History(answering(http.StatusOK, body), historyLink)
		checkError(t, err, body)
		if err != nil {
			if strings.Contains(err.Error(), "auth=tok") {
				t.Fatalf("error quotes the link's query: %q", err)
			}
			return
		}
		var direct padapi.History
		if err := json.Unmarshal(body, &direct); err != nil {
			t.Fatalf("the pipeline decodes %q, json.Unmarshal fails: %v", body, err)
		}
		if diff := cmp.Diff(&direct, got); diff != "" {
			t.Fatalf("%q: pipeline and json.Unmarshal differ (-json +pipeline):\n%s", body, diff)
		}
	})
}

// historyLive is testdata/history_live.json in apply order: by time,
// then entry ID ("-NsQ2" before "-NsQ3" at the same millisecond).
func historyLive() *padapi.History {
	const author, interviewer = "-Ns0candidate", "-Ns1interviewer"
	return &padapi.History{Entries: []padapi.HistoryEntry{
		padapi.NewHistoryEntry("-NsQ1", author, time.UnixMilli(1709633730000).UTC(),
			[]padapi.HistoryOp{{Insert: "def greet():\n    return 'hi 👋'\n"}}...),
		padapi.NewHistoryEntry("-NsQ2", author, time.UnixMilli(1709633790000).UTC(),
			[]padapi.HistoryOp{{Retain: 28}, {Delete: 2}, {Insert: "there"}, {Retain: 2}}...),
		padapi.NewHistoryEntry("-NsQ3", interviewer, time.UnixMilli(1709633790000).UTC(),
			[]padapi.HistoryOp{{Retain: 35}, {Insert: "print(greet())\n"}}...),
		padapi.NewHistoryEntry("-NsQ4", author, time.UnixMilli(1709633850000).Add(500*time.Microsecond).UTC(),
			[]padapi.HistoryOp{{Retain: 13}, {Insert: "    # 你好, cafe\u0301 🎉\n"}, {Retain: 37}}...),
	}}
}

// A replay error never quotes the client's key: an entry whose ID is the
// key (the service chose it), with an operation past the end, names the
// entry scrubbed, however the key is spelled in the ID (issue 37 #12).
func TestPadsHistoryReplayErrorScrubsKey(t *testing.T) {
	t.Parallel()
	const link = "https://pad-history.example.firebaseio.com/doc.json"
	c := memoryClient(t)
	for _, id := range []string{testKey, "x" + testKey + "y", hexOf(testKey)} {
		body := doc(`e1 1 "a"`, id+` 2 5`)
		h, err := c.Pads.History(answering(http.StatusOK, []byte(body)), link)
		if err != nil {
			t.Fatal(err)
		}
		for name, replay := range map[string]func() (string, error){
			"Replay":             h.Replay,
			"ReplayContext":      func() (string, error) { return h.ReplayContext(context.Background()) },
			"ReplayUntil":        func() (string, error) { return h.ReplayUntil(time.Unix(1<<40, 0)) },
			"ReplayUntilContext": func() (string, error) { return h.ReplayUntilContext(context.Background(), time.Unix(1<<40, 0)) },
		} {
			_, err := replay()
			if err == nil || !strings.Contains(err.Error(), "operation 0: retain 5") {
				t.Fatalf("%s: %v, want an error about retain 5", name, err)
			}
			if strings.Contains(err.Error(), testKey[:8]) || strings.Contains(err.Error(), hexOf(testKey)[:16]) {
				t.Errorf("%s of an entry whose ID holds the key: %q", name, err)
			}
			if !strings.Contains(err.Error(), "[REDACTED]") {
				t.Errorf("%s: %q does not say the ID was scrubbed", name, err)
			}
		}
	}
	// A history a caller decoded itself has no key to scrub: the ID
	// is quoted as it is.
	var own padapi.History
	if err := json.Unmarshal([]byte(doc(`e1 1 "a"`, `plain 2 5`)), &own); err != nil {
		t.Fatal(err)
	}
	if _, err := own.Replay(); err == nil || !strings.Contains(err.Error(), `"plain"`) {
		t.Errorf("Replay: %v, want the entry named", err)
	}
}

// hexOf spells s in lower-case hex.
func hexOf(s string) string { return fmt.Sprintf("%x", s) }
