package padapitest_test

import (
	"context"
	"errors"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// TestHugePageNumbers: a page number of any size is an empty page (or a
// 400 past any integer), never an overflow. Before, page=184467440737095518
// overflowed, panicked with the lock held and hung the fake for good.
func TestHugePageNumbers(t *testing.T) {
	srv, c, _ := newFake(t)
	for range 60 {
		srv.AddPad(padapi.Pad{})
	}
	pad := srv.Pads()[0].ID
	q := srv.AddQuestion(padapi.Question{Title: "q"})
	_ = q
	for _, page := range []string{"184467440737095518", strconv.Itoa(math.MaxInt), strconv.Itoa(math.MaxInt - 1), strconv.Itoa(math.MaxInt / 50), strconv.Itoa(math.MaxInt/50 + 2)} {
		for _, path := range []string{"/api/pads", "/api/organization/pads", "/api/questions", "/api/organization/questions", "/api/pads/" + string(pad) + "/events"} {
			status, body := raw(t, srv, "GET", path+"?page="+page, authOf(srv), nil)
			key := path[strings.LastIndex(path, "/")+1:]
			items, _ := body[key].([]any)
			if status != 200 || items == nil || len(items) != 0 || body["next_page"] != nil || body["prev_page"] == nil {
				t.Errorf("%s?page=%s: %d %v, want an empty page with a prev_page link", path, page, status, body)
			}
		}
	}
	page, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Page: math.MaxInt})
	if err != nil || len(page.Items) != 0 || page.Total != 60 || page.PrevPage != srv.URL+"/api/pads?page=2" {
		t.Errorf("Pads.List at the largest page: %+v, %v", page, err)
	}
	stillServes(t, srv)
}

func TestListPagingAndSort(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	var added []padapi.Pad
	for i := range 120 {
		// Created in order; updated in reverse order.
		added = append(added, srv.AddPad(padapi.Pad{
			CreatedAt: t0.Add(time.Duration(i) * time.Minute),
			UpdatedAt: t0.Add(time.Duration(240-i) * time.Minute),
		}))
	}
	ids := func(ps []padapi.Pad) []padapi.ID {
		var out []padapi.ID
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	reversed := func(ps []padapi.Pad) []padapi.Pad {
		out := make([]padapi.Pad, len(ps))
		for i, p := range ps {
			out[len(ps)-1-i] = p
		}
		return out
	}

	page, err := c.Pads.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ids(reversed(added)[:50]), ids(page.Items)); diff != "" {
		t.Errorf("first page, default sort (newest first) (-want +got):\n%s", diff)
	}
	if page.Total != 120 || page.NextPage != srv.URL+"/api/pads?page=2" || page.PrevPage != "" {
		t.Errorf("first page: total %d, next %q, prev %q", page.Total, page.NextPage, page.PrevPage)
	}

	for _, tc := range []struct {
		sort padapi.Sort
		want []padapi.Pad
	}{
		{padapi.SortCreatedAsc, added},
		{padapi.SortCreatedDesc, reversed(added)},
		{padapi.SortUpdatedAsc, reversed(added)},
		{padapi.SortUpdatedDesc, added},
	} {
		page, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: tc.sort, Page: 3})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(ids(tc.want[100:]), ids(page.Items)); diff != "" {
			t.Errorf("page 3 by %s (-want +got):\n%s", tc.sort, diff)
		}
		wantPrev := srv.URL + "/api/pads?page=2&sort=" + url.QueryEscape(string(tc.sort))
		if page.NextPage != "" || page.PrevPage != wantPrev {
			t.Errorf("page 3 by %s: next %q, prev %q (want %q)", tc.sort, page.NextPage, page.PrevPage, wantPrev)
		}
	}

	past, err := c.Pads.List(ctx, &padapi.PadListOptions{Page: 9})
	if err != nil {
		t.Fatal(err)
	}
	if len(past.Items) != 0 || past.Items == nil || past.Total != 120 || past.NextPage != "" || past.PrevPage != srv.URL+"/api/pads?page=3" {
		t.Errorf("page past the end: %d items, total %d, next %q, prev %q", len(past.Items), past.Total, past.NextPage, past.PrevPage)
	}

	_, err = c.Pads.List(ctx, &padapi.PadListOptions{Sort: "title,asc"})
	if !errors.Is(err, padapi.ErrBadRequest) {
		t.Errorf("unknown sort: %v, want ErrBadRequest", err)
	}
	for _, q := range []string{"sort=created_at,sideways", "sort=,asc", "page=0", "page=two"} {
		if status, _ := raw(t, srv, "GET", "/api/pads?"+q, authOf(srv), nil); status != 400 {
			t.Errorf("?%s: %d, want 400", q, status)
		}
	}
}

