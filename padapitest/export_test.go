// export_test.go: hooks for the package's tests: a fake served in memory, for tests run in a testing/synctest bubble.

package padapitest

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/padinterview/padapi"
)

// NewInMemoryForTest makes a fake that listens nowhere, and a client whose
// requests go straight to the fake's handlers in the calling goroutine. A
// testing/synctest bubble cannot wait on real sockets (a goroutine blocked
// on one is not durably blocked, so the bubble's clock would never move):
// call this inside the bubble, so that the fake's timers and channels
// belong to it, and a Delay of an hour takes no real time. The fake is
// closed when the test ends; opts go to the client after the fake's own.
func NewInMemoryForTest(t testing.TB, opts []Option, clientOpts ...padapi.Option) (*Server, *padapi.Client) {
	t.Helper()
	s, err := newServer(opts)
	if err != nil {
		t.Fatalf("padapitest: %v", err)
	}
	// Loopback URLs that nothing dials: the client accepts them over plain
	// http, and the transport tells the listeners apart by host.
	s.URL, s.HistoryURL = "http://127.0.0.1:1", "http://127.0.0.1:2"
	s.t = t
	t.Cleanup(s.Close)
	api, history := s.muxes()
	tr := memoryTransport{api: s.serve(api), history: s.serve(history), historyHost: "127.0.0.1:2"}
	return s, s.Client(append([]padapi.Option{padapi.WithHTTPClient(&http.Client{Transport: tr})}, clientOpts...)...)
}

// WithRecordHookForTest makes the fake call f after it records each
// request, before it routes it: a test waits on f for a request to reach
// the fake instead of polling Requests.
func WithRecordHookForTest(f func()) Option {
	return func(c *config) { c.onRecord = f }
}

// memoryTransport serves each request with the fake's handler of its host.
type memoryTransport struct {
	api, history http.Handler
	historyHost  string
}

// errDropped is what a client sees of a request whose connection the fake
// dropped (DropNext).
var errDropped = errors.New("padapitest: the fake dropped the connection")

func (m memoryTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	h := m.api
	if req.URL.Host == m.historyHost {
		h = m.history
	}
	in := req.Clone(req.Context())
	in.RequestURI, in.RemoteAddr = req.URL.RequestURI(), "127.0.0.1:40000"
	if in.Body == nil {
		in.Body = http.NoBody
	}
	defer in.Body.Close()
	rec := httptest.NewRecorder()
	defer func() {
		// A dropped connection panics with http.ErrAbortHandler, as
		// net/http's servers expect.
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			resp, err = nil, errDropped
		}
	}()
	h.ServeHTTP(rec, in)
	if err := req.Context().Err(); err != nil {
		return nil, err // as net/http's transport answers a request given up
	}
	resp = rec.Result()
	resp.Request = req
	return resp, nil
}

// LogBytesForTest is what the request log counts its requests for.
func (s *Server) LogBytesForTest() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests.bytes
}
