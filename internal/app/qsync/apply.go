package qsync

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// EventKind is what an Event reports.
type EventKind int

const (
	// Done reports a step carried out (or, for Same, Skip and KeepLocal,
	// handled): Action says what was done. An Adopt step with changes
	// reports Done twice, as Adopt and then as Update.
	Done EventKind = iota
	// Redacted reports a file a pull wrote with a secret taken out.
	Redacted
	// Waiting reports that Apply waits Wait for the service's list to
	// show creates that had no answer, before it plans again.
	Waiting
	// VariantDone reports a variant step carried out (or handled), in
	// Variant: Action is its Kind, ID the variant's id.
	VariantDone
)

// Event is one thing Apply reports as it goes.
type Event struct {
	Kind EventKind
	// Step is the step concerned (Done, Redacted).
	Step *Step
	// Variant is the variant step concerned (VariantDone).
	Variant *VariantStep
	// Action is what was done (Done): the step's Kind, or Update after
	// an Adopt.
	Action Kind
	// ID is the question's id (Done): a Create's new id.
	ID string
	// File is the file written with a secret taken out (Redacted), a
	// path in the library.
	File string
	// Wait is how long Apply waits (Waiting).
	Wait time.Duration
}

// applier carries out a plan's steps.
type applier struct {
	s      *Syncer
	lib    *qfolder.Library
	w      *qfolder.Writer
	report func(Event)
	dirty  bool
}

// Apply carries out p, reporting each step's outcome through report (which
// may be nil). Every change to the folder is written atomically, and each
// create's id is written before anything else happens, so that a failure
// at any point leaves the recorded ids true and a re-run finishes the job.
// A Push plan with creates still settling waits for them first (at most
// maxSettleRounds times), planning again after each wait.
func (s *Syncer) Apply(ctx context.Context, p *Plan, report func(Event)) error {
	if !p.locked || s.lock == nil {
		return ErrNotLocked
	}
	if report == nil {
		report = func(Event) {}
	}
	if p.Mode == Push {
		var err error
		if p, err = s.settle(ctx, p, report); err != nil {
			return err
		}
	}
	w, err := qfolder.NewWriter(s.dir)
	if err != nil {
		return err
	}
	defer w.Close()
	// No folder or file name that holds the key is written (a title
	// can, once made a folder name).
	w.Redact = s.o.Redact
	a := &applier{s: s, lib: p.lib, w: w, report: report}
	if o := p.origin; o != nil && (p.lib.State.Origin == nil || *o != *p.lib.State.Origin) {
		// A library synced before origins were recorded adopts this one;
		// with Force, the new one replaces it.
		p.lib.State.Origin, a.dirty = o, true
	}
	if p.Mode == Pull {
		return a.pull(p)
	}
	for i := range p.Steps {
		if err := a.push(ctx, &p.Steps[i]); err != nil {
			return err
		}
	}
	for i := range p.Variants {
		if err := a.pushVariant(ctx, &p.Variants[i]); err != nil {
			return err
		}
		a.report(Event{Kind: VariantDone, Variant: &p.Variants[i], Action: p.Variants[i].Kind, ID: p.Variants[i].ID})
	}
	return a.save()
}

// settle waits while p has creates that may yet show in the service's
// list, planning again after each wait, and returns the plan to carry out.
func (s *Syncer) settle(ctx context.Context, p *Plan, report func(Event)) (*Plan, error) {
	for round := 0; p.wait() > 0; round++ {
		if round == maxSettleRounds {
			return nil, fmt.Errorf("the service's list still lags after %d waits: run apply again later", round)
		}
		report(Event{Kind: Waiting, Wait: p.wait()})
		if err := s.sleep(ctx, p.wait()); err != nil {
			return nil, err
		}
		np, err := s.Plan(ctx, Push)
		if err != nil {
			return nil, err
		}
		p = np
	}
	return p, nil
}

// record notes in the state that the folder and the service agree on q
// (the service's updated_at is updated, when known), with files the
// digest of the files the service holds ("" for unknown).
func (a *applier) record(folder string, q qfolder.Question, files string, updated time.Time) {
	rec := qfolder.Record{Folder: folder, Digests: q.Digests(), UpdatedAt: updated}
	rec.Digests[qfolder.FieldFiles] = files
	old, ok := a.lib.State.Questions[q.ID]
	rec.Variants = old.Variants
	if updated.IsZero() {
		rec.UpdatedAt = old.UpdatedAt
	}
	if ok && old.Folder == rec.Folder && old.UpdatedAt.Equal(rec.UpdatedAt) && maps.Equal(old.Digests, rec.Digests) {
		return
	}
	a.lib.State.Questions[q.ID] = rec
	a.dirty = true
}

