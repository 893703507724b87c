// Package cmdutil is what every padctl command runs with (cli/cli's
// cmdutil): the Factory that makes the client from the flags and the
// environment, the exit codes, usage errors and the one error-to-advice
// table, the flag types, and the printers and list/get/delete commands the
// resource groups share.
package cmdutil

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/padinterview/padapi/padapitest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// DefaultTimeout bounds the whole command, retries and every page
// included, when neither PAD_TIMEOUT nor --timeout is given.
const DefaultTimeout = 30 * time.Second

// NoDeadline is an annotation for a command that runs until it is stopped
// (a server over stdio, say): the command gets no deadline from --timeout,
// and may read Factory.Timeout to bound each piece of its work instead.
const NoDeadline = "padctl:no-deadline"

// GlobalFlags are the flags every command takes, before or after its name.
type GlobalFlags struct {
	BaseURL                     string
	APIKey                      KeyFlag
	JSON, Fake, Insecure, Debug bool
	Timeout                     time.Duration
}

// KeyFlag is --api-key. The key is kept behind a func, as padapi's client
// keeps its own: fmt prints a func as an address whatever the verb, so
// printing the factory or its flags can never show the key.
type KeyFlag struct{ key func() string }

// Set keeps the key given; Set, String and Type make KeyFlag a
// pflag.Value.
func (k *KeyFlag) Set(v string) error { k.key = func() string { return v }; return nil }

// String is what help shows as the default: none.
func (k *KeyFlag) String() string { return "" }

// Type names the flag's value in help.
func (k *KeyFlag) Type() string { return "string" }

// Get returns the key given, or "".
func (k *KeyFlag) Get() string {
	if k.key == nil {
		return ""
	}
	return k.key()
}

// Factory is what every command runs with (cli/cli's Factory): the
// streams, the global flags, and a client made on first use, so that help
// and usage errors need no configuration.
type Factory struct {
	IOStreams *iostreams.IOStreams
	Getenv    func(string) string
	Flags     GlobalFlags
	// Persistent holds the global flags, to tell which were given.
	Persistent *pflag.FlagSet
	// Transport, when set, carries every request (tests route a
	// non-loopback base URL to a local server with it; padctl archive
	// sets its gate here, over the test's transport if any).
	Transport http.RoundTripper
	// Ran is set when a command's RunE starts: an error before that is
	// cobra refusing the command line.
	Ran bool
	// Timeout is the command's time limit from --timeout or PAD_TIMEOUT
	// (0: none), and TimeoutErr why PAD_TIMEOUT was refused, set before a
	// command runs.
	Timeout    time.Duration
	TimeoutErr error
	// PagesAtOnce, when above 0, is how many pages of a list the client
	// fetches at once (padapi.WithConcurrentPages): a list command sets
	// it from --concurrency before the client is made.
	PagesAtOnce int

	cancel   context.CancelFunc
	api      *padapi.Client
	stopFake func()
}

