// pads.go: padctl pads: get, list, create and update pads.

package main

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// padView prints pads.
var padView = view[padapi.Pad]{
	noun: "pads",
	cols: []column[padapi.Pad]{
		{"ID", func(p *padapi.Pad) any { return p.ID }},
		{"Title", func(p *padapi.Pad) any { return p.Title }},
		{"Language", func(p *padapi.Pad) any { return p.Language }},
		{"Owner", func(p *padapi.Pad) any { return p.OwnerEmail }},
		{"State", func(p *padapi.Pad) any { return padState(p) }},
		{"Updated", func(p *padapi.Pad) any { return p.UpdatedAt }},
	},
	detail: []column[padapi.Pad]{
		{"Created", func(p *padapi.Pad) any { return p.CreatedAt }},
		{"Ended", func(p *padapi.Pad) any { return p.EndedAt }},
		{"Private", func(p *padapi.Pad) any { return p.Private }},
		{"Execution", func(p *padapi.Pad) any { return p.ExecutionEnabled }},
		{"Participants", func(p *padapi.Pad) any { return p.Participants }},
		{"Questions", func(p *padapi.Pad) any { return p.QuestionIDs }},
		{"Environments", func(p *padapi.Pad) any { return p.PadEnvironmentIDs }},
		{"URL", func(p *padapi.Pad) any { return p.URL }},
		{"Playback", func(p *padapi.Pad) any { return p.Playback }},
	},
	blocks: func(p *padapi.Pad) []block { return []block{{"Notes", p.Notes}, {"Contents", p.Contents}} },
}

// padState is the service's state when it sends one, else open or ended.
func padState(p *padapi.Pad) string {
	switch {
	case p.State != "":
		return p.State
	case p.EndedAt != nil:
		return "ended"
	}
	return "open"
}

// eventView prints the events of a pad.
var eventView = view[padapi.PadEvent]{
	noun: "events",
	cols: []column[padapi.PadEvent]{
		{"Time", func(e *padapi.PadEvent) any { return e.CreatedAt }},
		{"Kind", func(e *padapi.PadEvent) any { return e.Kind }},
		{"User", func(e *padapi.PadEvent) any { return e.UserName }},
		{"Email", func(e *padapi.PadEvent) any { return e.UserEmail }},
		{"Message", func(e *padapi.PadEvent) any { return e.Message }},
		{"Metadata", func(e *padapi.PadEvent) any { return e.Metadata }},
	},
}

// envView prints an environment of a pad, its files' code on a terminal.
var envView = view[padapi.PadEnvironment]{
	noun: "environments",
	cols: []column[padapi.PadEnvironment]{
		{"ID", func(e *padapi.PadEnvironment) any { return e.ID }},
		{"Pad", func(e *padapi.PadEnvironment) any { return e.PadID }},
		{"Language", func(e *padapi.PadEnvironment) any { return e.Language }},
		{"Files", func(e *padapi.PadEnvironment) any { return len(e.Files) }},
		{"Updated", func(e *padapi.PadEnvironment) any { return e.UpdatedAt }},
	},
	detail: []column[padapi.PadEnvironment]{
		{"Question", func(e *padapi.PadEnvironment) any { return e.QuestionID }},
		{"Created", func(e *padapi.PadEnvironment) any { return e.CreatedAt }},
	},
	blocks: func(e *padapi.PadEnvironment) []block {
		files := make([]block, len(e.Files))
		for i, file := range e.Files {
			files[i] = block{file.Path, file.Contents}
			if file.Binary {
				files[i].text = "(binary: not shown)"
			}
		}
		return files
	},
}

// newPadsCmd returns the pads group and its commands.
func newPadsCmd(f *factory) *cobra.Command {
	events := newListCmd(f, "events PAD_ID", "List what happened in a pad: who joined and left, what ran", eventView,
		func(c *padapi.Client, args []string) lister[padapi.PadEvent] {
			id := padapi.ID(args[0])
			return paged(
				func(ctx context.Context, o *padapi.PadEventListOptions) (*padapi.Page[padapi.PadEvent], error) {
					return c.Pads.ListEvents(ctx, id, o)
				},
				func(ctx context.Context, o *padapi.PadEventListOptions) iter.Seq2[*padapi.PadEvent, error] {
					return c.Pads.AllEvents(ctx, id, o)
				}).at("/api/pads/"+url.PathEscape(string(id))+"/events", "events")
		})
	events.Args = cobra.ExactArgs(1)
	events.Long = `List what happened in a pad: who joined and left, what ran, when it ended.

The events come newest first (--sort created,desc, the service's default);
--sort created,asc gives them in the order they happened.`

	env := newGetCmd(f, "env ENV_ID", "Show one environment of a pad: the final code of each file", envView,
		func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.PadEnvironment, error) {
			return c.Pads.Environment
		}, func(id padapi.ID) string { return "/api/pad_environments/" + url.PathEscape(string(id)) })
	env.Long = `Show one environment of a pad: its language and the final code of each file.

ENV_ID is an environment ID, as "padctl pads get PAD_ID" lists them under
Environments (the pad's pad_environment_ids), not a pad ID.`

	return newGroupCmd("pads", "List, show, create, change, delete and export pads",
		newListCmd(f, "list", "List your pads", padView, func(c *padapi.Client, _ []string) lister[padapi.Pad] {
			return paged(c.Pads.List, c.Pads.All).at("/api/pads", "pads")
		}),
		newGetCmd(f, "get ID", "Show one pad", padView, func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.Pad, error) {
			return c.Pads.Get
		}, padPath),
		newPadsCreateCmd(f),
		newPadsUpdateCmd(f),
		newDeleteCmd(f, "pad", func(c *padapi.Client) func(context.Context, padapi.ID) error { return c.Pads.Delete }),
		events,
		env,
		newPadsExportCmd(f),
	)
}

