// Package pads is padctl pads: list, show, create, change, delete and
// export pads, and their events and environments.
package pads

import (
	"context"
	"iter"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// eventView prints the events of a pad.
var eventView = cmdutil.View[padapi.PadEvent]{
	Noun: "events",
	Cols: []cmdutil.Column[padapi.PadEvent]{
		{Name: "Time", Value: func(e *padapi.PadEvent) any { return e.CreatedAt }},
		{Name: "Kind", Value: func(e *padapi.PadEvent) any { return e.Kind }},
		{Name: "User", Value: func(e *padapi.PadEvent) any { return e.UserName }},
		{Name: "Email", Value: func(e *padapi.PadEvent) any { return e.UserEmail }},
		{Name: "Message", Value: func(e *padapi.PadEvent) any { return e.Message }},
		{Name: "Metadata", Value: func(e *padapi.PadEvent) any { return e.Metadata }},
	},
}

// envView prints an environment of a pad, its files' code on a terminal.
var envView = cmdutil.View[padapi.PadEnvironment]{
	Noun: "environments",
	Cols: []cmdutil.Column[padapi.PadEnvironment]{
		{Name: "ID", Value: func(e *padapi.PadEnvironment) any { return e.ID }},
		// pad_id is the service's internal number for the pad, which no
		// command takes: say so where it shows.
		{Name: "Pad (internal no.)", Value: func(e *padapi.PadEnvironment) any { return e.PadID }},
		{Name: "Language", Value: func(e *padapi.PadEnvironment) any { return e.Language }},
		{Name: "Files", Value: func(e *padapi.PadEnvironment) any { return len(e.Files) }},
		{Name: "Updated", Value: func(e *padapi.PadEnvironment) any { return e.UpdatedAt }},
	},
	Detail: []cmdutil.Column[padapi.PadEnvironment]{
		{Name: "Question", Value: func(e *padapi.PadEnvironment) any { return e.QuestionID }},
		{Name: "Created", Value: func(e *padapi.PadEnvironment) any { return e.CreatedAt }},
	},
	Blocks: func(e *padapi.PadEnvironment) []cmdutil.Block {
		files := make([]cmdutil.Block, len(e.Files))
		for i, file := range e.Files {
			files[i] = cmdutil.Block{Name: file.Path, Text: file.Contents}
			if file.Binary {
				files[i].Text = "(binary: not shown)"
			}
		}
		return files
	},
}

// NewCmdPads returns the pads group and its commands.
func NewCmdPads(f *cmdutil.Factory) *cobra.Command {
	list := cmdutil.NewCmdList(f, "list", "List your pads", cmdutil.PadView, func(c *padapi.Client, _ []string) cmdutil.Lister[padapi.Pad] {
		return cmdutil.Paged(c.Pads.List, c.Pads.All).Under("pads")
	}, nil)
	list.Example = `  padctl pads list                          # the newest 50
  padctl pads list --sort updated --limit 10
  padctl pads list --all | awk -F'\t' '$5 == "ended"'
  padctl pads list --all --json > pads.json`
	get := cmdutil.NewCmdGet(f, "get PAD_ID", "Show one pad", cmdutil.PadView, func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.Pad, error) {
		return c.Pads.Get
	}, nil)
	get.Example = `  padctl pads get ABC123
  padctl pads get ABC123 --json             # the service's JSON, as it came`
	del := cmdutil.NewCmdDelete(f, "pad", func(c *padapi.Client) func(context.Context, padapi.ID) error { return c.Pads.Delete }, nil)
	cmds := []*cobra.Command{list, get, NewCmdCreate(f, nil), NewCmdUpdate(f, nil), del, newCmdEvents(f), newCmdEnv(f), NewCmdExport(f, nil)}
	for _, cmd := range cmds {
		switch cmd.Name() {
		case "get", "update", "delete", "events", "export":
			cmd.ValidArgsFunction = cmdutil.CompleteIDs(f, padChoices)
		case "env":
			cmd.ValidArgsFunction = cmdutil.CompleteIDs(f, envChoices)
		}
	}
	group := cmdutil.NewGroupCmd("pads", "List, show, create, change, delete and export pads", cmds...)
	group.Example = `  padctl pads list
  padctl pads create --title "Interview with Ada" --language python
  padctl pads export ABC123 --dir interview`
	return group
}

