package padapi_test

// The tests below pin the wrong answers that v2 fixed, one rule each; each
// failed before its fix.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// connCounter starts srv counting the connections it accepts.
func connCounter(srv *httptest.Server) *atomic.Int32 {
	var n atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			n.Add(1)
		}
	}
	// The failed handshakes are the point; the server need not log them.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	return &n
}

// A TLS handshake that failed sent no request byte: a create is not
// outcome-unknown, and no retry can fix a certificate, so none is made.
func TestHandshakeFailureNotOutcomeUnknown(t *testing.T) {
	untrusted := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the server: %s %s", r.Method, r.URL)
	}))
	untrustedConns := connCounter(untrusted)
	untrusted.StartTLS()
	defer untrusted.Close()

	plain := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("a request reached the server: %s %s", r.Method, r.URL)
	}))
	plainConns := connCounter(plain)
	plain.Start()
	defer plain.Close()

	for _, tt := range []struct {
		name  string
		base  string
		conns *atomic.Int32
		want  string
	}{
		{"untrusted certificate", untrusted.URL, untrustedConns, "certificate"},
		{"plain http answering the TLS hello", strings.Replace(plain.URL, "http://", "https://", 1), plainConns, "HTTP response to HTTPS client"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newTestClient(t, tt.base, fastRetry)
			tt.conns.Store(0)
			_, err := createPad(c)
			if err == nil || errors.Is(err, padapi.ErrOutcomeUnknown) || strings.Contains(err.Error(), "outcome unknown") {
				t.Errorf("create: error %v, want a handshake error that is not outcome-unknown", err)
			}
			if err != nil && !strings.Contains(err.Error(), tt.want) {
				t.Errorf("create: error %q does not say %q", err, tt.want)
			}
			_, err = c.Quota.Get(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("get: error %v, want one saying %q", err, tt.want)
			}
			// One connection per call: neither was retried.
			if n := tt.conns.Load(); n != 2 {
				t.Errorf("%d connections for two calls, want 2 (no retries)", n)
			}
		})
	}
}

// Every outcome-unknown error says so in its text, a 5xx answer included.
func TestOutcomeUnknownText(t *testing.T) {
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

// A DNS error comes before any connection, so a create that met only DNS
// errors certainly sent nothing: a temporary one is retried and never
// outcome-unknown, also through a transport that reports nothing through
// httptrace.
func TestDNSErrorNeverConnected(t *testing.T) {
	dns := &net.DNSError{Err: "server misbehaving", Name: "pads.example.test", IsTemporary: true}
	for name, cause := range map[string]error{
		"bare":       dns,
		"in a dial":  &net.OpError{Op: "dial", Net: "tcp", Err: dns},
		"in a write": &net.OpError{Op: "write", Net: "tcp", Err: dns},
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder(http.MethodPost, padsURL, httpmock.NewErrorResponder(cause).Then(httpmock.NewStringResponder(http.StatusOK, okPad)))
			pad, err := createPad(c)
			if err != nil || pad.ID != "DM32JWG2" {
				t.Errorf("create = %v, %v; want the pad after one retry", pad, err)
			}
			if n := mt.GetTotalCallCount(); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}
		})
	}
}

// Retry-After: 0, or a date in the past, means "now": the GET is retried.
func TestRetryAfterNow(t *testing.T) {
	for name, value := range map[string]string{
		"zero":        "0",
		"a past date": time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat),
	} {
		t.Run(name, func(t *testing.T) {
			c, mt := newMockClient(t, padapi.WithRetry(3, time.Millisecond, 50*time.Millisecond))
			resp := httpmock.NewStringResponse(http.StatusTooManyRequests, `{"status":"ERROR","message":"slow down"}`)
			resp.Header.Set("Retry-After", value)
			mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.ResponderFromResponse(resp).Then(httpmock.NewStringResponder(http.StatusOK, okQuota)))
			start := time.Now()
			if _, err := c.Quota.Get(context.Background()); err != nil {
				t.Fatalf("error %v, want the quota after a retry", err)
			}
			if elapsed := time.Since(start); elapsed > time.Second {
				t.Errorf("took %v, want no real wait", elapsed)
			}
			if n := mt.GetTotalCallCount(); n != 2 {
				t.Errorf("%d calls, want 2", n)
			}
		})
	}
}

