// questions_sync.go: padctl questions pull, diff and apply.

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/qsync/qfolder"
	"github.com/spf13/cobra"
)

// defaultSettle is how long the service's lists may lag behind a create:
// a create with no answer is looked for that long before it is made again.
const defaultSettle = time.Minute

// clockSlack widens the search for a create with no answer: the question's
// created_at comes from the service's clock, the pending record's time
// from ours.
const clockSlack = 5 * time.Minute

// maxSettleRounds bounds how often apply waits for lists to catch up.
const maxSettleRounds = 3

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
without --force: pull names it and leaves that question's folder alone.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := newQuestionSyncer(f, args[0], o)
			if err != nil {
				return err
			}
			return s.pull(cmd.Context(), o.ids)
		},
	}
	cmd.Flags().StringArrayVar(&o.ids, "id", nil, "pull only the question `ID` (repeatable)")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite files changed here")
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

// questionSyncer runs pull, diff and apply for one folder of questions.
type questionSyncer struct {
	c        *padapi.Client
	dir      string
	out, err io.Writer
	o        syncOptions
	// now and sleep are the clock, so that tests need not wait.
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

// newQuestionSyncer returns a syncer for dir with f's client and streams.
func newQuestionSyncer(f *cmdutil.Factory, dir string, o syncOptions) (*questionSyncer, error) {
	c, err := f.Client()
	if err != nil {
		return nil, err
	}
	return &questionSyncer{c: c, dir: dir, out: f.IOStreams.Out, err: f.IOStreams.ErrOut, o: o, now: time.Now, sleep: sleepOrDone}, nil
}

// sleepOrDone waits d or until ctx ends.
func sleepOrDone(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// read reads and checks the whole folder: a bad one is a usage error
// (exit 2), found before any request.
func (s *questionSyncer) read(missingOK bool) (*qfolder.Library, error) {
	lib, err := qfolder.Read(s.dir, missingOK)
	if err != nil {
		return nil, &cmdutil.UsageError{Err: err}
	}
	return lib, nil
}

// remoteQuestions is the service's questions, as one list answers them.
type remoteQuestions struct {
	byID  map[string]*padapi.Question
	order []*padapi.Question
}

// fetch lists every question the key can see.
func (s *questionSyncer) fetch(ctx context.Context) (*remoteQuestions, error) {
	r := &remoteQuestions{byID: map[string]*padapi.Question{}}
	for q, err := range s.c.Questions.All(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if _, dup := r.byID[string(q.ID)]; dup {
			continue // pages shifted under a create
		}
		r.byID[string(q.ID)] = q
		r.order = append(r.order, q)
	}
	return r, nil
}

// step kinds of a plan.
const (
	stepCreate = "create"
	stepUpdate = "update"
	stepAdopt  = "adopt"
	stepWait   = "wait"
	stepDelete = "delete"
)

// syncStep is one thing apply does.
type syncStep struct {
	kind    string
	folder  *qfolder.Folder
	id      string
	svc     *padapi.Question // the service's question (update, adopt, delete)
	changes []qfolder.Change
	wait    time.Duration // stepWait: until the pending create is --settle old
}

// syncPlan is what apply does, in order.
type syncPlan struct {
	steps []syncStep
	// unchanged are the folders that match the service (folder and svc).
	unchanged []syncStep
	// pruneSkipped are recorded questions no folder holds, which only
	// --prune deletes.
	pruneSkipped []*padapi.Question
	// forgotten are recorded IDs the service no longer has.
	forgotten []string
}

// count returns how many steps change the service.
func (p *syncPlan) count() (create, update, del int) {
	for _, st := range p.steps {
		switch st.kind {
		case stepCreate, stepWait:
			create++
		case stepUpdate:
			update++
		case stepAdopt:
			if len(st.changes) > 0 {
				update++
			}
		case stepDelete:
			del++
		}
	}
	return
}

// adopts returns how many steps adopt a question a lost create made.
func (p *syncPlan) adopts() int {
	n := 0
	for _, st := range p.steps {
		if st.kind == stepAdopt {
			n++
		}
	}
	return n
}

// makePlan compares the folder with the service. It fetches a question on
// its own only when the list does not show it (or shows an answer older
// than padctl's own last write): lists lag behind writes.
func (s *questionSyncer) makePlan(ctx context.Context, lib *qfolder.Library, r *remoteQuestions) (*syncPlan, error) {
	p := &syncPlan{}
	claimed := map[string]bool{}
	for _, f := range lib.Folders {
		if f.Q.ID != "" {
			claimed[f.Q.ID] = true
		}
	}
	for id := range lib.State.Questions {
		claimed[id] = true
	}
	var missing []string
	for _, f := range lib.Folders {
		if f.Q.ID == "" {
			continue
		}
		rec := lib.State.Questions[f.Q.ID]
		svc := r.byID[f.Q.ID]
		if svc == nil || svc.UpdatedAt.Before(rec.UpdatedAt) {
			q, err := s.c.Questions.Get(ctx, padapi.ID(f.Q.ID))
			switch {
			case errors.Is(err, padapi.ErrNotFound):
				missing = append(missing, fmt.Sprintf("%s/%s: id %s is not on the service (deleted there?); apply never re-creates it: remove the id to create it anew, or the folder to let it go",
					f.Name, qfolder.QuestionFile, f.Q.ID))
				continue
			case err != nil:
				return nil, err
			}
			svc = q
		}
		changes := qfolder.Compare(f.Q, qfolder.FromService(svc), rec.Digests[qfolder.FieldFiles])
		if len(changes) == 0 {
			p.unchanged = append(p.unchanged, syncStep{folder: f, id: f.Q.ID, svc: svc})
			continue
		}
		p.steps = append(p.steps, syncStep{kind: stepUpdate, folder: f, id: f.Q.ID, svc: svc, changes: changes})
	}
	if len(missing) > 0 {
		return nil, errors.New(strings.Join(missing, "\n  "))
	}
	// Creates: a pending one first looks for the question it may have made.
	for _, f := range lib.Folders {
		if f.Q.ID != "" {
			continue
		}
		if f.Pending != nil {
			if found := findCreatedBy(r, f.Pending, claimed); found != nil {
				claimed[string(found.ID)] = true
				changes := qfolder.Compare(f.Q, qfolder.FromService(found), "")
				p.steps = append(p.steps, syncStep{kind: stepAdopt, folder: f, id: string(found.ID), svc: found, changes: changes})
				continue
			}
			if age := s.now().Sub(f.Pending.Since); age < s.o.settle {
				p.steps = append(p.steps, syncStep{kind: stepWait, folder: f, wait: min(s.o.settle-age, s.o.settle)})
				continue
			}
		}
		p.steps = append(p.steps, syncStep{kind: stepCreate, folder: f})
	}
	for _, id := range lib.Unclaimed() {
		switch svc := r.byID[id]; {
		case svc == nil:
			p.forgotten = append(p.forgotten, id)
		case s.o.prune:
			p.steps = append(p.steps, syncStep{kind: stepDelete, id: id, svc: svc})
		default:
			p.pruneSkipped = append(p.pruneSkipped, svc)
		}
	}
	// Local work first (adopting writes an id), then updates, then creates
	// and deletes.
	order := map[string]int{stepAdopt: 0, stepUpdate: 1, stepWait: 2, stepCreate: 2, stepDelete: 3}
	slices.SortStableFunc(p.steps, func(a, b syncStep) int { return order[a.kind] - order[b.kind] })
	return p, nil
}

// findCreatedBy returns the question a pending create made, if the list
// shows it: created since the create was sent (give or take the clocks'
// difference), with what it sent, and held by no other folder.
func findCreatedBy(r *remoteQuestions, pending *qfolder.Pending, claimed map[string]bool) *padapi.Question {
	since := pending.Since.Add(-clockSlack)
	var found *padapi.Question
	for _, q := range r.order {
		if claimed[string(q.ID)] || (!q.CreatedAt.IsZero() && q.CreatedAt.Before(since)) {
			continue
		}
		if qfolder.FromService(q).Fingerprint() != pending.Fingerprint {
			continue
		}
		// The earliest, should the service somehow hold two.
		if found == nil || q.CreatedAt.Before(found.CreatedAt) {
			found = q
		}
	}
	return found
}

// folderFileOf names the file a field lives in, for the plan's diff headers.
func folderFileOf(f *qfolder.Folder, field string) string {
	ext := qfolder.Extension(f.Q.Language)
	switch field {
	case qfolder.FieldDescription:
		return qfolder.DescriptionFile
	case qfolder.FieldContents:
		return cmp.Or(f.Starter, "starter."+ext)
	case qfolder.FieldSolution:
		return cmp.Or(f.Solution, "solution."+ext)
	case qfolder.FieldFiles:
		return qfolder.FilesDir + "/"
	}
	return qfolder.QuestionFile
}

// printPlan writes the plan: one line per step, each changed field under
// it (a unified diff for long text), and a summary line.
func (s *questionSyncer) printPlan(p *syncPlan) {
	w := s.out
	for _, st := range p.steps {
		switch st.kind {
		case stepCreate:
			fmt.Fprintf(w, "create  %s/  %q (%s)\n", st.folder.Name, st.folder.Q.Title, st.folder.Q.Language)
		case stepWait:
			fmt.Fprintf(w, "create  %s/  %q (%s): a create sent at %s had no answer; apply looks for it again in %s (--settle), then creates it if it is not there\n",
				st.folder.Name, st.folder.Q.Title, st.folder.Q.Language, st.folder.Pending.Since.Format(time.RFC3339), st.wait.Round(time.Second))
		case stepAdopt:
			fmt.Fprintf(w, "adopt   %s/  #%s: the question an earlier create with no answer made; its id goes into %s\n", st.folder.Name, st.id, qfolder.QuestionFile)
		case stepUpdate:
			fmt.Fprintf(w, "update  %s/  #%s %q\n", st.folder.Name, st.id, st.folder.Q.Title)
		case stepDelete:
			fmt.Fprintf(w, "delete  #%s %q (recorded in this folder, held by no question folder now; --prune)\n", st.id, st.svc.Title)
		}
		if st.kind == stepAdopt || st.kind == stepUpdate {
			for _, c := range st.changes {
				s.printChange(st, c)
			}
		}
	}
	for _, q := range p.pruneSkipped {
		fmt.Fprintf(s.err, "note: #%s %q was recorded in this folder and no folder holds it now: --prune deletes it\n", q.ID, q.Title)
	}
	create, update, del := p.count()
	if adopt := p.adopts(); adopt > 0 {
		fmt.Fprintf(w, "%d to adopt, ", adopt)
	}
	fmt.Fprintf(w, "%d to create, %d to update, %d to delete, %d unchanged.\n", create, update, del, len(p.unchanged))
}

// printChange writes one changed field.
func (s *questionSyncer) printChange(st syncStep, c qfolder.Change) {
	w := s.out
	switch {
	case c.Unreadable:
		fmt.Fprintf(w, "    %s: no question response shows a multi-file question's files, and this folder has no record of sending these: apply sends %s\n", c.Field, folderFileOf(st.folder, c.Field))
	case c.Field == qfolder.FieldFiles && c.Folder != "" && st.svc.Contents == "":
		var names []string
		for _, file := range st.folder.Q.Files {
			names = append(names, file.Path)
		}
		fmt.Fprintf(w, "    %s: differ from those last applied (no answer shows them to compare): apply sends %s: %s\n",
			c.Field, folderFileOf(st.folder, c.Field), strings.Join(names, ", "))
	case !qfolder.Long(c.Field):
		// %q escapes control characters.
		fmt.Fprintf(w, "    %s: %q -> %q\n", c.Field, c.Service, c.Folder)
	default:
		fmt.Fprintf(w, "    %s:\n", c.Field)
		d := qfolder.UnifiedDiff("service #"+st.id+" "+c.Field, path.Join(st.folder.Name, folderFileOf(st.folder, c.Field)), c.Service, c.Folder)
		for line := range strings.Lines(d) {
			fmt.Fprint(w, "      "+escapeControls(strings.TrimSuffix(line, "\n"))+"\n")
		}
	}
}

// errDiffers is diff's answer when something would change: exit 1.
var errDiffers = errors.New("the service differs from the folder: 'padctl questions apply' makes the changes shown")

// diff prints the plan, and returns errDiffers when it changes anything.
func (s *questionSyncer) diff(ctx context.Context) error {
	lib, err := s.read(false)
	if err != nil {
		return err
	}
	r, err := s.fetch(ctx)
	if err != nil {
		return err
	}
	p, err := s.makePlan(ctx, lib, r)
	if err != nil {
		return err
	}
	s.printPlan(p)
	if len(p.steps) > 0 {
		return errDiffers
	}
	return nil
}

// apply makes the service match the folder. Every change to the folder is
// written atomically, and each create's id is written before anything
// else happens, so that a failure at any point leaves the recorded IDs
// true and a re-run finishes the job.
func (s *questionSyncer) apply(ctx context.Context) error {
	lib, err := s.read(false)
	if err != nil {
		return err
	}
	w, err := qfolder.NewWriter(s.dir)
	if err != nil {
		return err
	}
	defer w.Close()
	var p *syncPlan
	for round := 0; ; round++ {
		r, err := s.fetch(ctx)
		if err != nil {
			return err
		}
		if p, err = s.makePlan(ctx, lib, r); err != nil {
			return err
		}
		wait := time.Duration(0)
		for _, st := range p.steps {
			if st.kind == stepWait {
				wait = max(wait, st.wait)
			}
		}
		if wait == 0 {
			break
		}
		if round == maxSettleRounds {
			return fmt.Errorf("the service's list still lags after %d waits: run apply again later", round)
		}
		fmt.Fprintf(s.err, "Waiting %s for the service's list to show creates that had no answer (--settle %s)...\n", wait.Round(time.Second), s.o.settle)
		if err := s.sleep(ctx, wait); err != nil {
			return err
		}
	}
	a := &syncApplier{s: s, lib: lib, w: w}
	for _, st := range p.unchanged {
		a.record(st.folder.Name, st.folder.Q, st.folder.Q.Digest(qfolder.FieldFiles), st.svc.UpdatedAt)
	}
	for _, id := range p.forgotten {
		delete(lib.State.Questions, id)
		a.dirty = true
	}
	if err := a.save(); err != nil {
		return err
	}
	for _, st := range p.steps {
		if err := a.do(ctx, st); err != nil {
			return err
		}
	}
	for _, q := range p.pruneSkipped {
		fmt.Fprintf(s.err, "note: #%s %q was recorded in this folder and no folder holds it now: --prune deletes it\n", q.ID, q.Title)
	}
	fmt.Fprint(s.out, "Applied: ")
	if a.adopted > 0 {
		fmt.Fprintf(s.out, "%d adopted, ", a.adopted)
	}
	fmt.Fprintf(s.out, "%d created, %d updated, %d deleted, %d unchanged.\n", a.created, a.updated, a.deleted, len(p.unchanged))
	return nil
}

// syncApplier carries out a plan's steps.
type syncApplier struct {
	s                         *questionSyncer
	lib                       *qfolder.Library
	w                         *qfolder.Writer
	dirty                     bool
	created, updated, deleted int
	adopted                   int
}

// record notes in the state that the folder and the service agree on q
// (the service's updated_at is updated, when known), with files the
// digest of the files the service holds ("" for unknown).
func (a *syncApplier) record(folder string, q qfolder.Question, files string, updated time.Time) {
	rec := qfolder.Record{Folder: folder, Digests: q.Digests(), UpdatedAt: updated}
	rec.Digests[qfolder.FieldFiles] = files
	old, ok := a.lib.State.Questions[q.ID]
	if updated.IsZero() {
		rec.UpdatedAt = old.UpdatedAt
	}
	if ok && old.Folder == rec.Folder && old.UpdatedAt.Equal(rec.UpdatedAt) && maps.Equal(old.Digests, rec.Digests) {
		return
	}
	a.lib.State.Questions[q.ID] = rec
	a.dirty = true
}

// save writes the state file when it changed.
func (a *syncApplier) save() error {
	if !a.dirty {
		return nil
	}
	if err := a.w.Save(a.lib.State); err != nil {
		return err
	}
	a.dirty = false
	return nil
}

// writeQuestionJSON rewrites a folder's question.json for q (its id) and
// pending, atomically.
func (a *syncApplier) writeQuestionJSON(f *qfolder.Folder, q qfolder.Question, pending *qfolder.Pending) error {
	files, err := qfolder.Render(q, pending, f)
	if err != nil {
		return err
	}
	return a.w.WriteFile(path.Join(f.Name, qfolder.QuestionFile), files[qfolder.QuestionFile])
}

// do carries out one step.
func (a *syncApplier) do(ctx context.Context, st syncStep) error {
	s, f := a.s, st.folder
	switch st.kind {
	case stepAdopt:
		f.Q.ID, f.Pending = st.id, nil
		if err := a.writeQuestionJSON(f, f.Q, nil); err != nil {
			return err
		}
		// What the service holds is what the lost create sent; its files
		// are not known, so an update sends them again.
		a.record(f.Name, qfolder.FromService(st.svc), "", st.svc.UpdatedAt)
		if err := a.save(); err != nil {
			return err
		}
		a.adopted++
		fmt.Fprintf(s.out, "adopted %s/ #%s (created by an earlier apply that had no answer)\n", f.Name, st.id)
		if len(st.changes) == 0 {
			return nil
		}
		return a.update(ctx, st)
	case stepUpdate:
		return a.update(ctx, st)
	case stepCreate:
		return a.create(ctx, f)
	case stepDelete:
		err := s.c.Questions.Delete(ctx, padapi.ID(st.id))
		if err != nil && !errors.Is(err, padapi.ErrNotFound) {
			return fmt.Errorf("delete #%s: %w", st.id, err)
		}
		delete(a.lib.State.Questions, st.id)
		a.dirty = true
		if err := a.save(); err != nil {
			return err
		}
		a.deleted++
		fmt.Fprintf(s.out, "deleted #%s %q\n", st.id, st.svc.Title)
	}
	return nil
}

// update sends the changed fields of one question.
func (a *syncApplier) update(ctx context.Context, st syncStep) error {
	f := st.folder
	q, err := a.s.c.Questions.Update(ctx, padapi.ID(st.id), qfolder.UpdateParams(f.Q, st.changes))
	if err != nil {
		return fmt.Errorf("%s/: update #%s: %w", f.Name, st.id, err)
	}
	a.record(f.Name, f.Q, f.Q.Digest(qfolder.FieldFiles), q.UpdatedAt)
	if err := a.save(); err != nil {
		return err
	}
	a.updated++
	var fields []string
	for _, c := range st.changes {
		fields = append(fields, c.Field)
	}
	fmt.Fprintf(a.s.out, "updated %s/ #%s: %s\n", f.Name, st.id, strings.Join(fields, ", "))
	return nil
}

// create creates one question. It first records the pending create in the
// folder, so that a create with no answer is never made twice: a re-run
// looks for it (see makePlan). The new id goes into question.json before
// anything else happens.
func (a *syncApplier) create(ctx context.Context, f *qfolder.Folder) error {
	s := a.s
	pending := &qfolder.Pending{Since: s.now().UTC(), Fingerprint: qfolder.AsCreated(f.Q).Fingerprint()}
	if err := a.writeQuestionJSON(f, f.Q, pending); err != nil {
		return err
	}
	q, err := s.c.Questions.Create(ctx, qfolder.CreateParams(f.Q))
	if errors.Is(err, padapi.ErrOutcomeUnknown) {
		return fmt.Errorf("%s/: create: %w\nThe pending create is recorded in %s/%s: run the same apply again to settle it: "+
			"it adopts the question if the service made it, and creates it otherwise once --settle (%s) has passed",
			f.Name, err, f.Name, qfolder.QuestionFile, s.o.settle)
	}
	if err != nil {
		// A definite answer: nothing was made, and nothing is pending.
		if werr := a.writeQuestionJSON(f, f.Q, nil); werr != nil {
			return errors.Join(fmt.Errorf("%s/: create: %w", f.Name, err), werr)
		}
		return fmt.Errorf("%s/: create: %w", f.Name, err)
	}
	f.Q.ID, f.Pending = string(q.ID), nil
	if err := a.writeQuestionJSON(f, f.Q, nil); err != nil {
		return fmt.Errorf("%s/: created #%s but could not write its id: %w (write \"id\": %s into %s/%s before anything else)",
			f.Name, q.ID, err, q.ID, f.Name, qfolder.QuestionFile)
	}
	a.record(f.Name, f.Q, f.Q.Digest(qfolder.FieldFiles), q.UpdatedAt)
	if err := a.save(); err != nil {
		return err
	}
	a.created++
	fmt.Fprintf(s.out, "created %s/ #%s %q\n", f.Name, q.ID, f.Q.Title)
	return nil
}

// pull writes the service's questions (those ids names, or all) into the
// folder. It never overwrites a change made in the folder since the last
// pull or apply without --force: it names the files and leaves that
// question's folder as it is.
func (s *questionSyncer) pull(ctx context.Context, ids []string) error {
	lib, err := s.read(true)
	if err != nil {
		return err
	}
	var qs []*padapi.Question
	if len(ids) > 0 {
		for _, id := range ids {
			q, err := s.c.Questions.Get(ctx, padapi.ID(id))
			if err != nil {
				return err
			}
			qs = append(qs, q)
		}
	} else {
		r, err := s.fetch(ctx)
		if err != nil {
			return err
		}
		qs = r.order
	}
	w, err := qfolder.NewWriter(s.dir)
	if err != nil {
		return err
	}
	defer w.Close()
	w.Lazy = true
	// The state is saved once, at the end (or on the way out after an
	// error): a record lost to a crash only makes the next pull more
	// careful, since a folder with no record counts as changed here.
	a := &syncApplier{s: s, lib: lib, w: w}
	defer func() { _ = a.save() }()

	byID := map[string]*qfolder.Folder{}
	taken := map[string]bool{}
	for _, f := range lib.Folders {
		taken[strings.ToLower(f.Name)] = true
		if f.Q.ID != "" {
			byID[f.Q.ID] = f
		}
	}
	entries, _ := dirEntryNames(s.dir)
	for _, name := range entries {
		taken[strings.ToLower(name)] = true
	}
	// A folder with a pending create takes the question that create made,
	// if it is here: a folder of its own would make the next apply create
	// it a second time.
	if err := s.adoptPending(lib, a, qs, byID); err != nil {
		return err
	}
	pulled := map[string]bool{}
	var written, same, kept int
	for _, q := range qs {
		id := string(q.ID)
		if pulled[id] {
			continue
		}
		pulled[id] = true
		svc := qfolder.FromService(q)
		f := byID[id]
		rec, known := lib.State.Questions[id]
		if !folderableID(id) {
			fmt.Fprintf(s.err, "note: a question with id %q cannot be represented: not a positive integer: not pulled\n", id)
			continue
		}
		if reason := unrepresentableReason(svc); reason != "" {
			fmt.Fprintf(s.err, "note: #%s cannot be represented: %s: not pulled\n", id, reason)
			continue
		}
		if strings.TrimSpace(q.Title) == "" || strings.TrimSpace(q.Language) == "" {
			fmt.Fprintf(s.err, "note: #%s cannot be represented: it has no title or no language, which a question folder needs: not pulled\n", id)
			continue
		}
		if f == nil {
			name := qfolder.FolderName(q.Title, id, func(n string) bool { return taken[strings.ToLower(n)] })
			taken[strings.ToLower(name)] = true
			files, err := qfolder.Render(svc, nil, nil)
			if err != nil {
				return err
			}
			if err := w.Sync(name, nil, files); err != nil {
				return fmt.Errorf("%s/: %w", name, err)
			}
			a.record(name, svc, rec.Digests[qfolder.FieldFiles], q.UpdatedAt)
			s.noteNoCode(name, q, rec.Digests[qfolder.FieldFiles])
			fmt.Fprintf(s.out, "pulled  %s/ #%s %q (new)\n", name, id, q.Title)
			written++
			continue
		}
		filesKnown := rec.Digests[qfolder.FieldFiles]
		changes := qfolder.Compare(f.Q, svc, filesKnown)
		want := svc
		if svc.Contents == "" && f.Q.Files != nil {
			// The service shows no files: keep the folder's.
			want.Files = f.Q.Files
		}
		var conflicts []string
		for _, c := range changes {
			if c.Field == qfolder.FieldFiles && want.Files != nil {
				continue // files are never pulled: no answer shows them
			}
			if !known || rec.Digests[c.Field] != f.Q.Digest(c.Field) {
				conflicts = append(conflicts, path.Join(f.Name, folderFileOf(f, c.Field)))
			}
		}
		if len(conflicts) > 0 && !s.o.force {
			slices.Sort(conflicts)
			conflicts = slices.Compact(conflicts)
			fmt.Fprintf(s.err, "not pulled: #%s %q: changed here since the last pull or apply, and different on the service: %s (--force overwrites)\n",
				id, q.Title, strings.Join(conflicts, ", "))
			kept++
			continue
		}
		old, err := qfolder.Existing(f)
		if err != nil {
			return err
		}
		files, err := qfolder.Render(want, nil, f)
		if err != nil {
			return err
		}
		if err := w.Sync(f.Name, old, files); err != nil {
			return fmt.Errorf("%s/: %w", f.Name, err)
		}
		// The service still holds the files last recorded, if any: no
		// answer shows them, so the record is all there is.
		fileDigest := ""
		if svc.Contents == "" {
			fileDigest = filesKnown
		}
		a.record(f.Name, want, fileDigest, q.UpdatedAt)
		if len(changes) == 0 {
			same++
			continue
		}
		written++
		fmt.Fprintf(s.out, "pulled  %s/ #%s %q\n", f.Name, id, q.Title)
	}
	if len(ids) == 0 {
		for _, f := range lib.Folders {
			if f.Q.ID != "" && !pulled[f.Q.ID] {
				fmt.Fprintf(s.err, "note: %s/ holds #%s, which the service does not list: left as it is\n", f.Name, f.Q.ID)
			}
		}
	}
	if err := a.save(); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "Pulled: %d written, %d unchanged, %d not pulled (changed here).\n", written, same, kept)
	if kept > 0 {
		return fmt.Errorf("%d questions not pulled: their folders changed here; 'padctl questions diff %s' shows how, --force overwrites them", kept, s.dir)
	}
	return nil
}

// noteNoCode says, on stderr, when a question shows no code and padctl has
// no record of its files: a multi-file or zip question's files are in no
// question response, so the folder cannot represent them.
func (s *questionSyncer) noteNoCode(folder string, q *padapi.Question, files string) {
	if q.Contents != "" || files != "" {
		return
	}
	fmt.Fprintf(s.err, "note: %s/ #%s shows no starter code: if it is a multi-file or zip question, its files cannot be represented here "+
		"(no question response carries them); apply leaves them as they are unless you add starter code or files/\n", folder, q.ID)
}

// dirEntryNames lists dir's entries, none when it does not exist.
func dirEntryNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names, err
}

