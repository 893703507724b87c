package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/padinterview/padapi"
)

// command is one padctl command. name is one or two words ("quota",
// "pads list").
type command struct {
	name string
	args string // the usage after the name
	help string
	run  func(a *app, cmd *command, args []string) error
}

// usage is the command's usage line, such as "padctl pads get ID".
func (c *command) usage() string {
	return strings.TrimSpace("padctl " + c.name + " " + c.args)
}

// commands is every command, in the order help lists them.
var commands []*command

func init() {
	// Assigned in init because the help command refers to the list.
	commands = []*command{
		{"quota", "", "show the monthly pad quota", runQuota},
		{"pads list", listArgs, "list your pads", func(a *app, cmd *command, args []string) error {
			return runList(a, cmd, args, "pads", padTable, func(c *padapi.Client) lister[padapi.Pad] {
				return lister[padapi.Pad]{c.Pads.List, c.Pads.All}
			})
		}},
		{"pads get", "ID", "show one pad", func(a *app, cmd *command, args []string) error {
			return runGet(a, cmd, args, printPad, func(c *padapi.Client) func(context.Context, string) (*padapi.Pad, error) { return c.Pads.Get })
		}},
		{"pads create", "[--title T] [--language L] [--contents C | --question ID] [--private] [--execution] [--owner EMAIL]", "create a pad (counts against the quota)", runPadsCreate},
		{"pads update", "ID [--title T] [--language L] [--contents C] [--notes N] [--private] [--execution] [--end]", "change a pad; only the flags given are sent", runPadsUpdate},
		{"questions list", listArgs, "list your questions", func(a *app, cmd *command, args []string) error {
			return runList(a, cmd, args, "questions", questionTable, func(c *padapi.Client) lister[padapi.Question] {
				return lister[padapi.Question]{c.Questions.List, c.Questions.All}
			})
		}},
		{"questions get", "ID", "show one question", func(a *app, cmd *command, args []string) error {
			return runGet(a, cmd, args, printQuestion, func(c *padapi.Client) func(context.Context, string) (*padapi.Question, error) { return c.Questions.Get })
		}},
		{"questions create", questionArgs, "create a question", runQuestionsCreate},
		{"questions update", "ID " + questionArgs, "change a question; only the flags given are sent", runQuestionsUpdate},
		{"questions delete", "ID", "delete a question", runQuestionsDelete},
		{"org", "", "show your organization and its users", runOrg},
		{"org stats", "[--start RFC3339 --end RFC3339]", "count pads created per user (default: the last 7 days)", runOrgStats},
		{"org pads", listArgs, "list every pad of the organization", func(a *app, cmd *command, args []string) error {
			return runList(a, cmd, args, "pads", padTable, func(c *padapi.Client) lister[padapi.Pad] {
				return lister[padapi.Pad]{c.Organization.Pads, c.Organization.AllPads}
			})
		}},
		{"org questions", listArgs, "list every question of the organization", func(a *app, cmd *command, args []string) error {
			return runList(a, cmd, args, "questions", questionTable, func(c *padapi.Client) lister[padapi.Question] {
				return lister[padapi.Question]{c.Organization.Questions, c.Organization.AllQuestions}
			})
		}},
		{"help", "[COMMAND]", "list the commands, or show one command's usage", runHelp},
		{"version", "", "print the version", func(a *app, cmd *command, args []string) error {
			if _, err := parseFlags(a, cmd, nil, args, 0); err != nil {
				return err
			}
			// padctl ships with the library, so it carries the library's version.
			fmt.Fprintf(a.stdout, "padctl %s %s\n", padapi.Version, runtime.Version())
			return nil
		}},
	}
}

const (
	listArgs     = "[--sort created|updated[,asc|,desc]] [--page N] [--all] [--limit N]"
	questionArgs = "[--title T] [--language L] [--description D] [--contents C] [--solution S] [--shared]"
)

