package cmdutil

import (
	"context"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// completeTimeout bounds the request a completion makes: a shell waits on
// it at every Tab.
const completeTimeout = 5 * time.Second

// maxCompletionTitle bounds the description shown beside an ID.
const maxCompletionTitle = 60

// Choice is one value a completion offers: an ID, and what it names.
type Choice struct {
	ID    padapi.ID
	Title string
}

// CompleteIDs returns the completion of a command's first argument: the
// IDs choices gives (one page of a list, through the library's typed
// methods), each with its title beside it. It is silent on any error (no
// key, no network): a shell shows nothing rather than an error at a Tab.
// The request is bounded by completeTimeout and by the command's context.
func CompleteIDs(f *Factory, choices func(context.Context, *padapi.Client) ([]Choice, error)) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		c, err := f.Client()
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		ctx, cancel := context.WithTimeout(ctx, completeTimeout)
		defer cancel()
		list, err := choices(ctx, c)
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		out := make([]cobra.Completion, 0, len(list))
		for _, ch := range list {
			// Text from the service: one line, its control characters
			// made visible, so that it cannot break the shell's list.
			id := iostreams.Escape(string(ch.ID), iostreams.Line)
			title := []rune(iostreams.Escape(ch.Title, iostreams.Line))
			if len(title) > maxCompletionTitle {
				title = append(title[:maxCompletionTitle-1], '…')
			}
			out = append(out, cobra.CompletionWithDesc(id, string(title)))
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
