package archive

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// seedBench adds n pads with 20 events and two environments each (the
// pad's own with one file, and one with two files), an hour apart.
func seedBench(srv *padapitest.Server, n int) {
	for i := range n {
		at := base.Add(time.Duration(i) * time.Hour)
		events := make([]padapi.PadEvent, 20)
		for j := range events {
			events[j] = padapi.PadEvent{Kind: "ran", Message: fmt.Sprintf("ran the code (%d)", j), CreatedAt: at.Add(time.Duration(j) * time.Second)}
		}
		p := srv.AddPad(padapi.Pad{Title: fmt.Sprintf("Interview %d", i), Language: "python", Contents: "print(1)\n", Notes: "notes", CreatedAt: at, Events: events})
		srv.AddEnvironment(p.ID, padapi.PadEnvironment{Language: "python", CreatedAt: at,
			Files: []padapi.FileContent{{Path: "main.py", Contents: "def main(): pass\n"}, {Path: "util.py", Contents: "N = 1\n"}}})
	}
}

// BenchmarkArchive archives 1 000 pads behind a service that takes 20 ms
// per request, at concurrency 8, and reports the requests sent, the time
// taken, and the best schedule of those requests on 8 connections
// (⌈requests ÷ 8⌉ × 20 ms): run it with -benchtime=1x. It also reports
// how busy the 8 slots were (slot-use, 1 when a request was always in
// flight on each) and how long a request took as the client saw it
// (ms/request): when the time exceeds the best schedule, these tell the
// run's own gaps from a slow machine. The latency=0s run is the floor of
// the local work (the fake, the client, the file system).
func BenchmarkArchive(b *testing.B) {
	for _, latency := range []time.Duration{20 * time.Millisecond, 0} {
		b.Run(fmt.Sprintf("latency=%v", latency), func(b *testing.B) { benchArchive(b, latency) })
	}
}

func benchArchive(b *testing.B, latency time.Duration) {
	const (
		pads        = 1000
		concurrency = 8
	)
	srv := padapitest.NewServer(b)
	seedBench(srv, pads)
	for _, route := range padapitest.Routes() {
		srv.Delay(route, latency)
	}
	for b.Loop() {
		tt := &timedTransport{base: NewGate(nil).base}
		g := NewGate(tt)
		c := srv.Client(padapi.WithHTTPClient(&http.Client{Transport: g}))
		dir := filepath.Join(b.TempDir(), "archive")
		start := time.Now()
		sum, err := Run(b.Context(), c, dir, Options{Concurrency: concurrency, Gate: g})
		took := time.Since(start)
		c.Close()
		if err != nil || sum.Added != pads {
			b.Fatalf("Run: %+v, %v", sum, err)
		}
		b.ReportMetric(float64(sum.Requests), "requests")
		b.ReportMetric(took.Seconds(), "s/run")
		busy := time.Duration(tt.busy.Load())
		b.ReportMetric(busy.Seconds()/took.Seconds()/concurrency, "slot-use")
		b.ReportMetric(busy.Seconds()*1000/float64(sum.Requests), "ms/request")
		if latency > 0 {
			best := time.Duration((sum.Requests+concurrency-1)/concurrency) * latency
			b.ReportMetric(best.Seconds(), "best-s")
			b.ReportMetric(took.Seconds()/best.Seconds(), "x-best")
		}
	}
}

// BenchmarkRerun measures a re-run with nothing changed on the same
// service: its requests and time.
func BenchmarkRerun(b *testing.B) {
	const pads = 1000
	srv := padapitest.NewServer(b)
	seedBench(srv, pads)
	for _, route := range padapitest.Routes() {
		srv.Delay(route, 20*time.Millisecond)
	}
	g := NewGate(nil)
	c := srv.Client(padapi.WithHTTPClient(&http.Client{Transport: g}))
	defer c.Close()
	dir := filepath.Join(b.TempDir(), "archive")
	if _, err := Run(b.Context(), c, dir, Options{Concurrency: 16, Gate: g}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		sum, err := Run(b.Context(), c, dir, Options{Concurrency: 8, Gate: g})
		if err != nil || sum.Unchanged != pads {
			b.Fatalf("Run: %+v, %v", sum, err)
		}
		b.ReportMetric(float64(sum.Requests), "requests")
	}
}

// timedTransport adds up the time requests spend in base, from sending to
// the answer's header: the time a request holds one of the Gate's slots.
type timedTransport struct {
	base http.RoundTripper
	busy atomic.Int64
}

func (t *timedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := t.base.RoundTrip(r)
	t.busy.Add(int64(time.Since(start)))
	return resp, err
}

// BenchmarkFirstRunBehindLatency archives 300 and 1 000 pads (as
// seedBench makes them) at Run's defaults, behind a link of 20 ms each way
// (latencyProxy: a round trip of 40 ms per request, and one more per new
// connection), and reports the requests sent, the time taken, the best
// schedule of those requests (⌈requests ÷ 8⌉ round trips: 8 connections
// always busy) and their ratio, x-best (issue 40's target: ≤ 1.5), and the
// connections opened. Run it with -benchtime=1x.
func BenchmarkFirstRunBehindLatency(b *testing.B) {
	for _, pads := range []int{300, 1000} {
		b.Run(fmt.Sprintf("pads=%d", pads), func(b *testing.B) { benchBehindLatency(b, pads, 0) })
	}
}

// BenchmarkConcurrencyBehindLatency is BenchmarkFirstRunBehindLatency over
// 300 pads at each concurrency: the measurement DefaultConcurrency was
// chosen by.
func BenchmarkConcurrencyBehindLatency(b *testing.B) {
	for _, n := range []int{4, 8, 12, 16} {
		b.Run(fmt.Sprintf("concurrency=%d", n), func(b *testing.B) { benchBehindLatency(b, 300, n) })
	}
}

func benchBehindLatency(b *testing.B, pads, concurrency int) {
	const oneWay = 20 * time.Millisecond
	srv := padapitest.NewServer(b)
	// The edit-history documents, on the fake's second listener, come
	// over the same link.
	history := startLatencyProxy(b, strings.TrimPrefix(srv.HistoryURL, "http://"), oneWay)
	srv.HistoryURL = history.URL()
	seedBench(srv, pads)
	proxy := startLatencyProxy(b, strings.TrimPrefix(srv.URL, "http://"), oneWay)
	for b.Loop() {
		g := NewGate(nil)
		c, err := padapi.NewClient(proxy.URL(), srv.APIKey, padapi.WithHTTPClient(&http.Client{Transport: g}))
		if err != nil {
			b.Fatal(err)
		}
		conns := proxy.conns.Load() + history.conns.Load()
		dir := filepath.Join(b.TempDir(), "archive")
		start := time.Now()
		sum, err := Run(b.Context(), c, dir, Options{Gate: g, Concurrency: concurrency})
		took := time.Since(start)
		c.Close()
		if err != nil || sum.Added != pads {
			b.Fatalf("Run: %+v, %v", sum, err)
		}
		best := time.Duration((sum.Requests+7)/8) * 2 * oneWay
		b.ReportMetric(float64(sum.Requests), "requests")
		b.ReportMetric(took.Seconds(), "s/run")
		b.ReportMetric(best.Seconds(), "best-s")
		b.ReportMetric(took.Seconds()/best.Seconds(), "x-best")
		b.ReportMetric(float64(proxy.conns.Load()+history.conns.Load()-conns), "conns")
	}
}
