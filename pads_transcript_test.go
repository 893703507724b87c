// pads_transcript_test.go: tests of Pads.Transcript and its fan-out.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// padJSON is a pad body with the given environments.
func padJSON(id string, envIDs []string, active string) string {
	return fmt.Sprintf(`{"status":"OK","id":%q,"title":"Backend screen","notes":"Strong on SQL.","events":"https://app.coderpad.io/api/pads/%s/events",`+
		`"created_at":"2024-03-05T10:00:00Z","updated_at":"2024-03-05T11:00:00Z","pad_environment_ids":[%s],"active_environment_id":%s}`,
		id, id, strings.Join(envIDs, ","), active)
}

// envJSON is a small environment body.
func envJSON(id string) string {
	return fmt.Sprintf(`{"status":"OK","id":%s,"pad_id":1,"language":"go","file_contents":[{"path":"main.go","contents":"// env %s\n"}],"created_at":"2024-03-05T10:00:00Z"}`, id, id)
}

// env is envJSON decoded.
func env(id string) padapi.PadEnvironment {
	return padapi.PadEnvironment{
		ID: padapi.ID(id), PadID: "1", Language: "go",
		Files:     []padapi.FileContent{{Path: "main.go", Contents: "// env " + id + "\n"}},
		CreatedAt: time.Date(2024, 3, 5, 10, 0, 0, 0, time.UTC),
	}
}

// seq returns the IDs first..first+n-1 as text.
func seq(first, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprint(first + i)
	}
	return ids
}

// Transcript reads the pad, every page of its events and every
// environment it lists, the active one last when it is not listed.
func TestTranscriptWhole(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	var mu sync.Mutex
	var seen []string
	record := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery)
			mu.Unlock()
			respond(w, http.StatusOK, []byte(body))
		}
	}
	mux.HandleFunc("GET /gw/api/pads/K3P9ZR2A", record(padJSON("K3P9ZR2A", []string{"98765", `"98766"`}, "98767")))
	first, last := string(fixture(t, "events_page1.json")), string(fixture(t, "events_last.json"))
	mux.HandleFunc("GET /gw/api/pads/K3P9ZR2A/events", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page") == "2" {
			record(last)(w, r)
		} else {
			record(first)(w, r)
		}
	})
	mux.HandleFunc("GET /gw/api/pad_environments/98765", record(string(fixture(t, "environment_live.json"))))
	mux.HandleFunc("GET /gw/api/pad_environments/98766", record(string(fixture(t, "environment_string_ids.json"))))
	mux.HandleFunc("GET /gw/api/pad_environments/98767", record(envJSON("98767")))

	tr, err := c.Pads.Transcript(context.Background(), "K3P9ZR2A")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Pad == nil || tr.Pad.ID != "K3P9ZR2A" || tr.Pad.Notes != "Strong on SQL." {
		t.Errorf("pad %+v", tr.Pad)
	}
	if diff := cmp.Diff(append(eventsPage1().Items, eventsLast().Items...), tr.Events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	wantEnvs := []padapi.PadEnvironment{*environmentLive(), *environmentStringIDs(), env("98767")}
	if diff := cmp.Diff(wantEnvs, tr.Environments); diff != "" {
		t.Errorf("environments mismatch (-want +got):\n%s", diff)
	}
	if len(seen) != 6 || seen[0] != "/gw/api/pads/K3P9ZR2A?" {
		t.Errorf("requests %q: want the pad first, then 5 more", seen)
	}
	// The events are asked for oldest first, on every page.
	var events []string
	for _, s := range seen {
		if strings.Contains(s, "/events?") {
			events = append(events, s)
		}
	}
	wantEvents := []string{"/gw/api/pads/K3P9ZR2A/events?sort=created_at%2Casc", "/gw/api/pads/K3P9ZR2A/events?page=2&sort=created_at%2Casc"}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events requests mismatch (-want +got):\n%s", diff)
	}
}

