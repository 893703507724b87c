package cmdutil

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/advice"
	"github.com/padinterview/padapi/internal/app/archive"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes, part of padctl's interface for scripts.
const (
	ExitOK          = 0
	ExitError       = 1 // an API or network error
	ExitUsage       = 2 // a usage error, or an argument the library refused
	ExitOverQuota   = 3
	ExitUnknown     = 4 // a create may or may not have happened
	ExitRateLimited = 5
	ExitLocked      = 6   // another questions apply or pull, or archive run, holds the folder's lock
	ExitNoPlan      = 7   // questions diff could not make its plan: an API or network error (1 means changes there)
	ExitInterrupted = 130 // what shells report for a process ended by SIGINT
	ExitTerminated  = 143 // and by SIGTERM
)

// UsageError is a mistake in the command line or the configuration.
type UsageError struct{ Err error }

// Error returns the mistake, as padctl prints it after "padctl: ".
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the error behind the mistake, if any.
func (e *UsageError) Unwrap() error { return e.Err }

// UsageErrorf returns a UsageError with a formatted message.
func UsageErrorf(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// CodedError is an error that exits with its own code: questions diff's
// API and network errors exit ExitNoPlan, since its 1 means "changes".
type CodedError struct {
	Code int
	Err  error
}

// Error returns the error's text.
func (e *CodedError) Error() string { return e.Err.Error() }

// Unwrap returns the error.
func (e *CodedError) Unwrap() error { return e.Err }

// CancelError is the user answering no to a question padctl asked: it
// exits 2, as gh's cancellations do, with no advice.
type CancelError struct{ Msg string }

// Error says what was not done.
func (e *CancelError) Error() string { return e.Msg }

// SignalError is the cause of padctl's context when a signal ended it.
type SignalError struct {
	Code int    // the exit code: 128 + the signal's number
	What string // what padctl prints: interrupted, terminated
}

// Error says what happened.
func (e *SignalError) Error() string { return e.What }

// ExitCode maps an error to padctl's exit code. ran is false when cobra
// refused the command line before any command ran (an unknown command or
// flag, a wrong number of arguments). What the library's errors mean is
// read once, by advice.Of, in its order (a create whose outcome is unknown
// is that first, even when a signal cut it): padctl only numbers it.
func ExitCode(err error, ran bool) int {
	var ue *UsageError
	var ce *CancelError
	var coded *CodedError
	switch {
	case ran && errors.As(err, &coded):
		return coded.Code
	case !ran, errors.As(err, &ue), errors.As(err, &ce):
		return ExitUsage
	case errors.Is(err, qsync.ErrLocked), errors.Is(err, archive.ErrLocked):
		return ExitLocked
	}
	switch advice.Of(err) {
	case advice.InvalidArgument:
		return ExitUsage
	case advice.OutcomeUnknown:
		return ExitUnknown
	case advice.OverQuota:
		return ExitOverQuota
	case advice.RateLimited:
		return ExitRateLimited
	case advice.Canceled:
		return ExitInterrupted
	}
	return ExitError
}

// Fail prints err as one line on stderr, with advice on a second line when
// there is some, and returns the exit code. cmd is the command that failed;
// ctx is the one padctl ran with, whose cause says which signal, if any,
// cancelled it.
func (f *Factory) Fail(ctx context.Context, cmd *cobra.Command, err error) int {
	code := ExitCode(err, f.Ran)
	msg := Message(err)
	if code == ExitInterrupted {
		msg = "interrupted"
		var sig *SignalError
		if errors.As(context.Cause(ctx), &sig) {
			code, msg = sig.Code, sig.What
		}
	}
	var te *TimeoutError
	if cctx := cmd.Context(); (code == ExitError || code == ExitNoPlan) && cctx != nil && errors.As(context.Cause(cctx), &te) && errors.Is(err, context.DeadlineExceeded) {
		msg = te.Error() + ": " + msg
	}
	// Text from the service is in msg, and may be in the advice: each is
	// printed as one line, its control characters made visible; an error
	// that lists several problems (Lines) is printed one a line.
	var ll interface{ Lines() []string }
	if errors.As(err, &ll) && strings.Contains(msg, "\n") {
		first, rest, _ := strings.Cut(msg, "\n")
		fmt.Fprintf(f.IOStreams.ErrOut, "padctl: %s\n", iostreams.Escape(first, iostreams.Line))
		for line := range strings.Lines(rest) {
			fmt.Fprintf(f.IOStreams.ErrOut, "  %s\n", iostreams.Escape(strings.TrimSpace(line), iostreams.Line))
		}
	} else {
		fmt.Fprintf(f.IOStreams.ErrOut, "padctl: %s\n", iostreams.Escape(msg, iostreams.Line))
	}
	if a := CommandAdvice(cmd, err, code); a != "" {
		fmt.Fprintln(f.IOStreams.ErrOut, iostreams.Escape(a, iostreams.Line))
	}
	return code
}

// Message is err's text without the library's "padapi: " prefixes, since
// padctl puts its own in front, and with an argument the library refused
// named by padctl's flags rather than by Go's field names (FlagWords).
func Message(err error) string {
	msg := strings.ReplaceAll(err.Error(), "padapi: ", "")
	// The library names its Go option; padctl's user sets the variable.
	msg = strings.ReplaceAll(msg, "(WithListLimit)", "(PAD_LIST_LIMIT)")
	if errors.Is(err, padapi.ErrInvalidArgument) {
		msg = FlagWords(msg)
	}
	return msg
}

// flagWords is padctl's one table from the library's refusals of an
// argument (ErrInvalidArgument), which name Go types and fields, to the
// flags a padctl user gave: the library checks, padctl only words it.
var flagWords = []struct{ lib, cli string }{
	{"StatsOptions: set both Start and End, or neither", "give both --start and --end, or neither"},
	{"StatsOptions: End is before Start", "--end is before --start"},
	{"PadCreateParams: Contents and QuestionID cannot be combined", "--contents and --question cannot be combined"},
	{"question_id is an empty ID", "--question: an empty ID"},
	{"team_id is an empty ID", "--team: an empty ID"},
	{"PadCreateParams: TakeHomeMinutes must be more than 0", "--take-home-minutes must be more than 0"},
	{"QuestionCreateParams: Title and Language are required", "--title and --language are required"},
	{"QuestionCreateParams: set at most one of Contents, Files and Zip", "give at most one of --contents (or --contents-file), --file and --zip"},
	{"QuestionUpdateParams: set at most one of Contents, Files and Zip", "give at most one of --contents (or --contents-file), --file and --zip"},
}

// FlagWords rewords a message of the library's that names Go types and
// fields in the names of padctl's flags; any other message is returned as
// it is.
func FlagWords(msg string) string {
	for _, w := range flagWords {
		if strings.Contains(msg, w.lib) {
			return strings.Replace(msg, w.lib, w.cli, 1)
		}
	}
	return msg
}

// FlagError is cobra's refusal of a flag's value, worded for a user:
// pflag names the Go parser that refused it ("strconv.ParseUint: parsing
// "-1": invalid syntax"), which says nothing to someone who typed
// --page -1. The flag's type says what was wanted. It is set on the root
// command, for every command.
func FlagError(_ *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) {
		return &UsageError{err}
	}
	name, value := "--"+ive.GetFlag().Name, ive.GetValue()
	var msg string
	switch ive.GetFlag().Value.Type() {
	case "uint", "uint8", "uint16", "uint32", "uint64":
		msg = fmt.Sprintf("%s %s: must be a positive number", name, value)
	case "int", "int8", "int16", "int32", "int64":
		msg = fmt.Sprintf("%s %s: must be a whole number", name, value)
	case "bool":
		msg = fmt.Sprintf("%s=%s: must be true or false", name, value)
	case "duration":
		msg = fmt.Sprintf("%s %s: must be a duration such as 30s or 2m, or 0", name, value)
	default:
		// padctl's own flag types (--sort, --start) say what they want.
		msg = fmt.Sprintf("%s %s: %v", name, value, errors.Unwrap(ive))
	}
	return &UsageError{errors.New(msg)}
}

