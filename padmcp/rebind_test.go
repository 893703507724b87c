// rebind_test.go: issue 37 #8, DNS rebinding past the history-link check: the address dialled is the one checked (history.go).

package padmcp

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// rebinder is a DNS server, over in-memory connections, that answers the
// first A query with a public address and every later one with 127.0.0.1,
// as a rebinding attacker's name server does.
type rebinder struct {
	queries atomic.Int32
	public  netip.Addr
}

// resolver is a Go resolver that asks r.
func (r *rebinder) resolver() *net.Resolver {
	return &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go r.serve(server)
		return client, nil
	}}
}

// serve answers the queries on one stream connection (length-prefixed).
func (r *rebinder) serve(c net.Conn) {
	defer c.Close()
	for {
		var n uint16
		if binary.Read(c, binary.BigEndian, &n) != nil {
			return
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(c, msg); err != nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(msg)
		if err != nil {
			return
		}
		q, err := p.Question()
		if err != nil {
			return
		}
		b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true})
		b.EnableCompression()
		b.StartQuestions()
		b.Question(q)
		b.StartAnswers()
		if q.Type == dnsmessage.TypeA {
			addr := netip.MustParseAddr("127.0.0.1")
			if r.queries.Add(1) == 1 {
				addr = r.public
			}
			b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 0}, dnsmessage.AResource{A: addr.As4()})
		}
		out, err := b.Finish()
		if err != nil {
			return
		}
		binary.Write(c, binary.BigEndian, uint16(len(out)))
		c.Write(out)
	}
}

// Under rebinding (a public answer, then 127.0.0.1), the history client
// dials no loopback address: the check runs on the address dialled, so
// the loopback service gets 0 requests, whichever answer each dial gets.
// The control case shows the setup would see a fetch: without the check,
// the same link reaches the loopback service.
func TestHistoryRebinding(t *testing.T) {
	t.Parallel()
	var loopbackHits atomic.Int32
	loop := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		loopbackHits.Add(1)
		reply(http.StatusOK, `[]`)(w, r)
	}))
	t.Cleanup(loop.Close)
	roots := loop.Client().Transport.(*http.Transport).TLSClientConfig
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(loop.URL, "https://"))
	// The certificate names example.com; the rebinder says where it is.
	link := "https://example.com:" + port + "/h.json"

	open, err := newHistoryClient((&rebinder{public: netip.MustParseAddr("127.0.0.1")}).resolver(), roots, func(string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	open.Pads.History(t.Context(), link) // the document does not matter: the fetch does
	if loopbackHits.Load() != 1 {
		t.Fatalf("control: without the check, %d fetches; want 1", loopbackHits.Load())
	}
	loopbackHits.Store(0)

	r := &rebinder{public: netip.MustParseAddr("203.0.113.7")}
	var mu sync.Mutex
	var dialled []string
	// The real check, recorded; a public address passes it, and the test
	// then stops the dial itself (it runs offline).
	check := func(address string) error {
		mu.Lock()
		dialled = append(dialled, address)
		mu.Unlock()
		if err := dialPublic(address); err != nil {
			return err
		}
		return errors.New("test: the public address passed the check; not dialled offline")
	}
	hc, err := newHistoryClient(r.resolver(), roots, check)
	if err != nil {
		t.Fatal(err)
	}
	var last error
	for range 3 {
		_, last = hc.Pads.History(t.Context(), link)
	}
	if n := loopbackHits.Load(); n != 0 {
		t.Fatalf("%d loopback fetches under rebinding", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialled) < 2 || !strings.HasPrefix(dialled[0], "203.0.113.7:") || !strings.HasPrefix(dialled[len(dialled)-1], "127.0.0.1:") {
		t.Errorf("addresses checked %v, want the public one, then 127.0.0.1", dialled)
	}
	if last == nil || !strings.Contains(last.Error(), "not a public address") || !strings.Contains(last.Error(), "AllowLoopbackHistory") {
		t.Errorf("the loopback dial's error: %v", last)
	}
}