// A pad with no environments and no events gives empty lists, not nil;
// an active environment that is listed is read once.
func TestTranscriptSmall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, envs, active string
		want               []padapi.PadEnvironment
	}{
		{"none", "", "null", []padapi.PadEnvironment{}},
		{"active listed", `5,"6"`, `"5"`, []padapi.PadEnvironment{env("5"), env("6")}},
		{"active only", ``, `7`, []padapi.PadEnvironment{env("7")}},
		{"repeats read once, in first-listed order", `3,1,"3",2,1,"1"`, `"2"`, []padapi.PadEnvironment{env("3"), env("1"), env("2")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mux := setup(t, noRetry)
			var envReads atomic.Int32
			mux.HandleFunc("GET /gw/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
				respond(w, http.StatusOK, []byte(padJSON("P1", strings.Split(tc.envs, ","), tc.active)))
			})
			mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
				respond(w, http.StatusOK, []byte(`{"status":"OK","events":[],"total":0}`))
			})
			mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
				envReads.Add(1)
				respond(w, http.StatusOK, []byte(envJSON(r.PathValue("id"))))
			})
			tr, err := c.Pads.Transcript(context.Background(), "P1")
			if err != nil {
				t.Fatal(err)
			}
			if tr.Events == nil || len(tr.Events) != 0 {
				t.Errorf("events %#v, want an empty list", tr.Events)
			}
			if tr.Environments == nil {
				t.Error("environments nil, want a list")
			}
			if diff := cmp.Diff(tc.want, tr.Environments); diff != "" {
				t.Errorf("environments mismatch (-want +got):\n%s", diff)
			}
			if n := int(envReads.Load()); n != len(tc.want) {
				t.Errorf("%d environment reads, want %d", n, len(tc.want))
			}
		})
	}
}

// inFlight counts concurrent requests and keeps the highest count.
type inFlight struct {
	now, peak atomic.Int32
}

func (f *inFlight) enter() {
	n := f.now.Add(1)
	for {
		p := f.peak.Load()
		if n <= p || f.peak.CompareAndSwap(p, n) {
			return
		}
	}
}

func (f *inFlight) leave() { f.now.Add(-1) }

// Environments are read 8 at a time, however many the pad has. Each
// environment request is held until the test lets go, after
// synctest.Wait has seen every request the client started arrive: a
// client that allowed more, or fewer, would show it.
func TestTranscriptConcurrencyBound(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testTranscriptConcurrencyBound)
}

func testTranscriptConcurrencyBound(t *testing.T) {
	const envs = 24
	c, mux := setupMemory(t, noRetry)
	ids := seq(100, envs)
	mux.HandleFunc("GET /gw/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(padJSON("P1", ids, "null")))
	})
	mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(`{"status":"OK","events":[],"total":0}`))
	})
	var flight inFlight
	release := make(chan struct{})
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
		flight.enter()
		defer flight.leave()
		<-release
		respond(w, http.StatusOK, []byte(envJSON(r.PathValue("id"))))
	})
	var tr *padapi.Transcript
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr, err = c.Pads.Transcript(context.Background(), "P1")
	}()
	synctest.Wait()
	if n := flight.now.Load(); n != 8 {
		t.Errorf("%d environment requests in flight, want 8", n)
	}
	close(release)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if peak := flight.peak.Load(); peak != 8 {
		t.Errorf("%d environment requests in flight at most, want 8", peak)
	}
	for i, env := range tr.Environments {
		if string(env.ID) != ids[i] {
			t.Errorf("environment %d is %q, want %q: the pad's order", i, env.ID, ids[i])
		}
	}
}

// The first failure fails the whole call: the error is that failure's, and
// the requests still running are cancelled, and no further ones start.
func TestTranscriptFirstErrorCancelsTheRest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testTranscriptFirstErrorCancelsTheRest)
}

func testTranscriptFirstErrorCancelsTheRest(t *testing.T) {
	const envs = 20
	c, mux := setupMemory(t, noRetry)
	mux.HandleFunc("GET /gw/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(padJSON("P1", seq(1, envs), "null")))
	})
	mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(`{"status":"OK","events":[],"total":0}`))
	})
	var started, cancelled atomic.Int32
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
		// The third request to arrive fails; the others wait for the
		// client to give up on them.
		if started.Add(1) == 3 {
			respond(w, http.StatusNotFound, []byte(`{"status":"ERROR","message":"Environment not found"}`))
			return
		}
		select {
		case <-r.Context().Done():
			cancelled.Add(1)
		case <-time.After(5 * time.Second): // fake time: passes only if nothing else can happen
			t.Error("an environment request was never cancelled")
		}
	})
	start := time.Now()
	tr, err := c.Pads.Transcript(context.Background(), "P1")
	elapsed := time.Since(start)
	if !errors.Is(err, padapi.ErrNotFound) || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "Environment not found") {
		t.Fatalf("error %v, want the 404 alone", err)
	}
	if tr != nil {
		t.Errorf("transcript %+v with the error", tr)
	}
	if elapsed != 0 {
		t.Errorf("took %v of fake time: the other requests were waited for", elapsed)
	}
	synctest.Wait() // a late request would have arrived, and every cancel counted
	if c, s := cancelled.Load(), started.Load(); c != s-1 {
		t.Errorf("%d of %d environment requests cancelled, want all but the failed one", c, s)
	}
	if n := started.Load(); n > 8 {
		t.Errorf("%d environment requests started, want at most the 8 in flight at the failure", n)
	}
}