// padChoices are the pads of the first page of pads list, for completion.
func padChoices(ctx context.Context, c *padapi.Client) ([]cmdutil.Choice, error) {
	p, err := c.Pads.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := make([]cmdutil.Choice, len(p.Items))
	for i, pad := range p.Items {
		out[i] = cmdutil.Choice{ID: pad.ID, Title: pad.Title}
	}
	return out, nil
}

// envChoices are the environments of the pads of the first page of pads
// list, for completion: the IDs pads env takes.
func envChoices(ctx context.Context, c *padapi.Client) ([]cmdutil.Choice, error) {
	p, err := c.Pads.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	var out []cmdutil.Choice
	for _, pad := range p.Items {
		ids, err := pad.EnvironmentIDs()
		if err != nil {
			continue // the library's one policy: a bad ID names no environment
		}
		for _, id := range ids {
			out = append(out, cmdutil.Choice{ID: id, Title: "of pad " + string(pad.ID) + " " + pad.Title})
		}
	}
	return out, nil
}

// newCmdEvents returns pads events.
func newCmdEvents(f *cmdutil.Factory) *cobra.Command {
	events := cmdutil.NewCmdList(f, "events PAD_ID", "List what happened in a pad: who joined and left, what ran", eventView,
		func(c *padapi.Client, args []string) cmdutil.Lister[padapi.PadEvent] {
			id := padapi.ID(args[0])
			return cmdutil.Paged(
				func(ctx context.Context, o *padapi.PadEventListOptions) (*padapi.Page[padapi.PadEvent], error) {
					return c.Pads.ListEvents(ctx, id, o)
				},
				func(ctx context.Context, o *padapi.PadEventListOptions) iter.Seq2[*padapi.PadEvent, error] {
					return c.Pads.AllEvents(ctx, id, o)
				}).Under("events")
		}, nil)
	events.Args = cobra.ExactArgs(1)
	events.Long = `List what happened in a pad: who joined and left, what ran, when it ended.

The events come newest first (--sort created,desc, the service's default);
--sort created,asc gives them in the order they happened.`
	events.Example = `  padctl pads events ABC123
  padctl pads events ABC123 --all --sort created,asc`
	return events
}

// newCmdEnv returns pads env.
func newCmdEnv(f *cmdutil.Factory) *cobra.Command {
	env := cmdutil.NewCmdGet(f, "env ENV_ID", "Show one environment of a pad: the final code of each file", envView,
		func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.PadEnvironment, error) {
			return c.Pads.Environment
		}, nil)
	env.Long = `Show one environment of a pad: its language and the final code of each file.

ENV_ID is an environment ID, as "padctl pads get PAD_ID" lists them under
Environments (the pad's pad_environment_ids), not a pad ID.

"Pad (internal no.)" is the service's internal number for the pad the
environment belongs to: not a pad ID, so "padctl pads get" cannot use it.`
	env.Example = `  padctl pads get ABC123              # lists the pad's Environments
  padctl pads env 4567890             # one of them: its files' final code`
	return env
}

// flags are the flags pads create and pads update share. A field is sent
// only when its flag is given, so --private=false can unset it.
type flags struct {
	Title, Language, Contents, Notes string
	Private, Execution               bool
}

// add adds the flags pads create and pads update share.
func (o *flags) add(fl *pflag.FlagSet) {
	fl.StringVar(&o.Title, "title", "", "the pad's title")
	fl.StringVar(&o.Language, "language", "", "the pad's language (python, ruby, ...)")
	fl.StringVar(&o.Contents, "contents", "", "the editor's contents")
	fl.StringVar(&o.Notes, "notes", "", "the interviewer's notes")
	fl.BoolVar(&o.Private, "private", false, "make the pad private (--private=false to unset)")
	fl.BoolVar(&o.Execution, "execution", false, "allow running code (--execution=false to forbid)")
}

// controls are the interview controls' flags that pads create and pads
// update share.
type controls struct {
	Interviewers          []string
	Restrict, CoachingOff bool
	ClearInterviewers     bool // update only
}

