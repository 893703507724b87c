package qsync

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// VariantStep is one thing a plan does, or leaves alone, to a question's
// variant (qfolder.VariantsDir), and why. Its kinds are a Step's.
type VariantStep struct {
	Kind   Kind
	Reason Reason
	// Folder is the question folder, Name the variant's sub-folder ("" for
	// a variant no sub-folder holds).
	Folder, Name string
	// QuestionID is the question's id ("" before the question's create),
	// ID the variant's ("" before its create).
	QuestionID, ID string
	// Language is the variant's.
	Language string
	// Changes are the fields that differ (Update, Adopt, WriteBack).
	Changes []string

	folder *qfolder.Folder
	v      *qfolder.Variant // the folder's (Push), what it will hold (Pull)
	old    *qfolder.Variant // Pull: the sub-folder as read, nil for a new one
	svc    *padapi.QuestionVariant
}

// Service returns the service's variant the step concerns, or nil.
func (st *VariantStep) Service() *padapi.QuestionVariant { return st.svc }

// Local returns the variant as the folder holds it (Push) or will hold
// it (Pull), or nil.
func (st *VariantStep) Local() *qfolder.Variant { return st.v }

// Path is the variant's sub-folder, a path in the library.
func (st *VariantStep) Path() string { return path.Join(st.Folder, qfolder.VariantsDir, st.Name) }

// variantsOf returns the variants the service holds for question qid,
// and them by id.
func (s *Syncer) variantsOf(ctx context.Context, qid string) ([]padapi.QuestionVariant, map[string]*padapi.QuestionVariant, error) {
	vs, err := s.c.Questions.ListVariants(ctx, padapi.ID(qid))
	if err != nil {
		return nil, nil, fmt.Errorf("question #%s: list variants: %w", qid, err)
	}
	by := map[string]*padapi.QuestionVariant{}
	for i := range vs {
		if _, dup := by[string(vs[i].ID)]; !dup {
			by[string(vs[i].ID)] = &vs[i]
		}
	}
	return vs, by, nil
}

// variantWorkers is how many variant lists a plan fetches at once.
const variantWorkers = 8

// variantLists fetches the variants of the questions qids, up to
// variantWorkers at once, stopping at the first error.
func (s *Syncer) variantLists(ctx context.Context, qids []string) (map[string]map[string]*padapi.QuestionVariant, map[string][]padapi.QuestionVariant, error) {
	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	type result struct {
		vs  []padapi.QuestionVariant
		by  map[string]*padapi.QuestionVariant
		err error
	}
	results := make([]result, len(qids))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(variantWorkers, len(qids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r := &results[i]
				if r.vs, r.by, r.err = s.variantsOf(ctx, qids[i]); r.err != nil {
					cancel()
				}
			}
		}()
	}
feed:
	for i := range qids {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	by, lists := map[string]map[string]*padapi.QuestionVariant{}, map[string][]padapi.QuestionVariant{}
	for i, r := range results {
		if r.err != nil {
			return nil, nil, r.err
		}
		by[qids[i]], lists[qids[i]] = r.by, r.vs
	}
	// A list not fetched because the caller's context ended is no list:
	// taken as empty, it would plan its variants as gone.
	if parent.Err() != nil {
		return nil, nil, context.Cause(parent)
	}
	return by, lists, nil
}

