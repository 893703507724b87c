// variants.go: questions variants list|get|create|update|delete.

package questions

import (
	"context"
	"fmt"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/spf13/cobra"
)

// VariantView prints question variants.
var VariantView = cmdutil.View[padapi.QuestionVariant]{
	Noun: "variants",
	Cols: []cmdutil.Column[padapi.QuestionVariant]{
		{Name: "ID", Value: func(v *padapi.QuestionVariant) any { return v.ID }},
		{Name: "Language", Value: func(v *padapi.QuestionVariant) any { return v.Language }},
		{Name: "Display", Value: func(v *padapi.QuestionVariant) any { return v.Display }},
		{Name: "Template", Value: func(v *padapi.QuestionVariant) any { return v.ProjectTemplateSlug }},
		{Name: "Updated", Value: func(v *padapi.QuestionVariant) any { return v.UpdatedAt }},
	},
	Blocks: func(v *padapi.QuestionVariant) []cmdutil.Block {
		starter := "(the language's default starter)"
		if v.Contents != nil {
			starter = *v.Contents
		}
		b := []cmdutil.Block{{Name: "Starter", Text: starter}}
		if v.Solution != nil {
			b = append(b, cmdutil.Block{Name: "Solution", Text: *v.Solution})
		}
		for _, f := range v.Files {
			b = append(b, cmdutil.Block{Name: f.Path, Text: f.Contents})
		}
		return b
	},
}

// variantFlags are the flags of variants create and update.
type variantFlags struct {
	language, template, contents, contentsFile, solution string
	defaultContents                                      bool
}

// params builds what the flags given say.
func (o *variantFlags) params(cmd *cobra.Command) (*padapi.QuestionVariantParams, error) {
	fl := cmd.Flags()
	p := &padapi.QuestionVariantParams{
		Language:        cmdutil.Given(fl, "language", o.language),
		Contents:        cmdutil.Given(fl, "contents", o.contents),
		Solution:        cmdutil.Given(fl, "solution", o.solution),
		DefaultContents: o.defaultContents,
	}
	if fl.Changed("template") {
		id := padapi.ID(o.template)
		p.ProjectTemplateID = &id
	}
	if fl.Changed("contents-file") {
		b, err := readArg("--contents-file", o.contentsFile)
		if err != nil {
			return nil, err
		}
		p.Contents = padapi.Ptr(string(b))
	}
	return p, nil
}