// add adds the controls' flags; clear adds --clear-interviewers.
func (c *controls) add(fl *pflag.FlagSet, clear bool) {
	fl.StringArrayVar(&c.Interviewers, "interviewer", nil, "put this interviewer (`EMAIL`) on the pad's access list; repeat for more (the list sent replaces the pad's)")
	fl.BoolVar(&c.Restrict, "restrict-interviewers", false, "let only the access list's interviewers in (--restrict-interviewers=false to lift)")
	fl.BoolVar(&c.CoachingOff, "disable-coaching-tips", false, "hide the interviewer's coaching tips (--disable-coaching-tips=false to show them)")
	if clear {
		fl.BoolVar(&c.ClearInterviewers, "clear-interviewers", false, "empty the pad's access list")
	}
}

// list is the access list to send: nil when neither --interviewer nor
// --clear-interviewers was given, empty to clear it.
func (c *controls) list(fl *pflag.FlagSet) ([]string, error) {
	switch {
	case fl.Changed("interviewer") && c.ClearInterviewers:
		return nil, cmdutil.UsageErrorf("--interviewer and --clear-interviewers cannot be combined")
	case c.ClearInterviewers:
		return []string{}, nil
	case !fl.Changed("interviewer"):
		return nil, nil
	}
	for _, e := range c.Interviewers {
		if strings.TrimSpace(e) == "" {
			return nil, cmdutil.UsageErrorf("--interviewer: an empty email")
		}
	}
	return c.Interviewers, nil
}

// CreateOptions are what pads create runs with.
type CreateOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	Params padapi.PadCreateParams
}

// NewCmdCreate returns pads create. runF, when not nil, runs instead of
// createRun.
func NewCmdCreate(f *cmdutil.Factory, runF func(*CreateOptions) error) *cobra.Command {
	var fo flags
	var co controls
	var question, owner, team string
	var takeHome, aiAssist bool
	var minutes int
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a pad (it counts against the monthly quota)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := cmd.Flags()
			list, err := co.list(fl)
			if err != nil {
				return err
			}
			o := &CreateOptions{IO: f.IOStreams, Client: f.Client, Ctx: cmd.Context(), JSON: f.Flags.JSON,
				Params: padapi.PadCreateParams{
					Title:                     cmdutil.Given(fl, "title", fo.Title),
					Language:                  cmdutil.Given(fl, "language", fo.Language),
					Contents:                  cmdutil.Given(fl, "contents", fo.Contents),
					QuestionID:                cmdutil.Given(fl, "question", padapi.ID(question)),
					Private:                   cmdutil.Given(fl, "private", fo.Private),
					ExecutionEnabled:          cmdutil.Given(fl, "execution", fo.Execution),
					UserEmail:                 cmdutil.Given(fl, "owner", owner),
					Notes:                     cmdutil.Given(fl, "notes", fo.Notes),
					TeamID:                    cmdutil.Given(fl, "team", padapi.ID(team)),
					RestrictInterviewerAccess: cmdutil.Given(fl, "restrict-interviewers", co.Restrict),
					AllowedInterviewerEmails:  list,
					DisableCoachingTips:       cmdutil.Given(fl, "disable-coaching-tips", co.CoachingOff),
					TakeHome:                  cmdutil.Given(fl, "take-home", takeHome),
					TakeHomeMinutes:           cmdutil.Given(fl, "take-home-minutes", minutes),
					AIAssistEnabled:           cmdutil.Given(fl, "ai-assist", aiAssist),
				}}
			if runF != nil {
				return runF(o)
			}
			return createRun(o)
		},
	}
	cmd.Example = `  padctl pads create --title "Interview with Ada" --language python
  padctl pads create --question 1234 --private
  padctl pads create --title Screen --restrict-interviewers --interviewer ian@example.com --interviewer ada@example.com
  padctl pads create --take-home --take-home-minutes 90 --ai-assist=false
  id=$(padctl pads create --title Screen | cut -f1)`
	fo.add(cmd.Flags())
	co.add(cmd.Flags(), false)
	cmd.Flags().StringVar(&question, "question", "", "start from the question with this `ID` (not with --contents)")
	cmd.Flags().StringVar(&owner, "owner", "", "make this user of the organization the owner (`EMAIL`)")
	cmd.Flags().StringVar(&team, "team", "", "put the pad in this team (`ID`; organization owners only)")
	cmd.Flags().BoolVar(&takeHome, "take-home", false, "make it a take-home pad")
	cmd.Flags().IntVar(&minutes, "take-home-minutes", 0, "the take-home's time limit, in whole `MINUTES` (more than 0)")
	cmd.Flags().BoolVar(&aiAssist, "ai-assist", false, "turn the pad's AI assistant on (--ai-assist=false: off)")
	return cmd
}