// padOptions are the flags of pads create and pads update. A field is sent
// only when its flag is given, so --private=false can unset it.
type padOptions struct {
	title, language, contents, notes, question, owner string
	private, execution, end                           bool
}

// addFlags adds the flags pads create and pads update share.
func (o *padOptions) addFlags(fl *pflag.FlagSet) {
	fl.StringVar(&o.title, "title", "", "the pad's title")
	fl.StringVar(&o.language, "language", "", "the pad's language (python, ruby, ...)")
	fl.StringVar(&o.contents, "contents", "", "the editor's contents")
	fl.StringVar(&o.notes, "notes", "", "the interviewer's notes")
	fl.BoolVar(&o.private, "private", false, "make the pad private (--private=false to unset)")
	fl.BoolVar(&o.execution, "execution", false, "allow running code (--execution=false to forbid)")
}

// given returns &v when the flag name was given, else nil (not sent).
func given[T any](fl *pflag.FlagSet, name string, v T) *T {
	if !fl.Changed(name) {
		return nil
	}
	return &v
}

// newPadsCreateCmd returns pads create.
func newPadsCreateCmd(f *factory) *cobra.Command {
	var o padOptions
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a pad (it counts against the monthly quota)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fl := cmd.Flags()
			params := &padapi.PadCreateParams{
				Title:            given(fl, "title", o.title),
				Language:         given(fl, "language", o.language),
				Contents:         given(fl, "contents", o.contents),
				QuestionID:       given(fl, "question", padapi.ID(o.question)),
				Private:          given(fl, "private", o.private),
				ExecutionEnabled: given(fl, "execution", o.execution),
				UserEmail:        given(fl, "owner", o.owner),
				Notes:            given(fl, "notes", o.notes),
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			// Nothing is checked first, not even the quota: the service's
			// answer to the create is the only reliable one.
			if f.flags.json {
				// The create's answer itself, as it came.
				var body json.RawMessage
				if err := c.Do(cmd.Context(), http.MethodPost, "/api/pads", padForm(params), &body); err != nil {
					return err
				}
				return printRaw(f, body)
			}
			p, err := c.Pads.Create(cmd.Context(), params)
			if err != nil {
				return err
			}
			return printOne(f, padView, p)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.question, "question", "", "start from the question with this `ID` (not with --contents)")
	cmd.Flags().StringVar(&o.owner, "owner", "", "make this user of the organization the owner (`EMAIL`)")
	return cmd
}

// newPadsUpdateCmd returns pads update.
func newPadsUpdateCmd(f *factory) *cobra.Command {
	var o padOptions
	cmd := &cobra.Command{
		Use:   "update ID",
		Short: "Change a pad; only the flags given are sent",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if !anyGiven(cmd) {
				return usageErrorf("nothing to change: give at least one flag")
			}
			params := &padapi.PadUpdateParams{
				Title:            given(fl, "title", o.title),
				Language:         given(fl, "language", o.language),
				Contents:         given(fl, "contents", o.contents),
				Notes:            given(fl, "notes", o.notes),
				Private:          given(fl, "private", o.private),
				ExecutionEnabled: given(fl, "execution", o.execution),
				Ended:            given(fl, "end", o.end),
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			p, err := c.Pads.Update(cmd.Context(), padapi.ID(args[0]), params)
			if err != nil {
				return err
			}
			if f.flags.json {
				// Live answers to a PUT are the status alone: the pad as
				// the service now sends it is a GET's answer.
				return getRaw(cmd.Context(), f, c, padPath(p.ID), nil)
			}
			return printOne(f, padView, p)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().BoolVar(&o.end, "end", false, "end the pad: the interview is over")
	return cmd
}

// padPath is the API path of a pad.
func padPath(id padapi.ID) string { return "/api/pads/" + url.PathEscape(string(id)) }

// padForm is a pad create's form, as padapi sends it: the fields given.
func padForm(p *padapi.PadCreateParams) url.Values {
	form := url.Values{}
	for name, v := range map[string]*string{"title": p.Title, "language": p.Language, "contents": p.Contents,
		"user_email": p.UserEmail, "notes": p.Notes} {
		if v != nil {
			form.Set(name, *v)
		}
	}
	if p.QuestionID != nil {
		form.Set("question_id", string(*p.QuestionID))
	}
	for name, v := range map[string]*bool{"private": p.Private, "execution_enabled": p.ExecutionEnabled} {
		if v != nil {
			form.Set(name, strconv.FormatBool(*v))
		}
	}
	return form
}

// anyGiven reports whether any of cmd's own flags was given.
func anyGiven(cmd *cobra.Command) bool {
	n := 0
	cmd.LocalNonPersistentFlags().VisitAll(func(fl *pflag.Flag) {
		if fl.Changed {
			n++
		}
	})
	return n > 0
}