// A delete whose earlier attempt may have reached the service, answered 404
// on the retry, deleted the resource: that is success. A 404 on the first
// attempt is still ErrNotFound.
func TestDeleteGoneAfterUncertainAttempt(t *testing.T) {
	deletes := []struct {
		name, method, url string
		call              func(*padapi.Client) error
	}{
		{"Questions.Delete", http.MethodDelete, testBase + "/api/questions/1234",
			func(c *padapi.Client) error { return c.Questions.Delete(context.Background(), "1234") }},
		{"Pads.Delete", http.MethodPut, testBase + "/api/pads/DM32JWG2",
			func(c *padapi.Client) error { return c.Pads.Delete(context.Background(), "DM32JWG2") }},
	}
	notFound := httpmock.NewStringResponder(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)
	for _, d := range deletes {
		t.Run(d.name, func(t *testing.T) {
			for _, first := range []httpmock.Responder{
				httpmock.NewErrorResponder(io.ErrUnexpectedEOF),
				httpmock.NewStringResponder(http.StatusServiceUnavailable, "busy"),
			} {
				c, mt := newMockClient(t)
				mt.RegisterResponder(d.method, d.url, first.Then(notFound))
				if err := d.call(c); err != nil {
					t.Errorf("error %v, want success: the first attempt deleted it", err)
				}
				if n := mt.GetTotalCallCount(); n != 2 {
					t.Errorf("%d calls, want 2", n)
				}
			}

			c, mt := newMockClient(t)
			mt.RegisterResponder(d.method, d.url, notFound)
			if err := d.call(c); !errors.Is(err, padapi.ErrNotFound) {
				t.Errorf("404 at once: error %v, want ErrNotFound", err)
			}
			// A refused dial sent nothing: its 404 after it is a real one.
			c, mt = newMockClient(t)
			mt.RegisterResponder(d.method, d.url, httpmock.NewErrorResponder(dialError).Then(notFound))
			if err := d.call(c); !errors.Is(err, padapi.ErrNotFound) {
				t.Errorf("404 after a refused dial: error %v, want ErrNotFound", err)
			}
		})
	}
}

// A large error page before a retry is drained, so the retry reuses the
// connection (go-retryablehttp alone drains 4 KiB and closes the rest).
func TestRetryReusesConnectionAfterLargeErrorPage(t *testing.T) {
	var calls atomic.Int32
	page := bytes.Repeat([]byte("x"), 10<<10)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write(page)
			return
		}
		respond(w, http.StatusOK, []byte(okQuota))
	}))
	conns := connCounter(srv)
	srv.Start()
	defer srv.Close()
	c := newTestClient(t, srv.URL, fastRetry)
	if _, err := c.Quota.Get(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("%d connections for 3 attempts, want 1", n)
	}
}

// A gateway that echoes the request's headers into its answer must not put
// the API key into an error, its body or a log line, in any spelling.
func TestEchoedKeyScrubbed(t *testing.T) {
	const key = `echo+K3y/<&>`
	for name, echo := range map[string]func(string) string{
		"plain": func(h string) string { return "you sent: " + h },
		"JSON": func(h string) string {
			return `{"status":"ERROR","message":"bad header ` + strings.ReplaceAll(h, `"`, `\"`) + `"}`
		},
		"JSON-HTML":  func(h string) string { return `{"status":"ERROR","message":"` + jsonHTMLEscape(h) + `"}` },
		"URL-quoted": func(string) string { return "key=echo%2BK3y%2F%3C%26%3E" },
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, echo(r.Header.Get("Authorization")))
			}))
			defer srv.Close()
			var logs bytes.Buffer
			c := newKeyClient(t, srv.URL, key, noRetry, padapi.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			_, err := c.Quota.Get(context.Background())
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %v, want an *APIError", err)
			}
			for what, text := range map[string]string{"error": err.Error(), "body": string(apiErr.Body), "message": apiErr.Message, "log": logs.String()} {
				for _, spelling := range []string{key, "echo+K3y/\\u003c\\u0026\\u003e", "echo%2BK3y%2F%3C%26%3E", "K3y"} {
					if strings.Contains(text, spelling) {
						t.Errorf("%s holds the key as %q: %q", what, spelling, text)
					}
				}
			}
			if !strings.Contains(string(apiErr.Body), "[REDACTED]") {
				t.Errorf("body %q, want the key replaced by [REDACTED]", apiErr.Body)
			}
		})
	}
}

// jsonHTMLEscape escapes s as encoding/json does by default, < > & as \u00xx.
func jsonHTMLEscape(s string) string {
	return strings.NewReplacer(`"`, `\"`, `<`, `\u003c`, `&`, `\u0026`, `>`, `\u003e`).Replace(s)
}

// A base URL that ends in /api would send every call to /api/api/...
func TestBaseURLEndingInAPIRefused(t *testing.T) {
	for _, base := range []string{"https://app.coderpad.io/api", "https://app.coderpad.io/api/", "https://gw.example.com/pad/api"} {
		_, err := padapi.NewClient(base, testKey)
		if err == nil || !strings.Contains(err.Error(), "drop the trailing /api") {
			t.Errorf("NewClient(%q): error %v, want one saying to drop the trailing /api", base, err)
		}
	}
	// A path that only contains "api" is fine.
	if _, err := padapi.NewClient("https://gw.example.com/api/pad", testKey); err != nil {
		t.Errorf("NewClient with /api/pad: %v", err)
	}
}

