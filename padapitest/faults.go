// faults.go: Fault, and the failures and delays a test arms per route.

package padapitest

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Fault is what one request to a route meets. The zero Fault is none: the
// request is served as usual.
type Fault struct {
	// Status, when not 0, answers the request with Status and Body without
	// the handler running (and without the auth check, as when a proxy
	// answers), as FailNext does.
	Status int
	// Body is the body of a Status answer. An empty body gives the
	// service's error body with the status text as its message.
	Body string
	// Drop runs the request as usual (a create creates, and counts against
	// the quota) and then closes the connection without an answer, as
	// DropNext does. A Status comes first: with both, the handler does not
	// run.
	Drop bool
}

// counted is what FailNext, DropNext and Delay armed on one route.
type counted struct {
	failN      int
	failStatus int
	failBody   string
	dropN      int
	delay      time.Duration
}

// FailNext makes the next n requests to route get status and body without
// the handler running (and without the auth check, as when a proxy answers).
// An empty body gives the service's error body with the status text as its
// message. n <= 0 disarms it. route is a pattern from Routes, such as
// "GET /api/quota"; FailNext panics on any other.
func (s *Server) FailNext(route string, n int, status int, body string) {
	body = faultBody(status, body)
	s.arm(route, func(f *counted) { f.failN, f.failStatus, f.failBody = max(n, 0), status, body })
}

// DropNext makes the next n requests to route run as usual (a create
// creates, and counts against the quota) and then closes the connection
// without an answer: the client cannot know what happened. n <= 0 disarms
// it. It panics on a route not in Routes.
//
// Go's HTTP client itself resends a GET once when a reused connection closes
// before the answer, so a dropped GET may arrive, and run, twice.
func (s *Server) DropNext(route string, n int) {
	s.arm(route, func(f *counted) { f.dropN = max(n, 0) })
}

// Delay makes every request to route wait d before anything else happens;
// 0 removes the delay. When the request's context ends first (the caller
// gave up) or the fake is closed, the handler does not run. It panics on a
// route not in Routes.
func (s *Server) Delay(route string, d time.Duration) {
	s.arm(route, func(f *counted) { f.delay = max(d, 0) })
}

// SetFaults makes each request to any route meet the Fault that draw
// returns for it, such as a 503 for one request in five; nil removes draw.
// draw gets the route (a pattern from Routes) and the request as Requests
// records it, the API key redacted. It runs once for each request that
// reaches a route, after the route's Delay and only when no FailNext or
// DropNext is armed on the route (those come first). It runs concurrently
// for concurrent requests, so it must be safe for concurrent use, and
// without the fake's lock held, so it may call the Server's methods.
//
// FailNext and DropNext arm faults by count, used up by whichever requests
// come next; SetFaults gives every request, retries included, a fault of
// its own:
//
//	var mu sync.Mutex
//	rng := rand.New(rand.NewPCG(1, 2))
//	srv.SetFaults(func(route string, r padapitest.Request) padapitest.Fault {
//		mu.Lock()
//		defer mu.Unlock()
//		if rng.Float64() < 0.2 {
//			return padapitest.Fault{Status: http.StatusServiceUnavailable}
//		}
//		return padapitest.Fault{}
//	})
func (s *Server) SetFaults(draw func(route string, r Request) Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.draw = draw
}

func (s *Server) arm(route string, set func(*counted)) {
	if _, ok := s.routes()[route]; !ok {
		panic(fmt.Sprintf("padapitest: unknown route %q; the routes are %s", route, strings.Join(Routes(), ", ")))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults[route]
	if f == nil {
		f = &counted{}
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

// takeFault uses up one armed failure or drop of route, if any, and
// otherwise asks the SetFaults function, if any, without the lock held.
func (s *Server) takeFault(route string, r *http.Request) Fault {
	armed, draw := s.takeArmed(route)
	if armed != nil || draw == nil {
		return armed.orNone()
	}
	f := draw(route, s.snapshot(r))
	f.Body = faultBody(f.Status, f.Body)
	return f
}

// takeArmed uses up one armed failure or drop of route and returns it, or
// returns the SetFaults function.
func (s *Server) takeArmed(route string) (*Fault, func(string, Request) Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch f := s.faults[route]; {
	case f != nil && f.failN > 0:
		f.failN--
		return &Fault{Status: f.failStatus, Body: f.failBody}, nil
	case f != nil && f.dropN > 0:
		f.dropN--
		return &Fault{Drop: true}, nil
	}
	return nil, s.draw
}

func (f *Fault) orNone() Fault {
	if f == nil {
		return Fault{}
	}
	return *f
}

// faultBody is the body of a failure with status: body, or the service's
// error body when it is empty.
func faultBody(status int, body string) string {
	if body == "" && status != 0 {
		body = string(errorBody(http.StatusText(status)))
	}
	return body
}
