// diff.go: questions diff, and the plan rendering apply --dry-run shares.

package questions

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
	"github.com/spf13/cobra"
)

// NewCmdDiff returns questions diff. runF, when not nil, runs instead of
// diffRun.
func NewCmdDiff(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	o := newSyncOptions(f)
	cmd := &cobra.Command{
		Use:   "diff DIR",
		Short: "Show what apply would change to make the service match DIR",
		Long: `Read the whole folder DIR, fetch the service's questions, and print the
plan: each question to create, each field to change (a unified diff for
long text, coloured on a terminal unless NO_COLOR is set), each question to
delete with --prune, and how many are the same. --json prints the plan as
one JSON object.

DIR records the service (base URL) and organization it was pulled from or
applied to; diff against another refuses (exit 2) unless --force. A DIR
pulled before padctl recorded this works as before, and records its origin
on the next pull or apply.

Exit status, as kubectl diff's: 0 when nothing would change, 1 when
something would, 2 when DIR is not a valid question folder (or belongs to
another service or organization), 7 when an API or network error kept diff
from making the plan; the other codes are padctl's usual ones (5 rate
limited, 6 locked, 130 interrupted).`,
		Example: `  padctl questions diff library
  padctl questions diff --prune library && echo "nothing to apply"
  padctl questions diff --json library | jq '.steps[] | select(.action != "same")'`,
		Args: cobra.ExactArgs(1),
		RunE: syncRunE(f, o, runF, diffRun),
	}
	addSettle(cmd, f, o)
	addForce(cmd, o)
	cmd.Flags().BoolVar(&o.Prune, "prune", false, "plan deleting questions this folder recorded and no longer holds")
	return cmd
}

// differsError is diff's answer when something would change: exit 1.
type differsError struct{ dir string }

// Error says what makes the changes.
func (e *differsError) Error() string {
	return fmt.Sprintf("the service differs from the folder: 'padctl questions apply %s' makes the changes shown", e.dir)
}

// diffRun prints the plan, and returns a *differsError when it changes
// anything. An error that keeps it from making the plan, and that padctl
// would otherwise exit 1 for (an API or network error), exits 7: 1 means
// changes (kubectl diff's rule).
func diffRun(o *SyncOptions) error {
	err := diffPlan(o)
	var de *differsError
	if err != nil && !errors.As(err, &de) && cmdutil.ExitCode(err, true) == cmdutil.ExitError {
		return &cmdutil.CodedError{Code: cmdutil.ExitNoPlan, Err: err}
	}
	return err
}

// diffPlan makes the plan and prints it.
func diffPlan(o *SyncOptions) error {
	s, err := newSyncer(o)
	if err != nil {
		return err
	}
	p, err := s.plan(o.Ctx, qsync.Push)
	if err != nil {
		return err
	}
	if o.JSON {
		if err := cmdutil.PrintJSON(o.IO, s.planJSON(p, nil)); err != nil {
			return err
		}
	} else {
		s.printPlan(p)
	}
	if p.Changes() {
		return &differsError{o.Dir}
	}
	return nil
}

