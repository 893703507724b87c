// Createpad creates a pad the way a careful service would:
//
//	$ PAD_BASE_URL=https://app.coderpad.io PAD_API_KEY=... go run ./examples/createpad -title "Interview with Ada"
//	created pad DM32JWG2 "Interview with Ada [ref 7QX2KD6M]": https://app.coderpad.io/DM32JWG2
//
// It checks the quota first, and handles the two answers a create can give
// besides success:
//
//   - ErrOverQuota: the quota check is advisory, since another process can
//     spend the last pad between the check and the create. The create's
//     answer is the real one.
//   - ErrOutcomeUnknown: the request may have reached the service but no
//     answer came back, so the pad may exist. The service has no idempotency
//     keys, so creating again blindly could make two pads (and spend two of
//     the quota). Instead the title carries a request token ("[ref ...]"),
//     and createpad looks for a pad with that title. Lists can lag about a
//     minute behind creates, so it looks again until -wait has passed. If
//     the pad is still not there it reports that the outcome is unknown
//     (exit status 3) rather than risk a second pad; with -recreate it
//     creates it once more instead. A service would store the token with its
//     own record (the booking) so that a person or a later run can find the
//     pad.
//
// Exit status: 0 created, 1 not created, 2 usage, 3 outcome unknown (the
// pad may exist).
//
// With neither PAD_BASE_URL nor PAD_API_KEY set it uses an in-process fake
// service (padapitest).
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// lookEvery is how often createpad lists the pads while it looks for one
// whose create got no answer.
const lookEvery = 10 * time.Second

// now and after are the clock findPad reads and waits on: time.Now and
// time.After, which the tests replace with a clock that moves only when
// createpad waits, so that the looks within -wait do not depend on how
// long each one takes.
var (
	now   = time.Now
	after = time.After
)

var (
	// errNoPadsLeft is the quota saying no, before or at the create.
	errNoPadsLeft = errors.New("no pads left this month")
	// errMayExist is a create whose pad could not be found, nor ruled out.
	errMayExist = errors.New("outcome unknown: the pad may exist")
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run creates the pad and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("createpad", flag.ContinueOnError)
	fs.SetOutput(stderr)
	title := fs.String("title", "Interview "+time.Now().Format("2006-01-02 15:04"), "the pad's `title`; a request token is added to it")
	language := fs.String("language", "", "the pad's `language` (default: the account's)")
	wait := fs.Duration("wait", 90*time.Second, "how long to look for a pad whose create got no answer (lists lag about a minute)")
	recreate := fs.Bool("recreate", false, "create again when a pad whose create got no answer is not found within -wait")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}

	c, done, err := connect(getenv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "createpad: %v\n", err)
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	defer done()

	// Time for the requests, and for up to two looks of -wait each.
	ctx, cancel := context.WithTimeout(ctx, time.Minute+2**wait)
	defer cancel()
	params := &padapi.PadCreateParams{Title: padapi.Ptr(fmt.Sprintf("%s [ref %s]", *title, rand.Text()[:8]))}
	if *language != "" {
		params.Language = language
	}
	pad, err := createPad(ctx, c, params, *wait, *recreate, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "createpad: %v\n", err)
		if errors.Is(err, errMayExist) {
			return 3
		}
		return 1
	}
	fmt.Fprintf(stdout, "created pad %s %q: %s\n", pad.ID, pad.Title, pad.URL)
	return 0
}

// createPad checks the quota, then creates the pad. When the create's outcome
// is unknown it looks for the pad for up to wait and, if the pad is not
// there, gives up with errMayExist or, with recreate, creates it once more.
// It says on log what it does.
func createPad(ctx context.Context, c *padapi.Client, params *padapi.PadCreateParams, wait time.Duration, recreate bool, log io.Writer) (*padapi.Pad, error) {
	q, err := c.Quota.Get(ctx)
	if err != nil {
		return nil, fmt.Errorf("checking the quota: %w", err)
	}
	if !q.CanCreate(1) {
		left, _ := q.Remaining()
		return nil, fmt.Errorf("%w: %d pads used, %d left", errNoPadsLeft, q.PadsUsed, left)
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

		fmt.Fprintf(log, "createpad: %v; looking for the pad titled %q\n", err, *params.Title)
		found, lookErr := findPad(ctx, c, *params.Title, wait)
		switch {
		case lookErr != nil:
			return nil, fmt.Errorf("%w (%w); looking for it failed: %w", errMayExist, err, lookErr)
		case found != nil:
			return found, nil
		case !recreate || attempt == 2:
			return nil, fmt.Errorf("%w (%w); no pad titled %q found after %v", errMayExist, err, *params.Title, wait)
		}
		fmt.Fprintf(log, "createpad: no pad titled %q found after %v; creating it again (-recreate)\n", *params.Title, wait)
	}
}

// findPad looks among the pads created lately for the one titled title,
// again every lookEvery until wait has passed, since lists lag behind
// creates. It returns nil, nil when the pad is not found.
func findPad(ctx context.Context, c *padapi.Client, title string, wait time.Duration) (*padapi.Pad, error) {
	deadline := now().Add(wait)
	// Pads created before this were not this run's (with room for clock skew).
	since := now().Add(-10 * time.Minute)
	for {
		for p, err := range c.Pads.All(ctx, &padapi.PadListOptions{Sort: padapi.SortCreatedDesc}) {
			if err != nil {
				return nil, err
			}
			if p.Title == title {
				return p, nil
			}
			if p.CreatedAt.Before(since) {
				break
			}
		}
		left := deadline.Sub(now())
		if left <= 0 {
			return nil, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-after(min(left, lookEvery)):
		}
	}
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
