// Command padfake runs padapitest's fake Pad Interview Service, for trying
// padapi, padctl or any HTTP client without an account or a network:
//
//	go run ./cmd/padfake -addr 127.0.0.1:8080 -seed 20
//
// It prints the base URL and the API key as two lines, PAD_BASE_URL=... and
// PAD_API_KEY=..., ready to export, and serves until interrupted (SIGINT or
// SIGTERM). Listening on all addresses (-addr :8080 or 0.0.0.0:8080), it
// prints a loopback URL, which a client on the same machine can use. Edit
// histories are served on a second port of the same host, which the pads'
// history links name. The fake keeps its state in memory: a restart starts
// afresh.
//
// Flags:
//
//	-addr host:port      listen address (default 127.0.0.1:8080)
//	-key KEY             the API key to accept (default padapitest-key)
//	-seed N              add N sample questions and N sample pads, with
//	                     environments, histories and events
//	-limit N             the monthly pad limit (default 120)
//	-used N              pads already used this month (default 0)
//	-unlimited           an unmetered plan instead of a limit
//	-overages            allow creates past the limit, as a plan billing overages does
//	-omit-quota-counts   leave pads_remaining and monthly_pad_limit out of the quota
//	-shape live|documented   answer in the service's live shape (default) or its documented one
//	-h                   print this help and exit
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/padinterview/padapi/padapitest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// shapeFlag is -shape: live or documented.
type shapeFlag struct{ padapitest.Shape }

func (f *shapeFlag) Set(s string) error {
	switch s {
	case "live":
		f.Shape = padapitest.LiveShape
	case "documented":
		f.Shape = padapitest.DocumentedShape
	default:
		return errors.New(`want "live" or "documented"`)
	}
	return nil
}

// run serves the fake until ctx ends, and returns the exit code: 0 when
// asked for help or interrupted, 2 for bad usage, 1 when the fake cannot
// start.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("padfake", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed below, each where it belongs
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address` (host:port); all addresses print a loopback URL")
	key := fs.String("key", padapitest.DefaultAPIKey, "the API `key` to accept")
	seed := fs.Int("seed", 0, "add `N` sample questions and N sample pads, with environments, histories and events")
	limit := fs.Int("limit", 120, "the monthly pad `limit`")
	used := fs.Int("used", 0, "`N` pads already used this month")
	unlimited := fs.Bool("unlimited", false, "an unmetered plan instead of a limit")
	overages := fs.Bool("overages", false, "allow creates past the limit, as a plan billing overages does")
	omitCounts := fs.Bool("omit-quota-counts", false, "leave pads_remaining and monthly_pad_limit out of the quota, as some live answers do")
	shape := shapeFlag{padapitest.LiveShape}
	fs.Var(&shape, "shape", "the `shape` of the answers: live (the default) or documented")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: padfake [flags]\n\nRuns a fake Pad Interview Service and prints PAD_BASE_URL and PAD_API_KEY for it.\n\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}

	var problem string
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		usage(stdout)
		return 0
	case err != nil:
		problem = err.Error()
	case fs.NArg() > 0:
		problem = fmt.Sprintf("unexpected argument %q", fs.Arg(0))
	case *seed < 0 || *limit < 0 || *used < 0:
		problem = "-seed, -limit and -used take a number of 0 or more"
	}
	if problem != "" {
		fmt.Fprintf(stderr, "padfake: %s\n\n", problem)
		usage(stderr)
		return 2
	}

	srv, err := padapitest.Listen(padapitest.WithAddr(*addr), padapitest.WithAPIKey(*key), padapitest.WithShape(shape.Shape))
	if err != nil {
		fmt.Fprintf(stderr, "padfake: %v\n", err)
		return 1
	}
	defer srv.Close()
	srv.SetQuota(*limit, *used)
	if *unlimited {
		srv.SetUnlimited()
	}
	srv.SetOveragesEnabled(*overages)
	srv.SetOmitQuotaCounts(*omitCounts)
	srv.Seed(*seed)
	fmt.Fprintf(stdout, "PAD_BASE_URL=%s\nPAD_API_KEY=%s\n", srv.URL, srv.APIKey)
	<-ctx.Done()
	return 0
}
