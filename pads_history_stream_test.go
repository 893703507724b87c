// pads_history_stream_test.go: Pads.History on a long document: the
// context, and the memory it holds.

package padapi_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// typingDoc is an edit-history document of about size bytes, of
// one-character inserts (4 bytes each in the JSON: `"a",`) in entries of
// per operations: the shape of a candidate typing, the most operations a
// byte of JSON can carry but for bare retains.
func typingDoc(size, per int) []byte {
	var b bytes.Buffer
	b.Grow(size + 1<<10)
	b.WriteByte('{')
	ops := strings.Repeat(`"a",`, per)
	ops = ops[:len(ops)-1]
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"-N%08d":{"a":"u","t":%d,"o":[%s]}`, i, 1709633730000+i, ops)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// cancelAtEnd reads a document, and cancels its context when it hands out
// the document's last bytes: the call that reads it is then left to
// decode what it holds (with json v1, all of it) under a context that has
// ended.
type cancelAtEnd struct {
	r        *bytes.Reader
	cancel   context.CancelFunc
	once     sync.Once
	canceled atomic.Int64 // when, in UnixNano
}

func (c *cancelAtEnd) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.r.Len() == 0 {
		c.once.Do(func() {
			c.canceled.Store(time.Now().UnixNano())
			c.cancel()
		})
	}
	return n, err
}

func (c *cancelAtEnd) Close() error { return nil }

// bodyTransport answers every request with 200 and body.
type bodyTransport struct{ body io.ReadCloser }

func (t bodyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: t.body, ContentLength: -1, Request: r,
	}, nil
}

// heapPeak samples the bytes of live heap objects until stop is called,
// and returns the highest sample above the level when it started. The
// caller runs the collector often (debug.SetGCPercent), so that what the
// heap holds is close to what is live.
func heapPeak() (stop func() uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	base := read()
	var peak atomic.Uint64
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if v := read(); v > base && v-base > peak.Load() {
				peak.Store(v - base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-finished
		return peak.Load()
	}
}

// A call whose context ends while a 31 MiB history is decoded returns
// within a second with the context's error, and the decode never holds
// more than 8 times the document in live memory (issue 37 #1: json v1
// took 2.9 s after the cancel and 88 times the document).
func TestPadsHistoryLongDocumentContext(t *testing.T) {
	// Not parallel: the heap it measures is its own.
	size := 31 << 20
	if testing.Short() {
		size = 8 << 20
	}
	doc := typingDoc(size, 1000)
	defer debug.SetGCPercent(debug.SetGCPercent(10))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := &cancelAtEnd{r: bytes.NewReader(doc), cancel: cancel}
	c := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(64<<20),
		padapi.WithHTTPClient(&http.Client{Transport: bodyTransport{body}}))

	stop := heapPeak()
	h, err := c.Pads.History(ctx, "https://pad-history.example.firebaseio.com/doc.json")
	returned := time.Now()
	peak := stop()

	canceled := body.canceled.Load()
	if canceled == 0 {
		t.Fatalf("the call returned (%v) before it read the whole document", err)
	}
	after := returned.Sub(time.Unix(0, canceled))
	ratio := float64(peak) / float64(len(doc))
	t.Logf("%.1f MiB document: returned %v after the cancel, %v; peak live heap %.1f MiB, %.2fx the document",
		float64(len(doc))/(1<<20), after.Round(time.Millisecond), err, float64(peak)/(1<<20), ratio)
	if !errors.Is(err, context.Canceled) || h != nil {
		t.Errorf("History = %v, %v; want context.Canceled", h != nil, err)
	}
	var apiErr *padapi.APIError
	if errors.As(err, &apiErr) {
		t.Errorf("a decode the context stopped is reported as an answer: %v", err)
	}
	if after > time.Second {
		t.Errorf("returned %v after its context ended, want within 1s", after)
	}
	if ratio > 8 {
		t.Errorf("peak live heap %d bytes, %.1fx the %d-byte document; want at most 8x", peak, ratio, len(doc))
	}
}

// A document decodes whole under a live context within 8 times its size,
// in entries of many operations or of one: the decode holds the
// operations in their compact form, and each entry once.
func TestPadsHistoryLongDocumentMemory(t *testing.T) {
	const size = 8 << 20
	for _, per := range []int{1000, 1} {
		doc := typingDoc(size, per)
		c := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(64<<20),
			padapi.WithHTTPClient(&http.Client{Transport: bodyTransport{io.NopCloser(bytes.NewReader(doc))}}))
		old := debug.SetGCPercent(10)
		stop := heapPeak()
		h, err := c.Pads.History(context.Background(), "https://pad-history.example.firebaseio.com/doc.json")
		peak := stop()
		debug.SetGCPercent(old)
		if err != nil {
			t.Fatal(err)
		}
		ratio := float64(peak) / float64(len(doc))
		t.Logf("%d ops an entry, %.1f MiB: %d entries; peak live heap %.1f MiB, %.2fx the document",
			per, float64(len(doc))/(1<<20), len(h.Entries), float64(peak)/(1<<20), ratio)
		if ratio > 8 {
			t.Errorf("%d ops an entry: peak live heap %.1fx the document, want at most 8x", per, ratio)
		}
		text, err := h.ReplayContext(context.Background())
		if want := (len(doc) / (len(`"-N00000000":{"a":"u","t":1709633730000,"o":[]},`) + 4*per)) * per; err != nil || len(text) < want || strings.Trim(text, "a") != "" {
			t.Errorf("%d ops an entry: replay gives %d bytes, %v; want about %d letters a", per, len(text), err, want)
		}
	}
}

// HistoryTo writes the document byte for byte as it came (spacing,
// escapes and key order kept), after checking it is JSON as it streamed;
// anything else writes nothing, with the error History would give.
func TestPadsHistoryTo(t *testing.T) {
	t.Parallel()
	const link = "https://pad-history.example.firebaseio.com/doc.json"
	c := memoryClient(t)
	for _, body := range []string{
		"{\"z\" : {\"t\":2,\"o\":[\"\\u00e9\", 1]},\n \"a\":{\"t\":1e0,\"x\":[{}]}}\n",
		"null",
		`{}`,
	} {
		var w bytes.Buffer
		var resp padapi.Response
		n, err := c.Pads.HistoryTo(padapi.WithResponse(answering(http.StatusOK, []byte(body)), &resp), link, &w)
		if err != nil || w.String() != body || n != int64(len(body)) {
			t.Errorf("HistoryTo(%q) wrote %q (%d), %v; want it as sent", body, w.String(), n, err)
		}
		if string(resp.Body) != body || resp.StatusCode != http.StatusOK {
			t.Errorf("HistoryTo(%q): WithResponse got %d %q", body, resp.StatusCode, resp.Body)
		}
	}
	for body, want := range map[string]string{
		``:                      "the answer has no body",
		`<html>hello</html>`:    "not JSON",
		`[1,2]`:                 `cannot decode array as padapi.History`,
		`"x"`:                   `cannot decode string as padapi.History`,
		`{"e":{"t":1,"o":[1,}}`: "not JSON",
		`{"e":{}} trail`:        "not JSON",
		`{"e":{}`:               "not JSON",
	} {
		var w bytes.Buffer
		n, err := c.Pads.HistoryTo(answering(http.StatusOK, []byte(body)), link, &w)
		var apiErr *padapi.APIError
		if !errors.As(err, &apiErr) || !strings.Contains(err.Error(), want) || w.Len() != 0 || n != 0 {
			t.Errorf("HistoryTo(%q) wrote %q (%d), %v; want nothing and an *APIError saying %q", body, w.String(), n, err, want)
		}
	}
	var w bytes.Buffer
	if _, err := c.Pads.HistoryTo(answering(http.StatusNotFound, []byte(`{"error":"gone"}`)), link, &w); !errors.Is(err, padapi.ErrNotFound) || w.Len() != 0 {
		t.Errorf("404: %v, wrote %q", err, w.String())
	}
	if _, err := c.Pads.HistoryTo(context.Background(), "http://example.com/doc.json", &w); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("plain http to another host: %v, want ErrInvalidArgument", err)
	}
	var nilCtx context.Context
	if _, err := c.Pads.HistoryTo(nilCtx, link, &w); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("nil context: %v, want ErrInvalidArgument", err)
	}
	// Over the size cap: ErrResponseTooLarge, nothing written.
	small := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(64),
		padapi.WithHTTPClient(&http.Client{Transport: memoryTransport{}}))
	big := typingDoc(1<<10, 10)
	if _, err := small.Pads.HistoryTo(answering(http.StatusOK, big), link, &w); !errors.Is(err, padapi.ErrResponseTooLarge) || w.Len() != 0 {
		t.Errorf("over the cap: %v, wrote %d bytes", err, w.Len())
	}
}

// HistoryTo stops with the context's error when the context ends while
// the document streams, and writes nothing.
func TestPadsHistoryToContext(t *testing.T) {
	t.Parallel()
	doc := typingDoc(4<<20, 1000)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := &cancelAtEnd{r: bytes.NewReader(doc), cancel: cancel}
	c := newTestClient(t, testBase, testKey, noRetry, padapi.WithMaxResponseBytes(64<<20),
		padapi.WithHTTPClient(&http.Client{Transport: bodyTransport{body}}))
	var w bytes.Buffer
	n, err := c.Pads.HistoryTo(ctx, "https://pad-history.example.firebaseio.com/doc.json", &w)
	if !errors.Is(err, context.Canceled) || n != 0 || w.Len() != 0 {
		t.Errorf("HistoryTo = %d, %v (wrote %d); want context.Canceled and nothing written", n, err, w.Len())
	}
}
