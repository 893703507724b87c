package archive

import (
	"net"
	"sync/atomic"
	"testing"
	"time"
)

// latencyProxy forwards TCP connections to a server, each byte arriving
// oneWay after it was sent, in either direction, and each new connection
// a round trip (2 × oneWay) late, as a TCP handshake over such a link
// would be: a service 2 × oneWay away, for the benchmarks' figures.
type latencyProxy struct {
	ln     net.Listener
	target string
	oneWay time.Duration
	conns  atomic.Int64 // connections opened
}

// startLatencyProxy starts a proxy to target (host:port) and returns it;
// it stops with tb.
func startLatencyProxy(tb testing.TB, target string, oneWay time.Duration) *latencyProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	p := &latencyProxy{ln: ln, target: target, oneWay: oneWay}
	tb.Cleanup(func() { ln.Close() })
	go p.serve()
	return p
}

// URL is the proxy's base URL.
func (p *latencyProxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *latencyProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.conns.Add(1)
		go p.handle(c)
	}
}

func (p *latencyProxy) handle(c net.Conn) {
	defer c.Close()
	time.Sleep(2 * p.oneWay) // the handshake
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer up.Close()
	done := make(chan struct{})
	go func() { p.pipe(c, up); close(done) }()
	p.pipe(up, c)
	<-done
}

// chunk is what one read of a connection returned, and when.
type chunk struct {
	data []byte
	at   time.Time
}

// pipe copies src to dst, each chunk oneWay after it was read; at src's
// end it ends dst's writing half.
func (p *latencyProxy) pipe(src, dst net.Conn) {
	q := make(chan chunk, 1024)
	go func() {
		defer close(q)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- chunk{buf[:n], time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	for ch := range q {
		time.Sleep(time.Until(ch.at.Add(p.oneWay)))
		if _, err := dst.Write(ch.data); err != nil {
			src.Close() // the reader ends
			break
		}
	}
	for range q { // drain, so the reader ends
	}
	if cw, ok := dst.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
}
