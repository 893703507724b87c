// root.go: the root command, global flags, and the factory that makes clients.

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// defaultBaseURL is the public service, used when neither PAD_BASE_URL nor
// --base-url is given.
const defaultBaseURL = "https://app.coderpad.io"

// defaultTimeout bounds the whole command, retries and every page
// included, when neither PAD_TIMEOUT nor --timeout is given.
const defaultTimeout = 30 * time.Second

// noDeadline is an annotation for a command that runs until it is stopped
// (a server over stdio, say): the command gets no deadline from --timeout,
// and may read factory.timeout to bound each piece of its work instead.
const noDeadline = "padctl:no-deadline"

// globalFlags are the flags every command takes, before or after its name.
type globalFlags struct {
	baseURL                     string
	apiKey                      keyFlag
	json, fake, insecure, debug bool
	timeout                     time.Duration
}

// keyFlag is --api-key. The key is kept behind a func, as padapi's client
// keeps its own: fmt prints a func as an address whatever the verb, so
// printing the factory or its flags can never show the key.
type keyFlag struct{ key func() string }

// Set, String and Type make keyFlag a pflag.Value.
func (k *keyFlag) Set(v string) error { k.key = func() string { return v }; return nil }
func (k *keyFlag) String() string     { return "" } // what help shows as the default: none
func (k *keyFlag) Type() string       { return "string" }

// get returns the key given, or "".
func (k *keyFlag) get() string {
	if k.key == nil {
		return ""
	}
	return k.key()
}

// factory is what every command runs with (cli/cli's Factory): the output
// streams, the global flags, and a client made on first use, so that help
// and usage errors need no configuration.
type factory struct {
	streams
	getenv func(string) string
	flags  globalFlags
	// persistent holds the global flags, to tell which were given.
	persistent *pflag.FlagSet
	// transport, when set, carries every request (tests route a
	// non-loopback base URL to a local server with it).
	transport http.RoundTripper
	// ran is set when a command's RunE starts: an error before that is
	// cobra refusing the command line.
	ran bool
	// timeout is the command's time limit from --timeout or PAD_TIMEOUT
	// (0: none), and timeoutErr why PAD_TIMEOUT was refused, set before a
	// command runs. cancel releases the command's deadline.
	timeout    time.Duration
	timeoutErr error
	cancel     context.CancelFunc

	api      *padapi.Client
	stopFake func()
}

// newRootCmd returns padctl with all of its commands.
func newRootCmd(f *factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "padctl <command> [flags]",
		Short: "A command-line client for the Pad Interview Service",
		Long: `padctl is a command-line client for the Pad Interview Service.

It reads the API key from PAD_API_KEY (or --api-key) and the service's
address from PAD_BASE_URL (or --base-url, default ` + defaultBaseURL + `).
Try it without an account: --fake runs any command against an in-process
fake service with sample data.

Output is a table on a terminal, tab-separated rows without a header when
piped (for cut and awk), and the service's JSON with --json. Hints and notes
go to stderr only. Global flags go before or after the command.

Environment:
  PAD_API_KEY    the API key (safer than --api-key, which shows in ps)
  PAD_BASE_URL   the service's base URL
  PAD_TIMEOUT    how long the whole command may take, retries and every page
                 included (a Go duration: 30s, 2m; default 30s; 0 for no limit)

Signals: SIGINT (Ctrl-C) and SIGTERM cancel the command, which cleans up
(a file half written is removed) and exits 130 or 143; a second one ends
padctl at once.

Exit codes:
  0 success, 1 API or network error or timeout, 2 usage error or refused
  argument, 3 over quota, 4 outcome unknown (a create may have happened),
  5 rate limited, 130 interrupted (SIGINT), 143 terminated (SIGTERM).`,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			f.startClock(cmd)
			if cmd.Name() != "mcp" { // mcp redacts its own streams, JSON-RPC lines apart
				f.redactStreams()
			}
			return nil
		},
		Version:       padapi.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(f.out)
	root.SetErr(f.err)
	root.SetVersionTemplate(versionLine())
	pf := root.PersistentFlags()
	pf.StringVar(&f.flags.baseURL, "base-url", "", "the service's base `URL` (default $PAD_BASE_URL, else "+defaultBaseURL+")")
	pf.Var(&f.flags.apiKey, "api-key", "the API `KEY` (default $PAD_API_KEY; prefer the variable: flags show in ps)")
	pf.BoolVar(&f.flags.json, "json", false, "print the service's JSON; a list is one array")
	pf.BoolVar(&f.flags.fake, "fake", false, "run against an in-process fake service with sample data")
	pf.DurationVar(&f.flags.timeout, "timeout", defaultTimeout, "how long the whole command may take, retries and every page included; 0 for no limit; $PAD_TIMEOUT sets the default")
	pf.BoolVar(&f.flags.insecure, "insecure-http", false, "allow a plain-http base URL on a remote host (sends the key in clear text)")
	pf.BoolVar(&f.flags.debug, "debug", false, "log each request attempt to stderr (never the API key)")
	f.persistent = pf

	root.AddCommand(newQuotaCmd(f), newPadsCmd(f), newQuestionsCmd(f), newOrgCmd(f), newDoctorCmd(f), &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run:   func(cmd *cobra.Command, _ []string) { fmt.Fprint(f.out, versionLine()) },
	})
	root.AddCommand(newMCPCmd(f))
	strictUsage(root)
	markRun(root, f)
	return root
}

