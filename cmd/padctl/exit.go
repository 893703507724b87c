// exit.go: exit codes, usage and signal errors, and the one-line error message.

package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
)

// Exit codes, part of padctl's interface for scripts.
const (
	exitOK          = 0
	exitError       = 1 // an API or network error
	exitUsage       = 2 // a usage error, or an argument the library refused
	exitOverQuota   = 3
	exitUnknown     = 4 // a create may or may not have happened
	exitRateLimited = 5
	exitInterrupted = 130 // what shells report for a process ended by SIGINT
	exitTerminated  = 143 // and by SIGTERM
)

// usageError is a mistake in the command line or the configuration.
type usageError struct{ err error }

// Error returns the mistake, as padctl prints it after "padctl: ".
func (e *usageError) Error() string { return e.err.Error() }

// Unwrap returns the error behind the mistake, if any.
func (e *usageError) Unwrap() error { return e.err }

// usageErrorf returns a usageError with a formatted message.
func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// exitCode maps an error to padctl's exit code: the one place that reads the
// library's sentinels. ran is false when cobra refused the command line
// before any command ran (an unknown command or flag, a wrong number of
// arguments).
func exitCode(err error, ran bool) int {
	var ue *usageError
	switch {
	case !ran, errors.As(err, &ue), errors.Is(err, padapi.ErrInvalidArgument):
		return exitUsage
	// Before Canceled: a create interrupted after it was sent may have
	// happened, and that is what the user must hear.
	case errors.Is(err, padapi.ErrOutcomeUnknown):
		return exitUnknown
	case errors.Is(err, padapi.ErrOverQuota):
		return exitOverQuota
	case errors.Is(err, padapi.ErrRateLimited):
		return exitRateLimited
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	}
	return exitError
}

// fail prints err as one line on stderr, with advice on a second line when
// there is some, and returns the exit code. cmd is the command that failed;
// ctx is the one padctl ran with, whose cause says which signal, if any,
// cancelled it.
func (f *factory) fail(ctx context.Context, cmd *cobra.Command, err error) int {
	code := exitCode(err, f.ran)
	msg := message(err)
	if code == exitInterrupted {
		msg = "interrupted"
		var sig *signalError
		if errors.As(context.Cause(ctx), &sig) {
			code, msg = sig.code, sig.what
		}
	}
	var te *timeoutError
	if cctx := cmd.Context(); code == exitError && cctx != nil && errors.As(context.Cause(cctx), &te) && errors.Is(err, context.DeadlineExceeded) {
		msg = te.Error() + ": " + msg
	}
	// Text from the service is in msg, and may be in the advice: each is
	// printed as one line, its control characters made visible.
	fmt.Fprintf(f.err, "padctl: %s\n", oneLine(msg))
	if a := advice(cmd, err, code); a != "" {
		fmt.Fprintln(f.err, oneLine(a))
	}
	return code
}

// signalError is the cause of padctl's context when a signal ended it.
type signalError struct {
	code int    // the exit code: 128 + the signal's number
	what string // what padctl prints: interrupted, terminated
}

// Error says what happened.
func (e *signalError) Error() string { return e.what }

// oneLine returns s as one line that is safe on a terminal: a line break
// or tab becomes a space, and every other control character (C0, DEL, C1)
// and every Unicode character that reorders or breaks text (bidi controls,
// line and paragraph separators) is written as an escape, \x1b or
// \u202e, as Go quotes it. Bytes that are not UTF-8 become U+FFFD. A
// message from the service can then neither forge a line of padctl's own
// nor drive the terminal.
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r must not reach a terminal as it is: a
// control character (C0, DEL, C1), a bidi control or mark, or a line or
// paragraph separator.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true // bidi marks, embeddings, overrides and isolates
	case r == 0x2028, r == 0x2029:
		return true // line and paragraph separators
	}
	return false
}

// message is err's text without the library's "padapi: " prefixes, since
// padctl puts its own in front.
func message(err error) string {
	return strings.ReplaceAll(err.Error(), "padapi: ", "")
}

// advice is what to do about a failure, or "".
func advice(cmd *cobra.Command, err error, code int) string {
	var ae *padapi.APIError
	errors.As(err, &ae)
	switch {
	case code == exitUsage:
		return fmt.Sprintf("Run '%s --help' for usage.", cmd.CommandPath())
	case code == exitUnknown && cmd.Name() == "apply":
		return "Run the same 'padctl questions apply' again: it finds the question if the service made it, and creates it otherwise, never twice."
	case code == exitUnknown:
		noun, list := "pad", "padctl pads list"
		if cmd.Parent() != nil && cmd.Parent().Name() == "questions" {
			noun, list = "question", "padctl questions list"
		}
		return fmt.Sprintf("The %s may or may not have been created. Lists lag about a minute behind: "+
			"wait a minute, then look with '%s' before creating it again, or you may get two.", noun, list)
	case code == exitOverQuota:
		return "The monthly pad quota is spent, so nothing was created; 'padctl quota' shows the numbers."
	case code == exitRateLimited && ae != nil && ae.RetryAfter > 0:
		return fmt.Sprintf("The service is throttling requests: try again in %s.", ae.RetryAfter)
	case code == exitRateLimited:
		return "The service is throttling requests: try again later."
	case errors.Is(err, context.DeadlineExceeded):
		return "No answer in time: --timeout or PAD_TIMEOUT (default 30s) bounds the whole command, retries included (0 for none)."
	case errors.Is(err, padapi.ErrUnauthorized):
		return "The service rejected the API key: check PAD_API_KEY or --api-key."
	case errors.Is(err, padapi.ErrForbidden) && strings.HasPrefix(cmd.CommandPath(), "padctl org"):
		return "Organization commands need an organization owner's API key."
	}
	// A network failure: what to check (see doctor.go), then doctor.
	if hint := networkHint(err); hint != "" {
		return hint + " 'padctl doctor' checks each step."
	}
	return ""
}
