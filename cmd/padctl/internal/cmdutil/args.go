package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"
)

// NameArgs makes every command under cmd that takes arguments say which
// ones it needs when their number is wrong, in the words of its usage line
// ("pads get needs a PAD_ID"), rather than cobra's "accepts 1 arg(s),
// received 0". The check itself stays the command's own; only its error
// is replaced, and only for a command whose usage line names arguments.
func NameArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil && len(argNames(cmd)) > 0 {
		cmd.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return argsError(cmd, args)
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		NameArgs(sub)
	}
}

// argNames are the arguments cmd's usage line names: the words after its
// name up to the first flag, such as PAD_ID in "get PAD_ID" or DIR in
// "pull DIR".
func argNames(cmd *cobra.Command) []string {
	var names []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[") {
			break
		}
		names = append(names, w)
	}
	return names
}

// argsError is a usage error that says which arguments cmd needs, given
// the wrong number of them.
func argsError(cmd *cobra.Command, args []string) error {
	names := argNames(cmd)
	what := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	if len(args) < len(names) {
		missing := names[len(args):]
		return UsageErrorf("%s needs %s %s", what, article(missing[0]), strings.Join(missing, " and "))
	}
	return UsageErrorf("%s takes %s only, not %d arguments", what, strings.Join(names, " "), len(args))
}

// article is "a" or "an", as the argument's name is read aloud.
func article(name string) string {
	if strings.ContainsRune("AEFHILMNORSX", rune(name[0])) {
		return "an"
	}
	return "a"
}
