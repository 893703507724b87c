// questions_sync.go: padctl questions pull, diff and apply.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/qsync"
	"github.com/padinterview/padapi/internal/qsync/qfolder"
	"github.com/padinterview/padapi/internal/redact"
	"github.com/spf13/cobra"
)

// defaultSettle is how long the service's lists may lag behind a create:
// a create with no answer is looked for that long before it is made again.
const defaultSettle = time.Minute

// syncOptions are the flags of questions pull, diff and apply.
type syncOptions struct {
	ids                  []string
	force, prune, dryRun bool
	settle               time.Duration
}

// newQuestionsPullCmd returns questions pull.
func newQuestionsPullCmd(f *cmdutil.Factory) *cobra.Command {
	var o syncOptions
	cmd := &cobra.Command{
		Use:   "pull DIR",
		Short: "Write the service's questions into DIR, one folder each",
		Long: `Write every question the key can see (or those --id names) into DIR, one
folder per question: question.json for the short fields, description.md,
starter.EXT and solution.EXT, and files/ for a multi-file question.

A file changed here since the last pull or apply is never overwritten
without --force: pull names it and leaves that question's folder alone.
The API key is never written into a file: where the service's text holds
it, pull writes it redacted and names the file on stderr.

Pull holds DIR's lock while it runs, as apply does. --dry-run prints what
pull would write and writes nothing.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := newQuestionSyncer(f, args[0], o)
			if err != nil {
				return err
			}
			if o.dryRun {
				return s.pullDryRun(cmd.Context())
			}
			return s.pull(cmd.Context())
		},
	}
	cmd.Flags().StringArrayVar(&o.ids, "id", nil, "pull only the question `ID` (repeatable)")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite files changed here")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "change nothing: show what pull would write")
	return cmd
}

// newQuestionsDiffCmd returns questions diff.
func newQuestionsDiffCmd(f *cmdutil.Factory) *cobra.Command {
	var o syncOptions
	cmd := &cobra.Command{
		Use:   "diff DIR",
		Short: "Show what apply would change to make the service match DIR",
		Long: `Read the whole folder DIR, fetch the service's questions, and print the
plan: each question to create, each field to change (a unified diff for
long text), each question to delete with --prune, and how many are the same.

Exit status: 0 when nothing would change, 1 when something would (or on an
API error), 2 when DIR is not a valid question folder.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := newQuestionSyncer(f, args[0], o)
			if err != nil {
				return err
			}
			return s.diff(cmd.Context())
		},
	}
	o.addSettle(cmd, f)
	cmd.Flags().BoolVar(&o.prune, "prune", false, "plan deleting questions this folder recorded and no longer holds")
	return cmd
}

// newQuestionsApplyCmd returns questions apply.
func newQuestionsApplyCmd(f *cmdutil.Factory) *cobra.Command {
	var o syncOptions
	cmd := &cobra.Command{
		Use:   "apply DIR",
		Short: "Make the service's questions match DIR",
		Long: `Do what 'padctl questions diff DIR' shows, and print what was done.

A folder without an id is created, and its new id is written into its
question.json before anything else happens. A folder whose id the service
does not have is an error, never a silent re-create. Only --prune deletes,
and only questions a pull or apply into DIR recorded.

Before each create, apply records a pending create in the folder. When a
create gets no answer (exit 4), run apply again: it adopts the question if
the service made it, and otherwise creates it once --settle has passed
since the first try (the service's lists lag behind creates).

Apply holds a lock on DIR for the whole run (it ends with the process): a
second apply or pull on the same DIR waits for it, within --timeout, and
exits 6 if the lock is still held then.

--timeout bounds the whole apply, plus the --settle wait when there is one.`,
		Args: cobra.ExactArgs(1),
		// The deadline is set below: --timeout, plus --settle, which a
		// re-run may spend waiting for a create the list does not show yet.
		Annotations: map[string]string{cmdutil.NoDeadline: "timeout plus settle"},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if f.Timeout > 0 {
				limit := f.Timeout + o.settle
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeoutCause(ctx, limit, &cmdutil.TimeoutError{D: limit})
				defer cancel()
			}
			s, err := newQuestionSyncer(f, args[0], o)
			if err != nil {
				return err
			}
			if o.dryRun {
				return s.diff(ctx)
			}
			return s.apply(ctx)
		},
	}
	o.addSettle(cmd, f)
	cmd.Flags().BoolVar(&o.prune, "prune", false, "delete questions this folder recorded and no longer holds")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "change nothing: show the plan, as diff does")
	return cmd
}