// CommandAdvice is what to do about a failure of cmd that exits with code,
// or "": the advice that names a command, then Advice's.
func CommandAdvice(cmd *cobra.Command, err error, code int) string {
	var ce *CancelError
	switch {
	case errors.As(err, &ce):
		return ""
	case code == ExitUsage:
		return fmt.Sprintf("Run '%s --help' for usage.", cmd.CommandPath())
	case code == ExitUnknown && cmd.Name() == "apply":
		return "Run the same 'padctl questions apply' again: it finds the question if the service made it, and creates it otherwise, never twice."
	case code == ExitUnknown:
		noun, list := "pad", "padctl pads list"
		if cmd.Parent() != nil && cmd.Parent().Name() == "questions" {
			noun, list = "question", "padctl questions list"
		}
		return fmt.Sprintf("The %s may or may not have been created. Lists lag about a minute behind: "+
			"wait a minute, then look with '%s' before creating it again, or you may get two.", noun, list)
	case errors.Is(err, padapi.ErrNotFound) && cmd.CommandPath() == "padctl pads env":
		return "pads env takes an environment ID, not a pad ID: 'padctl pads get PAD_ID' lists a pad's environments (its pad_environment_ids)."
	case errors.Is(err, padapi.ErrNotFound) && takesID(cmd) && cmd.Parent() != nil && hasSub(cmd.Parent(), "list"):
		// The ID is wrong, or what it named is gone: the group's list
		// shows the IDs there are.
		noun := cmd.Parent().Name()
		return fmt.Sprintf("Check the ID: '%s list' shows your %s.", cmd.Parent().CommandPath(), noun)
	case errors.Is(err, padapi.ErrForbidden) && strings.HasPrefix(cmd.CommandPath(), "padctl org"):
		return "Organization commands need an organization owner's API key."
	}
	return Advice(err)
}

