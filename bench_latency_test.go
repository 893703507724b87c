package padapi_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// The benchmarks of this file put a fixed service time in front of every
// answer, as the real service has, and measure what users wait for: calls
// per second and their latency at many goroutines, and the wall time of a
// long listing.

// benchServiceTime is the latency every answer waits for.
const benchServiceTime = 20 * time.Millisecond

// benchConns counts a server's connections: opened, and closed before the
// run ended.
type benchConns struct{ opened, closed atomic.Int64 }

func (c *benchConns) track(_ net.Conn, s http.ConnState) {
	switch s {
	case http.StateNew:
		c.opened.Add(1)
	case http.StateClosed, http.StateHijacked:
		c.closed.Add(1)
	}
}

// benchSlowServer serves h after benchServiceTime, over TLS with HTTP/2
// offered (h2) or HTTP/1.1 only, and returns a TLS config that trusts it.
func benchSlowServer(b *testing.B, h2 bool, h http.HandlerFunc) (*httptest.Server, *tls.Config, *benchConns) {
	conns := new(benchConns)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(benchServiceTime)
		h(w, r)
	}))
	srv.EnableHTTP2 = h2
	srv.Config.ConnState = conns.track
	srv.StartTLS()
	b.Cleanup(srv.Close)
	return srv, srv.Client().Transport.(*http.Transport).TLSClientConfig, conns
}

// benchPools are the connection pools compared behind latency: the client's
// own (sdk); v1's, 64 connections all kept idle ("today" in issue 14); and
// net/http's own HTTP/2 with its connections bounded to 8, the alternative
// to x/net/http2 that was measured and not taken.
var benchPools = []struct {
	name string
	h2   bool // measured against an HTTP/2 server only
	opts func(*tls.Config) []padapi.Option
}{
	{"sdk", false, func(cfg *tls.Config) []padapi.Option {
		return []padapi.Option{padapi.WithTLSConfigForTest(cfg)}
	}},
	{"v1", false, func(cfg *tls.Config) []padapi.Option {
		return []padapi.Option{padapi.WithHTTPClient(&http.Client{Transport: benchTransport(cfg, 64)})}
	}},
	{"nethttp8", true, func(cfg *tls.Config) []padapi.Option {
		return []padapi.Option{padapi.WithHTTPClient(&http.Client{Transport: benchTransport(cfg, 8)})}
	}},
}

// benchTransport is net/http's DefaultTransport bounded to n connections
// per host, all of which may stay idle.
func benchTransport(cfg *tls.Config, n int) *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg.Clone()
	t.MaxIdleConns, t.MaxIdleConnsPerHost, t.MaxConnsPerHost = n, n, n
	return t
}

// BenchmarkLatency calls Quota.Get from 1 to 1 024 goroutines against a
// server that answers after 20 ms, over HTTP/1.1 (h1) and HTTP/2 (h2) with
// TLS, and reports calls per second, the 50th and 99th percentile of a
// call's time, and the connections the server accepted ("conns") and saw
// closed ("closed") over the run, its warm-up included: every goroutine
// makes one call before the clock starts, so the pool is opened but the
// dials it discards are counted.
func BenchmarkLatency(b *testing.B) {
	for _, proto := range []string{"h1", "h2"} {
		for _, pool := range benchPools {
			if pool.h2 && proto != "h2" {
				continue
			}
			for _, g := range []int{1, 64, 256, 1024} {
				b.Run(fmt.Sprintf("proto=%s/pool=%s/g=%d", proto, pool.name, g), func(b *testing.B) {
					benchLatency(b, proto == "h2", g, pool.opts)
				})
			}
		}
	}
}

func benchLatency(b *testing.B, h2 bool, goroutines int, opts func(*tls.Config) []padapi.Option) {
	srv, cfg, conns := benchSlowServer(b, h2, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(benchQuotaBody)
	})
	c := benchClient(b, srv.URL, opts(cfg)...)
	ctx := context.Background()

	// Warm-up: one call from each goroutine, all at once.
	errs := make(chan error, goroutines)
	for range goroutines {
		go func() { _, err := c.Quota.Get(ctx); errs <- err }()
	}
	for range goroutines {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}

	// goroutines goroutines share the b.N calls.
	took := make([]time.Duration, b.N)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				t0 := time.Now()
				if _, err := c.Quota.Get(ctx); err != nil {
					b.Error(err)
					return
				}
				took[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "calls/s")
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1e3, "p50-ms")
	b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1e3, "p99-ms")
	b.ReportMetric(float64(conns.opened.Load()), "conns")
	b.ReportMetric(float64(conns.closed.Load()), "closed")
	b.ReportMetric(0, "ns/op") // calls/s says it, per goroutine count
}