// Every call refused before sending is ErrInvalidArgument and sends nothing.
func TestInvalidArgumentsSendNothing(t *testing.T) {
	c, n := countingClient(t)
	var nilCtx context.Context
	ctx := context.Background()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for name, call := range map[string]func() error{
		"nil context": func() error { _, err := c.Quota.Get(nilCtx); return err },
		"nil context, list": func() error {
			_, err := c.Pads.List(nilCtx, nil)
			return err
		},
		"empty ID":            func() error { _, err := c.Pads.Get(ctx, ""); return err },
		"dot ID":              func() error { _, err := c.Questions.Get(ctx, "."); return err },
		"dot-dot environment": func() error { _, err := c.Pads.Environment(ctx, ".."); return err },
		"dot-dot events":      func() error { _, err := c.Pads.ListEvents(ctx, "..", nil); return err },
		"contents with a question": func() error {
			_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Contents: padapi.Ptr("x"), QuestionID: padapi.Ptr[padapi.ID]("1")})
			return err
		},
		"one-ended stats window": func() error {
			_, err := c.Organization.Stats(ctx, &padapi.StatsOptions{Start: start})
			return err
		},
		"question without a language": func() error {
			_, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("t")})
			return err
		},
		"question without params": func() error { _, err := c.Questions.Create(ctx, nil); return err },
		"contents and files": func() error {
			_, err := c.Questions.Update(ctx, "1", &padapi.QuestionUpdateParams{Contents: padapi.Ptr("x"), Files: []padapi.QuestionFile{{Path: "a", Contents: "b"}}})
			return err
		},
		"file without a path": func() error {
			_, err := c.Questions.Update(ctx, "1", &padapi.QuestionUpdateParams{Files: []padapi.QuestionFile{{Contents: "b"}}})
			return err
		},
		"history link over plain http": func() error {
			_, err := c.Pads.History(ctx, "http://history.example.com/doc.json")
			return err
		},
	} {
		err := call()
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.HasPrefix(err.Error(), "padapi: invalid argument: ") {
			t.Errorf("%s: error %v, want ErrInvalidArgument", name, err)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

// NewClient's refusals match ErrInvalidArgument and keep their own text.
func TestNewClientRefusalsAreInvalidArgument(t *testing.T) {
	for name, call := range map[string]func() error{
		"base URL":     func() error { _, err := padapi.NewClient("ftp://x", testKey); return err },
		"plain http":   func() error { _, err := padapi.NewClient("http://pads.example.com", testKey); return err },
		"empty key":    func() error { _, err := padapi.NewClient(testBase, ""); return err },
		"retry option": func() error { _, err := padapi.NewClient(testBase, testKey, padapi.WithRetry(-1, 0, 0)); return err },
	} {
		err := call()
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.HasPrefix(err.Error(), "padapi: ") || strings.Contains(err.Error(), "invalid argument") {
			t.Errorf("%s: error %v, want ErrInvalidArgument with the refusal's own text", name, err)
		}
	}
}

// An environment ID that the service lists but Environment would refuse is
// a bad answer, not the caller's ErrInvalidArgument; nothing more is sent.
func TestTranscriptBadEnvironmentIDFromService(t *testing.T) {
	c, mux := setup(t, noRetry)
	var n atomic.Int32
	mux.HandleFunc("GET "+gwPrefix+"/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":"P1","pad_environment_ids":[1,".."]}`))
	})
	_, err := c.Pads.Transcript(context.Background(), "P1")
	if err == nil || errors.Is(err, padapi.ErrInvalidArgument) || !strings.Contains(err.Error(), `environment ID ".."`) {
		t.Errorf("error %v, want one naming the bad ID that is not ErrInvalidArgument", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want only the pad's", got)
	}
}

// A host that does not exist (NXDOMAIN) is not retried: no retry can make
// it exist, and the caller learns at once what to check.
func TestDNSHostNotFoundNotRetried(t *testing.T) {
	t.Parallel()
	dns := &net.DNSError{Err: "no such host", Name: "pads.example.test", IsNotFound: true}
	c, mt := newMockClient(t)
	mt.RegisterResponder(http.MethodGet, quotaURL, httpmock.NewErrorResponder(&net.OpError{Op: "dial", Net: "tcp", Err: dns}))
	_, err := c.Quota.Get(context.Background())
	var got *net.DNSError
	if !errors.As(err, &got) || !got.IsNotFound {
		t.Errorf("err = %v, want the DNS error", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d calls, want 1 (no retry)", n)
	}
}