// planVariantsPush plans the variants of every folder that holds some or
// whose question's record names some: one variant list per such question,
// none for a library without variants.
func (s *Syncer) planVariantsPush(ctx context.Context, p *Plan) error {
	adopted := map[string]string{}
	for _, st := range p.Steps {
		if st.Kind == Adopt {
			adopted[st.Folder] = st.ID
		}
	}
	qidOf := func(f *qfolder.Folder) string { return cmp.Or(f.Q.ID, adopted[f.Name]) }
	var qids []string
	for _, f := range p.lib.Folders {
		if qid := qidOf(f); qid != "" && (len(f.Variants) > 0 || len(p.lib.State.Questions[qid].Variants) > 0) {
			qids = append(qids, qid)
		}
	}
	byQ, lists, err := s.variantLists(ctx, qids)
	if err != nil {
		return err
	}
	var missing problems
	for _, f := range p.lib.Folders {
		qid := qidOf(f)
		recs := p.lib.State.Questions[qid].Variants
		if len(f.Variants) == 0 && len(recs) == 0 {
			continue
		}
		svc, by := lists[qid], byQ[qid]
		if by == nil {
			by = map[string]*padapi.QuestionVariant{}
		}
		held := map[string]bool{}
		for _, v := range f.Variants {
			held[v.ID] = true
		}
		for _, v := range f.Variants {
			st := VariantStep{Folder: f.Name, Name: v.Name, QuestionID: qid, ID: v.ID, Language: v.Language, folder: f, v: v}
			switch {
			case v.ID != "":
				sv := by[v.ID]
				if sv == nil {
					missing = append(missing, fmt.Sprintf("%s/%s: variant id %s is not on question #%s (deleted there?); apply never re-creates it: remove the id to create it anew",
						st.Path(), qfolder.VariantFile, v.ID, qid))
					continue
				}
				st.svc = sv
				from := qfolder.VariantFromService(sv)
				st.Changes = qfolder.VariantChanges(v, &from)
				st.Kind, st.Reason = Same, ReasonMatches
				if len(st.Changes) > 0 {
					st.Kind, st.Reason = Update, ReasonDiffers
				}
			case v.Pending != nil:
				st.Kind, st.Reason = Create, ReasonPendingSettled
				if sv := findVariantCreatedBy(svc, v.Pending, held); sv != nil {
					held[string(sv.ID)] = true
					from := qfolder.VariantFromService(sv)
					st.Kind, st.Reason, st.ID, st.svc = Adopt, ReasonPendingFound, string(sv.ID), sv
					st.Changes = qfolder.VariantChanges(v, &from)
				}
			default:
				st.Kind, st.Reason = Create, ReasonNoID
			}
			p.Variants = append(p.Variants, st)
		}
		ids := make([]string, 0, len(recs))
		for id := range recs {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			if held[id] {
				continue
			}
			st := VariantStep{Kind: Skip, Reason: ReasonForgotten, Folder: f.Name, QuestionID: qid, ID: id, folder: f}
			if sv := by[id]; sv != nil {
				st.svc, st.Language, st.Reason = sv, sv.Language, ReasonNotPruned
				if s.o.Prune {
					st.Kind, st.Reason = Delete, ReasonPrune
				}
			}
			p.Variants = append(p.Variants, st)
		}
	}
	if len(missing) > 0 {
		return missing
	}
	return nil
}

// findVariantCreatedBy returns the variant a pending create made, if the
// list shows it: created since the create was sent (give or take the
// clocks' difference), with what it sent, and held by no other sub-folder.
func findVariantCreatedBy(vs []padapi.QuestionVariant, pending *qfolder.Pending, held map[string]bool) *padapi.QuestionVariant {
	since := pending.Since.Add(-clockSlack)
	var found *padapi.QuestionVariant
	for i := range vs {
		sv := &vs[i]
		if held[string(sv.ID)] || (!sv.CreatedAt.IsZero() && sv.CreatedAt.Before(since)) {
			continue
		}
		from := qfolder.VariantFromService(sv)
		if from.Fingerprint() != pending.Fingerprint {
			continue
		}
		if found == nil || sv.CreatedAt.Before(found.CreatedAt) {
			found = sv
		}
	}
	return found
}

