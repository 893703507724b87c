package padapitest

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// fault is what is armed on one route.
type fault struct {
	failN      int
	failStatus int
	failBody   string
	dropN      int
	delay      time.Duration
}

// armed is the fault one request meets.
type armed struct {
	fail   bool
	status int
	body   string
	drop   bool
}

// FailNext makes the next n requests to route get status and body without
// the handler running (and without the auth check, as when a proxy answers).
// An empty body gives the service's error body with the status text as its
// message. n <= 0 disarms it. route is a pattern from Routes, such as
// "GET /api/quota"; FailNext panics on any other.
func (s *Server) FailNext(route string, n int, status int, body string) {
	if body == "" {
		body = string(errorBody(http.StatusText(status)))
	}
	s.arm(route, func(f *fault) { f.failN, f.failStatus, f.failBody = max(n, 0), status, body })
}

// DropNext makes the next n requests to route run as usual (a create
// creates, and counts against the quota) and then closes the connection
// without an answer: the client cannot know what happened. n <= 0 disarms
// it. It panics on a route not in Routes.
//
// Go's HTTP client itself resends a GET once when a reused connection closes
// before the answer, so a dropped GET may arrive, and run, twice.
func (s *Server) DropNext(route string, n int) {
	s.arm(route, func(f *fault) { f.dropN = max(n, 0) })
}

// Delay makes every request to route wait d before anything else happens;
// 0 removes the delay. When the request's context ends first (the caller
// gave up) or the fake is closed, the handler does not run. It panics on a
// route not in Routes.
func (s *Server) Delay(route string, d time.Duration) {
	s.arm(route, func(f *fault) { f.delay = max(d, 0) })
}

func (s *Server) arm(route string, set func(*fault)) {
	if _, ok := s.routes()[route]; !ok {
		panic(fmt.Sprintf("padapitest: unknown route %q; the routes are %s", route, strings.Join(Routes(), ", ")))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults[route]
	if f == nil {
		f = &fault{}
		s.faults[route] = f
	}
	set(f)
}

func (s *Server) delayOf(route string) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.faults[route]; f != nil {
		return f.delay
	}
	return 0
}

// takeFault uses up one armed failure or drop of route, if any.
func (s *Server) takeFault(route string) armed {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults[route]
	if f == nil {
		return armed{}
	}
	if f.failN > 0 {
		f.failN--
		return armed{fail: true, status: f.failStatus, body: f.failBody}
	}
	if f.dropN > 0 {
		f.dropN--
		return armed{drop: true}
	}
	return armed{}
}