// addSettle adds --settle, whose default comes from PAD_SETTLE.
func (o *syncOptions) addSettle(cmd *cobra.Command, f *cmdutil.Factory) {
	cmd.Flags().DurationVar(&o.settle, "settle", defaultSettle, "how long the service's lists lag behind a create ($PAD_SETTLE sets the default; 0s against a fake)")
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		env := f.Getenv("PAD_SETTLE")
		if env != "" && !cmd.Flags().Changed("settle") {
			d, err := time.ParseDuration(env)
			if err != nil {
				return cmdutil.UsageErrorf("PAD_SETTLE=%q: want a Go duration such as 1m or 0s", env)
			}
			o.settle = d
		}
		if o.settle < 0 {
			return cmdutil.UsageErrorf("the settle time %s is negative", o.settle)
		}
		return nil
	}
}

// questionSyncer renders the question sync engine's plans and events as
// pull, diff and apply: the engine (internal/qsync) prints nothing.
type questionSyncer struct {
	c        *padapi.Client
	dir      string
	out, err io.Writer
	o        syncOptions
	// redact takes the API key out of what pull writes into files.
	redact func(string) string
}

// newQuestionSyncer returns a syncer for dir with f's client and streams.
func newQuestionSyncer(f *cmdutil.Factory, dir string, o syncOptions) (*questionSyncer, error) {
	c, err := f.Client()
	if err != nil {
		return nil, err
	}
	return &questionSyncer{c: c, dir: dir, out: f.IOStreams.Out, err: f.IOStreams.ErrOut, o: o, redact: redact.New(f.Keys()...).String}, nil
}

// engine returns the sync engine for the folder, with the flags' options.
func (s *questionSyncer) engine() *qsync.Syncer {
	return qsync.New(s.c, s.dir, qsync.Options{Settle: s.o.settle, Prune: s.o.prune, Force: s.o.force, IDs: s.o.ids, Redact: s.redact})
}

// plan returns the engine's plan; a folder that cannot be synced is a
// usage error (exit 2), found before anything is sent.
func plan(ctx context.Context, e *qsync.Syncer, mode qsync.Mode) (*qsync.Plan, error) {
	p, err := e.Plan(ctx, mode)
	var bad *qsync.BadFolderError
	if errors.As(err, &bad) {
		return nil, &cmdutil.UsageError{Err: err}
	}
	return p, err
}

// lock takes the folder's lock for a run that changes it, saying on stderr
// when it waits for another run's: the wait ends with that run or with
// the command's deadline.
func (s *questionSyncer) lock(ctx context.Context, e *qsync.Syncer) error {
	err := e.Lock(ctx, false)
	if !errors.Is(err, qsync.ErrLocked) {
		return err
	}
	fmt.Fprintf(s.err, "Waiting for another padctl questions apply or pull on %s to end...\n", s.dir)
	return e.Lock(ctx, true)
}

// errDiffers is diff's answer when something would change: exit 1.
var errDiffers = errors.New("the service differs from the folder: 'padctl questions apply' makes the changes shown")

// diff prints the plan, and returns errDiffers when it changes anything.
func (s *questionSyncer) diff(ctx context.Context) error {
	p, err := plan(ctx, s.engine(), qsync.Push)
	if err != nil {
		return err
	}
	s.printPlan(p)
	if p.Changes() {
		return errDiffers
	}
	return nil
}

