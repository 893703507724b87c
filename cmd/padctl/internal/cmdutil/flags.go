package cmdutil

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/cliarg"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// SortNames are the values --sort takes, for help and completion. Without
// a direction the order is the service's default, newest first.
var SortNames = cliarg.SortNames

// SortFlag is --sort. The service's own spellings (created_at,asc) are
// accepted too.
type SortFlag struct{ Sort *padapi.Sort }

// String returns the order given.
func (s *SortFlag) String() string { return string(*s.Sort) }

// Type names the flag's value in help.
func (s *SortFlag) Type() string { return "order" }

// Set parses an order: created or updated, optionally ,asc or ,desc.
func (s *SortFlag) Set(v string) error {
	sort, err := cliarg.Sort(v)
	if err != nil {
		return err
	}
	*s.Sort = sort
	return nil
}

// TimeFlag is a time given in RFC 3339, or a date (midnight UTC).
type TimeFlag struct{ time.Time }

// Type names the flag's value in help.
func (t *TimeFlag) Type() string { return "time" }

// String returns the time given, in RFC 3339, or "".
func (t *TimeFlag) String() string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// Set parses an RFC 3339 time or a date.
func (t *TimeFlag) Set(v string) error {
	p, err := cliarg.Time(v)
	if err != nil {
		return err
	}
	t.Time = p
	return nil
}

// Given returns &v when the flag name was given, else nil (not sent).
func Given[T any](fl *pflag.FlagSet, name string, v T) *T {
	if !fl.Changed(name) {
		return nil
	}
	return &v
}

// AnyGiven reports whether any of cmd's own flags was given.
func AnyGiven(cmd *cobra.Command) bool {
	n := 0
	cmd.LocalNonPersistentFlags().VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			n++
		}
	})
	return n > 0
}

// NewGroupCmd returns a command that groups subs and shows its help. Any
// argument that names none of them is a usage error (cobra would show the
// help and succeed).
func NewGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  GroupArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(subs...)
	return cmd
}

// GroupArgs refuses an argument to a group: it is a subcommand that does
// not exist.
func GroupArgs(cmd *cobra.Command, args []string) error {
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
