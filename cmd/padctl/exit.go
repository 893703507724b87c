package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

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
// there is some, and returns the exit code. cmd is the command that failed.
func (f *factory) fail(cmd *cobra.Command, err error) int {
	code := exitCode(err, f.ran)
	msg := message(err)
	if code == exitInterrupted {
		msg = "interrupted"
	}
	fmt.Fprintf(f.err, "padctl: %s\n", msg)
	if a := advice(cmd, err, code); a != "" {
		fmt.Fprintln(f.err, a)
	}
	return code
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
		return "No answer in time: --timeout or PAD_TIMEOUT sets the limit per request (0 for none)."
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
