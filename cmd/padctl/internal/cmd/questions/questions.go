// Package questions is padctl questions: list, show, create, change and
// delete questions; pull, diff and apply a question library kept in a
// folder (sync.go, pull.go, diff.go, apply.go), rendering the plans and
// events of the sync engine, internal/app/qsync.
package questions

import (
	"context"
	"os"
	"path/filepath"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// NewCmdQuestions returns the questions group and its commands.
func NewCmdQuestions(f *cmdutil.Factory) *cobra.Command {
	list := cmdutil.NewCmdList(f, "list", "List your questions", cmdutil.QuestionView, func(c *padapi.Client, _ []string) cmdutil.Lister[padapi.Question] {
		return cmdutil.Paged(c.Questions.List, c.Questions.All).Under("questions")
	}, nil)
	list.Example = `  padctl questions list
  padctl questions list --all --json > questions.json`
	get := cmdutil.NewCmdGet(f, "get ID", "Show one question", cmdutil.QuestionView, func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.Question, error) {
		return c.Questions.Get
	}, nil)
	get.Example = `  padctl questions get 1234
  padctl questions get 1234 --json`
	cmds := []*cobra.Command{list, get, NewCmdWrite(f, false, nil), NewCmdWrite(f, true, nil),
		cmdutil.NewCmdDelete(f, "question", func(c *padapi.Client) func(context.Context, padapi.ID) error { return c.Questions.Delete }, nil)}
	for _, cmd := range cmds {
		switch cmd.Name() {
		case "get", "update", "delete":
			cmd.ValidArgsFunction = cmdutil.CompleteIDs(f, questionChoices)
		}
	}
	group := cmdutil.NewGroupCmd("questions", "List, show, create, change and delete questions; pull, diff and apply a question library", append(cmds, NewCmdPull(f, nil), NewCmdDiff(f, nil), NewCmdApply(f, nil), NewCmdVariants(f))...)
	group.Long = `List, show, create, change and delete questions.

A question library can live in a folder kept in Git, one folder per
question: "questions pull DIR" writes the service's questions into DIR,
"questions diff DIR" shows what differs, and "questions apply DIR" sends
the folder's changes to the service.`
	group.Example = `  padctl questions list
  padctl questions create --title "Two Sum" --language python --contents-file two_sum.py
  padctl questions pull library && git -C library diff
  padctl questions diff library && padctl questions apply library`
	return group
}

// questionChoices are the questions of the first page of questions list,
// for completion.
func questionChoices(ctx context.Context, c *padapi.Client) ([]cmdutil.Choice, error) {
	p, err := c.Questions.List(ctx, nil)
	if err != nil {
		return nil, err
	}
	out := make([]cmdutil.Choice, len(p.Items))
	for i, q := range p.Items {
		out[i] = cmdutil.Choice{ID: q.ID, Title: q.Title}
	}
	return out, nil
}

// flags are the flags of questions create and questions update.
type flags struct {
	title, language, description, contents, contentsFile, solution, aiPrompt, zip string
	files, instructions                                                           []string
}

// add adds the flags questions create and questions update share.
func (o *flags) add(fl *pflag.FlagSet) {
	fl.StringVar(&o.title, "title", "", "the question's title")
	fl.StringVar(&o.language, "language", "", "the question's language (python, ruby, ...)")
	fl.StringVar(&o.description, "description", "", "the description, for interviewers")
	fl.StringVar(&o.contents, "contents", "", "the code a pad starts with")
	fl.StringVar(&o.contentsFile, "contents-file", "", "read the code a pad starts with from `FILE`")
	fl.StringVar(&o.solution, "solution", "", "the solution")
	fl.StringVar(&o.aiPrompt, "ai-prompt", "", "the system prompt of the pad's AI assistant")
	fl.StringArrayVar(&o.files, "file", nil, "add a local file to a multi-file question (repeatable); its path in the question is `PATH` as given, or its base name when PATH is absolute or leaves the directory")
	fl.StringVar(&o.zip, "zip", "", "upload a zip `FILE` of the question's files")
	fl.StringArrayVar(&o.instructions, "instructions", nil, "instructions for the candidate (repeatable: one block each)")
}

