// Package mocking is a small service under test, Scheduler, whose tests
// show two ways to mock the Pad API:
//
//   - scheduler_padapitest_test.go runs the code against padapitest's fake
//     service: three lines of setup, real state, real errors and faults.
//   - scheduler_httpmock_test.go answers each request with
//     github.com/jarcoal/httpmock: a per-test httpmock.NewMockTransport in
//     the test's own *http.Client, passed to padapi with WithHTTPClient.
//
// Scheduler depends on two one-method interfaces rather than on
// *padapi.Client, so a test may also hand it a stub of its own.
package mocking

import (
	"context"
	"errors"
	"fmt"

	"github.com/padinterview/padapi"
)

// ErrNoPadsLeft means the month's pads are spent.
var ErrNoPadsLeft = errors.New("no interview pads left this month")

// QuotaReader reads the quota; *padapi.QuotaService is one.
type QuotaReader interface {
	Get(ctx context.Context) (*padapi.Quota, error)
}

// PadCreator creates pads; *padapi.PadsService is one.
type PadCreator interface {
	Create(ctx context.Context, params *padapi.PadCreateParams) (*padapi.Pad, error)
}

// Scheduler books interview pads.
type Scheduler struct {
	Quota QuotaReader
	Pads  PadCreator
	// Language is the language of the pads it creates.
	Language string
}

// New returns a Scheduler that books Python pads through c.
func New(c *padapi.Client) *Scheduler {
	return &Scheduler{Quota: c.Quota, Pads: c.Pads, Language: "python"}
}

// Schedule creates a private pad titled "Interview with <candidate>". It
// returns ErrNoPadsLeft, without creating anything, when the quota is spent.
func (s *Scheduler) Schedule(ctx context.Context, candidate string) (*padapi.Pad, error) {
	q, err := s.Quota.Get(ctx)
	if err != nil {
		return nil, fmt.Errorf("scheduling %s: %w", candidate, err)
	}
	if !q.CanCreate(1) {
		return nil, ErrNoPadsLeft
	}
	pad, err := s.Pads.Create(ctx, &padapi.PadCreateParams{
		Title:    padapi.Ptr("Interview with " + candidate),
		Language: padapi.Ptr(s.Language),
		Private:  padapi.Ptr(true),
	})
	if errors.Is(err, padapi.ErrOverQuota) {
		// Another process spent the last pad after the check.
		return nil, ErrNoPadsLeft
	}
	if err != nil {
		return nil, fmt.Errorf("scheduling %s: %w", candidate, err)
	}
	return pad, nil
}
