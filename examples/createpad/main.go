// Createpad creates a pad the way a careful service would:
//
//	$ PAD_BASE_URL=https://app.coderpad.io PAD_API_KEY=... go run ./examples/createpad -title "Interview with Ada, 2026-10-14 10:00"
//	created pad DM32JWG2 "Interview with Ada, 2026-10-14 10:00": https://app.coderpad.io/DM32JWG2
//
// It checks the quota first, and handles the two answers a create can give
// besides success:
//
//   - ErrOverQuota: the quota check is advisory, since another process can
//     spend the last pad between the check and the create. The create's
//     answer is the real one.
//   - ErrOutcomeUnknown: the request may have reached the service but no
//     answer came back, so the pad may exist. The service has no idempotency
//     keys, so creating again blindly could make two pads (and spend two
//     pads of the quota). It looks among the newest pads for the title first,
//     and creates again only when the pad is not there. Make titles unique
//     (a candidate and a time) for that lookup to be sound.
//
// With neither PAD_BASE_URL nor PAD_API_KEY set it uses an in-process fake
// service (padapitest).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/examples/internal/padenv"
	"github.com/padinterview/padapi/padapitest"
)

// createAttempts bounds the creates one run makes when outcomes stay
// unknown.
const createAttempts = 2

// errNoPadsLeft is the quota saying no, before or at the create.
var errNoPadsLeft = errors.New("no pads left this month")

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run creates the pad and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("createpad", flag.ContinueOnError)
	fs.SetOutput(stderr)
	title := fs.String("title", "Interview "+time.Now().Format("2006-01-02 15:04:05"), "the pad's `title`; make it unique")
	language := fs.String("language", "", "the pad's `language` (default: the account's)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}

	c, done, err := padenv.Connect(getenv, stderr, func(srv *padapitest.Server) { srv.SetQuota(120, 33) })
	if err != nil {
		fmt.Fprintf(stderr, "createpad: %v\n", err)
		if errors.Is(err, padenv.ErrUsage) {
			return 2
		}
		return 1
	}
	defer done()

	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	params := &padapi.PadCreateParams{Title: title}
	if *language != "" {
		params.Language = language
	}
	pad, err := createPad(ctx, c, params, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "createpad: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "created pad %s %q: %s\n", pad.ID, pad.Title, pad.URL)
	return 0
}

// createPad checks the quota, then creates the pad, looking for it before
// each new attempt when an attempt's outcome is unknown. It says on log why
// it tries again.
func createPad(ctx context.Context, c *padapi.Client, params *padapi.PadCreateParams, log io.Writer) (*padapi.Pad, error) {
	q, err := c.Quota.Get(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking the quota: %w", err)
	}
	if !q.CanCreate(1) {
		return nil, fmt.Errorf("%w: %d pads used of %d", errNoPadsLeft, q.PadsUsed, *q.MonthlyPadLimit)
	}

	for attempt := 1; ; attempt++ {
		pad, err := c.Pads.Create(ctx, params)
		switch {
		case err == nil:
			return pad, nil
		case errors.Is(err, padapi.ErrOverQuota):
			return nil, fmt.Errorf("%w: the quota was spent since the check: %w", errNoPadsLeft, err)
		case !errors.Is(err, padapi.ErrOutcomeUnknown):
			return nil, err
		}

		found, lookErr := findPad(ctx, c, *params.Title)
		switch {
		case lookErr != nil:
			return nil, fmt.Errorf("%w; looking for the pad failed, so it may exist: %w", err, lookErr)
		case found != nil:
			return found, nil
		case attempt == createAttempts:
			return nil, fmt.Errorf("%w; gave up after %d attempts (no pad titled %q found)", err, attempt, *params.Title)
		}
		fmt.Fprintf(log, "createpad: %v; no pad titled %q found, creating again\n", err, *params.Title)
	}
}

// findPad looks for the pad titled title among the newest page of pads.
// The list can lag up to about a minute behind creates, so "not found" is
// likely rather than certain; a service that must never make a second pad
// would wait and look again, or ask a person.
func findPad(ctx context.Context, c *padapi.Client, title string) (*padapi.Pad, error) {
	page, err := c.Pads.List(ctx, &padapi.PadListOptions{Sort: padapi.SortCreatedDesc})
	if err != nil {
		return nil, err
	}
	for i := range page.Items {
		if page.Items[i].Title == title {
			return &page.Items[i], nil
		}
	}
	return nil, nil
}
