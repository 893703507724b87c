package qsync

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// pullPlanner holds what planning a pull needs between questions.
type pullPlanner struct {
	s    *Syncer
	p    *Plan
	byID map[string]*qfolder.Folder
	// recs are the state's records, with those an adopt will write.
	recs  map[string]qfolder.Record
	taken map[string]bool // folder names in use, lower-cased
}

// planPull plans writing the service's questions (those Options.IDs
// names, or all) into the folder. A folder changed here since the last
// sync is kept (KeepLocal) unless Options.Force is set.
func (s *Syncer) planPull(ctx context.Context) (*Plan, error) {
	lib, err := s.read(true)
	if err != nil {
		return nil, err
	}
	if err := s.checkOrigin(lib, s.origin("")); err != nil {
		return nil, err
	}
	qs, org, err := s.pullQuestions(ctx)
	if err != nil {
		return nil, err
	}
	cur := s.origin(org)
	if err := s.checkOrigin(lib, cur); err != nil {
		return nil, err
	}
	pp := &pullPlanner{s: s, p: &Plan{Mode: Pull, lib: lib, locked: s.lock != nil, origin: mergeOrigin(lib.State.Origin, cur)},
		byID: map[string]*qfolder.Folder{}, recs: map[string]qfolder.Record{}, taken: map[string]bool{}}
	for id, rec := range lib.State.Questions {
		pp.recs[id] = rec
	}
	for _, f := range lib.Folders {
		pp.taken[strings.ToLower(f.Name)] = true
		if f.Q.ID != "" {
			pp.byID[f.Q.ID] = f
		}
	}
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		pp.taken[strings.ToLower(e.Name())] = true
	}
	if err := pp.adoptPending(qs); err != nil {
		return nil, err
	}
	pulled := map[string]bool{}
	for _, q := range qs {
		if pulled[string(q.ID)] {
			continue
		}
		pulled[string(q.ID)] = true
		if err := pp.plan(q); err != nil {
			return nil, err
		}
	}
	if err := pp.planVariantsPull(ctx); err != nil {
		return nil, err
	}
	if len(s.o.IDs) == 0 {
		for _, f := range lib.Folders {
			if f.Q.ID != "" && !pulled[f.Q.ID] {
				pp.p.Steps = append(pp.p.Steps, Step{Kind: Skip, Reason: ReasonNotListed, Folder: f.Name, ID: f.Q.ID, Title: f.Q.Title, folder: f})
			}
		}
	}
	return pp.p, nil
}

// pullQuestions fetches the questions a pull writes, and the
// organization they name ("" when none does).
func (s *Syncer) pullQuestions(ctx context.Context) ([]*padapi.Question, string, error) {
	if len(s.o.IDs) == 0 {
		r, err := s.fetch(ctx, nil)
		if err != nil {
			return nil, "", err
		}
		return r.order, r.org, nil
	}
	r := newRemote()
	var qs []*padapi.Question
	for _, id := range s.o.IDs {
		q, err := s.c.Questions.Get(ctx, padapi.ID(id))
		if err != nil {
			return nil, "", err
		}
		r.noteOrg(q)
		qs = append(qs, q)
	}
	return qs, r.org, nil
}

// adoptPending plans writing into each folder with a pending create the
// id of the question that create made, when qs holds it: a folder of its
// own would make the next apply create it a second time.
func (pp *pullPlanner) adoptPending(qs []*padapi.Question) error {
	r := &remote{order: qs}
	taken := claimed(pp.p.lib)
	now := time.Now()
	for i, f := range pp.p.lib.Folders {
		if f.Q.ID != "" || f.Pending == nil {
			continue
		}
		if err := checkPending(f, now); err != nil {
			return err
		}
		found := findCreatedBy(r, f.Pending, taken)
		if found == nil {
			continue
		}
		id := string(found.ID)
		taken[id] = true
		adopted := *f
		adopted.Q.ID, adopted.Pending = id, nil
		pp.p.lib.Folders[i] = &adopted
		pp.byID[id] = &adopted
		rec := qfolder.Record{Folder: f.Name, Digests: qfolder.FromService(found).Digests(), UpdatedAt: found.UpdatedAt}
		rec.Digests[qfolder.FieldFiles] = ""
		pp.recs[id] = rec
		st := folderStep(&adopted, found)
		st.Kind, st.Reason, st.Since = Adopt, ReasonPendingFound, f.Pending.Since
		pp.p.Steps = append(pp.p.Steps, st)
	}
	return nil
}

// DetailBadID is a Skip's Detail for a question whose id no folder can
// hold (not a positive integer).
const DetailBadID = "not a positive integer"

