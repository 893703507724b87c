// Transcript prints what the Pad Interview Service keeps of one interview:
// the pad, the interviewer's notes, the event log, and the final text of
// every file of every environment the pad used.
//
//	$ PAD_BASE_URL=https://app.coderpad.io PAD_API_KEY=... go run ./examples/transcript DM32JWG2
//	Backend screen (DM32JWG2)
//	python3, created 2026-03-05 10:00 UTC, ended 2026-03-05 11:02 UTC
//	participants: Jane Doe, Candidate
//
//	== notes
//	Strong on SQL.
//
//	== events (2)
//	2026-03-05 10:01:00  joined  Jane Doe joined the pad
//	2026-03-05 10:20:00  ran     Candidate ran the code
//
//	== files
//	-- 98765/main.py (python3)
//	print("hi")
//
// Given no pad ID it prints the newest pad (the first of the pad list),
// and says which on stderr. One call, Pads.Transcript, reads it all: the
// pad, every page of its events (oldest first) and every environment, a
// few at a time. Times print in UTC; a binary file prints as its size, not
// its bytes.
//
// With neither PAD_BASE_URL nor PAD_API_KEY set it asks an in-process
// fake service (padapitest) seeded with a few interviews, so it runs
// anywhere.
//
// Exit status: 0 printed, 1 an API or network error, 2 usage (a second
// argument, a pad ID the library refuses, only one of the two variables).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// seedFake fills the built-in fake: four interviews, the newest ended and
// with notes.
func seedFake(srv *padapitest.Server) { srv.Seed(4) }

// errNoPads is a pad list with nothing in it, when no ID was given.
var errNoPads = errors.New("the account has no pads; give a pad ID")

// run prints the transcript and returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 1 || (len(args) == 1 && strings.HasPrefix(args[0], "-")) {
		fmt.Fprintln(stderr, "usage: transcript [PAD_ID]")
		return 2
	}
	c, done, err := connect(getenv, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	defer done()

	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var id padapi.ID
	if len(args) == 1 {
		id = padapi.ID(args[0])
	} else {
		page, err := c.Pads.List(ctx, nil) // newest first
		if err != nil {
			return fail(stderr, err)
		}
		if len(page.Items) == 0 {
			return fail(stderr, errNoPads)
		}
		id = page.Items[0].ID
		fmt.Fprintf(stderr, "no pad ID given: the newest pad is %s (%s)\n", id, page.Items[0].Title)
	}
	tr, err := c.Pads.Transcript(ctx, id)
	if err != nil {
		return fail(stderr, err)
	}
	if err := write(stdout, tr); err != nil {
		return fail(stderr, err)
	}
	return 0
}

// fail reports err on stderr and returns its exit code.
func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "transcript: %v\n", err)
	if errors.Is(err, errUsage) || errors.Is(err, padapi.ErrInvalidArgument) {
		return 2
	}
	return 1
}

// write prints a transcript as text.
func write(w io.Writer, tr *padapi.Transcript) error {
	p := tr.Pad
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s)\n", p.Title, p.ID)
	language := p.Language
	if language == "" {
		language = "no language"
	}
	fmt.Fprintf(&b, "%s, created %s", language, minute(p.CreatedAt))
	if p.EndedAt != nil {
		fmt.Fprintf(&b, ", ended %s\n", minute(*p.EndedAt))
	} else {
		b.WriteString(", still open\n")
	}
	if len(p.Participants) > 0 {
		fmt.Fprintf(&b, "participants: %s\n", strings.Join(p.Participants, ", "))
	}

	b.WriteString("\n== notes\n")
	if p.Notes == "" {
		b.WriteString("(none)\n")
	} else {
		b.WriteString(withNewline(p.Notes))
	}

	fmt.Fprintf(&b, "\n== events (%d)\n", len(tr.Events))
	for _, ev := range tr.Events {
		fmt.Fprintf(&b, "%s  %-7s %s\n", ev.CreatedAt.UTC().Format(time.DateTime), ev.Kind, ev.Message)
	}

	b.WriteString("\n== files\n")
	if len(tr.Environments) == 0 {
		b.WriteString("(none)\n")
	}
	for _, env := range tr.Environments {
		for _, f := range env.Files {
			fmt.Fprintf(&b, "-- %s/%s (%s)", env.ID, f.Path, env.Language)
			switch {
			case f.Binary:
				fmt.Fprintf(&b, ": binary, %d bytes as sent\n", len(f.Contents))
			case f.Contents == "":
				b.WriteString(": empty\n")
			default:
				b.WriteString("\n" + withNewline(f.Contents))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// minute formats t to the minute, in UTC.
func minute(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }

// withNewline returns s ending in a line break.
func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
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
		seedFake(srv)
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