// NewCmdVariants returns questions variants and its commands.
func NewCmdVariants(f *cmdutil.Factory) *cobra.Command {
	list := &cobra.Command{
		Use:     "list QUESTION_ID",
		Short:   "List a question's variants",
		Example: "  padctl questions variants list 1234\n  padctl questions variants list 1234 --json",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Client()
			if err != nil {
				return err
			}
			if f.Flags.JSON {
				return cmdutil.PrintAnswer(cmd.Context(), f.IOStreams, func(ctx context.Context) error {
					_, err := c.Questions.ListVariants(ctx, padapi.ID(args[0]))
					return err
				})
			}
			vs, err := c.Questions.ListVariants(cmd.Context(), padapi.ID(args[0]))
			if err != nil {
				return err
			}
			return cmdutil.PrintList(f.IOStreams, false, VariantView, vs)
		},
	}
	get := &cobra.Command{
		Use:     "get QUESTION_ID VARIANT_ID",
		Short:   "Show one variant of a question",
		Example: "  padctl questions variants get 1234 77\n  padctl questions variants get 1234 77 --json",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.Client()
			if err != nil {
				return err
			}
			qid, vid := padapi.ID(args[0]), padapi.ID(args[1])
			if f.Flags.JSON {
				return cmdutil.PrintAnswer(cmd.Context(), f.IOStreams, func(ctx context.Context) error {
					_, err := c.Questions.GetVariant(ctx, qid, vid)
					return err
				})
			}
			v, err := c.Questions.GetVariant(cmd.Context(), qid, vid)
			if err != nil {
				return err
			}
			return cmdutil.PrintOne(f.IOStreams, false, VariantView, v)
		},
	}
	write := func(update bool) *cobra.Command {
		var o variantFlags
		cmd := &cobra.Command{
			Use:     "create QUESTION_ID",
			Short:   "Add a variant to a question (--language or --template is required)",
			Example: "  padctl questions variants create 1234 --language ruby --contents-file two_sum.rb",
			Args:    cobra.ExactArgs(1),
		}
		if update {
			cmd.Use, cmd.Short, cmd.Args = "update QUESTION_ID VARIANT_ID", "Change a variant; only the flags given are sent", cobra.ExactArgs(2)
			cmd.Example = "  padctl questions variants update 1234 77 --contents-file two_sum.rb\n  padctl questions variants update 1234 77 --default-contents"
		}
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			if update && !cmdutil.AnyGiven(cmd) {
				return cmdutil.UsageErrorf("nothing to change: give at least one flag")
			}
			p, err := o.params(cmd)
			if err != nil {
				return err
			}
			c, err := f.Client()
			if err != nil {
				return err
			}
			var v *padapi.QuestionVariant
			if update {
				v, err = c.Questions.UpdateVariant(cmd.Context(), padapi.ID(args[0]), padapi.ID(args[1]), p)
			} else {
				v, err = c.Questions.CreateVariant(cmd.Context(), padapi.ID(args[0]), p)
			}
			if err != nil {
				return err
			}
			return cmdutil.PrintOne(f.IOStreams, f.Flags.JSON, VariantView, v)
		}
		fl := cmd.Flags()
		fl.StringVar(&o.language, "language", "", "the variant's language (ruby, go, ...)")
		fl.StringVar(&o.template, "template", "", "the project template `ID` of a project-template variant")
		fl.StringVar(&o.contents, "contents", "", "the starter code (\"\" for a blank starter)")
		fl.StringVar(&o.contentsFile, "contents-file", "", "read the starter code from `FILE`")
		fl.BoolVar(&o.defaultContents, "default-contents", false, "use the language's default starter")
		fl.StringVar(&o.solution, "solution", "", "the reference solution")
		cmd.MarkFlagsMutuallyExclusive("contents", "contents-file", "default-contents")
		_ = cmd.MarkFlagFilename("contents-file")
		return cmd
	}
	do := &cmdutil.DeleteOptions{IO: f.IOStreams, Client: f.Client, Noun: "variant"}
	del := &cobra.Command{
		Use:   "delete QUESTION_ID VARIANT_ID",
		Short: "Delete a variant of a question",
		Long: "Delete a variant of a question. On a terminal padctl asks first: type the variant's ID to confirm.\n" +
			"--yes deletes without asking, and is required when padctl cannot ask (in a\nscript, or with stdin or stdout not a terminal).",
		Example: "  padctl questions variants delete 1234 77\n  padctl questions variants delete 1234 77 --yes",
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			qid := padapi.ID(args[0])
			do.Ctx, do.JSON, do.ID = cmd.Context(), f.Flags.JSON, padapi.ID(args[1])
			do.Delete = func(c *padapi.Client) func(context.Context, padapi.ID) error {
				return func(ctx context.Context, vid padapi.ID) error { return c.Questions.DeleteVariant(ctx, qid, vid) }
			}
			if !do.Yes && !do.IO.CanPrompt() {
				return cmdutil.UsageErrorf("--yes is required to delete when padctl cannot ask (not on a terminal)")
			}
			return cmdutil.DeleteRun(do)
		},
	}
	del.Flags().BoolVarP(&do.Yes, "yes", "y", false, "delete without asking")
	cmds := []*cobra.Command{list, get, write(false), write(true), del}
	for _, cmd := range cmds {
		cmd.ValidArgsFunction = completeVariantArgs(f)
	}
	group := cmdutil.NewGroupCmd("variants", "List, show, add, change and delete a question's variants (one per language or project template)", cmds...)
	group.Example = `  padctl questions variants list 1234
  padctl questions variants create 1234 --language ruby --contents-file two_sum.rb
  padctl questions pull --variants library   # every question's variants, as folders`
	return group
}

// completeVariantArgs completes a question ID, then one of its variants'.
func completeVariantArgs(f *cmdutil.Factory) cobra.CompletionFunc {
	questionIDs := cmdutil.CompleteIDs(f, questionChoices)
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return questionIDs(cmd, args, toComplete)
		case len(args) == 1 && (cmd.Name() == "get" || cmd.Name() == "update" || cmd.Name() == "delete"):
			qid := padapi.ID(args[0])
			return cmdutil.CompleteIDs(f, func(ctx context.Context, c *padapi.Client) ([]cmdutil.Choice, error) {
				vs, err := c.Questions.ListVariants(ctx, qid)
				if err != nil {
					return nil, err
				}
				out := make([]cmdutil.Choice, len(vs))
				for i, v := range vs {
					out[i] = cmdutil.Choice{ID: v.ID, Title: fmt.Sprintf("%s %s", v.Language, v.Display)}
				}
				return out, nil
			})(cmd, nil, toComplete)
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}
