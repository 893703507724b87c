// apply.go: questions apply.

package questions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/spf13/cobra"
)

// NewCmdApply returns questions apply. runF, when not nil, runs instead of
// applyRun.
func NewCmdApply(f *cmdutil.Factory, runF func(*SyncOptions) error) *cobra.Command {
	o := newSyncOptions(f)
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

--timeout bounds the whole apply, plus the --settle wait when there is one.

DIR records the service (base URL) and organization it was pulled from or
applied to: apply against another refuses (exit 2, nothing sent or
written) unless --force, which then records the new one. A DIR pulled
before padctl recorded this works as before, and records its origin on
this apply. --json prints the plan and what was done as one JSON object.`,
		Example: `  padctl questions diff library && padctl questions apply library
  padctl questions apply --dry-run library
  PAD_SETTLE=0s padctl --fake questions apply --prune library`,
		Args: cobra.ExactArgs(1),
		// The deadline is set by applyRun: --timeout, plus --settle, which
		// a re-run may spend waiting for a create the list does not show
		// yet.
		Annotations: map[string]string{cmdutil.NoDeadline: "timeout plus settle"},
		RunE:        syncRunE(f, o, runF, applyRun),
	}
	addSettle(cmd, f, o)
	cmd.Flags().BoolVar(&o.Prune, "prune", false, "delete questions this folder recorded and no longer holds")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "change nothing: show the plan, as diff does")
	addForce(cmd, o)
	return cmd
}

// applyRun makes the service match the folder, holding the folder's lock,
// and prints what it did; with DryRun, it shows the plan as diff does.
func applyRun(o *SyncOptions) error {
	if o.Timeout > 0 {
		limit := o.Timeout + o.Settle
		ctx, cancel := context.WithTimeoutCause(o.Ctx, limit, &cmdutil.TimeoutError{D: limit})
		defer cancel()
		run := *o
		run.Ctx = ctx
		o = &run
	}
	if o.DryRun {
		return diffRun(o)
	}
	s, err := newSyncer(o)
	if err != nil {
		return err
	}
	return s.apply(o.Ctx)
}

// apply carries out the plan under the folder's lock, printing each step
// (or with JSON, the plan and the results as one object at the end).
func (s *syncer) apply(ctx context.Context) (err error) {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.e.Unlock()
	p, err := s.plan(ctx, qsync.Push)
	if err != nil {
		return err
	}
	n := map[qsync.Kind]int{}
	var results []resultJSON
	if s.o.JSON {
		defer func() {
			out := s.planJSON(p, results)
			out.Applied = map[string]int{}
			for k, v := range n {
				out.Applied[string(k)] = v
			}
			if err != nil {
				out.Error = err.Error()
			}
			if perr := cmdutil.PrintJSON(s.o.IO, out); err == nil {
				err = perr
			}
		}()
	}
	err = s.e.Apply(ctx, p, func(ev qsync.Event) {
		if ev.Kind == qsync.Waiting {
			s.notef("Waiting %s for the service's list to show creates that had no answer (--settle %s)...\n", ev.Wait.Round(time.Second), s.o.Settle)
			return
		}
		if ev.Kind == qsync.VariantDone {
			st := ev.Variant
			switch st.Kind {
			case qsync.Create, qsync.Update, qsync.Delete, qsync.Adopt:
				n["variant "+ev.Action]++
				if s.o.JSON {
					results = append(results, resultJSON{Action: "variant " + string(ev.Action), Folder: st.Path(), ID: st.ID})
				} else {
					s.printf("%s variant %s/ #%s (%s)\n", map[qsync.Kind]string{qsync.Create: "created", qsync.Update: "updated", qsync.Delete: "deleted", qsync.Adopt: "adopted"}[st.Kind], st.Path(), st.ID, st.Language)
				}
			}
			return
		}
		if ev.Kind != qsync.Done {
			return
		}
		n[ev.Action]++
		if s.o.JSON {
			if ev.Action != qsync.Same && ev.Action != qsync.Skip {
				results = append(results, resultJSON{Action: string(ev.Action), Folder: ev.Step.Folder, ID: ev.ID, Title: ev.Step.Title})
			}
			return
		}
		s.printDone(ev)
	})
	var pe *qsync.PendingError
	if errors.As(err, &pe) {
		return fmt.Errorf("%w (--settle %s)", err, s.o.Settle)
	}
	var bad *qsync.BadFolderError
	if errors.As(err, &bad) {
		return &cmdutil.UsageError{Err: err}
	}
	if err != nil {
		return usageOf(err)
	}
	if s.o.JSON {
		return nil
	}
	s.printf("Applied: ")
	if n[qsync.Adopt] > 0 {
		s.printf("%d adopted, ", n[qsync.Adopt])
	}
	s.printf("%d created, %d updated, %d deleted, %d unchanged.\n", n[qsync.Create], n[qsync.Update], n[qsync.Delete], n[qsync.Same])
	return nil
}

// printDone prints one step apply carried out.
func (s *syncer) printDone(ev qsync.Event) {
	st := ev.Step
	switch ev.Action {
	case qsync.Adopt:
		s.printf("adopted %s/ #%s (created by an earlier apply that had no answer)\n", st.Folder, st.ID)
	case qsync.Create:
		s.printf("created %s/ #%s %q\n", st.Folder, ev.ID, st.Title)
	case qsync.Update:
		var fields []string
		for _, c := range st.Changes {
			fields = append(fields, c.Field)
		}
		s.printf("updated %s/ #%s: %s\n", st.Folder, st.ID, strings.Join(fields, ", "))
	case qsync.Delete:
		s.printf("deleted #%s %q\n", st.ID, st.Title)
	case qsync.Skip:
		if st.Reason == qsync.ReasonNotPruned {
			s.notePrune(st)
		}
	}
}
