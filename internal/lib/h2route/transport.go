// transport.go: the two *http.Transport values of padapi's own transport,
// with its connection settings.

package h2route

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"time"
)

// Connection settings of the client's own transport.
const (
	// idlePerHost keeps an HTTP/1.1 connection for every caller of the
	// concurrency the client is tested at (256 goroutines), so a burst
	// does not close connections only to open them again.
	idlePerHost = 512
	// dialsAtOnce bounds the connections being opened (TCP and TLS) to a
	// host at once, so 1 024 callers arriving together ramp up instead of
	// starting 1 024 handshakes.
	dialsAtOnce = 8
	// pingAfter and pingTimeout are the HTTP/2 health check: after 15 s
	// without a frame the client pings, and closes the connection when no
	// answer comes within 15 s more, so a connection that stops answering
	// is dropped within 30 s and later calls open a new one.
	pingAfter   = 15 * time.Second
	pingTimeout = 15 * time.Second
	// handshakeTimeout bounds a TLS handshake, as net/http's
	// TLSHandshakeTimeout does for the dials it makes itself.
	handshakeTimeout = 10 * time.Second
)

// NewTransport returns the client's own transport: HTTP/1.1 over net/http,
// and HTTP/2 where an HTTPS server offers it, with proxies from the
// environment as http.DefaultTransport has them. unwanted is the Dialer's
// check of a dial whose call has its answer already.
func NewTransport(tlsConfig *tls.Config, unwanted func(context.Context) bool) *Router {
	h1, h2 := Transports(tlsConfig, unwanted)
	return New(h1, h2, 2*handshakeTimeout)
}

// Transports returns the two transports of the client's own: h1 for
// HTTP/1.1 (and proxies), h2 for the router's HTTP/2 connections, both
// dialing through one Dialer.
func Transports(tlsConfig *tls.Config, unwanted func(context.Context) bool) (h1, h2 *http.Transport) {
	d := NewDialer(dialsAtOnce, handshakeTimeout, unwanted)
	h1 = &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		TLSClientConfig:       tlsConfig,
		MaxIdleConns:          0, // no limit across hosts
		MaxIdleConnsPerHost:   idlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   handshakeTimeout,
		ExpectContinueTimeout: time.Second,
		DialContext:           d.Dial,
		Protocols:             new(http.Protocols),
	}
	h1.Protocols.SetHTTP1(true) // HTTP/2 goes through the router's own connections
	h1.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialTLS(ctx, network, addr, tlsConfig, "http/1.1")
	}
	h2 = &http.Transport{
		IdleConnTimeout: h1.IdleConnTimeout,
		Protocols:       new(http.Protocols),
		HTTP2:           &http.HTTP2Config{SendPingTimeout: pingAfter, PingTimeout: pingTimeout},
		DialTLSContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialHTTP2(ctx, network, addr, tlsConfig)
		},
	}
	h2.Protocols.SetHTTP2(true)
	return h1, h2
}
