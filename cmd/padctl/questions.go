// questions.go: padctl questions: get, list, create and update questions.

package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// questionView prints questions.
var questionView = view[padapi.Question]{
	noun: "questions",
	cols: []column[padapi.Question]{
		{"ID", func(q *padapi.Question) any { return q.ID }},
		{"Title", func(q *padapi.Question) any { return q.Title }},
		{"Language", func(q *padapi.Question) any { return q.Language }},
		{"Author", func(q *padapi.Question) any { return q.AuthorName }},
		{"Used", func(q *padapi.Question) any { return q.Used }},
		{"Updated", func(q *padapi.Question) any { return q.UpdatedAt }},
	},
	detail: []column[padapi.Question]{
		{"Owner", func(q *padapi.Question) any { return q.OwnerEmail }},
		{"Shared", func(q *padapi.Question) any { return q.Shared }},
		{"Draft", func(q *padapi.Question) any { return q.IsDraft }},
		{"Created", func(q *padapi.Question) any { return q.CreatedAt }},
	},
	blocks: func(q *padapi.Question) []block {
		b := []block{{"Description", q.Description}}
		for _, in := range q.CandidateInstructions {
			b = append(b, block{"Instructions", in.Instructions})
		}
		return append(b, block{"Contents", q.Contents}, block{"Solution", q.Solution}, block{"AI assist prompt", q.AIAssistPrompt})
	},
}

// newQuestionsCmd returns the questions group and its commands.
func newQuestionsCmd(f *factory) *cobra.Command {
	return newGroupCmd("questions", "List, show, create, change and delete questions",
		newListCmd(f, "list", "List your questions", questionView, func(c *padapi.Client, _ []string) lister[padapi.Question] {
			return paged(c.Questions.List, c.Questions.All).at("/api/questions", "questions")
		}),
		newGetCmd(f, "get ID", "Show one question", questionView, func(c *padapi.Client) func(context.Context, padapi.ID) (*padapi.Question, error) {
			return c.Questions.Get
		}, questionPath),
		newQuestionWriteCmd(f, false),
		newQuestionWriteCmd(f, true),
		newDeleteCmd(f, "question", func(c *padapi.Client) func(context.Context, padapi.ID) error { return c.Questions.Delete }),
		// A question library kept in a folder: questions_sync.go.
		newQuestionsPullCmd(f), newQuestionsDiffCmd(f), newQuestionsApplyCmd(f),
	)
}

// questionPath is the API path of a question.
func questionPath(id padapi.ID) string { return "/api/questions/" + url.PathEscape(string(id)) }

// questionOptions are the flags of questions create and questions update.
type questionOptions struct {
	title, language, description, contents, contentsFile, solution, aiPrompt, zip string
	files, instructions                                                           []string
}

// addFlags adds the flags questions create and questions update share.
func (o *questionOptions) addFlags(fl *pflag.FlagSet) {
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
func (o *questionOptions) params(fl *pflag.FlagSet) (padapi.QuestionUpdateParams, error) {
	p := padapi.QuestionUpdateParams{
		Title:          given(fl, "title", o.title),
		Language:       given(fl, "language", o.language),
		Description:    given(fl, "description", o.description),
		Contents:       given(fl, "contents", o.contents),
		Solution:       given(fl, "solution", o.solution),
		AIAssistPrompt: given(fl, "ai-prompt", o.aiPrompt),
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
		return nil, usageErrorf("%s: %v", flag, err)
	}
	return b, nil
}

// newQuestionWriteCmd returns questions create, or with update questions
// update: the same flags, and the same params.
func newQuestionWriteCmd(f *factory, update bool) *cobra.Command {
	var o questionOptions
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create a question (--title and --language are required)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if update && !anyGiven(cmd) {
				return usageErrorf("nothing to change: give at least one flag")
			}
			params, err := o.params(cmd.Flags())
			if err != nil {
				return err
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			var q *padapi.Question
			if update {
				q, err = c.Questions.Update(cmd.Context(), padapi.ID(args[0]), &params)
			} else {
				create := padapi.QuestionCreateParams(params)
				q, err = c.Questions.Create(cmd.Context(), &create)
			}
			if err != nil {
				return err
			}
			if f.flags.json {
				// The question as the service now sends it: live answers
				// to a PUT are the status alone.
				return getRaw(cmd.Context(), f, c, questionPath(q.ID), nil)
			}
			return printOne(f, questionView, q)
		},
	}
	if update {
		cmd.Use, cmd.Short, cmd.Args = "update ID", "Change a question; only the flags given are sent", cobra.ExactArgs(1)
	}
	o.addFlags(cmd.Flags())
	cmd.MarkFlagsMutuallyExclusive("contents", "contents-file")
	_ = cmd.MarkFlagFilename("contents-file")
	_ = cmd.MarkFlagFilename("file")
	_ = cmd.MarkFlagFilename("zip", "zip")
	return cmd
}