// A failure of the pad or of the events fails the call with that error;
// after a failed pad read nothing else is asked.
func TestTranscriptPadOrEventsFail(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testTranscriptPadOrEventsFail)
}

func testTranscriptPadOrEventsFail(t *testing.T) {
	c, mux := setupMemory(t, noRetry)
	mux.HandleFunc("GET /gw/api/pads/GONE", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusNotFound, []byte(`{"status":"ERROR","message":"Pad not found"}`))
	})
	if _, err := c.Pads.Transcript(context.Background(), "GONE"); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("missing pad: %v, want ErrNotFound", err)
	}
	if _, err := c.Pads.Transcript(context.Background(), ".."); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("ID ..: %v, want ErrInvalidArgument", err)
	}

	// The events fail once both environment requests are in flight, so
	// their cancellation is what the call must cause.
	var cancelled atomic.Int32
	started := make(chan struct{}, 2)
	mux.HandleFunc("GET /gw/api/pads/P2", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(padJSON("P2", []string{"1", "2"}, "null")))
	})
	mux.HandleFunc("GET /gw/api/pads/P2/events", func(w http.ResponseWriter, r *http.Request) {
		<-started
		<-started
		respond(w, http.StatusForbidden, []byte(`{"status":"ERROR","message":"Not your pad"}`))
	})
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-r.Context().Done():
			cancelled.Add(1)
		case <-time.After(5 * time.Second): // fake time: passes only if nothing else can happen
		}
	})
	if _, err := c.Pads.Transcript(context.Background(), "P2"); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("events refused: %v, want ErrForbidden", err)
	}
	synctest.Wait() // the cancelled handlers have counted
	if n := cancelled.Load(); n != 2 {
		t.Errorf("%d environment requests cancelled, want 2", n)
	}
}

// cancelAfter is a slog handler that, once n environment reads have
// succeeded (logged as done without error) and the events read has too,
// cancels a context: the caller's context ending after those parts have
// arrived, while the rest still wait for a slot.
type cancelAfter struct {
	n       int32
	cancel  context.CancelFunc
	envs    atomic.Int32
	events  atomic.Bool
	once    sync.Once
	all     chan struct{} // closed once the n reads and the events are in
	allOnce sync.Once
}

// check closes all once the first n reads and the events are in.
func (h *cancelAfter) check() {
	if h.envs.Load() >= h.n && h.events.Load() {
		h.allOnce.Do(func() { close(h.all) })
	}
}

func (h *cancelAfter) Enabled(context.Context, slog.Level) bool { return true }
func (h *cancelAfter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *cancelAfter) WithGroup(string) slog.Handler            { return h }

func (h *cancelAfter) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "padapi: done" {
		return nil
	}
	var path string
	failed := false
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "path":
			path = a.Value.String()
		case "error":
			failed = true
		}
		return true
	})
	switch {
	case failed:
	case strings.HasSuffix(path, "/events"):
		h.events.Store(true)
		h.check()
	case strings.HasPrefix(path, "/api/pad_environments/"):
		if h.envs.Add(1) > h.n {
			return nil
		}
		// Hold each of the first n reads (each holding its slot) until
		// all of them and the events are in, then end the context.
		h.check()
		select {
		case <-h.all:
		case <-time.After(waitLimit): // a guard: the test then fails on its error
		}
		h.once.Do(h.cancel)
	}
	return nil
}