// unrepresentable says why a folder cannot hold q, or "".
func unrepresentable(q *padapi.Question) string {
	if _, err := qfolder.Render(qfolder.Question{ID: string(q.ID), Title: "t", Language: "l"}, nil, nil); err != nil {
		return DetailBadID
	}
	svc := qfolder.FromService(q)
	total := 0
	for _, f := range qfolder.Fields {
		v := svc.Value(f)
		total += len(v)
		if strings.ContainsRune(v, 0) {
			return "its " + f + " holds a NUL byte"
		}
	}
	if total > qfolder.MaxQuestionBytes {
		return fmt.Sprintf("over %d bytes of text", qfolder.MaxQuestionBytes)
	}
	if strings.TrimSpace(q.Title) == "" || strings.TrimSpace(q.Language) == "" {
		return "it has no title or no language, which a question folder needs"
	}
	return ""
}

// plan plans one question of the service.
func (pp *pullPlanner) plan(q *padapi.Question) error {
	id := string(q.ID)
	if why := unrepresentable(q); why != "" {
		pp.p.Steps = append(pp.p.Steps, Step{Kind: Skip, Reason: ReasonUnrepresentable, ID: id, Title: q.Title, Detail: why, svc: q})
		return nil
	}
	svc, redacted := pp.s.redact(qfolder.FromService(q))
	f, rec := pp.byID[id], pp.recs[id]
	if f == nil {
		name := qfolder.FolderName(svc.Title, id, func(n string) bool { return pp.taken[strings.ToLower(n)] })
		pp.taken[strings.ToLower(name)] = true
		f = &qfolder.Folder{Name: name, Q: svc}
		st := Step{Kind: WriteBack, Reason: ReasonNew, Folder: name, ID: id, Title: svc.Title, Language: svc.Language, svc: q, want: svc}
		st.fileDigest = rec.Digests[qfolder.FieldFiles]
		st.NoCode = q.Contents == "" && st.fileDigest == ""
		st.Redacted = redactedFiles(f, redacted)
		pp.p.Steps = append(pp.p.Steps, st)
		return nil
	}
	pp.p.Steps = append(pp.p.Steps, pp.planFolder(f, q, svc, redacted))
	return nil
}

// planFolder plans pulling the service's question q (svc, as the folder
// will hold it) into the folder f that holds it.
func (pp *pullPlanner) planFolder(f *qfolder.Folder, q *padapi.Question, svc qfolder.Question, redacted []string) Step {
	rec, known := pp.recs[f.Q.ID]
	filesKnown := rec.Digests[qfolder.FieldFiles]
	st := folderStep(f, q)
	st.Changes = qfolder.Compare(f.Q, svc, filesKnown)
	st.want = svc
	if svc.Contents == "" && f.Q.Files != nil {
		// The service shows no files: keep the folder's.
		st.want.Files = f.Q.Files
		// The service still holds the files last recorded, if any: no
		// answer shows them, so the record is all there is.
		st.fileDigest = filesKnown
	}
	var conflicts []string
	for _, c := range st.Changes {
		if c.Field == qfolder.FieldFiles && st.want.Files != nil {
			continue // files are never pulled: no answer shows them
		}
		if !known || rec.Digests[c.Field] != f.Q.Digest(c.Field) {
			conflicts = append(conflicts, path.Join(f.Name, fileOf(f, c.Field)))
		}
	}
	// Ifs rather than a switch: gremlins sees no coverage of a case.
	if len(conflicts) > 0 && !pp.s.o.Force {
		slices.Sort(conflicts)
		st.Kind, st.Reason, st.Files = KeepLocal, ReasonChangedHere, slices.Compact(conflicts)
		st.Title = q.Title
		return st
	}
	if len(st.Changes) == 0 {
		st.Kind, st.Reason = Same, ReasonMatches
		return st
	}
	st.Kind, st.Reason, st.Title = WriteBack, ReasonChangedThere, svc.Title
	st.Redacted = redactedFiles(f, redacted)
	return st
}

// redact applies Options.Redact to every text of q, returning the fields
// where it changed something.
func (s *Syncer) redact(q qfolder.Question) (qfolder.Question, []string) {
	if s.o.Redact == nil {
		return q, nil
	}
	var fields []string
	texts := []struct {
		field string
		v     *string
	}{
		{qfolder.FieldTitle, &q.Title}, {qfolder.FieldLanguage, &q.Language},
		{qfolder.FieldPrompt, &q.AIAssistPrompt}, {qfolder.FieldDescription, &q.Description},
		{qfolder.FieldContents, &q.Contents}, {qfolder.FieldSolution, &q.Solution},
	}
	for _, t := range texts {
		if r := s.o.Redact(*t.v); r != *t.v {
			*t.v = r
			fields = append(fields, t.field)
		}
	}
	q.Instructions = slices.Clone(q.Instructions)
	for i, in := range q.Instructions {
		if r := s.o.Redact(in.Instructions); r != in.Instructions {
			q.Instructions[i].Instructions = r
			fields = append(fields, qfolder.FieldInstructions)
		}
	}
	return q, fields
}

// redactedFiles names the files of f (as written) that hold fields.
func redactedFiles(f *qfolder.Folder, fields []string) []string {
	var out []string
	for _, field := range fields {
		out = append(out, path.Join(f.Name, fileOf(f, field)))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