// findCommand picks the command named by the first one or two words of args
// and returns it with the arguments that follow its name. A group's -h
// ("pads -h") picks a command that lists the group.
func findCommand(args []string) (*command, []string, error) {
	subs := subcommands(args[0])
	if len(subs) > 0 && len(args) >= 2 && isHelpFlag(args[1]) {
		return &command{name: args[0], run: runGroupHelp}, nil, nil
	}
	if len(args) >= 2 {
		if cmd := lookup(args[0] + " " + args[1]); cmd != nil {
			return cmd, args[2:], nil
		}
	}
	if cmd := lookup(args[0]); cmd != nil {
		return cmd, args[1:], nil
	}
	if len(subs) > 0 {
		names := make([]string, len(subs))
		for i, c := range subs {
			names[i] = strings.TrimPrefix(c.name, args[0]+" ")
		}
		if len(args) == 1 {
			return nil, nil, usagef(nil, "%s needs a subcommand: %s", args[0], strings.Join(names, ", "))
		}
		return nil, nil, usagef(nil, "unknown command %q; %s has: %s", args[0]+" "+args[1], args[0], strings.Join(names, ", "))
	}
	return nil, nil, usagef(nil, "unknown command %q", args[0])
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// subcommands returns the commands of the group named by a first word, such
// as pads list and pads get for "pads"; none for a word that is no group.
func subcommands(group string) []*command {
	var subs []*command
	for _, c := range commands {
		if strings.HasPrefix(c.name, group+" ") {
			subs = append(subs, c)
		}
	}
	return subs
}

// isHelpFlag reports whether arg is one of the spellings of -h that the
// flag package accepts.
func isHelpFlag(arg string) bool {
	switch arg {
	case "-h", "--h", "-help", "--help":
		return true
	}
	return false
}

// runHelp lists the commands. "help pads get" is "pads get -h" and "help
// pads" is "pads -h": the same text from the same code.
func runHelp(a *app, cmd *command, args []string) error {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		target, rest, err := findCommand(append(slices.Clip(args), "-h"))
		if err != nil {
			return err
		}
		return target.run(a, target, rest)
	}
	if _, err := parseFlags(a, cmd, nil, args, 0); err != nil {
		return err
	}
	printHelp(a.stdout)
	return nil
}

// runGroupHelp lists the commands of the group cmd.name, with the command of
// that name when there is one ("org").
func runGroupHelp(a *app, cmd *command, _ []string) error {
	cmds := subcommands(cmd.name)
	if c := lookup(cmd.name); c != nil {
		cmds = append([]*command{c}, cmds...)
	}
	fmt.Fprintln(a.stdout, "Commands:")
	listCommands(a.stdout, cmds)
	fmt.Fprint(a.stdout, `
"padctl <command> -h" shows a command's flags; "padctl help" lists every command.
`)
	return nil
}

// listCommands writes one aligned line per command: its name and help.
func listCommands(w io.Writer, cmds []*command) {
	tw := newTable(w)
	for _, c := range cmds {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.help)
	}
	tw.Flush()
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `padctl: a command-line client for the Pad Interview Service.

Usage: padctl [global flags] <command> [flags] [args]

Commands:
`)
	listCommands(w, commands)
	fmt.Fprint(w, `
Global flags (before the command, as in "padctl --json pads list"):
  --base-url URL   the service (default $PAD_BASE_URL, else `+defaultBaseURL+`)
  --api-key KEY    the API key (default $PAD_API_KEY; prefer the variable: flags show in ps)
  --fake           run against an in-process fake service with sample data (nothing is kept)
  --json           print JSON in the service's wire shape; lists print an array of items

Exit codes: 0 success, 1 API error, 2 usage error, 3 over quota,
4 outcome unknown (a create may have happened: list before retrying), 130 interrupted.

"padctl <command> -h" or "padctl help <command>" shows a command's flags.
`)
}

// parseFlags parses a command's flags, which may come before, between or
// after its positional arguments ("pads update ID --title x"), and checks
// that exactly nargs positional arguments, all IDs, were given.
func parseFlags(a *app, cmd *command, fs *flag.FlagSet, args []string, nargs int) ([]string, error) {
	if fs == nil {
		fs = newFlags(cmd)
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(a.stdout, "usage: %s\n%s.\n", cmd.usage(), cmd.help)
				fs.SetOutput(a.stdout)
				fs.PrintDefaults()
				return nil, errHelp
			}
			return nil, a.flagError(cmd, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	switch {
	case len(pos) < nargs:
		return nil, usagef(cmd, "%s needs an ID", cmd.name)
	case len(pos) > nargs:
		return nil, usagef(cmd, "unexpected argument %q", pos[nargs])
	case slices.Contains(pos, ""):
		// The library refuses it too, but as a failed call: the mistake is
		// the command line's.
		return nil, usagef(cmd, "%s needs an ID, not an empty one", cmd.name)
	}
	return pos, nil
}

// flagError is the usage error for a flag the command does not define. A
// global flag given after the command says where it goes.
func (a *app) flagError(cmd *command, err error) error {
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		if g := a.globals.Lookup(name); g != nil {
			value, _ := flag.UnquoteUsage(g) // "URL" for --base-url, "" for --json
			example := strings.TrimSpace("--" + name + " " + value)
			return usagef(cmd, "--%s is a global flag: put it before the command (padctl %s %s ...)", name, example, cmd.name)
		}
	}
	return usagef(cmd, "%v", err)
}