// When the caller's context ends while environments wait for a slot, the
// call fails with the context's error: it never returns a transcript with
// environments missing.
func TestTranscriptCallerCancelled(t *testing.T) {
	t.Parallel()
	for round := range 5 {
		ctx, cancel := context.WithCancel(context.Background())
		h := &cancelAfter{n: 8, cancel: cancel, all: make(chan struct{})}
		c, mux := setup(t, noRetry, padapi.WithLogger(slog.New(h)))
		mux.HandleFunc("GET /gw/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
			respond(w, http.StatusOK, []byte(padJSON("P1", seq(1, 9), "null")))
		})
		mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
			respond(w, http.StatusOK, []byte(`{"status":"OK","events":[],"total":0}`))
		})
		mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
			respond(w, http.StatusOK, []byte(envJSON(r.PathValue("id"))))
		})
		tr, err := c.Pads.Transcript(ctx, "P1")
		if !errors.Is(err, context.Canceled) {
			var got []padapi.ID
			if tr != nil {
				for _, e := range tr.Environments {
					got = append(got, e.ID)
				}
			}
			t.Fatalf("round %d: error %v with environments %q; want context.Canceled", round, err, got)
		}
		cancel()
	}
}

// delayedService serves a pad with envs environments and a one-page
// event log, answering each request after delay (serviceTime: real time,
// for the benchmark; a test passes 0), and counts requests.
func delayedService(tb testing.TB, envs int, delay time.Duration) (*padapi.Client, *atomic.Int32) {
	tb.Helper()
	var n atomic.Int32
	pad := []byte(padJSON("P10", seq(1, envs), "1"))
	events := []byte(`{"status":"OK","events":[{"kind":"joined","message":"Jane joined","created_at":"2024-03-05T10:01:00Z"}],"total":1}`)
	c, mux := setup(tb, noRetry)
	answer := func(body func(*http.Request) []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			serviceTime(delay)
			respond(w, http.StatusOK, body(r))
		}
	}
	mux.HandleFunc("GET /gw/api/pads/P10", answer(func(*http.Request) []byte { return pad }))
	mux.HandleFunc("GET /gw/api/pads/P10/events", answer(func(*http.Request) []byte { return events }))
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", answer(func(r *http.Request) []byte { return []byte(envJSON(r.PathValue("id"))) }))
	return c, &n
}

// A pad with 10 environments and one page of events costs 12 requests:
// the pad, the page, and one per environment.
func TestTranscriptRequests(t *testing.T) {
	t.Parallel()
	c, n := delayedService(t, 10, 0) // the count does not depend on time
	tr, err := c.Pads.Transcript(context.Background(), "P10")
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Environments) != 10 || len(tr.Events) != 1 {
		t.Errorf("%d environments and %d events, want 10 and 1", len(tr.Environments), len(tr.Events))
	}
	if got := n.Load(); got != 12 {
		t.Errorf("%d requests, want 12", got)
	}
}

// BenchmarkTranscript10 measures Transcript on a pad with 10 environments
// behind a service that takes 1 ms a request: requests per call, and the
// wall time (ns/op) against the 12 ms the same requests take one by one.
func BenchmarkTranscript10(b *testing.B) {
	c, n := delayedService(b, 10, time.Millisecond)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, err := c.Pads.Transcript(ctx, "P10"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n.Load())/float64(b.N), "requests/op")
}

// A pad that lists 125 000 environments, ten of them distinct, costs ten
// environment reads, a bounded number of goroutines (8 workers, not one an
// ID), and little memory beyond decoding the pad itself: what the call
// holds follows the distinct environments, not the list (at most 2.5 MiB,
// about 20 bytes a listed ID: a set of seen IDs sized by the list takes
// 56). It runs in a synctest bubble: each environment read takes 5 ms
// of fake time, so the reads of a fan-out all overlap however slow the
// machine, and the 30 s deadline counts only fake time (decoding a million
// IDs under -race on a busy 2-core machine took over 30 s of real time).
func TestTranscriptLongEnvironmentList(t *testing.T) {
	synctest.Test(t, testTranscriptLongEnvironmentList)
}