// versionLine is what --version and the version command print. padctl ships
// with the library, so it carries the library's version.
func versionLine() string {
	return "padctl " + padapi.Version + " " + runtime.Version() + "\n"
}

// markRun makes every command of the tree set f.ran when it starts running,
// so that exitCode can tell cobra's own refusals (usage errors) from
// failures of the command.
func markRun(cmd *cobra.Command, f *factory) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			f.ran = true
			return run(cmd, args)
		}
	}
	for _, sub := range cmd.Commands() {
		markRun(sub, f)
	}
}

// newGroupCmd returns a command that groups subs and shows its help. Any
// argument that names none of them is a usage error (cobra would show the
// help and succeed).
func newGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  groupArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(subs...)
	return cmd
}

// groupArgs refuses an argument to a group: it is a subcommand that does
// not exist.
func groupArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	cmd.SuggestionsMinimumDistance = 2 // cobra sets it for the root alone
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return errors.New(msg)
}

// client returns the API client, made on first use from the flags and the
// environment, or from a fake service with --fake. A configuration the
// client refuses is a usage error.
func (f *factory) client() (*padapi.Client, error) {
	if f.api != nil {
		return f.api, nil
	}
	baseURL := cmp.Or(f.flags.baseURL, f.getenv("PAD_BASE_URL"), defaultBaseURL)
	apiKey := cmp.Or(f.flags.apiKey.get(), f.getenv("PAD_API_KEY"))
	if f.timeoutErr != nil {
		return nil, f.timeoutErr
	}
	if f.flags.fake {
		baseURL, apiKey, f.stopFake = startFake()
	}
	if apiKey == "" {
		return nil, usageErrorf("no API key: set PAD_API_KEY or pass --api-key (or try --fake)")
	}
	opts := []padapi.Option{padapi.WithUserAgent("padctl/" + padapi.Version)}
	if f.transport != nil {
		// Tests only. Otherwise the library sends through its own
		// transport, which never replays a POST: a cloned standard
		// transport resends one after a reset stream. No http.Client
		// Timeout either: the command's context bounds the whole command.
		opts = append(opts, padapi.WithHTTPClient(&http.Client{Transport: f.transport}))
	}
	if f.flags.insecure {
		opts = append(opts, padapi.WithInsecureHTTP())
	}
	if f.flags.debug {
		// The library logs method, path, attempt and outcome: never
		// headers, the key or query strings.
		opts = append(opts, padapi.WithLogger(slog.New(slog.NewTextHandler(f.err, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	c, err := padapi.NewClient(baseURL, apiKey, opts...)
	if err != nil {
		// Its advice names the Go option; padctl's user needs the flag.
		return nil, usageErrorf("%s", strings.ReplaceAll(err.Error(), "WithInsecureHTTP", "--insecure-http"))
	}
	f.api = c
	return c, nil
}

// startClock gives cmd's context the deadline --timeout or PAD_TIMEOUT
// sets, for the whole command: every request, retry, page and file. A
// command annotated noDeadline gets none. A PAD_TIMEOUT that is not a
// duration is kept in f.timeoutErr, for client to report: help and
// completion work without one.
func (f *factory) startClock(cmd *cobra.Command) {
	f.timeout = f.flags.timeout
	if env := f.getenv("PAD_TIMEOUT"); env != "" && !f.persistent.Lookup("timeout").Changed {
		d, err := time.ParseDuration(env)
		if err != nil {
			f.timeoutErr = usageErrorf("PAD_TIMEOUT=%q: want a Go duration such as 30s or 2m, or 0 for no limit", env)
			return
		}
		f.timeout = d
	}
	if f.timeout < 0 {
		f.timeoutErr = usageErrorf("the timeout %s is negative: want a duration, or 0 for no limit", f.timeout)
		return
	}
	if f.timeout == 0 || cmd.Annotations[noDeadline] != "" {
		return
	}
	ctx, cancel := context.WithTimeoutCause(cmd.Context(), f.timeout, &timeoutError{f.timeout})
	f.cancel = cancel
	cmd.SetContext(ctx)
}

// timeoutError is why a command's context ends when --timeout runs out.
type timeoutError struct{ d time.Duration }

// Error says which limit ran out.
func (e *timeoutError) Error() string {
	return fmt.Sprintf("timed out after %s", e.d)
}

// Is makes a timeoutError a context.DeadlineExceeded.
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// close releases the command's deadline and stops the fake service, if
// --fake started one.
func (f *factory) close() {
	if f.cancel != nil {
		f.cancel()
	}
	if f.stopFake != nil {
		f.stopFake()
	}
}

// note writes a hint or note on stderr, never stdout, so that it cannot
// mix with output a script reads: one line, whatever text from the service
// it holds (see oneLine).
func (f *factory) note(format string, args ...any) {
	fmt.Fprintln(f.err, oneLine(fmt.Sprintf(format, args...)))
}

// redactStreams takes the API key out of everything the command writes:
// a hostile service may echo it in a pad's title or an error, escaped or
// encoded, and the library keeps a success body's text as it came.
func (f *factory) redactStreams() {
	keys := []string{cmp.Or(f.flags.apiKey.get(), f.getenv("PAD_API_KEY"))}
	if f.flags.fake {
		keys = append(keys, padapitest.DefaultAPIKey)
	}
	red := newRedactor(keys...)
	f.out, f.err = red.writer(f.out), red.writer(f.err)
}