// params builds what the flags given say, reading the local files they
// name. Which of contents, files and zip may go together is the library's
// to check.
func (o *flags) params(fl *pflag.FlagSet) (padapi.QuestionUpdateParams, error) {
	p := padapi.QuestionUpdateParams{
		Title:          cmdutil.Given(fl, "title", o.title),
		Language:       cmdutil.Given(fl, "language", o.language),
		Description:    cmdutil.Given(fl, "description", o.description),
		Contents:       cmdutil.Given(fl, "contents", o.contents),
		Solution:       cmdutil.Given(fl, "solution", o.solution),
		AIAssistPrompt: cmdutil.Given(fl, "ai-prompt", o.aiPrompt),
	}
	if fl.Changed("contents-file") {
		b, err := readArg("--contents-file", o.contentsFile)
		if err != nil {
			return p, err
		}
		p.Contents = padapi.Ptr(string(b))
	}
	for _, name := range o.files {
		b, err := readArg("--file", name)
		if err != nil {
			return p, err
		}
		path := filepath.Clean(name)
		if !filepath.IsLocal(path) {
			path = filepath.Base(path)
		}
		p.Files = append(p.Files, padapi.QuestionFile{Path: filepath.ToSlash(path), Contents: string(b)})
	}
	if fl.Changed("zip") {
		b, err := readArg("--zip", o.zip)
		if err != nil {
			return p, err
		}
		p.Zip = b
	}
	for _, text := range o.instructions {
		p.CandidateInstructions = append(p.CandidateInstructions, padapi.CandidateInstruction{Instructions: text})
	}
	return p, nil
}

// readArg reads a local file a flag names; one that cannot be read is a
// usage error.
func readArg(flag, name string) ([]byte, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, cmdutil.UsageErrorf("%s: %v", flag, err)
	}
	return b, nil
}

// WriteOptions are what questions create and questions update run with.
type WriteOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	// Update is set for questions update, and ID is the question to
	// change.
	Update bool
	ID     padapi.ID
	Params padapi.QuestionUpdateParams
}

// NewCmdWrite returns questions create, or with update questions update:
// the same flags, and the same params. runF, when not nil, runs instead
// of writeRun.
func NewCmdWrite(f *cmdutil.Factory, update bool, runF func(*WriteOptions) error) *cobra.Command {
	var fo flags
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a question (--title and --language are required)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if update && !cmdutil.AnyGiven(cmd) {
				return cmdutil.UsageErrorf("nothing to change: give at least one flag")
			}
			params, err := fo.params(cmd.Flags())
			if err != nil {
				return err
			}
			o := &WriteOptions{IO: f.IOStreams, Client: f.Client, Ctx: cmd.Context(), JSON: f.Flags.JSON, Params: params}
			if update {
				o.Update, o.ID = true, padapi.ID(args[0])
			}
			if runF != nil {
				return runF(o)
			}
			return writeRun(o)
		},
	}
	cmd.Example = `  padctl questions create --title "Two Sum" --language python --contents-file two_sum.py
  padctl questions create --title "Two Sum" --language python \
    --file two_sum.py --file test_two_sum.py --instructions "Any language is fine."`
	if update {
		cmd.Use, cmd.Short, cmd.Args = "update ID", "Change a question; only the flags given are sent", cobra.ExactArgs(1)
		cmd.Example = `  padctl questions update 1234 --title "Two Sum (easy)"
  padctl questions update 1234 --contents-file two_sum.py`
	}
	fo.add(cmd.Flags())
	cmd.MarkFlagsMutuallyExclusive("contents", "contents-file")
	_ = cmd.MarkFlagFilename("contents-file")
	_ = cmd.MarkFlagFilename("file")
	_ = cmd.MarkFlagFilename("zip", "zip")
	return cmd
}

// writeRun creates the question, or with o.Update changes it.
func writeRun(o *WriteOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	var q *padapi.Question
	if o.Update {
		q, err = c.Questions.Update(o.Ctx, o.ID, &o.Params)
	} else {
		create := padapi.QuestionCreateParams(o.Params)
		q, err = c.Questions.Create(o.Ctx, &create)
	}
	if err != nil {
		return err
	}
	if o.JSON {
		// The question as the service now sends it: live answers to a
		// PUT are the status alone.
		return cmdutil.PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := c.Questions.Get(ctx, q.ID); return err })
	}
	return cmdutil.PrintOne(o.IO, false, cmdutil.QuestionView, q)
}