// BenchmarkPadsAll200 lists 200 pages of 50 pads (with their events), each
// answered after 20 ms, over loopback: page by page with List and NextPage
// (what Pads.All did before it prefetched: "list"), with Pads.All ("all"),
// and with Pads.All and WithConcurrentPages(8) ("all8"). The loop does
// nothing with the pads, so "all" gains nothing over "list" here: its
// prefetch overlaps the caller's own work. For "all8" it also reports the
// peak live heap of the loop in pages (benchPeakPages).
func BenchmarkPadsAll200(b *testing.B) {
	const pages = 200
	pads := benchPads(b, 50)
	bodies := make([][]byte, pages+1)
	srv := httptest.NewServer(nil)
	b.Cleanup(srv.Close)
	for p := 1; p <= pages; p++ {
		next := ""
		if p < pages {
			next = srv.URL + "/api/pads?page=" + strconv.Itoa(p+1)
		}
		body, err := json.Marshal(struct {
			Status   string       `json:"status"`
			Pads     []padapi.Pad `json:"pads"`
			Total    int          `json:"total"`
			NextPage string       `json:"next_page"`
		}{"OK", pads, pages * 50, next})
		if err != nil {
			b.Fatal(err)
		}
		bodies[p] = body
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(benchServiceTime)
		p, _ := strconv.Atoi(r.URL.Query().Get("page"))
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_, _ = w.Write(bodies[max(p, 1)])
	})
	ctx := context.Background()

	b.Run("loop=list", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		for range b.N {
			n := 0
			opts := &padapi.PadListOptions{}
			for {
				page, err := c.Pads.List(ctx, opts)
				if err != nil {
					b.Fatal(err)
				}
				n += len(page.Items)
				if page.NextPage == "" {
					break
				}
				opts.Page++
				if opts.Page == 1 {
					opts.Page = 2
				}
			}
			if n != pages*50 {
				b.Fatalf("%d pads, want %d", n, pages*50)
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/list")
	})
	for _, loop := range []struct {
		name string
		opts []padapi.Option
	}{{"all", nil}, {"all8", []padapi.Option{padapi.WithConcurrentPages(8)}}} {
		b.Run("loop="+loop.name, func(b *testing.B) {
			c := benchClient(b, srv.URL, loop.opts...)
			peak := 0.0
			if loop.opts != nil {
				peak = benchPeakPages(b, c, pages)
			}
			b.ResetTimer()
			for range b.N {
				benchAll(b, c, pages*50)
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/list")
			if peak > 0 {
				b.ReportMetric(peak, "peak-pages")
			}
		})
	}
}

// benchPeakPages runs one Pads.All over pages pages and returns its peak
// live heap, in pages: the live heap read at the first pad of every page,
// above a baseline read before the loop (after a first loop has opened the
// connections), divided by the live heap one decoded page takes. With
// fetches under way, a reading also counts the pages being decoded at that
// moment (a body and its wire structs: about two pages each), and what
// they allocate while the collection runs.
func benchPeakPages(b *testing.B, c *padapi.Client, pages int) float64 {
	ctx := context.Background()
	// One loop first opens the connections the measured one uses, whose
	// buffers are no page's memory.
	benchAll(b, c, pages*50)
	before := benchLiveHeap()
	page, err := c.Pads.List(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	pageBytes := float64(benchLiveHeap() - before)
	runtime.KeepAlive(page)

	base := benchLiveHeap()
	peak := 0.0
	n := 0
	for _, err := range c.Pads.All(ctx, nil) {
		if err != nil {
			b.Fatal(err)
		}
		if n%50 == 0 {
			peak = max(peak, float64(benchLiveHeap()-base))
		}
		n++
	}
	if n != pages*50 {
		b.Fatalf("%d pads, want %d", n, pages*50)
	}
	return peak / pageBytes
}

// benchLiveHeap is the heap in use after a collection.
func benchLiveHeap() int64 {
	var m runtime.MemStats
	// Twice: what sync.Pools held before the first is freed by the second.
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
