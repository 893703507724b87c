// scheduler_padapitest_test.go: scheduler.go tested against padapitest's fake.

package mocking_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/padinterview/padapi/examples/mocking"
	"github.com/padinterview/padapi/padapitest"
)

func TestSchedule(t *testing.T) {
	srv := padapitest.NewServer(t)
	s := mocking.New(srv.Client())
	pad, err := s.Schedule(context.Background(), "Ada")

	if err != nil {
		t.Fatal(err)
	}
	stored := srv.Pads()
	if len(stored) != 1 || stored[0].ID != pad.ID {
		t.Fatalf("the fake holds %+v, want the one pad Schedule returned", stored)
	}
	if p := stored[0]; p.Title != "Interview with Ada" || p.Language != "python" || !p.Private {
		t.Errorf("pad %q in %q, private %v; want a private python pad titled Interview with Ada", p.Title, p.Language, p.Private)
	}
}

func TestScheduleNoPadsLeft(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.SetQuota(10, 10)
	s := mocking.New(srv.Client())

	_, err := s.Schedule(context.Background(), "Ada")
	if !errors.Is(err, mocking.ErrNoPadsLeft) {
		t.Errorf("Schedule with the quota spent: %v, want ErrNoPadsLeft", err)
	}
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPost {
			t.Errorf("Schedule sent %s %s with no pads left", r.Method, r.Path)
		}
	}
}

// Another process spends the last pad between the check and the create.
func TestScheduleQuotaSpentMeanwhile(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.FailNext("POST /api/pads", 1, http.StatusTooManyRequests, `{"status":"ERROR","message":"Over quota"}`)
	s := mocking.New(srv.Client())

	if _, err := s.Schedule(context.Background(), "Ada"); !errors.Is(err, mocking.ErrNoPadsLeft) {
		t.Errorf("Schedule after a 429: %v, want ErrNoPadsLeft", err)
	}
	if n := len(srv.Pads()); n != 0 {
		t.Errorf("%d pads created", n)
	}
}
