// pull.go: questions pull.

package questions

import (
	"context"
	"fmt"
	"strings"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
	"github.com/spf13/cobra"
)

// NewCmdPull returns questions pull. runF, when not nil, runs instead of
// pullRun.
func NewCmdPull(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	o := newSyncOptions(f)
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

A question's variants (one version per language or project template) live
in its folder's variants/, one sub-folder each: variant.json ({"id",
"language", "project_template_id"}), starter.EXT (absent: the language's
default starter; empty: a blank one), solution.EXT and files/. --variants
pulls every question's; after that, pull, diff and apply keep them in step
(--prune deletes a variant whose folder was removed).

DIR records the service (base URL) and organization it was pulled from:
pulling another's questions into it refuses (exit 2) unless --force. A DIR
pulled before padctl recorded this records its origin on this pull.

Pull holds DIR's lock while it runs, as apply does. --dry-run prints what
pull would write and writes nothing.`,
		Example: `  padctl questions pull library && git -C library diff
  padctl questions pull --id 1234 --id 5678 library
  padctl questions pull --variants library
  padctl questions pull --dry-run library`,
		Args: cobra.ExactArgs(1),
		RunE: syncRunE(f, o, runF, pullRun),
	}
	cmd.Flags().StringArrayVar(&o.IDs, "id", nil, "pull only the question `ID` (repeatable)")
	cmd.Flags().BoolVar(&o.Variants, "variants", false, "write every question's variants into its folder's variants/ (one request per question); without it, only the folders that hold variants get theirs")
	cmd.Flags().BoolVar(&o.Force, "force", false, "overwrite files changed here, and pull from a service or organization other than the one DIR was pulled from")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "change nothing: show what pull would write")
	return cmd
}

// pullRun writes the service's questions (those --id names, or all) into
// the folder, or with DryRun shows what it would write.
func pullRun(o *SyncOptions) error {
	s, err := newSyncer(o)
	if err != nil {
		return err
	}
	if o.DryRun {
		return s.pullDryRun(o.Ctx)
	}
	return s.pull(o.Ctx)
}

// pull writes the service's questions into the folder, holding its lock.
// It never overwrites a change made in the folder since the last pull or
// apply without --force: it names the files and leaves that question's
// folder as it is.
func (s *syncer) pull(ctx context.Context) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.e.Unlock()
	p, err := s.plan(ctx, qsync.Pull)
	if err != nil {
		return err
	}
	var written, same, kept int
	err = s.e.Apply(ctx, p, func(ev qsync.Event) {
		if ev.Kind == qsync.Redacted {
			s.notef("note: %s: the API key was taken out of what the service sent (padctl writes no key into a file)\n", ev.File)
			return
		}
		if ev.Kind == qsync.VariantDone {
			s.printVariant(ev.Variant, true)
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
	s.printf("Pulled: %d written, %d unchanged, %d not pulled (changed here).\n", written, same, kept)
	return s.keptError(kept)
}

// keptError is pull's answer when it kept folders changed here: exit 1.
func (s *syncer) keptError(kept int) error {
	if kept == 0 {
		return nil
	}
	which := "their folders"
	if kept == 1 {
		which = "its folder"
	}
	return fmt.Errorf("%s not pulled: %s changed here; 'padctl questions diff %s' shows how, --force overwrites them",
		plural(kept, "question"), which, s.o.Dir)
}

// printPulled prints one step of a pull as it is done.
func (s *syncer) printPulled(st *qsync.Step) {
	switch {
	case st.Kind == qsync.Adopt:
		s.printf("adopted %s/ #%s (created by an earlier apply that had no answer)\n", st.Folder, st.ID)
	case st.Kind == qsync.WriteBack && st.Reason == qsync.ReasonNew:
		if st.NoCode {
			s.notef("note: %s/ #%s shows no starter code: if it is a multi-file or zip question, its files cannot be represented here "+
				"(no question response carries them); apply leaves them as they are unless you add starter code or files/\n", st.Folder, st.ID)
		}
		s.printf("pulled  %s/ #%s %q (new)\n", st.Folder, st.ID, st.Title)
	case st.Kind == qsync.WriteBack:
		s.printf("pulled  %s/ #%s %q\n", st.Folder, st.ID, st.Title)
	case st.Kind == qsync.KeepLocal:
		s.notef("not pulled: #%s %q: changed here since the last pull or apply, and different on the service: %s (--force overwrites)\n",
			st.ID, st.Title, strings.Join(st.Files, ", "))
	case st.Reason == qsync.ReasonNotListed:
		s.notef("note: %s/ holds #%s, which the service does not list: left as it is\n", st.Folder, st.ID)
	case st.Reason == qsync.ReasonUnrepresentable && st.Detail == qsync.DetailBadID:
		s.notef("note: a question with id %q cannot be represented: %s: not pulled\n", st.ID, st.Detail)
	case st.Reason == qsync.ReasonUnrepresentable:
		s.notef("note: #%s cannot be represented: %s: not pulled\n", st.ID, st.Detail)
	}
}

// pullDryRun prints what pull would write, and changes nothing.
func (s *syncer) pullDryRun(ctx context.Context) error {
	p, err := s.plan(ctx, qsync.Pull)
	if err != nil {
		return err
	}
	for i := range p.Steps {
		st := &p.Steps[i]
		switch st.Kind {
		case qsync.Adopt:
			s.printf("adopt   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", st.Folder, st.ID, qfolder.QuestionFile)
		case qsync.WriteBack:
			s.printf("pull    %s/  #%s %q (%s)\n", st.Folder, st.ID, st.Title, st.Reason)
			for _, file := range st.Redacted {
				s.notef("note: %s: the API key would be taken out of what the service sent\n", file)
			}
		default:
			s.printPulled(st)
		}
	}
	for i := range p.Variants {
		s.printVariant(&p.Variants[i], false)
	}
	s.printf("%d to write, %d unchanged, %d not pulled (changed here).\n", p.Count(qsync.WriteBack), p.Count(qsync.Same), p.Count(qsync.KeepLocal))
	return s.keptError(p.Count(qsync.KeepLocal))
}

// printVariant prints one variant step of a pull, done or (dryRun false)
// planned.
func (s *syncer) printVariant(st *qsync.VariantStep, done bool) {
	verb := "pull   "
	if done {
		verb = "pulled "
	}
	switch st.Kind {
	case qsync.WriteBack:
		s.printf("%s %s/  variant #%s (%s)\n", verb, st.Path(), st.ID, st.Language)
	case qsync.KeepLocal:
		s.notef("not pulled: %s/: variant #%s changed here since the last pull or apply, and different on the service (--force overwrites)\n", st.Path(), st.ID)
	case qsync.Skip:
		if st.Reason == qsync.ReasonUnrepresentable {
			s.notef("note: variant #%s of #%s cannot be represented: not pulled\n", st.ID, st.QuestionID)
		}
	}
}