// apply makes the service match the folder, holding the folder's lock,
// and prints what it did.
func (s *questionSyncer) apply(ctx context.Context) error {
	e := s.engine()
	if err := s.lock(ctx, e); err != nil {
		return err
	}
	defer e.Unlock()
	p, err := plan(ctx, e, qsync.Push)
	if err != nil {
		return err
	}
	n := map[qsync.Kind]int{}
	err = e.Apply(ctx, p, func(ev qsync.Event) {
		if ev.Kind == qsync.Waiting {
			fmt.Fprintf(s.err, "Waiting %s for the service's list to show creates that had no answer (--settle %s)...\n", ev.Wait.Round(time.Second), s.o.settle)
			return
		}
		n[ev.Action]++
		s.printDone(ev)
	})
	var pe *qsync.PendingError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w (--settle %s)", err, s.o.settle)
	}
	var bad *qsync.BadFolderError
	if errors.As(err, &bad) {
		return &cmdutil.UsageError{Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprint(s.out, "Applied: ")
	if n[qsync.Adopt] > 0 {
		fmt.Fprintf(s.out, "%d adopted, ", n[qsync.Adopt])
	}
	fmt.Fprintf(s.out, "%d created, %d updated, %d deleted, %d unchanged.\n", n[qsync.Create], n[qsync.Update], n[qsync.Delete], n[qsync.Same])
	return nil
}

// printDone prints one step apply carried out.
func (s *questionSyncer) printDone(ev qsync.Event) {
	st := ev.Step
	switch ev.Action {
	case qsync.Adopt:
		fmt.Fprintf(s.out, "adopted %s/ #%s (created by an earlier apply that had no answer)\n", st.Folder, st.ID)
	case qsync.Create:
		fmt.Fprintf(s.out, "created %s/ #%s %q\n", st.Folder, ev.ID, st.Title)
	case qsync.Update:
		var fields []string
		for _, c := range st.Changes {
			fields = append(fields, c.Field)
		}
		fmt.Fprintf(s.out, "updated %s/ #%s: %s\n", st.Folder, st.ID, strings.Join(fields, ", "))
	case qsync.Delete:
		fmt.Fprintf(s.out, "deleted #%s %q\n", st.ID, st.Title)
	case qsync.Skip:
		if st.Reason == qsync.ReasonNotPruned {
			s.notePrune(st)
		}
	}
}

// notePrune says on stderr that only --prune deletes a recorded question.
func (s *questionSyncer) notePrune(st *qsync.Step) {
	fmt.Fprintf(s.err, "note: #%s %q was recorded in this folder and no folder holds it now: --prune deletes it\n", st.ID, st.Title)
}

// printPlan writes the plan: one line per step, each changed field under
// it (a unified diff for long text), and a summary line.
func (s *questionSyncer) printPlan(p *qsync.Plan) {
	w := s.out
	create, update := 0, 0
	for i := range p.Steps {
		st := &p.Steps[i]
		switch st.Kind {
		case qsync.Create:
			create++
			s.printCreate(st)
		case qsync.Adopt:
			fmt.Fprintf(w, "adopt   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", st.Folder, st.ID, qfolder.QuestionFile)
		case qsync.Update:
			update++
			fmt.Fprintf(w, "update  %s/  #%s %q\n", st.Folder, st.ID, st.Title)
		case qsync.Delete:
			fmt.Fprintf(w, "delete  #%s %q (recorded in this folder, held by no question folder now; --prune)\n", st.ID, st.Title)
		}
		if st.Kind == qsync.Adopt || st.Kind == qsync.Update {
			for _, c := range st.Changes {
				s.printChange(st, c)
			}
		}
		if st.Kind == qsync.Adopt && len(st.Changes) > 0 {
			update++
		}
	}
	for i := range p.Steps {
		if p.Steps[i].Reason == qsync.ReasonNotPruned {
			s.notePrune(&p.Steps[i])
		}
	}
	if adopt := p.Count(qsync.Adopt); adopt > 0 {
		fmt.Fprintf(w, "%d to adopt, ", adopt)
	}
	fmt.Fprintf(w, "%d to create, %d to update, %d to delete, %d unchanged.\n", create, update, p.Count(qsync.Delete), p.Count(qsync.Same))
}

// printCreate writes a create step.
func (s *questionSyncer) printCreate(st *qsync.Step) {
	if st.Wait == 0 {
		fmt.Fprintf(s.out, "create  %s/  %q (%s)\n", st.Folder, st.Title, st.Language)
		return
	}
	fmt.Fprintf(s.out, "create  %s/  %q (%s): a create sent at %s had no answer; apply looks for it again in %s (--settle), then creates it if it is not there\n",
		st.Folder, st.Title, st.Language, st.Since.Format(time.RFC3339), st.Wait.Round(time.Second))
}

// printChange writes one changed field.
func (s *questionSyncer) printChange(st *qsync.Step, c qfolder.Change) {
	w := s.out
	switch {
	case c.Unreadable:
		fmt.Fprintf(w, "    %s: no question response shows a multi-file question's files, and this folder has no record of sending these: apply sends %s\n", c.Field, st.FileOf(c.Field))
	case c.Field == qfolder.FieldFiles && c.Folder != "" && st.Service().Contents == "":
		fmt.Fprintf(w, "    %s: differ from those last applied (no answer shows them to compare): apply sends %s: %s\n",
			c.Field, st.FileOf(c.Field), strings.Join(st.Files, ", "))
	case !qfolder.Long(c.Field):
		// %q escapes control characters.
		fmt.Fprintf(w, "    %s: %q -> %q\n", c.Field, c.Service, c.Folder)
	default:
		fmt.Fprintf(w, "    %s:\n", c.Field)
		d := qfolder.UnifiedDiff("service #"+st.ID+" "+c.Field, path.Join(st.Folder, st.FileOf(c.Field)), c.Service, c.Folder)
		for line := range strings.Lines(d) {
			fmt.Fprint(w, "      "+escapeControls(strings.TrimSuffix(line, "\n"))+"\n")
		}
	}
}

// escapeControls escapes the control characters of a line of text from the
// service (all but tab), so that none reaches a terminal raw.
func escapeControls(line string) string { return iostreams.Escape(line, iostreams.Quoted) }

// pull writes the service's questions (those --id names, or all) into the
// folder, holding its lock. It never overwrites a change made in the
// folder since the last pull or apply without --force: it names the files
// and leaves that question's folder as it is.
func (s *questionSyncer) pull(ctx context.Context) error {
	e := s.engine()
	if err := s.lock(ctx, e); err != nil {
		return err
	}
	defer e.Unlock()
	p, err := plan(ctx, e, qsync.Pull)
	if err != nil {
		return err
	}
	var written, same, kept int
	err = e.Apply(ctx, p, func(ev qsync.Event) {
		if ev.Kind == qsync.Redacted {
			fmt.Fprintf(s.err, "note: %s: the API key was taken out of what the service sent (padctl writes no key into a file)\n", ev.File)
			return
		}
		switch ev.Action {
		case qsync.WriteBack:
			written++
		case qsync.Same:
			same++
		case qsync.KeepLocal:
			kept++
		}
		s.printPulled(ev.Step)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(s.out, "Pulled: %d written, %d unchanged, %d not pulled (changed here).\n", written, same, kept)
	return s.keptError(kept)
}

// keptError is pull's answer when it kept folders changed here: exit 1.
func (s *questionSyncer) keptError(kept int) error {
	if kept == 0 {
		return nil
	}
	return fmt.Errorf("%s not pulled: %s changed here; 'padctl questions diff %s' shows how, --force overwrites them",
		plural(kept, "question"), map[bool]string{true: "its folder", false: "their folders"}[kept == 1], s.dir)
}

// plural returns "1 question" or "n questions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// printPulled prints one step of a pull as it is done.
func (s *questionSyncer) printPulled(st *qsync.Step) {
	switch {
	case st.Kind == qsync.Adopt:
		fmt.Fprintf(s.out, "adopted %s/ #%s (created by an earlier apply that had no answer)\n", st.Folder, st.ID)
	case st.Kind == qsync.WriteBack && st.Reason == qsync.ReasonNew:
		if st.NoCode {
			fmt.Fprintf(s.err, "note: %s/ #%s shows no starter code: if it is a multi-file or zip question, its files cannot be represented here "+
				"(no question response carries them); apply leaves them as they are unless you add starter code or files/\n", st.Folder, st.ID)
		}
		fmt.Fprintf(s.out, "pulled  %s/ #%s %q (new)\n", st.Folder, st.ID, st.Title)
	case st.Kind == qsync.WriteBack:
		fmt.Fprintf(s.out, "pulled  %s/ #%s %q\n", st.Folder, st.ID, st.Title)
	case st.Kind == qsync.KeepLocal:
		fmt.Fprintf(s.err, "not pulled: #%s %q: changed here since the last pull or apply, and different on the service: %s (--force overwrites)\n",
			st.ID, st.Title, strings.Join(st.Files, ", "))
	case st.Reason == qsync.ReasonNotListed:
		fmt.Fprintf(s.err, "note: %s/ holds #%s, which the service does not list: left as it is\n", st.Folder, st.ID)
	case st.Reason == qsync.ReasonUnrepresentable && st.Detail == qsync.DetailBadID:
		fmt.Fprintf(s.err, "note: a question with id %q cannot be represented: %s: not pulled\n", st.ID, st.Detail)
	case st.Reason == qsync.ReasonUnrepresentable:
		fmt.Fprintf(s.err, "note: #%s cannot be represented: %s: not pulled\n", st.ID, st.Detail)
	}
}

// pullDryRun prints what pull would write, and changes nothing.
func (s *questionSyncer) pullDryRun(ctx context.Context) error {
	p, err := plan(ctx, s.engine(), qsync.Pull)
	if err != nil {
		return err
	}
	for i := range p.Steps {
		st := &p.Steps[i]
		switch st.Kind {
		case qsync.Adopt:
			fmt.Fprintf(s.out, "adopt   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", st.Folder, st.ID, qfolder.QuestionFile)
		case qsync.WriteBack:
			fmt.Fprintf(s.out, "pull    %s/  #%s %q (%s)\n", st.Folder, st.ID, st.Title, st.Reason)
			for _, file := range st.Redacted {
				fmt.Fprintf(s.err, "note: %s: the API key would be taken out of what the service sent\n", file)
			}
		default:
			s.printPulled(st)
		}
	}
	fmt.Fprintf(s.out, "%d to write, %d unchanged, %d not pulled (changed here).\n", p.Count(qsync.WriteBack), p.Count(qsync.Same), p.Count(qsync.KeepLocal))
	return s.keptError(p.Count(qsync.KeepLocal))
}