// Advice is what to do about err, or "" when there is nothing to say
// beyond the error itself: the module's one error table (internal/app/advice)
// read, and phrased for a person at a shell.
func Advice(err error) string {
	switch k := advice.Of(err); k {
	case advice.OutcomeUnknown:
		return "It may or may not have been created. Lists lag about a minute behind: wait a minute and look before creating it again, or you may get two."
	case advice.OverQuota:
		return "The monthly pad quota is spent, so nothing was created; 'padctl quota' shows the numbers."
	case advice.RateLimited:
		if wait := advice.RetryAfter(err); wait > 0 {
			return fmt.Sprintf("The service is throttling requests: try again in %s.", wait)
		}
		return "The service is throttling requests: try again later."
	case advice.Timeout:
		return "No answer in time: --timeout or PAD_TIMEOUT (default 30s) bounds the whole command, retries included (0 for none)."
	case advice.Unauthorized:
		return "The service rejected the API key: check PAD_API_KEY or --api-key."
	case advice.ListLimit:
		return "padctl reads at most that many items of one list, whatever total the service claims: PAD_LIST_LIMIT sets how many (default 100000)."
	default:
		// A network failure: what to check, then doctor.
		if hint := networkHint(k); hint != "" {
			return hint + " 'padctl doctor' checks each step."
		}
	}
	return ""
}

// NetworkHint says what to check after a request failed to reach the
// service, or "" when the failure is not the network's.
func NetworkHint(err error) string { return networkHint(advice.Of(err)) }

func networkHint(k advice.Kind) string {
	switch k {
	case advice.DNS:
		return "the host name does not resolve: check PAD_BASE_URL or --base-url, then your network or DNS."
	case advice.Timeout:
		return "no answer in time: check the network, or raise --timeout (PAD_TIMEOUT)."
	case advice.Connect:
		return "cannot connect: check the base URL's host and port, a firewall or proxy, and whether the service is up."
	case advice.TLS:
		return "TLS failed: the certificate is not valid for this host, or a proxy intercepts TLS."
	}
	return ""
}

// takesID reports whether cmd's usage line names an ID argument (ID,
// PAD_ID, ENV_ID, ...).
func takesID(cmd *cobra.Command) bool {
	return slices.ContainsFunc(argNames(cmd), func(n string) bool { return n == "ID" || strings.HasSuffix(n, "_ID") })
}

// hasSub reports whether cmd has a subcommand called name.
func hasSub(cmd *cobra.Command, name string) bool {
	return slices.ContainsFunc(cmd.Commands(), func(c *cobra.Command) bool { return c.Name() == name })
}