// createRun creates the pad. Nothing is checked first, not even the
// quota: the service's answer to the create is the only reliable one.
func createRun(o *CreateOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if o.JSON {
		// The create's answer itself, as it came; the library checks
		// and encodes the create as without --json.
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.Pads.Create(ctx, &o.Params); return err })
	}
	p, err := c.Pads.Create(o.Ctx, &o.Params)
	if err != nil {
		return err
	}
	return cmdutil.PrintOne(o.IO, false, cmdutil.PadView, p)
}

// UpdateOptions are what pads update runs with.
type UpdateOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	ID     padapi.ID
	Params padapi.PadUpdateParams
}

// NewCmdUpdate returns pads update. runF, when not nil, runs instead of
// updateRun.
func NewCmdUpdate(f *cmdutil.Factory, runF func(*UpdateOptions) error) *cobra.Command {
	var fo flags
	var co controls
	var end bool
	var owner string
	cmd := &cobra.Command{
		Use:   "update PAD_ID",
		Short: "Change a pad; only the flags given are sent",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if !cmdutil.AnyGiven(cmd) {
				return cmdutil.UsageErrorf("nothing to change: give at least one flag")
			}
			list, err := co.list(fl)
			if err != nil {
				return err
			}
			o := &UpdateOptions{IO: f.IOStreams, Client: f.Client, Ctx: cmd.Context(), JSON: f.Flags.JSON, ID: padapi.ID(args[0]),
				Params: padapi.PadUpdateParams{
					Title:                     cmdutil.Given(fl, "title", fo.Title),
					Language:                  cmdutil.Given(fl, "language", fo.Language),
					Contents:                  cmdutil.Given(fl, "contents", fo.Contents),
					Notes:                     cmdutil.Given(fl, "notes", fo.Notes),
					Private:                   cmdutil.Given(fl, "private", fo.Private),
					ExecutionEnabled:          cmdutil.Given(fl, "execution", fo.Execution),
					Ended:                     cmdutil.Given(fl, "end", end),
					UserEmail:                 cmdutil.Given(fl, "owner", owner),
					RestrictInterviewerAccess: cmdutil.Given(fl, "restrict-interviewers", co.Restrict),
					AllowedInterviewerEmails:  list,
					DisableCoachingTips:       cmdutil.Given(fl, "disable-coaching-tips", co.CoachingOff),
				}}
			if runF != nil {
				return runF(o)
			}
			return updateRun(o)
		},
	}
	cmd.Example = `  padctl pads update ABC123 --notes "Strong on hashing." --end
  padctl pads update ABC123 --private=false
  padctl pads update ABC123 --interviewer ian@example.com --restrict-interviewers
  padctl pads update ABC123 --clear-interviewers --owner ada@example.com`
	fo.add(cmd.Flags())
	co.add(cmd.Flags(), true)
	cmd.Flags().BoolVar(&end, "end", false, "end the pad: the interview is over")
	cmd.Flags().StringVar(&owner, "owner", "", "make this user of the organization the new owner (`EMAIL`)")
	return cmd
}

// updateRun changes the pad.
func updateRun(o *UpdateOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	p, err := c.Pads.Update(o.Ctx, o.ID, &o.Params)
	if err != nil {
		return err
	}
	if o.JSON {
		// Live answers to a PUT are the status alone: the pad as the
		// service now sends it is a GET's answer.
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.Pads.Get(ctx, p.ID); return err })
	}
	return cmdutil.PrintOne(o.IO, false, cmdutil.PadView, p)
}
