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
// afresh. It serves every route padapi calls, those added in v5 too: a
// question's variants, GET /api/user and the pads' interview controls
// (see package padapitest).
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
//	-trial-expires-at T  when the trial ends or ended, an RFC 3339 time (default: a month
//	                     before the quota's last reset); "none" leaves trial_expires_at out
//	-not-owner           the key's user is not an organization owner: the organization
//	                     endpoints answer 403
//	-shape live|documented   answer in the service's live shape (default) or its documented one
//	-read-header-timeout D   how long a client may take to send a request's header (default 10s)
//	-read-timeout D      how long a client may take to send a whole request (default 1m)
//	-write-timeout D     how long an answer may take to write (default 1m)
//	-idle-timeout D      how long a kept-alive connection may wait for its next request (default 2m)
//	-max-header-bytes N  the largest request header accepted (default 65536)
//	-log-requests N      how many requests the fake remembers (default 10000; 32 MiB in all at most)
//	-log-bytes N         how many bytes of each request's values and files it remembers (default 65536)
//	-h                   print this help and exit
//
// The timeouts and the header limit mean that clients which stall, send half
// a header or hold idle connections cannot pile up connections; the request
// log is bounded, so that clients sending without end cannot grow padfake's
// memory without end. 0 turns a timeout off.
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
	"time"

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

// trialFlag is -trial-expires-at: an RFC 3339 time, or "none".
type trialFlag struct {
	set bool       // the flag was given
	at  *time.Time // nil for "none"
}

func (f *trialFlag) String() string {
	switch {
	case !f.set:
		return ""
	case f.at == nil:
		return "none"
	}
	return f.at.Format(time.RFC3339)
}

func (f *trialFlag) Set(s string) error {
	f.set, f.at = true, nil
	if s == "none" {
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return errors.New(`want an RFC 3339 time, such as 2026-12-31T00:00:00Z, or "none"`)
	}
	f.at = &t
	return nil
}

// run serves the fake until ctx ends, and returns the exit code: 0 when
// asked for help or interrupted, 2 for bad usage, 1 when the fake cannot
// start.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, o := newFlags()
	var problem string
	switch err := fs.Parse(args); {
	case errors.Is(err, flag.ErrHelp):
		usage(fs, stdout)
		return 0
	case err != nil:
		problem = err.Error()
	case fs.NArg() > 0:
		problem = fmt.Sprintf("unexpected argument %q", fs.Arg(0))
	default:
		problem = o.problem()
	}
	if problem != "" {
		fmt.Fprintf(stderr, "padfake: %s\n\n", problem)
		usage(fs, stderr)
		return 2
	}
	srv, err := o.start()
	if err != nil {
		fmt.Fprintf(stderr, "padfake: %v\n", err)
		return 1
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "PAD_BASE_URL=%s\nPAD_API_KEY=%s\n", srv.URL, srv.APIKey)
	<-ctx.Done()
	return 0
}

// options are padfake's flags.
type options struct {
	addr, key                                 string
	seed, limit, used, logSize, logBytes      int
	unlimited, overages, omitCounts, notOwner bool
	trial                                     trialFlag
	shape                                     shapeFlag
	limits                                    padapitest.Timeouts
}

// newFlags returns padfake's flag set and the options it sets.
func newFlags() (*flag.FlagSet, *options) {
	o := &options{shape: shapeFlag{padapitest.LiveShape}, limits: padapitest.DefaultTimeouts}
	fs := flag.NewFlagSet("padfake", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by run, each where it belongs
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen `address` (host:port); all addresses print a loopback URL")
	fs.StringVar(&o.key, "key", padapitest.DefaultAPIKey, "the API `key` to accept")
	fs.IntVar(&o.seed, "seed", 0, "add `N` sample questions and N sample pads, with environments, histories and events")
	fs.IntVar(&o.limit, "limit", 120, "the monthly pad `limit`")
	fs.IntVar(&o.used, "used", 0, "`N` pads already used this month")
	fs.BoolVar(&o.unlimited, "unlimited", false, "an unmetered plan instead of a limit")
	fs.BoolVar(&o.overages, "overages", false, "allow creates past the limit, as a plan billing overages does")
	fs.BoolVar(&o.omitCounts, "omit-quota-counts", false, "leave pads_remaining and monthly_pad_limit out of the quota, as some live answers do")
	fs.Var(&o.trial, "trial-expires-at", "when the trial ends or ended, an RFC 3339 `time` (default: a month before the quota's last reset); \"none\" leaves it out")
	fs.BoolVar(&o.notOwner, "not-owner", false, "the key's user is not an organization owner: the organization endpoints answer 403")
	fs.Var(&o.shape, "shape", "the `shape` of the answers: live (the default) or documented")
	fs.DurationVar(&o.limits.ReadHeader, "read-header-timeout", o.limits.ReadHeader, "how long a client may take to send a request's header (0: no limit)")
	fs.DurationVar(&o.limits.Read, "read-timeout", o.limits.Read, "how long a client may take to send a whole request, body included (0: no limit)")
	fs.DurationVar(&o.limits.Write, "write-timeout", o.limits.Write, "how long an answer may take to write (0: no limit)")
	fs.DurationVar(&o.limits.Idle, "idle-timeout", o.limits.Idle, "how long a kept-alive connection may wait for its next request (0: no limit)")
	fs.IntVar(&o.limits.MaxHeaderBytes, "max-header-bytes", o.limits.MaxHeaderBytes, "the largest request header accepted, in bytes")
	fs.IntVar(&o.logSize, "log-requests", padapitest.DefaultRequestLogSize, "how many of the last requests the fake remembers")
	fs.IntVar(&o.logBytes, "log-bytes", padapitest.DefaultRequestBodyCap, "how many bytes of each request's values and files the fake remembers")
	return fs, o
}

// usage prints padfake's usage and flags to w.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, "usage: padfake [flags]\n\nRuns a fake Pad Interview Service and prints PAD_BASE_URL and PAD_API_KEY for it.\n\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// problem says what is wrong with the parsed options, or "".
func (o *options) problem() string {
	l := o.limits
	switch {
	case o.seed < 0 || o.limit < 0 || o.used < 0 || o.logSize < 0 || o.logBytes < 0:
		return "-seed, -limit, -used, -log-requests and -log-bytes take a number of 0 or more"
	case l.ReadHeader < 0 || l.Read < 0 || l.Write < 0 || l.Idle < 0 || l.MaxHeaderBytes <= 0:
		return "the timeouts take a duration of 0 or more, -max-header-bytes a number above 0"
	}
	return ""
}

// start starts the fake the options describe.
func (o *options) start() (*padapitest.Server, error) {
	srv, err := padapitest.Listen(padapitest.WithAddr(o.addr), padapitest.WithAPIKey(o.key), padapitest.WithShape(o.shape.Shape),
		padapitest.WithTimeouts(o.limits), padapitest.WithRequestLog(o.logSize, o.logBytes))
	if err != nil {
		return nil, err
	}
	srv.SetQuota(o.limit, o.used)
	if o.unlimited {
		srv.SetUnlimited()
	}
	srv.SetOveragesEnabled(o.overages)
	srv.SetOmitQuotaCounts(o.omitCounts)
	if o.trial.set {
		srv.SetTrialExpiresAt(o.trial.at)
	}
	srv.SetCallerIsOwner(!o.notOwner)
	srv.Seed(o.seed)
	return srv, nil
}