// planVariantsPull plans writing the variants of the questions a pull
// writes or keeps: one variant list per question whose folder syncs
// variants already, or per question with Options.Variants.
func (pp *pullPlanner) planVariantsPull(ctx context.Context) error {
	wanted := func(st *Step) bool {
		if st.ID == "" || (st.Kind != WriteBack && st.Kind != Same && st.Kind != Adopt) {
			return false
		}
		// No variants synced here: a list costs no request per question.
		f := pp.byID[st.ID]
		return pp.s.o.Variants || (f != nil && len(f.Variants) > 0) || len(pp.recs[st.ID].Variants) > 0
	}
	var qids []string
	for i := range pp.p.Steps {
		if wanted(&pp.p.Steps[i]) {
			qids = append(qids, pp.p.Steps[i].ID)
		}
	}
	byQ, _, err := pp.s.variantLists(ctx, qids)
	if err != nil {
		return err
	}
	for i := range pp.p.Steps {
		st := &pp.p.Steps[i]
		by := byQ[st.ID]
		if !wanted(st) || len(by) == 0 {
			continue
		}
		f := pp.byID[st.ID]
		rec := pp.recs[st.ID].Variants
		taken := map[string]bool{}
		held := map[string]*qfolder.Variant{}
		if f != nil {
			for _, v := range f.Variants {
				taken[strings.ToLower(v.Name)] = true
				held[v.ID] = v
			}
		}
		ids := make([]string, 0, len(by))
		for id := range by {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b string) int { return strings.Compare(fmt.Sprintf("%020s", a), fmt.Sprintf("%020s", b)) })
		for _, id := range ids {
			sv := by[id]
			want := pp.s.redactVariant(qfolder.VariantFromService(sv))
			vs := VariantStep{Folder: st.Folder, QuestionID: st.ID, ID: id, Language: sv.Language, folder: f, svc: sv}
			if _, err := qfolder.RenderVariant(&want, nil); err != nil {
				vs.Kind, vs.Reason = Skip, ReasonUnrepresentable
				pp.p.Variants = append(pp.p.Variants, vs)
				continue
			}
			old := held[id]
			if old == nil {
				want.Name = qfolder.VariantName(&want, func(n string) bool { return taken[strings.ToLower(n)] })
				taken[strings.ToLower(want.Name)] = true
				vs.Kind, vs.Reason, vs.Name, vs.v = WriteBack, ReasonNew, want.Name, &want
				pp.p.Variants = append(pp.p.Variants, vs)
				continue
			}
			want.Name = old.Name
			vs.Name, vs.v, vs.old = old.Name, &want, old
			vs.Changes = qfolder.VariantChanges(old, &want)
			switch r, known := rec[id]; {
			case len(vs.Changes) == 0:
				vs.Kind, vs.Reason = Same, ReasonMatches
			case (!known || r.Digest != old.Digest()) && !pp.s.o.Force:
				vs.Kind, vs.Reason = KeepLocal, ReasonChangedHere
			default:
				vs.Kind, vs.Reason = WriteBack, ReasonChangedThere
			}
			pp.p.Variants = append(pp.p.Variants, vs)
		}
	}
	return nil
}

// redactVariant applies Options.Redact to every text of v.
func (s *Syncer) redactVariant(v qfolder.Variant) qfolder.Variant {
	if s.o.Redact == nil {
		return v
	}
	for _, t := range []**string{&v.Contents, &v.Solution} {
		if *t != nil {
			r := s.o.Redact(**t)
			*t = &r
		}
	}
	v.Files = slices.Clone(v.Files)
	for i := range v.Files {
		v.Files[i].Contents = s.o.Redact(v.Files[i].Contents)
	}
	return v
}

// recordVariant notes in the state that the folder and the service agree
// on variant id of question qid (digest "" forgets it).
func (a *applier) recordVariant(qid, id, name, digest string) {
	rec, ok := a.lib.State.Questions[qid]
	if !ok {
		return
	}
	old, had := rec.Variants[id]
	if digest == "" {
		if had {
			delete(rec.Variants, id)
			a.lib.State.Questions[qid], a.dirty = rec, true
		}
		return
	}
	if had && old.Name == name && old.Digest == digest {
		return
	}
	if rec.Variants == nil {
		rec.Variants = map[string]qfolder.VariantRecord{}
	}
	rec.Variants[id] = qfolder.VariantRecord{Name: name, Digest: digest}
	a.lib.State.Questions[qid], a.dirty = rec, true
}

// writeVariantJSON rewrites a variant's variant.json for v, atomically.
func (a *applier) writeVariantJSON(st *VariantStep, v *qfolder.Variant) error {
	files, err := qfolder.RenderVariant(v, v)
	if err != nil {
		return err
	}
	return a.w.WriteFile(path.Join(st.Path(), qfolder.VariantFile), files[qfolder.VariantFile])
}

