// scheduler_httpmock_test.go: scheduler.go tested with httpmock in place of the service.

package mocking_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/examples/mocking"
)

const base = "https://pad.example.test"

// The httpmock way: the test makes its own mock transport, puts it in an
// *http.Client of its own, and gives that to padapi with WithHTTPClient.
// Every request, retries included, then meets the responders below; none
// reaches a network. A per-test transport holds no global state, so such
// tests may run in parallel.
//
// To mock an *http.Client that already exists, httpmock.ActivateNonDefault(hc)
// (with t.Cleanup(httpmock.DeactivateAndReset)) works too, even after
// NewClient; but it installs httpmock's one global mock transport, so a test
// that uses it must not run in parallel with another that does.
func TestScheduleHTTPMock(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", base+"/api/quota",
		httpmock.NewStringResponder(200, `{"status":"OK","pads_used":33,"quota_reset_at":"2026-10-01T00:00:00Z",
			"unlimited":false,"pads_remaining":87,"monthly_pad_limit":120}`))
	mt.RegisterResponder("POST", base+"/api/pads", func(r *http.Request) (*http.Response, error) {
		if err := r.ParseForm(); err != nil {
			return nil, err
		}
		if got := r.PostForm.Get("title"); got != "Interview with Ada" {
			t.Errorf("title %q", got)
		}
		if got := r.Header.Get("Authorization"); got != `Token token="test-key"` {
			t.Errorf("Authorization %q", got)
		}
		return httpmock.NewStringResponse(200, `{"status":"OK","id":"DM32JWG2","title":"Interview with Ada",
			"language":"python","private":true,"created_at":"2026-10-14T09:30:00Z","updated_at":"2026-10-14T09:30:00Z"}`), nil
	})
	hc := &http.Client{Transport: mt}

	c, err := padapi.NewClient(base, "test-key", padapi.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	pad, err := mocking.New(c).Schedule(context.Background(), "Ada")
	if err != nil {
		t.Fatal(err)
	}
	if pad.ID != "DM32JWG2" || pad.Title != "Interview with Ada" {
		t.Errorf("pad %+v", pad)
	}
	if got := mt.GetCallCountInfo(); got["GET "+base+"/api/quota"] != 1 || got["POST "+base+"/api/pads"] != 1 {
		t.Errorf("calls %v, want one quota check and one create", got)
	}
}

func TestScheduleNoPadsLeftHTTPMock(t *testing.T) {
	t.Parallel()
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder("GET", base+"/api/quota",
		httpmock.NewStringResponder(200, `{"status":"OK","pads_used":120,"quota_reset_at":"2026-10-01T00:00:00Z",
			"unlimited":false,"pads_remaining":0,"monthly_pad_limit":120}`))

	c, err := padapi.NewClient(base, "test-key", padapi.WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mocking.New(c).Schedule(context.Background(), "Ada"); !errors.Is(err, mocking.ErrNoPadsLeft) {
		t.Errorf("Schedule with the quota spent: %v, want ErrNoPadsLeft", err)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("%d requests, want only the quota check", n)
	}
}