// noteOrg records the organization a created question names, when the
// library's origin has none yet (its list was empty).
func (a *applier) noteOrg(q *padapi.Question) {
	r := newRemote()
	r.noteOrg(q)
	cur := a.s.origin(r.org)
	if rec := a.lib.State.Origin; cur.Organization == "" || (rec != nil && rec.Organization != "") {
		return
	}
	a.lib.State.Origin, a.dirty = mergeOrigin(a.lib.State.Origin, qfolder.Origin{Organization: cur.Organization}), true
}

// save writes the state file when it changed.
func (a *applier) save() error {
	if !a.dirty {
		return nil
	}
	if err := a.w.Save(a.lib.State); err != nil {
		return err
	}
	a.dirty = false
	return nil
}

// done reports a step done.
func (a *applier) done(st *Step, action Kind, id string) {
	a.report(Event{Kind: Done, Step: st, Action: action, ID: id})
}

// writeQuestionJSON rewrites a folder's question.json for q (its id) and
// pending, atomically.
func (a *applier) writeQuestionJSON(f *qfolder.Folder, q qfolder.Question, pending *qfolder.Pending) error {
	files, err := qfolder.Render(q, pending, f)
	if err != nil {
		return err
	}
	return a.w.WriteFile(path.Join(f.Name, qfolder.QuestionFile), files[qfolder.QuestionFile])
}

// push carries out one step of a Push plan.
func (a *applier) push(ctx context.Context, st *Step) error {
	switch st.Kind {
	case Same:
		a.record(st.Folder, st.folder.Q, st.folder.Q.Digest(qfolder.FieldFiles), st.svc.UpdatedAt)
	case Skip:
		if st.Reason == ReasonForgotten {
			delete(a.lib.State.Questions, st.ID)
			a.dirty = true
		}
	case Adopt:
		if err := a.save(); err != nil {
			return err
		}
		return a.adopt(ctx, st)
	case Update:
		if err := a.save(); err != nil {
			return err
		}
		return a.update(ctx, st)
	case Create:
		if err := a.save(); err != nil {
			return err
		}
		return a.create(ctx, st)
	case Delete:
		return a.delete(ctx, st)
	}
	a.done(st, st.Kind, st.ID)
	return nil
}

// adopt writes into a folder the id of the question its lost create made,
// then sends what differs.
func (a *applier) adopt(ctx context.Context, st *Step) error {
	f := st.folder
	f.Q.ID, f.Pending = st.ID, nil
	if err := a.writeQuestionJSON(f, f.Q, nil); err != nil {
		return err
	}
	// What the service holds is what the lost create sent; its files are
	// not known, so an update sends them again.
	a.record(f.Name, qfolder.FromService(st.svc), "", st.svc.UpdatedAt)
	if err := a.save(); err != nil {
		return err
	}
	a.done(st, Adopt, st.ID)
	if len(st.Changes) == 0 {
		return nil
	}
	return a.update(ctx, st)
}

// update sends the changed fields of one question.
func (a *applier) update(ctx context.Context, st *Step) error {
	f := st.folder
	q, err := a.s.c.Questions.Update(ctx, padapi.ID(st.ID), qfolder.UpdateParams(f.Q, st.Changes))
	if err != nil {
		return fmt.Errorf("%s/: update #%s: %w", f.Name, st.ID, err)
	}
	a.record(f.Name, f.Q, f.Q.Digest(qfolder.FieldFiles), q.UpdatedAt)
	if err := a.save(); err != nil {
		return err
	}
	a.done(st, Update, st.ID)
	return nil
}

// delete deletes a question the folder recorded and no longer holds; one
// the service no longer has is as good as deleted.
func (a *applier) delete(ctx context.Context, st *Step) error {
	err := a.s.c.Questions.Delete(ctx, padapi.ID(st.ID))
	if err != nil && !errors.Is(err, padapi.ErrNotFound) {
		return fmt.Errorf("delete #%s: %w", st.ID, err)
	}
	delete(a.lib.State.Questions, st.ID)
	a.dirty = true
	if err := a.save(); err != nil {
		return err
	}
	a.done(st, Delete, st.ID)
	return nil
}

// PendingError is a create sent with no answer (it matches
// padapi.ErrOutcomeUnknown): the pending create is recorded in the
// folder, and a re-run settles it.
type PendingError struct {
	// Folder is the folder whose create had no answer.
	Folder string
	// Err is the create's error.
	Err error
	// File is the file that records it: qfolder.QuestionFile when "".
	File string
}

// Error says what happened and what to do.
func (e *PendingError) Error() string {
	return fmt.Sprintf("%s/: create: %v\nThe pending create is recorded in %s/%s: run the same apply again to settle it: "+
		"it adopts the question if the service made it, and creates it otherwise once --settle has passed",
		e.Folder, e.Err, e.Folder, cmp.Or(e.File, qfolder.QuestionFile))
}

// Unwrap returns the create's error.
func (e *PendingError) Unwrap() error { return e.Err }

// Is reports padapi.ErrOutcomeUnknown: whatever the create's error, the
// question may have been made.
func (e *PendingError) Is(target error) bool { return target == padapi.ErrOutcomeUnknown }

