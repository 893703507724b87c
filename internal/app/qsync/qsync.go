// Package qsync is the question sync engine behind padctl's questions
// pull, diff and apply: it compares a folder of questions (package
// qfolder) with the service, returns the difference as a Plan (steps, each
// with its reason), and carries a plan out with Apply, reporting each
// step's outcome through a callback. It prints nothing: pull, diff and
// apply are three renderings of plans, and a dry run is a plan not
// applied.
//
// A run that changes the folder or the service holds the folder's lock
// (Syncer.Lock) from its plan to its end, so that two applies on one
// folder never both create a question.
package qsync

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// clockSlack widens the search for a create with no answer (the question's
// created_at comes from the service's clock, the pending record's time
// from ours), and bounds how far in the future a pending create's time may
// be before it is refused as impossible.
const clockSlack = 5 * time.Minute

// maxSettleRounds bounds how often Apply waits for lists to catch up.
const maxSettleRounds = 3

// Mode says which way a plan syncs.
type Mode int

const (
	// Push makes the service match the folder (diff and apply).
	Push Mode = iota
	// Pull makes the folder match the service.
	Pull
)

// Options are the choices of a sync.
type Options struct {
	// Settle is how long the service's lists may lag behind a create: a
	// create with no answer is looked for that long before it is made
	// again. Negative is taken as 0.
	Settle time.Duration
	// Prune plans deleting the questions the folder recorded and no
	// longer holds (Push).
	Prune bool
	// Force overwrites files changed in the folder since the last sync
	// (Pull).
	Force bool
	// IDs limits a pull to these questions; none pulls every question.
	IDs []string
	// Redact, when set, is applied to every text a pull writes into the
	// folder, so that no secret (the API key) lands in a file; Apply
	// reports each file where it changed something.
	Redact func(string) string
}

// Syncer syncs one folder of questions with the service.
type Syncer struct {
	c    *padapi.Client
	dir  string
	o    Options
	lock *lockFile
	// sleep waits d or until ctx ends; a test may replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a Syncer for the folder dir, talking to the service through c.
func New(c *padapi.Client, dir string, o Options) *Syncer {
	o.Settle = max(o.Settle, 0)
	return &Syncer{c: c, dir: dir, o: o, sleep: sleepOrDone}
}

// sleepOrDone waits d or until ctx ends.
func sleepOrDone(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// ErrNotLocked is Apply's answer to a plan made without the folder's lock:
// another run could have changed the folder or the service since.
var ErrNotLocked = errors.New("qsync: the plan was made without the folder's lock (call Lock before Plan)")

// BadFolderError is a folder that cannot be synced as it is: a problem in
// its files (a *qfolder.BadFolderError) or a pending create that cannot
// be. Nothing was sent.
type BadFolderError struct {
	Err error
}

// Error returns the problems.
func (e *BadFolderError) Error() string { return e.Err.Error() }

// Unwrap returns the problems as an error.
func (e *BadFolderError) Unwrap() error { return e.Err }

// read reads and checks the whole folder.
func (s *Syncer) read(missingOK bool) (*qfolder.Library, error) {
	lib, err := qfolder.Read(s.dir, missingOK)
	if err != nil {
		return nil, &BadFolderError{err}
	}
	return lib, nil
}

// remote is the service's questions, as one list answers them.
type remote struct {
	byID  map[string]*padapi.Question
	order []*padapi.Question
}

// newRemote indexes qs by id, keeping the first of any id listed twice
// (pages shift under a create).
func newRemote(qs []*padapi.Question) *remote {
	r := &remote{byID: map[string]*padapi.Question{}}
	for _, q := range qs {
		if _, dup := r.byID[string(q.ID)]; dup {
			continue
		}
		r.byID[string(q.ID)] = q
		r.order = append(r.order, q)
	}
	return r
}

// fetch lists every question the key can see.
func (s *Syncer) fetch(ctx context.Context) (*remote, error) {
	var qs []*padapi.Question
	for q, err := range s.c.Questions.All(ctx, nil) {
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	return newRemote(qs), nil
}

// checkPending refuses a pending create that cannot be: one with no time,
// or one sent later than now (beyond the clocks' slack). Treating it as a
// create still settling would make apply a silent no-op.
func checkPending(f *qfolder.Folder, now time.Time) error {
	p := f.Pending
	if p == nil {
		return nil
	}
	if p.Since.IsZero() || p.Since.After(now.Add(clockSlack)) {
		return &BadFolderError{fmt.Errorf("%s/%s: pending_create.since %q is impossible (in the future, or unset): "+
			"apply records the time it sends a create; if no apply is running, check whether the service holds the question, "+
			"then set the id or remove pending_create", f.Name, qfolder.QuestionFile, p.Since.Format(time.RFC3339))}
	}
	return nil
}

// findCreatedBy returns the question a pending create made, if the list
// shows it: created since the create was sent (give or take the clocks'
// difference), with what it sent, and held by no other folder. Should the
// service hold two, it is the earliest.
func findCreatedBy(r *remote, pending *qfolder.Pending, claimed map[string]bool) *padapi.Question {
	since := pending.Since.Add(-clockSlack)
	var found *padapi.Question
	for _, q := range r.order {
		if claimed[string(q.ID)] || (!q.CreatedAt.IsZero() && q.CreatedAt.Before(since)) {
			continue
		}
		if qfolder.FromService(q).Fingerprint() != pending.Fingerprint {
			continue
		}
		if found == nil || q.CreatedAt.Before(found.CreatedAt) {
			found = q
		}
	}
	return found
}
