package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// TestAPIKeyNeverLeaks drives every error path with a unique key and a debug
// logger, and looks for the key in every error's text and fmt forms, in the
// log, and in fmt of the client.
func TestAPIKeyNeverLeaks(t *testing.T) {
	key := "canary-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	mt := httpmock.NewMockTransport()
	opts := []padapi.Option{
		padapi.WithHTTPClient(&http.Client{Transport: mt}),
		padapi.WithLogger(logger),
		// Backoff is 1ms and 2ms, but a Retry-After of 1s fits under the
		// cap, so a call can be caught in a backoff.
		padapi.WithRetry(2, time.Millisecond, time.Second),
		padapi.WithMaxResponseBytes(4096),
		padapi.WithUserAgent("leaktest"),
	}
	c := newKeyClient(t, testBase, key, opts...)

	// withKey counts the requests that carried the key, so the test knows
	// the key was in play on every path.
	var withKey atomic.Int32
	answer := func(status int, body string, header ...string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			if r.Header.Get("Authorization") == `Token token="`+key+`"` {
				withKey.Add(1)
			}
			resp := httpmock.NewStringResponse(status, body)
			for i := 0; i+1 < len(header); i += 2 {
				resp.Header.Set(header[i], header[i+1])
			}
			return resp, nil
		}
	}
	fail := func(err error) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			if r.Header.Get("Authorization") == `Token token="`+key+`"` {
				withKey.Add(1)
			}
			return nil, err
		}
	}
	hang := func(r *http.Request) (*http.Response, error) {
		if r.Header.Get("Authorization") == `Token token="`+key+`"` {
			withKey.Add(1)
		}
		select {
		case <-r.Context().Done():
			return nil, r.Context().Err()
		case <-time.After(time.Second):
			return httpmock.NewStringResponse(200, `{"status":"OK","pads":[]}`), nil
		}
	}
	errBody := func(msg string) string { return `{"status":"ERROR","message":"` + msg + `"}` }
	getQuota := func(ctx context.Context) error { _, err := c.Quota.Get(ctx); return err }
	create := func(ctx context.Context) error {
		_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
		return err
	}
	list := func(ctx context.Context) error {
		_, err := c.Pads.List(ctx, &padapi.PadListOptions{Page: 2, Sort: padapi.SortUpdatedAsc})
		return err
	}

	tests := []struct {
		name      string
		method    string
		url       string
		responder httpmock.Responder
		call      func(context.Context) error
		timeout   time.Duration
	}{
		{"GET dial error", "GET", quotaURL, fail(dialError), getQuota, 0},
		{"GET dropped connection", "GET", quotaURL, fail(io.ErrUnexpectedEOF), getQuota, 0},
		{"POST dial error", "POST", padsURL, fail(dialError), create, 0},
		{"POST dropped connection", "POST", padsURL, fail(io.ErrUnexpectedEOF), create, 0},
		{"400", "POST", padsURL, answer(400, errBody("Unsupported language")), create, 0},
		{"401", "GET", quotaURL, answer(401, errBody("Invalid API key")), getQuota, 0},
		{"403", "GET", padsURL, answer(403, errBody("Forbidden")), list, 0},
		{"404", "GET", padsURL, answer(404, errBody("Not found")), list, 0},
		{"429 POST", "POST", padsURL, answer(429, errBody("Over quota"), "Retry-After", "1"), create, 0},
		{"429 GET", "GET", quotaURL, answer(429, errBody("Over quota"), "Retry-After", "86400"), getQuota, 0},
		{"500 POST", "POST", padsURL, answer(500, errBody("boom")), create, 0},
		{"503 exhausted", "GET", padsURL, answer(503, "<html>busy</html>"), list, 0},
		{"decode error", "GET", quotaURL, answer(200, `{"status":"OK","pads_used":"x"}`), getQuota, 0},
		{"bad timestamp", "GET", quotaURL, answer(200, `{"status":"OK","quota_reset_at":"soon","unlimited":true}`), getQuota, 0},
		{"status ERROR", "GET", quotaURL, answer(200, errBody("nope")), getQuota, 0},
		{"too large", "GET", padsURL, answer(200, `{"status":"OK","pads":[],"x":"`+strings.Repeat("x", 5000)+`"}`), list, 0},
		{"redirect", "GET", quotaURL, answer(302, "", "Location", "https://evil.example/collect"), getQuota, 0},
		{"redirect POST", "POST", padsURL, answer(307, "", "Location", "https://evil.example/collect"), create, 0},
		{"deadline in request", "GET", padsURL, hang, list, 20 * time.Millisecond},
		{"deadline in backoff", "GET", quotaURL, answer(503, errBody("busy"), "Retry-After", "1"), getQuota, 30 * time.Millisecond},
	}
	evil := httpmock.NewStringResponder(200, okQuota)
	mt.RegisterResponder("GET", "https://evil.example/collect", evil)
	mt.RegisterResponder("POST", "https://evil.example/collect", evil)

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt.RegisterResponder(tt.method, tt.url, tt.responder)
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			before := withKey.Load()
			err := tt.call(ctx)
			if err == nil {
				t.Fatal("no error")
			}
			if withKey.Load() == before {
				t.Errorf("no request carried the key")
			}
			for _, form := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
				if s := fmt.Sprintf(form, err); strings.Contains(s, key) {
					t.Errorf("fmt %s of the error holds the key: %s", form, s)
				}
			}
			var apiErr *padapi.APIError
			if errors.As(err, &apiErr) {
				for _, form := range []string{"%v", "%+v", "%#v"} {
					if s := fmt.Sprintf(form, *apiErr); strings.Contains(s, key) {
						t.Errorf("fmt %s of the APIError value holds the key: %s", form, s)
					}
				}
			}
		})
	}
	if n := mt.GetCallCountInfo()["GET https://evil.example/collect"] + mt.GetCallCountInfo()["POST https://evil.example/collect"]; n != 0 {
		t.Errorf("the redirect target got %d requests", n)
	}

	if logs.Len() == 0 {
		t.Fatal("the debug logger got nothing")
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		for _, bad := range []string{key, "Token", "Authorization", "?", "page="} {
			if strings.Contains(line, bad) {
				t.Errorf("log line holds %q: %s", bad, line)
			}
		}
	}

	things := map[string]any{
		"client": c, "*client": *c, "Quota": c.Quota, "Pads": c.Pads,
		"Questions": c.Questions, "Organization": c.Organization, "options": opts,
	}
	for name, v := range things {
		for _, form := range []string{"%v", "%+v", "%#v"} {
			if s := fmt.Sprintf(form, v); strings.Contains(s, key) {
				t.Errorf("fmt %s of the %s holds the key: %s", form, name, s)
			}
		}
	}
}

// TestErrorsCarryNoQuery checks that the query string of a list call (page,
// sort) appears in no error, whatever failed.
func TestErrorsCarryNoQuery(t *testing.T) {
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