func testTranscriptLongEnvironmentList(t *testing.T) {
	const listed, distinct = 125_000, 10
	ids := make([]string, listed)
	for i := range ids {
		ids[i] = strconv.Itoa(1 + i%distinct)
	}
	pad := []byte(padJSON("P1", ids, "null"))
	ids = nil
	// The requests go to the mux in the calling goroutine: a loopback
	// server's connections would add three goroutines each to the count
	// (and block the bubble's clock), handlerTransport's pipes one each.
	_, mux := setupMemory(t)
	c := newTestClient(t, testBase+gwPrefix, testKey, noRetry, padapi.WithHTTPClient(&http.Client{Transport: muxTransport{mux}}))
	mux.HandleFunc("GET /gw/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, pad)
	})
	mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusOK, []byte(`{"status":"OK","events":[],"total":0}`))
	})
	var (
		reads atomic.Int32
		peak  atomic.Int64
	)
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
		reads.Add(1)
		// Fake time: every read in flight blocks here until all of them
		// have started, so the goroutines of a fan-out per ID would all
		// be alive at the sample. No event can replace it: a fan-out's
		// goroutines are what the sample looks for, and the bounded
		// client has none to wait on.
		time.Sleep(5 * time.Millisecond)
		for n := int64(runtime.NumGoroutine()); ; {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		respond(w, http.StatusOK, []byte(envJSON(r.PathValue("id"))))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var m0, m1, m2 runtime.MemStats

	// What decoding the pad costs alone.
	runtime.GC()
	runtime.ReadMemStats(&m0)
	p, err := c.Pads.Get(ctx, "P1")
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	padAlloc := m1.TotalAlloc - m0.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&m1)
	padHeld := int64(m1.HeapInuse) - int64(m0.HeapInuse)
	if len(p.PadEnvironmentIDs) != listed {
		t.Fatalf("the pad lists %d environments, want %d", len(p.PadEnvironmentIDs), listed)
	}
	p = nil

	runtime.GC()
	runtime.ReadMemStats(&m0)
	base := runtime.NumGoroutine()
	tr, err := c.Pads.Transcript(ctx, "P1")
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	runtime.GC()
	runtime.ReadMemStats(&m2)
	extraAlloc := int64(m1.TotalAlloc-m0.TotalAlloc) - int64(padAlloc)
	extraHeld := int64(m2.HeapInuse) - int64(m0.HeapInuse) - padHeld
	t.Logf("decoding the pad: %.1f MB allocated, %.1f MB held; Transcript beyond it: %.1f MB allocated, %.1f MB held; goroutines %d before, %d at most during",
		float64(padAlloc)/1e6, float64(padHeld)/1e6, float64(extraAlloc)/1e6, float64(extraHeld)/1e6, base, peak.Load())

	if n := reads.Load(); n != distinct {
		t.Errorf("%d environment reads, want %d", n, distinct)
	}
	if len(tr.Environments) != distinct {
		t.Fatalf("%d environments, want %d", len(tr.Environments), distinct)
	}
	for i, env := range tr.Environments {
		if want := strconv.Itoa(1 + i); string(env.ID) != want {
			t.Errorf("environment %d is %q, want %q: the pad's order", i, env.ID, want)
		}
	}
	const limit = 5 << 19 // 2.5 MiB
	if extraAlloc > limit || extraHeld > limit {
		t.Errorf("Transcript took %.1f MB (%.1f MB held) beyond decoding the pad, want at most 2.5 MiB", float64(extraAlloc)/1e6, float64(extraHeld)/1e6)
	}
	// The 8 workers, the events' reader, and a little room.
	if limit := int64(base + 8 + 1 + 2); peak.Load() > limit {
		t.Errorf("%d goroutines at most, want at most %d (%d before the call)", peak.Load(), limit, base)
	}
	runtime.KeepAlive(tr)
}

// muxTransport serves each request with a handler, in the goroutine that
// sends it: no connection, no goroutine of its own.
type muxTransport struct{ h http.Handler }