func newFlags(cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	// Errors are reported by run, with the command's usage line.
	fs.SetOutput(io.Discard)
	return fs
}

// given returns the names of the flags set on the command line, so that
// create and update send only what the user asked for.
func given(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// call connects, makes one API call and prints its result: the three beats
// of every command but the lists.
func call[T any](a *app, do func(*padapi.Client) (T, error), table func(io.Writer, T)) error {
	c, err := a.connect()
	if err != nil {
		return err
	}
	v, err := do(c)
	if err != nil {
		return err
	}
	return a.print(v, func(w io.Writer) { table(w, v) })
}

func runQuota(a *app, cmd *command, args []string) error {
	if _, err := parseFlags(a, cmd, nil, args, 0); err != nil {
		return err
	}
	return call(a, func(c *padapi.Client) (*padapi.Quota, error) { return c.Quota.Get(a.ctx) },
		func(w io.Writer, q *padapi.Quota) { printQuota(w, q, time.Now()) })
}

// lister is one of the four lists: a page at a time, or all of it.
type lister[T any] struct {
	page func(context.Context, *padapi.ListOptions) (*padapi.Page[T], error)
	all  func(context.Context, *padapi.ListOptions) iter.Seq2[*T, error]
}

// runList lists one page (--page, default the first), or with --all or
// --limit follows the pages. --json prints a JSON array of the items in
// every case, so a script's parsing does not depend on the flags; the note
// that a page is not all goes under the table, or with --json to stderr.
func runList[T any](a *app, cmd *command, args []string, noun string, table func(io.Writer, []T), pick func(*padapi.Client) lister[T]) error {
	fs := newFlags(cmd)
	var order sortFlag
	fs.Var(&order, "sort", "order: created or updated, then ,desc (the default) or ,asc")
	pageNo := fs.Int("page", 0, "the page to show (50 items each; default the first)")
	allPages := fs.Bool("all", false, "follow every page")
	limit := fs.Int("limit", 0, "stop after `N` items, following pages as needed")
	if _, err := parseFlags(a, cmd, fs, args, 0); err != nil {
		return err
	}
	if *pageNo < 0 || *limit < 0 {
		return usagef(cmd, "--page and --limit must not be negative")
	}
	c, err := a.connect()
	if err != nil {
		return err
	}
	l := pick(c)
	opts := &padapi.ListOptions{Sort: order.sort, Page: *pageNo}

	if !*allPages && *limit == 0 {
		p, err := l.page(a.ctx, opts)
		if err != nil {
			return err
		}
		if err := a.print(p.Items, func(w io.Writer) { table(w, p.Items) }); err != nil {
			return err
		}
		note := a.stdout
		if a.json {
			note = a.stderr
		}
		if p.NextPage != "" {
			fmt.Fprintf(note, "showing %d of %d %s; --all, --limit N or --page N for more\n", len(p.Items), p.Total, noun)
		}
		return nil
	}

	items := []T{}
	prog := newProgress(a.stderr, noun)
	defer prog.done()
	for item, err := range l.all(a.ctx, opts) {
		if err != nil {
			return err
		}
		items = append(items, *item)
		prog.update(len(items))
		if *limit > 0 && len(items) >= *limit {
			break
		}
	}
	// Blank the progress line before the table goes to the same terminal.
	prog.done()
	return a.print(items, func(w io.Writer) { table(w, items) })
}

// runGet shows one resource by ID.
func runGet[T any](a *app, cmd *command, args []string, show func(io.Writer, *T), pick func(*padapi.Client) func(context.Context, string) (*T, error)) error {
	pos, err := parseFlags(a, cmd, nil, args, 1)
	if err != nil {
		return err
	}
	return call(a, func(c *padapi.Client) (*T, error) { return pick(c)(a.ctx, pos[0]) }, show)
}

// padFlags are the flags pads create and pads update share.
type padFlags struct {
	title, language, contents, owner, question, notes string
	private, execution, end                           bool
}

func (f *padFlags) register(fs *flag.FlagSet, update bool) {
	fs.StringVar(&f.title, "title", "", "the pad's title")
	fs.StringVar(&f.language, "language", "", "the pad's language (ruby, python3, ...)")
	fs.StringVar(&f.contents, "contents", "", "the editor's contents")
	fs.BoolVar(&f.private, "private", false, "make the pad private (--private=false to unset)")
	fs.BoolVar(&f.execution, "execution", false, "allow running code (--execution=false to forbid)")
	if update {
		fs.StringVar(&f.notes, "notes", "", "the interviewer's notes")
		fs.BoolVar(&f.end, "end", false, "end the pad")
	} else {
		fs.StringVar(&f.question, "question", "", "start from the question with this `ID` (not with --contents)")
		fs.StringVar(&f.owner, "owner", "", "make this user of the organization the owner (`EMAIL`)")
	}
}

// ptrIf returns &v when the flag was given, so unset flags are not sent.
func ptrIf[T any](set map[string]bool, name string, v T) *T {
	if !set[name] {
		return nil
	}
	return &v
}

func runPadsCreate(a *app, cmd *command, args []string) error {
	fs := newFlags(cmd)
	var f padFlags
	f.register(fs, false)
	if _, err := parseFlags(a, cmd, fs, args, 0); err != nil {
		return err
	}
	set := given(fs)
	if set["contents"] && set["question"] {
		return usagef(cmd, "--contents and --question cannot be combined: a pad started from a question takes its contents")
	}
	// Nothing is checked first (not even the quota): the service's answer
	// to the create is the only reliable one.
	params := &padapi.PadCreateParams{
		Title:            ptrIf(set, "title", f.title),
		Language:         ptrIf(set, "language", f.language),
		Contents:         ptrIf(set, "contents", f.contents),
		QuestionID:       ptrIf(set, "question", f.question),
		Private:          ptrIf(set, "private", f.private),
		ExecutionEnabled: ptrIf(set, "execution", f.execution),
		UserEmail:        ptrIf(set, "owner", f.owner),
	}
	return call(a, func(c *padapi.Client) (*padapi.Pad, error) { return c.Pads.Create(a.ctx, params) }, printPad)
}

func runPadsUpdate(a *app, cmd *command, args []string) error {
	fs := newFlags(cmd)
	var f padFlags
	f.register(fs, true)
	pos, err := parseFlags(a, cmd, fs, args, 1)
	if err != nil {
		return err
	}
	set := given(fs)
	if len(set) == 0 {
		return usagef(cmd, "nothing to change: give at least one flag")
	}
	params := &padapi.PadUpdateParams{
		Title:            ptrIf(set, "title", f.title),
		Language:         ptrIf(set, "language", f.language),
		Contents:         ptrIf(set, "contents", f.contents),
		Notes:            ptrIf(set, "notes", f.notes),
		Private:          ptrIf(set, "private", f.private),
		ExecutionEnabled: ptrIf(set, "execution", f.execution),
		Ended:            ptrIf(set, "end", f.end),
	}
	return call(a, func(c *padapi.Client) (*padapi.Pad, error) { return c.Pads.Update(a.ctx, pos[0], params) }, printPad)
}

// questionParams parses the flags questions create and questions update
// share, returning the positional arguments and the fields given.
func questionParams(a *app, cmd *command, args []string, nargs int) ([]string, *padapi.QuestionCreateParams, error) {
	fs := newFlags(cmd)
	var title, language, description, contents, solution string
	var shared bool
	fs.StringVar(&title, "title", "", "the question's title")
	fs.StringVar(&language, "language", "", "the question's language")
	fs.StringVar(&description, "description", "", "the description for interviewers")
	fs.StringVar(&contents, "contents", "", "the code a pad starts with")
	fs.StringVar(&solution, "solution", "", "the solution")
	fs.BoolVar(&shared, "shared", false, "share with the organization (--shared=false to unshare)")
	pos, err := parseFlags(a, cmd, fs, args, nargs)
	if err != nil {
		return nil, nil, err
	}
	set := given(fs)
	return pos, &padapi.QuestionCreateParams{
		Title:       ptrIf(set, "title", title),
		Language:    ptrIf(set, "language", language),
		Description: ptrIf(set, "description", description),
		Contents:    ptrIf(set, "contents", contents),
		Solution:    ptrIf(set, "solution", solution),
		Shared:      ptrIf(set, "shared", shared),
	}, nil
}

func runQuestionsCreate(a *app, cmd *command, args []string) error {
	_, params, err := questionParams(a, cmd, args, 0)
	if err != nil {
		return err
	}
	return call(a, func(c *padapi.Client) (*padapi.Question, error) { return c.Questions.Create(a.ctx, params) }, printQuestion)
}

func runQuestionsUpdate(a *app, cmd *command, args []string) error {
	pos, params, err := questionParams(a, cmd, args, 1)
	if err != nil {
		return err
	}
	if *params == (padapi.QuestionUpdateParams{}) {
		return usagef(cmd, "nothing to change: give at least one flag")
	}
	return call(a, func(c *padapi.Client) (*padapi.Question, error) { return c.Questions.Update(a.ctx, pos[0], params) }, printQuestion)
}

func runQuestionsDelete(a *app, cmd *command, args []string) error {
	pos, err := parseFlags(a, cmd, nil, args, 1)
	if err != nil {
		return err
	}
	// The service's answer to a delete is {"status":"OK"}; --json prints that.
	return call(a, func(c *padapi.Client) (map[string]string, error) {
		return map[string]string{"status": "OK"}, c.Questions.Delete(a.ctx, pos[0])
	}, func(w io.Writer, _ map[string]string) { fmt.Fprintf(w, "deleted question %s\n", pos[0]) })
}

func runOrg(a *app, cmd *command, args []string) error {
	if _, err := parseFlags(a, cmd, nil, args, 0); err != nil {
		return err
	}
	return call(a, func(c *padapi.Client) (*padapi.Organization, error) { return c.Organization.Get(a.ctx) }, printOrganization)
}

func runOrgStats(a *app, cmd *command, args []string) error {
	fs := newFlags(cmd)
	var start, end timeFlag
	fs.Var(&start, "start", "start of the window (RFC 3339, with --end)")
	fs.Var(&end, "end", "end of the window (RFC 3339, with --start)")
	if _, err := parseFlags(a, cmd, fs, args, 0); err != nil {
		return err
	}
	if start.IsZero() != end.IsZero() {
		return usagef(cmd, "give both --start and --end, or neither")
	}
	if end.Before(start.Time) {
		return usagef(cmd, "--end is before --start")
	}
	opts := &padapi.StatsOptions{Start: start.Time, End: end.Time}
	return call(a, func(c *padapi.Client) (*padapi.OrganizationStats, error) { return c.Organization.Stats(a.ctx, opts) }, printStats)
}

// sortFlag is --sort: created or updated, optionally followed by ,asc or
// ,desc. The service's own spellings (created_at,asc) are accepted too.
type sortFlag struct{ sort padapi.Sort }

func (s *sortFlag) String() string { return string(s.sort) }

func (s *sortFlag) Set(v string) error {
	field, dir, _ := strings.Cut(v, ",")
	key := strings.TrimSuffix(field, "_at")
	if dir != "" {
		key += "," + dir
	}
	order, ok := sorts[key]
	if !ok {
		return errors.New("want created or updated, optionally followed by ,asc or ,desc")
	}
	s.sort = order
	return nil
}

// sorts maps --sort values to the library's orders. Without a direction the
// order is the service's default, newest first.
var sorts = map[string]padapi.Sort{
	"created":      padapi.SortCreatedDesc,
	"created,desc": padapi.SortCreatedDesc,
	"created,asc":  padapi.SortCreatedAsc,
	"updated":      padapi.SortUpdatedDesc,
	"updated,desc": padapi.SortUpdatedDesc,
	"updated,asc":  padapi.SortUpdatedAsc,
}

// timeFlag is a time given in RFC 3339.
type timeFlag struct{ time.Time }

func (t *timeFlag) String() string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func (t *timeFlag) Set(v string) error {
	p, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return errors.New("want an RFC 3339 time such as 2026-05-01T00:00:00Z")
	}
	t.Time = p
	return nil
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
}
