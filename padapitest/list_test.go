package padapitest_test

import (
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
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
