package padapi

import (
	"testing"
	"time"
)

// The client's own transport pings an HTTP/2 connection that has been
// silent for 15 s and drops it when no answer comes within 15 s more, so a
// wedged connection is abandoned within 30 s; net/http's HTTP/1.1 keeps
// room for the concurrency the client is tested at.
func TestTransportSettings(t *testing.T) {
	r := newTransport(nil)
	if c := r.h2.HTTP2; c == nil || c.SendPingTimeout != 15*time.Second || c.PingTimeout != 15*time.Second {
		t.Errorf("HTTP/2 health check %+v: want a ping after 15s, answered within 15s", c)
	}
	if r.h1.MaxIdleConnsPerHost < 256 || r.h1.MaxConnsPerHost != 0 {
		t.Errorf("HTTP/1.1: %d idle per host, %d per host at most; want >= 256 and no bound", r.h1.MaxIdleConnsPerHost, r.h1.MaxConnsPerHost)
	}
	if r.h1.Proxy == nil {
		t.Error("HTTP/1.1 ignores the environment's proxy")
	}
}
