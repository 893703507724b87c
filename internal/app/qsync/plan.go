package qsync

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// Kind is what a step does.
type Kind string

// The kinds of step.
const (
	// Create creates the folder's question on the service (Push). When
	// Wait is set, an earlier create had no answer: Apply first waits
	// for the service's list to show it.
	Create Kind = "create"
	// Adopt writes into a folder the id of the question an earlier create
	// with no answer made; on Push, Changes then updates it.
	Adopt Kind = "adopt"
	// Update sends the folder's changed fields to the service (Push).
	Update Kind = "update"
	// Delete deletes a question the folder recorded and no longer holds
	// (Push, with Prune).
	Delete Kind = "delete"
	// WriteBack writes the service's question into its folder (Pull).
	WriteBack Kind = "write-back"
	// KeepLocal leaves a folder changed here as it is (Pull, without
	// Force): Files names the changed files.
	KeepLocal Kind = "keep-local"
	// Skip is a question or record left alone, for Reason.
	Skip Kind = "skip"
	// Same is a folder that matches the service; applying it only
	// records that they agree.
	Same Kind = "same"
)

// Reason says why a step is in a plan.
type Reason string

// The reasons.
const (
	ReasonNoID            Reason = "the folder has no id: the question is new"
	ReasonPendingSettling Reason = "a create sent earlier had no answer and the service's list may not show it yet"
	ReasonPendingSettled  Reason = "a create sent earlier had no answer, and the list does not show it after --settle"
	ReasonPendingFound    Reason = "the question a create with no answer made"
	ReasonDiffers         Reason = "the folder and the service differ"
	ReasonPrune           Reason = "recorded in the folder, held by no question folder now"
	ReasonNotPruned       Reason = "recorded in the folder, held by no question folder now; only --prune deletes it"
	ReasonForgotten       Reason = "recorded in the folder, and the service no longer has it"
	ReasonMatches         Reason = "the folder and the service agree"
	ReasonNew             Reason = "on the service, in no folder yet"
	ReasonChangedThere    Reason = "changed on the service"
	ReasonChangedHere     Reason = "changed here since the last pull or apply, and different on the service"
	ReasonUnrepresentable Reason = "a question folder cannot represent it"
	ReasonNotListed       Reason = "the folder holds a question the service does not list"
)

// Step is one thing a plan does, or leaves alone, and why.
type Step struct {
	Kind   Kind
	Reason Reason
	// Folder is the question folder's name in the library, "" for a
	// question no folder holds.
	Folder string
	// ID is the question's id, "" before a create.
	ID string
	// Title and Language are the question's (the folder's, on Push).
	Title, Language string
	// Changes are the fields that differ (Update, Adopt, WriteBack).
	Changes []qfolder.Change
	// Wait is how long Apply waits before looking again for a create
	// with no answer (Create with ReasonPendingSettling).
	Wait time.Duration
	// Since is when a pending create was sent, zero when there is none.
	Since time.Time
	// Files are the folder's files the step concerns: the changed ones
	// (KeepLocal), or a multi-file question's files (Update).
	Files []string
	// Redacted are the files (paths in the library) where a pull's
	// redactor changed the service's text (WriteBack).
	Redacted []string
	// Detail says more, for a Skip with ReasonUnrepresentable.
	Detail string
	// NoCode is set on a WriteBack of a question that shows no starter
	// code and whose files padctl has no record of: if it is a multi-file
	// question, the folder cannot hold its files.
	NoCode bool

	folder     *qfolder.Folder
	svc        *padapi.Question
	want       qfolder.Question // WriteBack: what the folder will hold
	fileDigest string           // WriteBack: the files' digest to record
}

// Service returns the service's question the step concerns, or nil.
func (st *Step) Service() *padapi.Question { return st.svc }

// FileOf names the file of the step's folder that holds field, for a
// diff's header.
func (st *Step) FileOf(field string) string {
	if st.folder == nil {
		return qfolder.QuestionFile
	}
	return fileOf(st.folder, field)
}

