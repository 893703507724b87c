// fuzz_test.go: FuzzServer, the fuzz target of the fake's request handling, with its seeds (run by every go test).

package padapitest_test

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi/padapitest"
)

// fuzzWait is how long one fuzzed request may take before the fake counts
// as wedged: generous, as a busy machine under -race can take seconds, and
// a wedged fake takes for ever.
const fuzzWait = 20 * time.Second

// FuzzServer sends the fake any request (method, path, query, headers,
// body; with the right key or without it) and checks the promises of
// "the fake stays up": no input makes a handler panic (a recovered panic
// answers 500 "Internal server error"), every request is answered within
// fuzzWait, no answer is a 5xx, and afterwards the fake still answers a
// normal request. Paths under /history/ go to the history listener.
func FuzzServer(f *testing.F) {
	var multi bytes.Buffer
	mw := multipart.NewWriter(&multi)
	_ = mw.WriteField("question[title]", "Two Sum")
	_ = mw.WriteField("question[language]", "python")
	part, _ := mw.CreateFormFile("question[zip_file]", "q.zip")
	_, _ = part.Write([]byte("PK\x03\x04 not really a zip"))
	_ = mw.Close()
	form := "Content-Type: application/x-www-form-urlencoded"
	for _, seed := range []struct {
		method, path, query, header string
		body                        []byte
		auth                        bool
	}{
		{"GET", "/api/quota", "", "", nil, true},
		{"GET", "/api/quota", "", "", nil, false},
		{"POST", "/api/pads", "", form, []byte("title=x&language=python&contents=print(1)"), true},
		{"POST", "/api/pads/", "", form, []byte("title=x&title=y"), true},
		{"POST", "/api/pads", "", form, []byte("question_id=99999999999999999999999"), true},
		{"PUT", "/api/pads/AAAAAAAA", "", form, []byte("ended=true&deleted=maybe"), true},
		{"GET", "/api/pads", "page=184467440737095518&sort=created_at,asc", "", nil, true},
		{"GET", "/api/pads", "page=-1&sort=x", "", nil, true},
		{"GET", "/api/pads/..%2F..%2Fetc/events", "page=0", "", nil, true},
		{"GET", "/api/pad_environments/1001", "", "", nil, true},
		{"POST", "/api/questions", "", "Content-Type: " + mw.FormDataContentType(), multi.Bytes(), true},
		{"POST", "/api/questions", "", "Content-Type: multipart/form-data; boundary=x", []byte("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"), true},
		{"PUT", "/api/questions/1", "", form, []byte("question[candidate_instructions]=[{\"x\":1}]&question[file_contents]={"), true},
		{"DELETE", "/api/questions/1", "", "", nil, true},
		{"GET", "/api/organization/stats", "start_time=2026-01-01T00:00:00Z", "", nil, true},
		{"GET", "/api/organization/users", "email=%00", "", nil, true},
		{"GET", "/history/1001/main", "", "", nil, false},
		{"GET", "/history/1001/main", "", "", nil, true},
		{"PATCH", "/", "", "Content-Type: text/plain\nX-A: b", []byte("hello"), true},
		{"POST", "/api/pads", "", "Content-Type: application/json", []byte(`{"title":"x"}`), true},
		{"POST", "/api/pads", "", "Content-Type: application/x-www-form-urlencoded; charset=\x00", []byte("%zz"), true},
	} {
		f.Add(seed.method, seed.path, seed.query, seed.header, seed.body, seed.auth)
	}

	// Not NewServer: its Close, in the cleanup, would wait for ever for a
	// wedged handler, and hang the suite rather than fail the test.
	srv, err := padapitest.Listen(padapitest.WithRequestLog(100, 4<<10))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		closed := make(chan struct{})
		go func() { srv.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(fuzzWait):
			f.Errorf("the fake did not close within %v: a handler is wedged", fuzzWait)
		}
	})
	srv.Seed(2)
	// Each request's context is its deadline, so that a missed one is
	// told apart from a request net/http refuses.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	f.Cleanup(client.CloseIdleConnections)
	key := `Token token="` + srv.APIKey + `"`
	// Set once the fake has missed a deadline: every later input fails
	// at once instead of waiting out its own.
	var wedged atomic.Bool

	f.Fuzz(func(t *testing.T, method, path, query, header string, body []byte, auth bool) {
		if wedged.Load() {
			t.Fatal("the fake is wedged by an earlier input")
		}
		base := srv.URL
		if strings.HasPrefix(path, "/history/") {
			base = srv.HistoryURL
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		u, err := url.Parse(base + path)
		if err != nil || u.Host != strings.TrimPrefix(base, "http://") {
			u, _ = url.Parse(base + "/" + url.PathEscape(path))
		}
		u.RawQuery = query
		ctx, cancel := context.WithTimeout(context.Background(), fuzzWait)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
		if err != nil {
			return // not a request net/http can send: nothing reaches the fake
		}
		for line := range strings.SplitSeq(header, "\n") {
			if name, value, ok := strings.Cut(line, ":"); ok {
				req.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
			}
		}
		if auth {
			req.Header.Set("Authorization", key)
		}
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				wedged.Store(true)
				t.Fatalf("%s %s: no answer within %v: the fake is wedged", method, u, fuzzWait)
			}
			return // net/http refused the request (a bad header, say)
		}
		answer, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("%s %s: %s %s", method, u, resp.Status, answer)
		}

		// The fake still answers a normal request.
		ctx2, cancel2 := context.WithTimeout(context.Background(), fuzzWait)
		defer cancel2()
		check, _ := http.NewRequestWithContext(ctx2, http.MethodGet, srv.URL+"/api/quota", nil)
		check.Header.Set("Authorization", key)
		resp, err = client.Do(check)
		if err != nil {
			wedged.Store(ctx2.Err() != nil)
			t.Fatalf("after %s %s: a quota read: %v", method, u, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("after %s %s: a quota read: %s", method, u, resp.Status)
		}
	})
}