// printPlan writes the plan: one line per step, each changed field under
// it (a unified diff for long text), and a summary line.
func (s *syncer) printPlan(p *qsync.Plan) {
	create, update := 0, 0
	for i := range p.Steps {
		st := &p.Steps[i]
		switch st.Kind {
		case qsync.Create:
			create++
			s.printCreate(st)
		case qsync.Adopt:
			s.printf("%s   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", s.paint(green, "adopt"), st.Folder, st.ID, qfolder.QuestionFile)
		case qsync.Update:
			update++
			s.printf("%s  %s/  #%s %q\n", s.paint(yellow, "update"), st.Folder, st.ID, st.Title)
		case qsync.Delete:
			s.printf("%s  #%s %q (recorded in this folder, held by no question folder now; --prune)\n", s.paint(red, "delete"), st.ID, st.Title)
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
	for i := range p.Variants {
		s.printVariantPlan(&p.Variants[i])
	}
	for i := range p.Steps {
		if p.Steps[i].Reason == qsync.ReasonNotPruned {
			s.notePrune(&p.Steps[i])
		}
	}
	if n := len(p.Variants); n > 0 {
		s.printf("Variants: %d to create, %d to update, %d to delete, %d unchanged.\n",
			p.CountVariants(qsync.Create), p.CountVariants(qsync.Update)+p.CountVariants(qsync.Adopt), p.CountVariants(qsync.Delete), p.CountVariants(qsync.Same))
	}
	if adopt := p.Count(qsync.Adopt); adopt > 0 {
		s.printf("%d to adopt, ", adopt)
	}
	s.printf("%d to create, %d to update, %d to delete, %d unchanged.\n", create, update, p.Count(qsync.Delete), p.Count(qsync.Same))
}

// printCreate writes a create step.
func (s *syncer) printCreate(st *qsync.Step) {
	if st.Wait == 0 {
		s.printf("%s  %s/  %q (%s)\n", s.paint(green, "create"), st.Folder, st.Title, st.Language)
		return
	}
	s.printf("%s  %s/  %q (%s): a create sent at %s had no answer; apply looks for it again in %s (--settle), then creates it if it is not there\n",
		s.paint(green, "create"), st.Folder, st.Title, st.Language, st.Since.Format(time.RFC3339), st.Wait.Round(time.Second))
}

// printChange writes one changed field.
func (s *syncer) printChange(st *qsync.Step, c qfolder.Change) {
	switch {
	case c.Unreadable:
		s.printf("    %s: no question response shows a multi-file question's files, and this folder has no record of sending these: apply sends %s\n", c.Field, st.FileOf(c.Field))
	case c.Field == qfolder.FieldFiles && c.Folder != "" && st.Service().Contents == "":
		s.printf("    %s: differ from those last applied (no answer shows them to compare): apply sends %s: %s\n",
			c.Field, st.FileOf(c.Field), strings.Join(st.Files, ", "))
	case !qfolder.Long(c.Field):
		// %q escapes control characters.
		s.printf("    %s: %q -> %q\n", c.Field, c.Service, c.Folder)
	default:
		s.printf("    %s:\n", c.Field)
		d := qfolder.UnifiedDiff("service #"+st.ID+" "+c.Field, path.Join(st.Folder, st.FileOf(c.Field)), c.Service, c.Folder)
		for line := range strings.Lines(d) {
			// Escaped: control characters of the service's text (all but
			// tab) never reach a terminal raw.
			line = iostreams.Escape(strings.TrimSuffix(line, "\n"), iostreams.Quoted)
			s.printf("      %s\n", s.paintDiffLine(line))
		}
	}
}

// The colours of a plan on a terminal (SGR codes).
const (
	red    = "31"
	green  = "32"
	yellow = "33"
	cyan   = "36"
	bold   = "1"
)

// paint returns text in colour when the plan is coloured.
func (s *syncer) paint(color, text string) string {
	if !s.o.Color {
		return text
	}
	return "\x1b[" + color + "m" + text + "\x1b[0m"
}

// paintDiffLine colours a line of a unified diff as git does: the file
// headers bold, hunk headers cyan, removed lines red, added lines green.
// line is already escaped: the only escape sequences are these.
func (s *syncer) paintDiffLine(line string) string {
	switch {
	case strings.HasPrefix(line, "---"), strings.HasPrefix(line, "+++"):
		return s.paint(bold, line)
	case strings.HasPrefix(line, "@@"):
		return s.paint(cyan, line)
	case strings.HasPrefix(line, "-"):
		return s.paint(red, line)
	case strings.HasPrefix(line, "+"):
		return s.paint(green, line)
	}
	return line
}

// printVariantPlan writes one variant step of a plan.
func (s *syncer) printVariantPlan(st *qsync.VariantStep) {
	switch st.Kind {
	case qsync.Create:
		s.printf("%s  %s/  variant (%s)\n", s.paint(green, "create"), st.Path(), st.Language)
	case qsync.Adopt:
		s.printf("%s   %s/  variant #%s: the variant an earlier create with no answer made; its id goes into %s\n", s.paint(green, "adopt"), st.Path(), st.ID, qfolder.VariantFile)
	case qsync.Update:
		s.printf("%s  %s/  variant #%s (%s): %s\n", s.paint(yellow, "update"), st.Path(), st.ID, st.Language, strings.Join(st.Changes, ", "))
		s.printVariantTexts(st)
	case qsync.Delete:
		s.printf("%s  variant #%s (%s) of %s/ (recorded in this folder, held by no variant folder now; --prune)\n", s.paint(red, "delete"), st.ID, st.Language, st.Folder)
	case qsync.Skip:
		if st.Reason == qsync.ReasonNotPruned {
			s.notef("note: variant #%s (%s) of %s/ was recorded in this folder and no variant folder holds it now: --prune deletes it\n", st.ID, st.Language, st.Folder)
		}
	}
}

// printVariantTexts writes a unified diff of a variant's changed starter
// and solution.
func (s *syncer) printVariantTexts(st *qsync.VariantStep) {
	local, svc := st.Local(), st.Service()
	if local == nil || svc == nil {
		return
	}
	from := qfolder.VariantFromService(svc)
	text := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	ext := qfolder.Extension(local.Language)
	for _, c := range st.Changes {
		var a, b, file string
		switch c {
		case qfolder.VariantStarter:
			a, b, file = text(from.Contents), text(local.Contents), cmp.Or(local.Starter, "starter."+ext)
		case qfolder.VariantSolution:
			a, b, file = text(from.Solution), text(local.Solution), cmp.Or(local.SolutionFile, "solution."+ext)
		default:
			continue
		}
		d := qfolder.UnifiedDiff("service variant #"+st.ID+" "+c, path.Join(st.Path(), file), a, b)
		for line := range strings.Lines(d) {
			line = iostreams.Escape(strings.TrimSuffix(line, "\n"), iostreams.Quoted)
			s.printf("      %s\n", s.paintDiffLine(line))
		}
	}
}
