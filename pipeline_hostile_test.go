package padapi_test

// Tests of the library's three promises against a hostile server: never
// the key, never two creates, never past the deadline; and of paging
// bounded by what the server said.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
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
				c := newKeyClient(t, srv.URL, key, noRetry, padapi.WithLogger(slog.New(h)))
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

// The client hands a caller's transport creates without GetBody and with a
// real body on every attempt, so no transport can replay one: net/http's
// HTTP/2 resends a request after a stream reset whenever it can get the
// body again.
func TestCreateNeverReplayable(t *testing.T) {
	t.Parallel()
	var seen []string
	spy := roundTrip(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, fmt.Sprintf("GetBody=%v NoBody=%v", r.GetBody != nil, r.Body == nil || r.Body == http.NoBody))
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("refused")}
	})
	c := newTestClient(t, testBase, fastRetry, padapi.WithHTTPClient(&http.Client{Transport: spy}))
	for _, params := range []*padapi.PadCreateParams{nil, {Title: padapi.Ptr("t")}} {
		seen = nil
		_, _ = c.Pads.Create(context.Background(), params)
		if len(seen) != 4 {
			t.Fatalf("%d attempts, want 4 (a refused dial is retried)", len(seen))
		}
		for i, s := range seen {
			if s != "GetBody=false NoBody=false" {
				t.Errorf("attempt %d: %s, want GetBody=false NoBody=false", i+1, s)
			}
		}
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// An HTTP/2 server that reads a whole create and then resets the stream
// with PROTOCOL_ERROR (after which net/http retries a request it can
// replay) sees one POST, through a standard transport as through the
// client's own, and the create is outcome-unknown.
func TestCreateNotResentAfterHTTP2Reset(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	addr := resettingHTTP2Server(t, &posts)
	for name, opts := range map[string][]padapi.Option{
		"own transport": {padapi.WithTLSConfigForTest(&tls.Config{InsecureSkipVerify: true})},
		"DefaultTransport.Clone": {padapi.WithHTTPClient(&http.Client{Transport: func() http.RoundTripper {
			tr := http.DefaultTransport.(*http.Transport).Clone()
			tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true}
			return tr
		}()})},
		"ForceAttemptHTTP2": {padapi.WithHTTPClient(&http.Client{Transport: &http.Transport{ForceAttemptHTTP2: true, TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}})},
	} {
		posts.Store(0)
		c := newTestClient(t, "https://"+addr, append([]padapi.Option{fastRetry, padapi.WithInsecureHTTP()}, opts...)...)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("once")})
		cancel()
		if !errors.Is(err, padapi.ErrOutcomeUnknown) {
			t.Errorf("%s: err = %v, want ErrOutcomeUnknown", name, err)
		}
		if n := posts.Load(); n != 1 {
			t.Errorf("%s: the server saw %d POSTs, want 1", name, n)
		}
	}
}

// resettingHTTP2Server serves HTTP/2 over TLS on loopback: it reads each
// request's headers and body, counts a POST, and resets the stream with
// PROTOCOL_ERROR instead of answering.
func resettingHTTP2Server(t *testing.T, posts *atomic.Int32) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.EnableHTTP2 = true
	srv.StartTLS() // only for its certificate
	cert := srv.TLS.Certificates
	srv.Close()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: cert, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveResetting(conn, posts)
		}
	}()
	return ln.Addr().String()
}

func serveResetting(conn net.Conn, posts *atomic.Int32) {
	defer func() { _ = conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(conn)
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(br, preface); err != nil {
		return
	}
	fr := http2.NewFramer(conn, br)
	_ = fr.WriteSettings()
	methods := map[uint32]string{}
	dec := hpack.NewDecoder(4096, nil)
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				_ = fr.WriteSettingsAck()
			}
		case *http2.HeadersFrame:
			fields, _ := dec.DecodeFull(f.HeaderBlockFragment())
			for _, hf := range fields {
				if hf.Name == ":method" {
					methods[f.StreamID] = hf.Value
				}
			}
			if f.StreamEnded() {
				endStream(fr, f.StreamID, methods, posts)
			}
		case *http2.DataFrame:
			if f.StreamEnded() {
				endStream(fr, f.StreamID, methods, posts)
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				_ = fr.WritePing(true, f.Data)
			}
		}
	}
}

func endStream(fr *http2.Framer, id uint32, methods map[uint32]string, posts *atomic.Int32) {
	if methods[id] == http.MethodPost {
		posts.Add(1)
	}
	_ = fr.WriteRSTStream(id, http2.ErrCodeProtocol)
}