func (m muxTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	m.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// An environment ID that the service lists but Environment would refuse is
// a bad answer, not the caller's ErrInvalidArgument; nothing more is sent.
func TestTranscriptBadEnvironmentIDFromService(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	var n atomic.Int32
	mux.HandleFunc("GET "+gwPrefix+"/api/pads/P1", func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":"P1","pad_environment_ids":[1,".."]}`))
	})
	_, err := c.Pads.Transcript(context.Background(), "P1")
	if err == nil || errors.Is(err, padapi.ErrInvalidArgument) || !strings.Contains(err.Error(), `environment ID ".."`) {
		t.Errorf("error %v, want one naming the bad ID that is not ErrInvalidArgument", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests, want only the pad's", got)
	}
}

// Pad.EnvironmentIDs: distinct, non-empty, in the order the pad first
// lists them, the active one last when it is not listed; an ID that names
// no environment is an error naming the pad and the ID.
func TestPadEnvironmentIDs(t *testing.T) {
	t.Parallel()
	ids := func(s ...string) []padapi.ID {
		out := make([]padapi.ID, len(s))
		for i, v := range s {
			out[i] = padapi.ID(v)
		}
		return out
	}
	for name, tc := range map[string]struct {
		listed []padapi.ID
		active *padapi.ID
		want   []padapi.ID
	}{
		"none":                 {nil, nil, nil},
		"repeated and empty":   {ids("3", "", "1", "3", "1"), nil, ids("3", "1")},
		"active listed":        {ids("3", "1"), padapi.Ptr[padapi.ID]("1"), ids("3", "1")},
		"active not listed":    {ids("3"), padapi.Ptr[padapi.ID]("7"), ids("3", "7")},
		"active empty":         {ids("3"), padapi.Ptr[padapi.ID](""), ids("3")},
		"only active":          {nil, padapi.Ptr[padapi.ID]("7"), ids("7")},
		"letters kept as sent": {ids("a", "A"), nil, ids("a", "A")},
	} {
		p := &padapi.Pad{ID: "P", PadEnvironmentIDs: tc.listed, ActiveEnvironmentID: tc.active}
		got, err := p.EnvironmentIDs()
		if err != nil || !cmp.Equal(got, tc.want) {
			t.Errorf("%s: %q, %v; want %q", name, got, err, tc.want)
		}
	}
	for _, bad := range []padapi.ID{".", ".."} {
		p := &padapi.Pad{ID: "P", PadEnvironmentIDs: []padapi.ID{"1", bad}}
		got, err := p.EnvironmentIDs()
		if err == nil || got != nil || !strings.Contains(err.Error(), `"`+string(bad)+`"`) || !strings.Contains(err.Error(), "/api/pads/P") {
			t.Errorf("environment ID %q: %q, %v; want an error naming the pad and the ID", bad, got, err)
		}
	}
}

// TranscriptWithJSON keeps the service's bytes of every part: the pad's
// answer, each event as it came (across pages, oldest first), and each
// environment's answer, in the order of the decoded values; Transcript
// keeps none.
func TestTranscriptWithJSON(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	pad := padJSON("P1", []string{"2", "1", "2"}, "3")
	handle(mux, "GET /gw/api/pads/P1", http.StatusOK, []byte(pad))
	mux.HandleFunc("GET /gw/api/pads/P1/events", func(w http.ResponseWriter, r *http.Request) {
		body := `{"status":"OK","events":[{"kind":"joined", "user_name":"A"}],"total":2,"next_page":"https://x.example/api/pads/P1/events?page=2"}`
		if r.URL.Query().Get("page") == "2" {
			body = `{"status":"OK","events":[ {"kind":"left","user_name":"A"} ],"total":2}`
		}
		respond(w, http.StatusOK, []byte(body))
	})
	for _, id := range []string{"1", "2", "3"} {
		handle(mux, "GET /gw/api/pad_environments/"+id, http.StatusOK, []byte(envJSON(id)))
	}
	tr, err := c.Pads.TranscriptWithJSON(context.Background(), "P1")
	if err != nil {
		t.Fatal(err)
	}
	want := &padapi.TranscriptJSON{
		Pad:          []byte(pad),
		Events:       []json.RawMessage{[]byte(`{"kind":"joined", "user_name":"A"}`), []byte(`{"kind":"left","user_name":"A"}`)},
		Environments: []json.RawMessage{[]byte(envJSON("2")), []byte(envJSON("1")), []byte(envJSON("3"))},
	}
	if diff := cmp.Diff(want, tr.JSON); diff != "" {
		t.Errorf("the service's bytes (-want +got):\n%s", diff)
	}
	if len(tr.Events) != 2 || tr.Events[1].Kind != "left" || len(tr.Environments) != 3 || tr.Environments[0].ID != "2" {
		t.Errorf("decoded: %d events, %d environments", len(tr.Events), len(tr.Environments))
	}
	if plain, err := c.Pads.Transcript(context.Background(), "P1"); err != nil || plain.JSON != nil {
		t.Errorf("Transcript: JSON %v, err %v; want none kept", plain.JSON, err)
	}
}
