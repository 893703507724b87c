package archive

import (
	"fmt"
	"net/http"
	"path/filepath"
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
// (⌈requests ÷ 8⌉ × 20 ms): run it with -benchtime=1x.
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
		g := NewGate(nil)
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
