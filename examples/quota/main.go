// Quota prints the monthly pad quota of a Pad Interview Service account:
//
//	$ PAD_BASE_URL=https://app.coderpad.io PAD_API_KEY=... go run ./examples/quota
//	33 of 120 pads used, 87 left; quota last reset 2026-10-01
//
// With neither variable set it asks an in-process fake service
// (padapitest) instead, so it runs anywhere; with only one set it exits
// with status 2.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func main() {
	os.Exit(run(context.Background(), os.Getenv, os.Stdout, os.Stderr))
}

// run prints the quota and returns the exit code.
func run(ctx context.Context, getenv func(string) string, stdout, stderr io.Writer) int {
	// The fake starts as a plan of 120 pads with 33 spent, so that the
	// output looks like a real account's.
	c, done, err := connect(getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "quota: %v\n", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	defer done()

	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	q, err := c.Quota.Get(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "quota: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, describe(q, time.Now()))
	return 0
}

// describe says what the quota means in one line.
func describe(q *padapi.Quota, now time.Time) string {
	var s string
	limit, known := q.Limit()
	remaining, _ := q.Remaining()
	switch {
	case q.Unlimited:
		s = fmt.Sprintf("unlimited plan, %d pads used", q.PadsUsed)
	case known:
		s = fmt.Sprintf("%d of %d pads used, %d left", q.PadsUsed, limit, remaining)
	default:
		// The live service often leaves the counts out of a limited plan.
		s = fmt.Sprintf("%d pads used, limit not reported", q.PadsUsed)
	}
	if q.OveragesEnabled != nil && *q.OveragesEnabled {
		s += " (overages allowed)"
	}
	// quota_reset_at is when the quota was last reset, not the next reset.
	s += "; quota last reset " + q.QuotaResetAt.Format(time.DateOnly)
	if t := q.TrialExpiresAt; t != nil {
		if t.After(now) {
			s += "; trial ends " + t.Format(time.DateOnly)
		} else {
			s += "; trial ended " + t.Format(time.DateOnly)
		}
	}
	return s
}

// errUsage is an environment with only one of the two variables set.
var errUsage = errors.New("set both PAD_BASE_URL and PAD_API_KEY, or neither to use an in-process fake service")

// connect returns a client for the service that PAD_BASE_URL and
// PAD_API_KEY name, read through getenv (os.Getenv; a map in the tests):
// in your own program, that is the padapi.NewClient line alone, or
// padapi.FromEnv(). With neither variable set, the example starts
// padapitest's in-process fake instead, so that it runs anywhere.
func connect(getenv func(string) string, stderr io.Writer) (c *padapi.Client, done func(), err error) {
	base, key := getenv("PAD_BASE_URL"), getenv("PAD_API_KEY")
	if base == "" && key == "" {
		srv := padapitest.Start() // the fake: no account, no network
		srv.SetQuota(120, 33)     // a plan of 120 pads, 33 spent
		fmt.Fprintf(stderr, "PAD_BASE_URL and PAD_API_KEY are not set: using an in-process fake service at %s\n", srv.URL)
		base, key, done = srv.URL, srv.APIKey, srv.Close
	} else {
		if key == "" {
			return nil, nil, fmt.Errorf("PAD_API_KEY is not set: %w", errUsage)
		}
		if base == "" {
			return nil, nil, fmt.Errorf("PAD_BASE_URL is not set: %w", errUsage)
		}
		done = func() {}
	}
	c, err = padapi.NewClient(base, key)
	if err != nil {
		done()
		return nil, nil, err
	}
	return c, done, nil
}
