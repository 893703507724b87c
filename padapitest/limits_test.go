package padapitest_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi/padapitest"
)

// The fake's listeners close a connection whose header stalls, refuse a
// header over the limit with 431, and have the default limits unless told
// otherwise. It needs real sockets (the limits are the net/http server's
// deadlines), so what it checks is what timing cannot flip: the fake, whose
// only limit is the 100ms header timeout, closes the stalled connection
// before the test's own 30s read deadline, however busy the machine.
//
// It waits more than it works: the 100ms stalls, and the half second
// net/http's server lingers after its 431 before it closes the connection
// (rstAvoidanceDelay), which the fake's Close waits for. It runs beside
// the other parallel tests: its server, its connections and the limits
// it sets are its own.
func TestTimeouts(t *testing.T) {
	t.Parallel()
	srv := padapitest.NewServer(t, padapitest.WithTimeouts(padapitest.Timeouts{ReadHeader: 100 * time.Millisecond, MaxHeaderBytes: 4 << 10}))
	for _, base := range []string{srv.URL, srv.HistoryURL} {
		addr := strings.TrimPrefix(base, "http://")
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		start := time.Now()
		if _, err := io.WriteString(conn, "GET /api/quota HTTP/1.1\r\nHost: x\r\n"); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(start.Add(30 * time.Second))
		_, err = io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("%s: a stalled header was not cut off: %v after %v", base, err, time.Since(start))
		}

		conn2, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn2.Close()
		_ = conn2.SetDeadline(time.Now().Add(30 * time.Second))
		big := "GET /api/quota HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("b", 64<<10) + "\r\n\r\n"
		go func() { _, _ = io.WriteString(conn2, big) }() // the fake may stop reading before the end
		resp, err := http.ReadResponse(bufio.NewReader(conn2), nil)
		if err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%s: a 64 KiB header over a 4 KiB limit: %v, %v; want 431", base, resp, err)
		}
	}
	if d := padapitest.DefaultTimeouts; d.ReadHeader <= 0 || d.Read <= 0 || d.Write <= 0 || d.Idle <= 0 || d.MaxHeaderBytes <= 0 {
		t.Errorf("DefaultTimeouts %+v: every limit should be set", d)
	}
}