// Client returns the API client, made on first use from the flags and the
// environment, or from a fake service with --fake. A configuration the
// client refuses is a usage error. PAD_LIST_LIMIT, when set, is how many
// items one list may yield (the library's WithListLimit, 100 000 by
// default), whatever total the service claims.
func (f *Factory) Client() (*padapi.Client, error) {
	if f.api != nil {
		return f.api, nil
	}
	baseURL := f.BaseURL()
	apiKey := cmp.Or(f.Flags.APIKey.Get(), f.Getenv("PAD_API_KEY"))
	if f.TimeoutErr != nil {
		return nil, f.TimeoutErr
	}
	if f.Flags.Fake {
		baseURL, apiKey, f.stopFake = StartFake()
	}
	if apiKey == "" {
		for _, name := range nearMissKeys {
			if f.Getenv(name) != "" {
				return nil, UsageErrorf("no API key: %s is set, but padctl reads PAD_API_KEY: export PAD_API_KEY=\"$%s\", or pass --api-key", name, name)
			}
		}
		return nil, UsageErrorf("no API key: set PAD_API_KEY or pass --api-key (or try --fake)")
	}
	opts := []padapi.Option{padapi.WithUserAgent("padctl/" + padapi.Version)}
	if f.Transport != nil {
		// Tests only. Otherwise the library sends through its own
		// transport, which never replays a POST: a cloned standard
		// transport resends one after a reset stream. No http.Client
		// Timeout either: the command's context bounds the whole command.
		opts = append(opts, padapi.WithHTTPClient(&http.Client{Transport: f.Transport}))
	}
	if f.Flags.Insecure {
		opts = append(opts, padapi.WithInsecureHTTP())
	}
	if f.PagesAtOnce > 0 {
		opts = append(opts, padapi.WithConcurrentPages(f.PagesAtOnce))
	}
	if limit := f.Getenv("PAD_LIST_LIMIT"); limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 {
			return nil, UsageErrorf("PAD_LIST_LIMIT=%q: want a whole number of items, at least 1", limit)
		}
		opts = append(opts, padapi.WithListLimit(n))
	}
	if f.Flags.Debug {
		// The library logs method, path, attempt and outcome: never
		// headers, the key or query strings.
		opts = append(opts, padapi.WithLogger(slog.New(slog.NewTextHandler(f.IOStreams.ErrOut, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	}
	c, err := padapi.NewClient(baseURL, apiKey, opts...)
	if err != nil {
		return nil, f.refusal(baseURL, apiKey, opts, err)
	}
	f.api = c
	return c, nil
}

// nearMissKeys are variables that hold a Pad API key for other tools (the
// peer clients' name first), or are a typo away from PAD_API_KEY: set
// without PAD_API_KEY, padctl says which one it reads.
var nearMissKeys = []string{"CODERPAD_API_KEY", "CODERPAD_KEY", "PAD_APIKEY", "PAD_KEY", "PAD_API_TOKEN", "PADAPI_KEY"}

// refusal is NewClient's refusal of the configuration, err, as a usage
// error that says what to type. The library's checks decide: a base URL
// without a scheme that it accepts with one gets that one suggested
// (http:// first, which it accepts only for a loopback host), and one it
// accepts with WithInsecureHTTP is named by padctl's flag for that.
func (f *Factory) refusal(baseURL, apiKey string, opts []padapi.Option, err error) error {
	from := "PAD_BASE_URL"
	if f.Persistent != nil && f.Persistent.Lookup("base-url").Changed {
		from = "--base-url"
	}
	accepted := func(url string, more ...padapi.Option) bool {
		_, err := padapi.NewClient(url, apiKey, append(opts[:len(opts):len(opts)], more...)...)
		return err == nil
	}
	if !strings.Contains(baseURL, "://") {
		for _, scheme := range []string{"http://", "https://"} {
			if accepted(scheme + baseURL) {
				return UsageErrorf("%s %s: a base URL starts with its scheme: did you mean %s%s?", from, baseURL, scheme, baseURL)
			}
		}
	}
	if !f.Flags.Insecure && accepted(baseURL, padapi.WithInsecureHTTP()) {
		return UsageErrorf("%s %s: plain http would send the API key in clear text to a remote host: use https, or --insecure-http if you mean it", from, baseURL)
	}
	return &UsageError{err}
}

// BaseURL returns the service's base URL as the flags and the environment
// give it (the client checks it), or "" with --fake, whose service lives
// only as long as the command.
func (f *Factory) BaseURL() string {
	if f.Flags.Fake {
		return ""
	}
	return cmp.Or(f.Flags.BaseURL, f.Getenv("PAD_BASE_URL"), padapi.DefaultBaseURL)
}

// StartFake starts the in-process fake service behind --fake, seeded so
// that every command has something to show: 12 of 50 pads used, and six
// sample pads and questions. Nothing it holds outlives the command.
func StartFake() (baseURL, apiKey string, stop func()) {
	srv := padapitest.Start()
	srv.SetQuota(50, 12)
	srv.Seed(6)
	return srv.URL, srv.APIKey, srv.Close
}

// StartClock gives cmd's context the deadline --timeout or PAD_TIMEOUT
// sets, for the whole command: every request, retry, page and file. A
// command annotated NoDeadline gets none. A PAD_TIMEOUT that is not a
// duration is kept in f.TimeoutErr, for Client to report: help and
// completion work without one.
func (f *Factory) StartClock(cmd *cobra.Command) {
	f.Timeout = f.Flags.Timeout
	if env := f.Getenv("PAD_TIMEOUT"); env != "" && !f.Persistent.Lookup("timeout").Changed {
		d, err := time.ParseDuration(env)
		if err != nil {
			f.TimeoutErr = UsageErrorf("PAD_TIMEOUT=%q: want a Go duration such as 30s or 2m, or 0 for no limit", env)
			return
		}
		f.Timeout = d
	}
	if f.Timeout < 0 {
		f.TimeoutErr = UsageErrorf("the timeout %s is negative: want a duration, or 0 for no limit", f.Timeout)
		return
	}
	if f.Timeout == 0 || cmd.Annotations[NoDeadline] != "" {
		return
	}
	ctx, cancel := context.WithTimeoutCause(cmd.Context(), f.Timeout, &TimeoutError{D: f.Timeout})
	f.cancel = cancel
	cmd.SetContext(ctx)
}

// TimeoutError is a time limit (--timeout, PAD_TIMEOUT) running out: the
// cause of a command's context when it does, which makes the context's
// error a context.DeadlineExceeded; and, with Stopped set, the error of a
// command that stops at the limit keeping what it finished (the archive).
// It is padctl's one timeout type.
type TimeoutError struct {
	D time.Duration
	// Stopped, when set, is the command's own report of what the limit
	// stopped and what is kept: the error's text. Such an error is the
	// command's outcome, not a request's deadline.
	Stopped string
}

// Error says which limit ran out, or what it stopped.
func (e *TimeoutError) Error() string {
	if e.Stopped != "" {
		return e.Stopped
	}
	return fmt.Sprintf("timed out after %s", e.D)
}

// Is makes a TimeoutError a context.DeadlineExceeded, unless it is a
// command's report (Stopped), which needs no deadline advice.
func (e *TimeoutError) Is(target error) bool {
	return target == context.DeadlineExceeded && e.Stopped == ""
}

// Close writes what the redacting streams kept back, releases the
// command's deadline and stops the fake service, if --fake started one.
func (f *Factory) Close() {
	if f.IOStreams != nil {
		f.IOStreams.Flush()
	}
	if f.cancel != nil {
		f.cancel()
	}
	if f.stopFake != nil {
		f.stopFake()
	}
}

// Keys are the API keys padctl must never show: the one given, and the
// fake's with --fake.
func (f *Factory) Keys() []string {
	keys := []string{cmp.Or(f.Flags.APIKey.Get(), f.Getenv("PAD_API_KEY"))}
	if f.Flags.Fake {
		keys = append(keys, padapitest.DefaultAPIKey)
	}
	return keys
}

// RedactStreams takes the API key out of everything the command writes:
// a hostile service may echo it in a pad's title or an error, escaped or
// encoded, and the library keeps a success body's text as it came.
func (f *Factory) RedactStreams() {
	f.IOStreams.Redact(redact.New(f.Keys()...))
}

// Note writes a hint or note on stderr, never stdout, so that it cannot
// mix with output a script reads: one line, whatever text from the service
// it holds.
func Note(ios *iostreams.IOStreams, format string, args ...any) {
	fmt.Fprintln(ios.ErrOut, iostreams.Escape(fmt.Sprintf(format, args...), iostreams.Line))
}