// folderableID reports whether id is a question id a folder can hold.
func folderableID(id string) bool {
	_, err := qfolder.Render(qfolder.Question{ID: id, Title: "t", Language: "l"}, nil, nil)
	return err == nil
}

// escapeControls escapes the control characters of a line of text from the
// service (all but tab), so that none reaches a terminal raw.
func escapeControls(line string) string { return iostreams.Escape(line, iostreams.Quoted) }

// adoptPending writes into each folder with a pending create the id of the
// question that create made, when qs holds it.
func (s *questionSyncer) adoptPending(lib *qfolder.Library, a *syncApplier, qs []*padapi.Question, byID map[string]*qfolder.Folder) error {
	r := &remoteQuestions{byID: map[string]*padapi.Question{}, order: qs}
	claimed := map[string]bool{}
	for id := range lib.State.Questions {
		claimed[id] = true
	}
	for id := range byID {
		claimed[id] = true
	}
	for _, f := range lib.Folders {
		if f.Q.ID != "" || f.Pending == nil {
			continue
		}
		found := findCreatedBy(r, f.Pending, claimed)
		if found == nil {
			continue
		}
		claimed[string(found.ID)] = true
		f.Q.ID, f.Pending = string(found.ID), nil
		if err := a.writeQuestionJSON(f, f.Q, nil); err != nil {
			return err
		}
		a.record(f.Name, qfolder.FromService(found), "", found.UpdatedAt)
		if err := a.save(); err != nil {
			return err
		}
		byID[f.Q.ID] = f
		fmt.Fprintf(s.out, "adopted %s/ #%s (created by an earlier apply that had no answer)\n", f.Name, f.Q.ID)
	}
	return nil
}

// unrepresentableReason says why a folder cannot hold q, or "": a text with a
// NUL byte (the folder's files are text) or over the folder's limit.
func unrepresentableReason(q qfolder.Question) string {
	total := 0
	for _, f := range qfolder.Fields {
		v := q.Value(f)
		total += len(v)
		if strings.ContainsRune(v, 0) {
			return "its " + f + " holds a NUL byte"
		}
	}
	if total > qfolder.MaxQuestionBytes {
		return fmt.Sprintf("over %d bytes of text", qfolder.MaxQuestionBytes)
	}
	return ""
}
