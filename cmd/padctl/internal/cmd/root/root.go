// Package root is padctl's root command: the global flags, every command
// group, help, version and completion, and Run, padctl without the process
// around it.
package root

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/archive"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/doctor"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/mcp"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/org"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/pads"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/questions"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/quota"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/whoami"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/spf13/cobra"
)

// Run is padctl without the process around it: main calls it with the
// process's streams and environment, tests with their own. Run returns
// the exit code.
func Run(ctx context.Context, args []string, f *cmdutil.Factory) int {
	defer f.Close()
	root := NewCmdRoot(f)
	// A nil slice would make cobra read os.Args.
	root.SetArgs(append([]string{}, args...))
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return cmdutil.ExitOK
	}
	return f.Fail(ctx, cmd, err)
}

// NewCmdRoot returns padctl with all of its commands.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := &cobra.Command{
		Use:   "padctl <command> [flags]",
		Short: "A command-line client for the Pad Interview Service",
		Long: `padctl is a command-line client for the Pad Interview Service.

It reads the API key from PAD_API_KEY (or --api-key) and the service's
address from PAD_BASE_URL (or --base-url, default ` + padapi.DefaultBaseURL + `).
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
  PAD_LIST_LIMIT how many items padctl reads of one list, whatever total the
                 service claims (default 100000)

Signals: SIGINT (Ctrl-C) and SIGTERM cancel the command, which cleans up
(a file half written is removed) and exits 130 or 143; a second one ends
padctl at once.

Exit codes:
  0 success, 1 API or network error or timeout, 2 usage error or refused
  argument, 3 over quota, 4 outcome unknown (a create may have happened),
  5 rate limited, 6 the folder is locked by another run (questions apply
  or pull, archive), 130 interrupted (SIGINT), 143 terminated (SIGTERM).`,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			f.StartClock(cmd)
			if cmd.Name() != "mcp" { // mcp redacts its own streams, JSON-RPC lines apart
				f.RedactStreams()
			}
			return nil
		},
		Example: `  padctl --fake pads list                   # try it without an account
  export PAD_API_KEY=...                    # then, with yours
  padctl quota
  padctl pads create --title "Interview with Ada" --language python
  padctl help pads`,
		Version:       padapi.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	root.SetIn(f.IOStreams.In)
	root.SetVersionTemplate(versionLine())
	root.SetFlagErrorFunc(cmdutil.FlagError)
	addGlobalFlags(root, f)

	root.AddCommand(quota.NewCmdQuota(f, nil), pads.NewCmdPads(f), questions.NewCmdQuestions(f),
		org.NewCmdOrg(f, nil), whoami.NewCmdWhoami(f, nil), doctor.NewCmdDoctor(f, nil), archive.NewCmdArchive(f, nil, nil), mcp.NewCmdMCP(f, nil), &cobra.Command{
			Use:     "version",
			Short:   "Print the version",
			Example: "  padctl version",
			Args:    cobra.NoArgs,
			Run:     func(cmd *cobra.Command, _ []string) { fmt.Fprint(f.IOStreams.Out, versionLine()) },
		})
	strictUsage(root)
	cmdutil.NameArgs(root)
	markRun(root, f)
	return root
}

// addGlobalFlags adds the flags every command takes.
func addGlobalFlags(root *cobra.Command, f *cmdutil.Factory) {
	pf := root.PersistentFlags()
	pf.StringVar(&f.Flags.BaseURL, "base-url", "", "the service's base `URL` (default $PAD_BASE_URL, else "+padapi.DefaultBaseURL+")")
	pf.Var(&f.Flags.APIKey, "api-key", "the API `KEY` (default $PAD_API_KEY; prefer the variable: flags show in ps)")
	pf.BoolVar(&f.Flags.JSON, "json", false, "print the service's JSON; a list is one array")
	pf.BoolVar(&f.Flags.Fake, "fake", false, "run against an in-process fake service with sample data")
	pf.DurationVar(&f.Flags.Timeout, "timeout", cmdutil.DefaultTimeout, "how long the whole command may take, retries and every page included; 0 for no limit; $PAD_TIMEOUT sets the default")
	pf.BoolVar(&f.Flags.Insecure, "insecure-http", false, "allow a plain-http base URL on a remote host (sends the key in clear text)")
	pf.BoolVar(&f.Flags.Debug, "debug", false, "log each request attempt to stderr (never the API key)")
	f.Persistent = pf
}

// versionLine is what --version and the version command print. padctl ships
// with the library, so it carries the library's version.
func versionLine() string {
	return "padctl " + padapi.Version + " " + runtime.Version() + "\n"
}

// markRun makes every command of the tree set f.Ran when it starts running,
// so that ExitCode can tell cobra's own refusals (usage errors) from
// failures of the command.
func markRun(cmd *cobra.Command, f *cmdutil.Factory) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			f.Ran = true
			return run(cmd, args)
		}
	}
	for _, sub := range cmd.Commands() {
		markRun(sub, f)
	}
}

// strictUsage makes cobra's own commands refuse what they do not know, so
// that every usage error exits 2: "padctl completion tcsh" (an unknown
// shell) and "padctl help nosuch" (an unknown topic) print help and exit
// 0 in cobra. It adds both commands now rather than when padctl runs.
func strictUsage(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "completion":
			c.Example = `  source <(padctl completion bash)
  padctl completion zsh > "${fpath[1]}/_padctl"
  padctl completion fish > ~/.config/fish/completions/padctl.fish
  padctl completion powershell | Out-String | Invoke-Expression`
			for _, shell := range c.Commands() {
				shell.Example = "  padctl completion " + shell.Name()
			}
			c.Args = cmdutil.GroupArgs
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		case "help":
			c.Example = "  padctl help pads list"
			run := c.Run
			c.Run = nil
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					if target, rest, err := root.Find(args); err != nil || target == root || len(rest) > 0 {
						return cmdutil.UsageErrorf("no help topic %q", strings.Join(args, " "))
					}
				}
				run(cmd, args)
				return nil
			}
		}
	}
}
