package cmdutil_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// --all --json writes the same bytes as indenting the whole array the
// service's items make, element by element: each item as it came, in the
// list's order, across pages fetched at once.
func TestListAllJSONStreamsTheServiceBytes(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 230 {
		srv.AddPad(padapi.Pad{Title: fmt.Sprint("pad <", i, ">"), CreatedAt: at.Add(time.Duration(i) * time.Minute)})
	}
	r := cmdtest.Padctl(t, env, "pads", "list", "--all", "--json")
	cmdtest.Ok(t, r)
	// What the service sent, page by page, one after another.
	c := srv.Client()
	var items [][]byte
	for page := 1; ; page++ {
		var resp padapi.Response
		p, err := c.Pads.List(padapi.WithResponse(context.Background(), &resp), &padapi.PadListOptions{Page: page})
		if err != nil {
			t.Fatal(err)
		}
		raw, err := cmdutil.RawItems(resp.Body, "pads")
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range raw {
			items = append(items, it)
		}
		if p.NextPage == "" {
			break
		}
	}
	var want bytes.Buffer
	if err := json.Indent(&want, append(append([]byte("["), bytes.Join(items, []byte(","))...), ']'), "", "  "); err != nil {
		t.Fatal(err)
	}
	want.WriteByte('\n')
	if len(items) != 230 || r.Stdout != want.String() {
		t.Errorf("%d items; stdout differs from the indented array of the service's items:\n%.400s\nwant:\n%.400s", len(items), r.Stdout, want.String())
	}
	// An empty list is an empty array, as before.
	_, env = cmdtest.Fake(t)
	if r := cmdtest.Padctl(t, env, "pads", "list", "--all", "--json"); r.Code != 0 || r.Stdout != "[]\n" {
		t.Errorf("empty list: exit %d, stdout %q", r.Code, r.Stdout)
	}
}

// pagedStub answers GET /api/pads with pages of 50 pads, total pads in
// all; a page past the first waits until release is closed, after saying
// so on arrived.
func pagedStub(t *testing.T, total int, arrived chan<- int, release <-chan struct{}) *cmdtest.Stub {
	return cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/pads": func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page > 1 {
			arrived <- page
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
		}
		var pads []string
		for i := (page - 1) * 50; i < min(page*50, total); i++ {
			pads = append(pads, fmt.Sprintf(`{"id":"P%07d","title":"t"}`, i))
		}
		next := ""
		if page*50 < total {
			next = fmt.Sprintf("https://app.example/api/pads?page=%d", page+1)
		}
		cmdtest.Reply(200, fmt.Sprintf(`{"status":"OK","pads":[%s],"total":%d,"next_page":%q}`, strings.Join(pads, ","), total, next))(w, r)
	}})
}

// --all fetches 8 pages at once by default, and --concurrency N pages:
// the stub holds every page past the first until that many are in flight
// together, which a walk one page after another never reaches.
func TestListAllFetchesPagesAtOnce(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int // pages in flight at once
	}{
		{[]string{"pads", "list", "--all"}, 8},
		{[]string{"pads", "list", "--all", "--json"}, 8},
		{[]string{"pads", "list", "--all", "--concurrency", "3"}, 3},
	} {
		arrived, release := make(chan int, 64), make(chan struct{})
		s := pagedStub(t, 20*50, arrived, release)
		var r cmdtest.Result
		var wg sync.WaitGroup
		wg.Go(func() { r = cmdtest.Padctl(t, s.Env(), tc.args...) })
		inFlight := map[int]bool{}
		for len(inFlight) < tc.want-1 { // the first page is answered at once
			select {
			case p := <-arrived:
				inFlight[p] = true
			case <-time.After(10 * time.Second):
				close(release)
				wg.Wait()
				t.Fatalf("padctl %q: only pages %v in flight at once, want %d", tc.args, inFlight, tc.want-1)
			}
		}
		close(release)
		wg.Wait()
		if n := len(cmdtest.Lines(r.Stdout)); r.Code != 0 || (n != 1000 && n != 1000*4+2) {
			t.Fatalf("padctl %q: exit %d, %d lines, stderr %s", tc.args, r.Code, n, r.Stderr)
		}
	}
	r := cmdtest.Padctl(t, nil, "org", "pads", "--all", "--concurrency", "0")
	cmdtest.CheckUsageError(t, []string{"--concurrency", "0"}, r, "--concurrency 0: want at least 1")
}

// Rows go out as the list arrives, not once it ends: the list's iterator
// finds the first rows written before it yields the last ones.
func TestListAllStreams(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		ios, _, out, _ := iostreams.Test()
		const n = 10000
		var seenEarly int
		all := func(context.Context, cmdutil.PageQuery) iter.Seq2[*padapi.Pad, error] {
			return func(yield func(*padapi.Pad, error) bool) {
				for i := range n {
					if i == n-1 {
						seenEarly = out.Len()
					}
					if !yield(&padapi.Pad{ID: padapi.ID(fmt.Sprintf("P%06d", i)), Title: "t"}, nil) {
						return
					}
				}
			}
		}
		o := &cmdutil.ListOptions[padapi.Pad]{IO: ios, Ctx: context.Background(), All: true, View: cmdutil.View[padapi.Pad]{
			Cols: []cmdutil.Column[padapi.Pad]{{Name: "ID", Value: func(p *padapi.Pad) any { return p.ID }}},
		}}
		o.Client = func() (*padapi.Client, error) { return padapi.NewClient("https://app.example", "k") }
		o.Pick = func(*padapi.Client, []string) cmdutil.Lister[padapi.Pad] { return cmdutil.Lister[padapi.Pad]{All: all} }
		if asJSON {
			// --json reads the library's raw items; the rows are
			// what this test can feed without a service.
			a := cmdutil.NewRawArray(ios)
			for i := range n {
				if i == n-1 {
					seenEarly = out.Len()
				}
				if err := a.Add(json.RawMessage(fmt.Sprintf(`{"id":"P%06d"}`, i))); err != nil {
					t.Fatal(err)
				}
			}
			if err := a.Close(); err != nil {
				t.Fatal(err)
			}
			var got []map[string]string
			if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != n || got[n-1]["id"] != fmt.Sprintf("P%06d", n-1) {
				t.Errorf("array: %v, %d items", err, len(got))
			}
		} else if err := cmdutil.ListRun(o); err != nil {
			t.Fatal(err)
		} else if l := cmdtest.Lines(out.String()); len(l) != n || l[n-1] != fmt.Sprintf("P%06d", n-1) {
			t.Errorf("%d rows", len(l))
		}
		if seenEarly == 0 || seenEarly >= out.Len() {
			t.Errorf("json %v: %d of %d bytes written before the last item, want some but not all", asJSON, seenEarly, out.Len())
		}
	}
}