// fileOf names the file of f that holds field.
func fileOf(f *qfolder.Folder, field string) string {
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

// Plan is what a sync does, in order: local work first (an adopt writes
// an id), then updates, then creates, then deletes.
type Plan struct {
	// Mode is the way the plan syncs.
	Mode Mode
	// Steps are the plan's steps, Same and Skip ones included.
	Steps []Step
	// Variants are the steps of the questions' variants, carried out
	// after Steps (a new question's variants need its id).
	Variants []VariantStep

	lib    *qfolder.Library
	locked bool
	// origin is what the library records once the plan is applied.
	origin *qfolder.Origin
}

// Count returns how many steps are of kind k.
func (p *Plan) Count(k Kind) int {
	n := 0
	for _, st := range p.Steps {
		if st.Kind == k {
			n++
		}
	}
	return n
}

// Changes reports whether applying the plan changes the service or the
// question folders (an adopt writes an id into one).
func (p *Plan) Changes() bool {
	for _, st := range p.Steps {
		switch st.Kind {
		case Create, Update, Delete, WriteBack, Adopt: // an adopt writes an id
			return true
		}
	}
	for _, st := range p.Variants {
		switch st.Kind {
		case Create, Update, Delete, WriteBack, Adopt:
			return true
		}
	}
	return false
}

// CountVariants returns how many variant steps are of kind k.
func (p *Plan) CountVariants(k Kind) int {
	n := 0
	for _, st := range p.Variants {
		if st.Kind == k {
			n++
		}
	}
	return n
}

// wait returns the longest wait of the plan's creates.
func (p *Plan) wait() time.Duration {
	var w time.Duration
	for _, st := range p.Steps {
		w = max(w, st.Wait)
	}
	return w
}

// Plan compares the folder with the service and returns what a sync in
// mode would do. It changes nothing. A plan to Apply must be made while
// the Syncer holds the folder's lock.
func (s *Syncer) Plan(ctx context.Context, mode Mode) (*Plan, error) {
	if mode == Pull {
		return s.planPull(ctx)
	}
	lib, err := s.read(false)
	if err != nil {
		return nil, err
	}
	// The base URL is checked before any request, the organization once
	// the list has named it.
	if err := s.checkOrigin(lib, s.origin("")); err != nil {
		return nil, err
	}
	r, err := s.fetch(ctx, keepForPush(lib))
	if err != nil {
		return nil, err
	}
	cur := s.origin(r.org)
	if err := s.checkOrigin(lib, cur); err != nil {
		return nil, err
	}
	p := &Plan{Mode: Push, lib: lib, locked: s.lock != nil, origin: mergeOrigin(lib.State.Origin, cur)}
	if err := s.planUpdates(ctx, p, r); err != nil {
		return nil, err
	}
	if err := s.planCreates(p, r); err != nil {
		return nil, err
	}
	s.planUnclaimed(p, r)
	if err := s.planVariantsPush(ctx, p); err != nil {
		return nil, err
	}
	// Local work first (adopting writes an id), then updates, then creates
	// and deletes.
	order := map[Kind]int{Adopt: 0, Update: 1, Create: 2, Delete: 3}
	slices.SortStableFunc(p.Steps, func(a, b Step) int { return order[a.Kind] - order[b.Kind] })
	return p, nil
}

// keepForPush says which of the service's questions a Push plan keeps:
// those the folder or its state file hold, and those a pending create
// may have made (what findCreatedBy looks among). The others are dropped
// as the list is read.
func keepForPush(lib *qfolder.Library) func(*padapi.Question) bool {
	held := claimed(lib)
	pending := map[string]bool{}
	var since time.Time
	for _, f := range lib.Folders {
		if f.Q.ID == "" && f.Pending != nil {
			pending[f.Pending.Fingerprint] = true
			if since.IsZero() || f.Pending.Since.Before(since) {
				since = f.Pending.Since
			}
		}
	}
	since = since.Add(-clockSlack)
	return func(q *padapi.Question) bool {
		if held[string(q.ID)] {
			return true
		}
		if len(pending) == 0 || (!q.CreatedAt.IsZero() && q.CreatedAt.Before(since)) {
			return false
		}
		return pending[qfolder.FromService(q).Fingerprint()]
	}
}

// planUpdates plans the folders with an id. It fetches a question on its
// own only when the list does not show it (or shows an answer older than
// the last sync's): lists lag behind writes.
func (s *Syncer) planUpdates(ctx context.Context, p *Plan, r *remote) error {
	var missing []string
	for _, f := range p.lib.Folders {
		if f.Q.ID == "" {
			continue
		}
		rec := p.lib.State.Questions[f.Q.ID]
		svc := r.byID[f.Q.ID]
		if svc == nil || svc.UpdatedAt.Before(rec.UpdatedAt) {
			q, err := s.c.Questions.Get(ctx, padapi.ID(f.Q.ID))
			if errors.Is(err, padapi.ErrNotFound) {
				missing = append(missing, fmt.Sprintf("%s/%s: id %s is not on the service (deleted there?); apply never re-creates it: remove the id to create it anew, or the folder to let it go",
					f.Name, qfolder.QuestionFile, f.Q.ID))
				continue
			}
			if err != nil {
				return err
			}
			svc = q
		}
		st := folderStep(f, svc)
		st.Changes = qfolder.Compare(f.Q, qfolder.FromService(svc), rec.Digests[qfolder.FieldFiles])
		st.Kind, st.Reason = Same, ReasonMatches
		if len(st.Changes) > 0 {
			st.Kind, st.Reason = Update, ReasonDiffers
			st.Files = filesOf(f, st.Changes)
		}
		p.Steps = append(p.Steps, st)
	}
	if len(missing) > 0 {
		return problems(missing)
	}
	return nil
}

// folderStep returns a step for folder f and the service's question svc
// (nil before a create).
func folderStep(f *qfolder.Folder, svc *padapi.Question) Step {
	st := Step{Folder: f.Name, ID: f.Q.ID, Title: f.Q.Title, Language: f.Q.Language, folder: f, svc: svc}
	if f.Pending != nil {
		st.Since = f.Pending.Since
	}
	return st
}

// filesOf lists a multi-file folder's files when changes sends them.
func filesOf(f *qfolder.Folder, changes []qfolder.Change) []string {
	var names []string
	for _, c := range changes {
		if c.Field != qfolder.FieldFiles {
			continue
		}
		for _, file := range f.Q.Files {
			names = append(names, file.Path)
		}
	}
	return names
}

// claimed returns the ids a folder or the state file holds.
func claimed(lib *qfolder.Library) map[string]bool {
	out := map[string]bool{}
	for _, f := range lib.Folders {
		if f.Q.ID != "" {
			out[f.Q.ID] = true
		}
	}
	for id := range lib.State.Questions {
		out[id] = true
	}
	return out
}

// planCreates plans the folders with no id: a pending create first looks
// for the question it may have made.
func (s *Syncer) planCreates(p *Plan, r *remote) error {
	taken := claimed(p.lib)
	now := time.Now()
	for _, f := range p.lib.Folders {
		if f.Q.ID != "" {
			continue
		}
		if err := checkPending(f, now); err != nil {
			return err
		}
		st := folderStep(f, nil)
		st.Kind, st.Reason = Create, ReasonNoID
		if f.Pending != nil {
			st.Reason = ReasonPendingSettled
			if found := findCreatedBy(r, f.Pending, taken); found != nil {
				taken[string(found.ID)] = true
				st.Kind, st.Reason, st.ID, st.svc = Adopt, ReasonPendingFound, string(found.ID), found
				st.Changes = qfolder.Compare(f.Q, qfolder.FromService(found), "")
			} else if wait := s.o.Settle - max(now.Sub(f.Pending.Since), 0); wait > 0 {
				// A time a little ahead (within the slack) counts as now.
				st.Reason, st.Wait = ReasonPendingSettling, wait
			}
		}
		p.Steps = append(p.Steps, st)
	}
	return nil
}

// planUnclaimed plans the questions the state file records and no folder
// holds: deleted with Prune, else left alone; forgotten when the service
// no longer has them.
func (s *Syncer) planUnclaimed(p *Plan, r *remote) {
	for _, id := range p.lib.Unclaimed() {
		st := Step{Kind: Skip, ID: id, Reason: ReasonForgotten}
		if svc := r.byID[id]; svc != nil {
			st.svc, st.Title, st.Language = svc, svc.Title, svc.Language
			st.Kind, st.Reason = Skip, ReasonNotPruned
			if s.o.Prune {
				st.Kind, st.Reason = Delete, ReasonPrune
			}
		}
		p.Steps = append(p.Steps, st)
	}
}

// problems is an error of several problems, one a line.
type problems []string

// Error returns the problems, one a line.
func (e problems) Error() string { return strings.Join(e, "\n") }

// Lines returns the problems.
func (e problems) Lines() []string { return e }
