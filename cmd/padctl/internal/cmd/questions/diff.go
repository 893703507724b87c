// diff.go: questions diff, and the plan rendering apply --dry-run shares.

package questions

import (
	"errors"
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
long text), each question to delete with --prune, and how many are the same.

Exit status: 0 when nothing would change, 1 when something would (or on an
API error), 2 when DIR is not a valid question folder.`,
		Example: `  padctl questions diff library
  padctl questions diff --prune library && echo "nothing to apply"`,
		Args: cobra.ExactArgs(1),
		RunE: syncRunE(f, o, runF, diffRun),
	}
	addSettle(cmd, f, o)
	cmd.Flags().BoolVar(&o.Prune, "prune", false, "plan deleting questions this folder recorded and no longer holds")
	return cmd
}

// errDiffers is diff's answer when something would change: exit 1.
var errDiffers = errors.New("the service differs from the folder: 'padctl questions apply' makes the changes shown")

// diffRun prints the plan, and returns errDiffers when it changes
// anything.
func diffRun(o *SyncOptions) error {
	s, err := newSyncer(o)
	if err != nil {
		return err
	}
	p, err := s.plan(o.Ctx, qsync.Push)
	if err != nil {
		return err
	}
	s.printPlan(p)
	if p.Changes() {
		return errDiffers
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
			s.printf("adopt   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", st.Folder, st.ID, qfolder.QuestionFile)
		case qsync.Update:
			update++
			s.printf("update  %s/  #%s %q\n", st.Folder, st.ID, st.Title)
		case qsync.Delete:
			s.printf("delete  #%s %q (recorded in this folder, held by no question folder now; --prune)\n", st.ID, st.Title)
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
		s.printf("%d to adopt, ", adopt)
	}
	s.printf("%d to create, %d to update, %d to delete, %d unchanged.\n", create, update, p.Count(qsync.Delete), p.Count(qsync.Same))
}

// printCreate writes a create step.
func (s *syncer) printCreate(st *qsync.Step) {
	if st.Wait == 0 {
		s.printf("create  %s/  %q (%s)\n", st.Folder, st.Title, st.Language)
		return
	}
	s.printf("create  %s/  %q (%s): a create sent at %s had no answer; apply looks for it again in %s (--settle), then creates it if it is not there\n",
		st.Folder, st.Title, st.Language, st.Since.Format(time.RFC3339), st.Wait.Round(time.Second))
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
			s.printf("      %s\n", iostreams.Escape(strings.TrimSuffix(line, "\n"), iostreams.Quoted))
		}
	}
}