// pushVariant carries out one variant step of a Push plan.
func (a *applier) pushVariant(ctx context.Context, st *VariantStep) error {
	qid := st.folder.Q.ID
	switch st.Kind {
	case Same:
		a.recordVariant(qid, st.ID, st.Name, st.v.Digest())
	case Skip:
		if st.Reason == ReasonForgotten {
			a.recordVariant(qid, st.ID, "", "")
		}
	case Create:
		if err := a.save(); err != nil {
			return err
		}
		return a.createVariant(ctx, st, qid)
	case Adopt:
		st.v.ID, st.v.Pending = st.ID, nil
		if err := a.writeVariantJSON(st, st.v); err != nil {
			return err
		}
		from := qfolder.VariantFromService(st.svc)
		a.recordVariant(qid, st.ID, st.Name, from.Digest())
		if err := a.save(); err != nil {
			return err
		}
		if len(st.Changes) > 0 {
			return a.updateVariant(ctx, st, qid)
		}
	case Update:
		if err := a.save(); err != nil {
			return err
		}
		return a.updateVariant(ctx, st, qid)
	case Delete:
		err := a.s.c.Questions.DeleteVariant(ctx, padapi.ID(qid), padapi.ID(st.ID))
		if err != nil && !errors.Is(err, padapi.ErrNotFound) {
			return fmt.Errorf("%s/: delete variant #%s: %w", st.Folder, st.ID, err)
		}
		a.recordVariant(qid, st.ID, "", "")
		return a.save()
	}
	return nil
}

// updateVariant sends a variant's changed fields.
func (a *applier) updateVariant(ctx context.Context, st *VariantStep, qid string) error {
	_, err := a.s.c.Questions.UpdateVariant(ctx, padapi.ID(qid), padapi.ID(st.ID), qfolder.VariantParams(st.v, st.Changes, false))
	if err != nil {
		return fmt.Errorf("%s/: update variant #%s: %w", st.Path(), st.ID, err)
	}
	a.recordVariant(qid, st.ID, st.Name, st.v.Digest())
	return a.save()
}

// createVariant creates one variant, recording the pending create in its
// variant.json first, so that a create with no answer is never made
// twice: a re-run looks for it (planVariantsPush).
func (a *applier) createVariant(ctx context.Context, st *VariantStep, qid string) error {
	v := st.v
	v.Pending = &qfolder.Pending{Since: time.Now().UTC(), Fingerprint: v.Fingerprint()}
	if err := a.writeVariantJSON(st, v); err != nil {
		return err
	}
	sv, err := a.s.c.Questions.CreateVariant(ctx, padapi.ID(qid), qfolder.VariantParams(v, nil, true))
	if errors.Is(err, padapi.ErrOutcomeUnknown) {
		return &PendingError{Folder: st.Path(), Err: err, File: qfolder.VariantFile}
	}
	if err != nil {
		v.Pending = nil
		return errors.Join(fmt.Errorf("%s/: create variant: %w", st.Path(), err), a.writeVariantJSON(st, v))
	}
	v.ID, v.Pending, st.ID = string(sv.ID), nil, string(sv.ID)
	if err := a.writeVariantJSON(st, v); err != nil {
		return fmt.Errorf("%s/: created variant #%s but could not write its id: %w", st.Path(), sv.ID, err)
	}
	a.recordVariant(qid, st.ID, st.Name, v.Digest())
	return a.save()
}

// pullVariant carries out one variant step of a Pull plan.
func (a *applier) pullVariant(st *VariantStep) error {
	switch st.Kind {
	case WriteBack:
		files, err := qfolder.RenderVariant(st.v, st.old)
		if err != nil {
			return err
		}
		var old map[string]string
		if st.old != nil {
			if old, err = qfolder.RenderVariant(st.old, st.old); err != nil {
				return err
			}
		}
		if err := a.w.Sync(st.Path(), old, files); err != nil {
			return fmt.Errorf("%s/: %w", st.Path(), err)
		}
		a.recordVariant(st.QuestionID, st.ID, st.Name, st.v.Digest())
	case Same:
		a.recordVariant(st.QuestionID, st.ID, st.Name, st.v.Digest())
	}
	return nil
}