// create creates one question. It first records the pending create in the
// folder, so that a create with no answer is never made twice: a re-run
// looks for it (see planCreates). The new id goes into question.json
// before anything else happens.
func (a *applier) create(ctx context.Context, st *Step) error {
	f := st.folder
	pending := &qfolder.Pending{Since: time.Now().UTC(), Fingerprint: qfolder.AsCreated(f.Q).Fingerprint()}
	if err := a.writeQuestionJSON(f, f.Q, pending); err != nil {
		return err
	}
	q, err := a.s.c.Questions.Create(ctx, qfolder.CreateParams(f.Q))
	if errors.Is(err, padapi.ErrOutcomeUnknown) {
		return &PendingError{Folder: f.Name, Err: err}
	}
	if err != nil {
		// A definite answer: nothing was made, and nothing is pending.
		// (errors.Join leaves out a nil error.)
		return errors.Join(fmt.Errorf("%s/: create: %w", f.Name, err), a.writeQuestionJSON(f, f.Q, nil))
	}
	f.Q.ID, f.Pending = string(q.ID), nil
	a.noteOrg(q)
	if err := a.writeQuestionJSON(f, f.Q, nil); err != nil {
		return fmt.Errorf("%s/: created #%s but could not write its id: %w (write \"id\": %s into %s/%s before anything else)",
			f.Name, q.ID, err, q.ID, f.Name, qfolder.QuestionFile)
	}
	a.record(f.Name, f.Q, f.Q.Digest(qfolder.FieldFiles), q.UpdatedAt)
	if err := a.save(); err != nil {
		return err
	}
	a.done(st, Create, string(q.ID))
	return nil
}

// pull carries out a Pull plan. The state is saved once, at the end (or on
// the way out after an error), but for adopts: a record lost to a crash
// only makes the next pull more careful, since a folder with no record
// counts as changed here.
func (a *applier) pull(p *Plan) (err error) {
	a.w.Lazy = true
	defer func() {
		if serr := a.save(); err == nil {
			err = serr
		}
	}()
	for i := range p.Steps {
		st := &p.Steps[i]
		switch st.Kind {
		case Adopt:
			if err := a.writeQuestionJSON(st.folder, st.folder.Q, nil); err != nil {
				return err
			}
			a.record(st.Folder, qfolder.FromService(st.svc), "", st.svc.UpdatedAt)
			if err := a.save(); err != nil {
				return err
			}
		case Same:
			if st.folder != nil && sameText(st.want, st.folder.Q) {
				// Byte for byte what the folder holds: nothing to render.
				a.record(st.Folder, st.want, st.fileDigest, st.svc.UpdatedAt)
				break
			}
			if err := a.writeBack(st); err != nil {
				return err
			}
		case WriteBack:
			if err := a.writeBack(st); err != nil {
				return err
			}
		}
		a.done(st, st.Kind, st.ID)
	}
	for i := range p.Variants {
		if err := a.pullVariant(&p.Variants[i]); err != nil {
			return err
		}
		a.report(Event{Kind: VariantDone, Variant: &p.Variants[i], Action: p.Variants[i].Kind, ID: p.Variants[i].ID})
	}
	return nil
}

// writeBack makes a folder hold the service's question, as planned.
func (a *applier) writeBack(st *Step) error {
	var old map[string]string
	var err error
	if st.folder != nil {
		if old, err = qfolder.Existing(st.folder); err != nil {
			return err
		}
	}
	files, err := qfolder.Render(st.want, nil, st.folder)
	if err != nil {
		return err
	}
	if err := a.w.Sync(st.Folder, old, files); err != nil {
		return fmt.Errorf("%s/: %w", st.Folder, err)
	}
	a.record(st.Folder, st.want, st.fileDigest, st.svc.UpdatedAt)
	for _, file := range st.Redacted {
		a.report(Event{Kind: Redacted, Step: st, File: file})
	}
	return nil
}

// sameText reports whether a and b hold the same texts byte for byte (not
// only as compared), so that a folder holding b, rendered for a, would be
// written as it is.
func sameText(a, b qfolder.Question) bool {
	desc := a.Description
	if desc != "" && !strings.HasSuffix(desc, "\n") {
		desc += "\n" // as qfolder.Render writes it
	}
	return a.ID == b.ID && a.Title == b.Title && a.Language == b.Language && desc == b.Description &&
		a.Contents == b.Contents && a.Solution == b.Solution && a.AIAssistPrompt == b.AIAssistPrompt &&
		slices.EqualFunc(a.Instructions, b.Instructions, func(x, y padapi.CandidateInstruction) bool {
			return x.Instructions == y.Instructions && (x.DefaultVisible == nil) == (y.DefaultVisible == nil) &&
				(x.DefaultVisible == nil || *x.DefaultVisible == *y.DefaultVisible)
		}) &&
		slices.Equal(a.Files, b.Files) && (a.Files == nil) == (b.Files == nil)
}