// A server that answers 101 Switching Protocols and then says nothing
// cannot hold a call: it fails at once, well within its deadline.
func TestSwitchingProtocolsThenSilence(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		_, _ = buf.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
		_ = buf.Flush()
		time.Sleep(3 * time.Second)
		_ = conn.Close()
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, fastRetry)
	for name, call := range map[string]func(context.Context) error{
		"read":   func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err },
		"create": func(ctx context.Context) error { _, err := c.Pads.Create(ctx, nil); return err },
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- call(ctx) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(2 * time.Second):
			cancel()
			t.Fatalf("%s: still running 2s after a 300ms deadline", name)
		}
		took := time.Since(start)
		cancel()
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusSwitchingProtocols {
			t.Errorf("%s: err = %v, want an *APIError with the 101", name, err)
		}
		if took > 400*time.Millisecond {
			t.Errorf("%s: took %v, want well under the 300ms deadline's end", name, took)
		}
		if name == "create" && !errors.Is(err, padapi.ErrOutcomeUnknown) {
			t.Errorf("create: err = %v, want ErrOutcomeUnknown", err)
		}
	}
}

// A call whose body drips for seconds does not delay an unrelated call on
// the same client.
func TestSlowBodyDelaysNoOtherCall(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/pads/SLOW" {
			w.WriteHeader(http.StatusOK)
			_, _ = io.WriteString(w, `{"status":"OK",`)
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-time.After(3 * time.Second):
			}
			return
		}
		respond(w, http.StatusOK, []byte(okQuota))
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, noRetry)
	for range 4 {
		go func() { _, _ = c.Pads.Get(context.Background(), "SLOW") }()
	}
	time.Sleep(50 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 500*time.Millisecond {
		t.Errorf("Quota.Get took %v behind four dripping bodies, want no wait", took)
	}
}

// A server whose every page claims total 120 and links a new page cannot
// make All page forever: it stops after ⌈120 ÷ 50⌉ + 1 pages.
func TestAllBoundedByTotal(t *testing.T) {
	t.Parallel()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		var pads []string
		for i := range 50 {
			pads = append(pads, fmt.Sprintf(`{"id":"P%d-%d"}`, page, i))
		}
		respond(w, http.StatusOK, []byte(fmt.Sprintf(`{"status":"OK","pads":[%s],"total":120,"next_page":"https://x.example/api/pads?page=%d"}`, strings.Join(pads, ","), max(page, 1)+1)))
		if n > 100 {
			t.Error("over 100 requests")
		}
	}))
	t.Cleanup(srv.Close)
	for _, window := range []int{1, 4} {
		requests.Store(0)
		c := newTestClient(t, srv.URL, noRetry, padapi.WithConcurrentPages(window))
		var items int
		var last error
		for _, err := range c.Pads.All(context.Background(), nil) {
			if err != nil {
				last = err
				break
			}
			if items++; items > 1000 {
				t.Fatalf("window %d: still paging after 1000 items", window)
			}
		}
		if last == nil || !strings.Contains(last.Error(), "more than a total of 120 allows") {
			t.Errorf("window %d: error %v, want one about the total", window, last)
		}
		// 3 pages hold 120 items; one page more is allowed for a list
		// that grew while it was read.
		if items != 200 {
			t.Errorf("window %d: %d items, want the 200 of the 4 pages the total allows", window, items)
		}
		if n := requests.Load(); n > 4 {
			t.Errorf("window %d: %d requests, want at most 4", window, n)
		}
	}
}

// NewClient's refusal quotes no part of a base URL that may hold a secret:
// its query, fragment or user information.
func TestNewClientErrorHidesSecrets(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-T0KEN"
	for _, base := range []string{
		"https://u:" + secret + "@pad.example.com",
		"https://" + secret + "@pad.example.com",
		"https://pad.example.com/?key=" + secret,
		"https://pad.example.com/api?key=" + secret,
		"http://pad.example.com/?token=" + secret,
		"ftp://pad.example.com/?k=" + secret,
		"https://pad.example.com/#" + secret,
		"pad.example.com/?k=" + secret,
		"https://pad.example.com/%zz?k=" + secret,
		"http://u:" + secret + "@pad.example.com/api",
	} {
		_, err := padapi.NewClient(base, "k")
		if err == nil {
			t.Errorf("NewClient(%q) accepted it", base)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("NewClient(%q) error quotes the secret: %v", base, err)
		}
		if !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("NewClient(%q) error %v does not match ErrInvalidArgument", base, err)
		}
	}
}