// TestListTies: items with equal times come in the order they were stored
// for ,asc and in the reverse order for ,desc, on every page, for pads and
// questions alike.
func TestListTies(t *testing.T) {
	srv, c, _ := newFake(t)
	ctx := context.Background()
	// 60 pads in two groups of equal times, stored out of time order.
	var later, earlier []padapi.ID
	for i := range 60 {
		at := t0
		if i%2 == 0 {
			at = t0.Add(time.Hour)
		}
		p := srv.AddPad(padapi.Pad{CreatedAt: at, UpdatedAt: at})
		if i%2 == 0 {
			later = append(later, p.ID)
		} else {
			earlier = append(earlier, p.ID)
		}
	}
	reversed := func(ids []padapi.ID) []padapi.ID {
		out := slices.Clone(ids)
		slices.Reverse(out)
		return out
	}
	asc := append(slices.Clone(earlier), later...)
	desc := append(reversed(later), reversed(earlier)...)
	for _, tc := range []struct {
		sort padapi.Sort
		want []padapi.ID
	}{
		{"", desc},
		{padapi.SortCreatedAsc, asc},
		{padapi.SortCreatedDesc, desc},
		{padapi.SortUpdatedAsc, asc},
		{padapi.SortUpdatedDesc, desc},
	} {
		var got []padapi.ID
		for p, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: tc.sort}) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, p.ID)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("pads by %q (-want +got):\n%s", tc.sort, diff)
		}
	}

	// Questions: all created at the same time, IDs 1 to 3 in creation order.
	for range 3 {
		srv.AddQuestion(padapi.Question{CreatedAt: t0, UpdatedAt: t0})
	}
	for sort, want := range map[padapi.Sort][]padapi.ID{
		padapi.SortCreatedAsc:  {"1", "2", "3"},
		padapi.SortCreatedDesc: {"3", "2", "1"},
		padapi.SortUpdatedAsc:  {"1", "2", "3"},
		padapi.SortUpdatedDesc: {"3", "2", "1"},
	} {
		page, err := c.Questions.List(ctx, &padapi.QuestionListOptions{Sort: sort})
		if err != nil {
			t.Fatal(err)
		}
		var got []padapi.ID
		for _, q := range page.Items {
			got = append(got, q.ID)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("questions by %s (-want +got):\n%s", sort, diff)
		}
	}
}

func TestAllPages(t *testing.T) {
	srv, c, _ := newFake(t)
	want := map[padapi.ID]bool{}
	for range 120 {
		want[srv.AddPad(padapi.Pad{}).ID] = true
	}
	got := map[padapi.ID]bool{}
	for p, err := range c.Pads.All(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if got[p.ID] {
			t.Errorf("pad %s came twice", p.ID)
		}
		got[p.ID] = true
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pads.All (-want +got):\n%s", diff)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d list requests for 120 pads, want 3", n)
	}
}

// TestWithPageSize: a smaller page size pages the same list in more pages,
// with the same links, and Pads.All still finds every pad once; a size
// below 1 keeps the service's 50.
func TestWithPageSize(t *testing.T) {
	srv, c, _ := newFake(t, padapitest.WithPageSize(3))
	var want []padapi.ID
	for i := range 7 {
		want = append(want, srv.AddPad(padapi.Pad{CreatedAt: t0.Add(time.Duration(i) * time.Minute)}).ID)
	}
	page, err := c.Pads.List(context.Background(), &padapi.PadListOptions{Sort: padapi.SortCreatedAsc, Page: 2})
	if err != nil {
		t.Fatal(err)
	}
	var got []padapi.ID
	for _, p := range page.Items {
		got = append(got, p.ID)
	}
	if diff := cmp.Diff(want[3:6], got); diff != "" {
		t.Errorf("page 2 of 3 (-want +got):\n%s", diff)
	}
	if page.Total != 7 || page.NextPage != srv.URL+"/api/pads?page=3&sort=created_at%2Casc" || page.PrevPage != srv.URL+"/api/pads?page=1&sort=created_at%2Casc" {
		t.Errorf("page 2: total %d, next %q, prev %q", page.Total, page.NextPage, page.PrevPage)
	}
	got = nil
	for p, err := range c.Pads.All(context.Background(), &padapi.PadListOptions{Sort: padapi.SortCreatedAsc}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, p.ID)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Pads.All over pages of 3 (-want +got):\n%s", diff)
	}

	srv, c, _ = newFake(t, padapitest.WithPageSize(0))
	for range 51 {
		srv.AddPad(padapi.Pad{})
	}
	if page, err := c.Pads.List(context.Background(), nil); err != nil || len(page.Items) != 50 {
		t.Errorf("WithPageSize(0): a page of %d, %v; want 50", len(page.Items), err)
	}
}
