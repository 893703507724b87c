// limits.go: Timeouts, the fake server's read, write and idle limits.

package padapitest

import (
	"net/http"
	"time"
)

// Timeouts are the limits of the fake's HTTP servers (both listeners), so
// that clients that stall, half-send a header or hold idle connections
// cannot pile up connections without end. A zero field means no limit,
// as in http.Server; MaxHeaderBytes 0 means net/http's default (1 MiB).
type Timeouts struct {
	// ReadHeader bounds reading a request's header (http.Server's
	// ReadHeaderTimeout): a client that sends half a header and stalls is
	// cut off.
	ReadHeader time.Duration
	// Read bounds reading a whole request, body included
	// (ReadTimeout).
	Read time.Duration
	// Write bounds writing an answer, from the end of the request's header
	// (WriteTimeout). A Delay longer than it leaves the client without an
	// answer.
	Write time.Duration
	// Idle bounds how long a kept-alive connection waits for its next
	// request (IdleTimeout).
	Idle time.Duration
	// MaxHeaderBytes caps a request's header (MaxHeaderBytes).
	MaxHeaderBytes int
}

// DefaultTimeouts are the fake's limits unless WithTimeouts sets others:
// generous enough for a 32 MiB body on a slow machine and a test's Delay,
// short enough that stalled connections go away.
var DefaultTimeouts = Timeouts{
	ReadHeader:     10 * time.Second,
	Read:           time.Minute,
	Write:          time.Minute,
	Idle:           2 * time.Minute,
	MaxHeaderBytes: 64 << 10,
}

// WithTimeouts sets the limits of the fake's HTTP servers (default
// DefaultTimeouts). A test of a stalling client can set short ones.
func WithTimeouts(t Timeouts) Option {
	return func(c *config) { c.limits = t }
}

// server returns an http.Server with these limits, serving h.
func (t Timeouts) server(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    t.MaxHeaderBytes,
	}
}
