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
	"strings"
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
	// (Pull), and plans against a service or organization other than the
	// library's origin (every mode; see OriginError).
	Force bool
	// Variants makes a pull list every question's variants (one request
	// each) and write them into the folder; without it, a pull syncs the
	// variants of the folders that hold or recorded some, and a no-change
	// pull costs about a list of the questions.
	Variants bool
	// IDs limits a pull to these questions; none pulls every question.
	IDs []string
	// BaseURL is the service's base URL, recorded in the library as its
	// origin and checked against the one recorded: "" neither records nor
	// checks one.
	BaseURL string
	// CacheFile, when set, is the folder's read cache: a file outside
	// the folder where a read records what it read of each question
	// folder with its files' sizes and times, so that the next read takes
	// the folders that did not change from it rather than reading their
	// files (qfolder.ReadCached). Losing it costs time, nothing else.
	CacheFile string
	// MaxHeldBytes bounds the text a plan keeps of the service's
	// questions (DefaultMaxHeldBytes when 0): a diff or apply keeps only
	// the questions the folder holds or may have created, a pull those it
	// writes.
	MaxHeldBytes int64
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
	// cacheStats are the last read's.
	cacheStats qfolder.CacheStats
	// sleep waits d or until ctx ends; a test may replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a Syncer for the folder dir, talking to the service through c.
func New(c *padapi.Client, dir string, o Options) *Syncer {
	o.Settle = max(o.Settle, 0)
	if o.MaxHeldBytes <= 0 {
		o.MaxHeldBytes = DefaultMaxHeldBytes
	}
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

// Lines returns the problems, one a line.
func (e *BadFolderError) Lines() []string { return strings.Split(e.Err.Error(), "\n") }

// read reads and checks the whole folder, through the read cache when
// Options.CacheFile names one.
func (s *Syncer) read(missingOK bool) (*qfolder.Library, error) {
	lib, stats, err := qfolder.ReadCached(s.dir, missingOK, s.o.CacheFile)
	s.cacheStats = stats
	if err != nil {
		return nil, &BadFolderError{err}
	}
	return lib, nil
}

// remote is what a plan keeps of the service's list: the questions it
// needs in full (those the folder or its state file hold, and those a
// pending create may have made), in list order; every other question is
// read, looked at and dropped, so that memory follows the folder, not the
// service's list.
type remote struct {
	byID  map[string]*padapi.Question
	order []*padapi.Question
	// org is the organization the listed questions name (the first that
	// names one), "" when none did.
	org string
	// held counts the bytes of text kept, against Options.MaxHeldBytes.
	held int64
}

// DefaultMaxHeldBytes is Options.MaxHeldBytes's default.
const DefaultMaxHeldBytes = 256 << 20

// ErrTooMuchHeld is the error (matched with errors.Is) of a plan whose
// service sent more text for the questions the plan must keep than
// Options.MaxHeldBytes allows.
var ErrTooMuchHeld = errors.New("the plan's byte budget is spent")

// newRemote returns an empty remote.
func newRemote() *remote { return &remote{byID: map[string]*padapi.Question{}} }

// add keeps a plan's copy of q (the fields a plan reads), unless an
// earlier answer of the list already held its id (pages shift under a
// create): the first is kept. It counts the bytes kept against limit.
func (r *remote) add(q *padapi.Question, limit int64) error {
	id := string(q.ID)
	if _, dup := r.byID[id]; dup {
		return nil
	}
	kept := &padapi.Question{
		ID: q.ID, Title: q.Title, Language: q.Language, Description: q.Description,
		CandidateInstructions: q.CandidateInstructions, Contents: q.Contents, Solution: q.Solution,
		AIAssistPrompt: q.AIAssistPrompt, CreatedAt: q.CreatedAt, UpdatedAt: q.UpdatedAt,
	}
	n := int64(len(id) + len(q.Title) + len(q.Language) + len(q.Description) + len(q.Contents) + len(q.Solution) + len(q.AIAssistPrompt) + 200)
	for _, in := range q.CandidateInstructions {
		n += int64(len(in.Instructions) + 16)
	}
	if r.held+n > limit {
		return fmt.Errorf("%w: the service's questions a plan must keep hold more than its %d MiB of text (after %d of them); "+
			"a diff or apply keeps only the questions the folder holds or may have created, a pull every question it writes", ErrTooMuchHeld, limit>>20, len(r.order))
	}
	r.held += n
	r.byID[id] = kept
	r.order = append(r.order, kept)
	return nil
}

// maxOrgName bounds the organization name a library records.
const maxOrgName = 256

// fetch lists every question the key can see, keeping those keep wants
// (nil: every one). The library's iterator pages ahead as the client's
// WithConcurrentPages allows.
func (s *Syncer) fetch(ctx context.Context, keep func(*padapi.Question) bool) (*remote, error) {
	r := newRemote()
	for q, err := range s.c.Questions.All(ctx, nil) {
		if err != nil {
			return nil, err
		}
		r.noteOrg(q)
		if keep != nil && !keep(q) {
			continue
		}
		if err := r.add(q, s.o.MaxHeldBytes); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// noteOrg notes the organization q names, if none was noted yet.
func (r *remote) noteOrg(q *padapi.Question) {
	if r.org == "" && strings.TrimSpace(q.OrganizationName) != "" && len(q.OrganizationName) <= maxOrgName {
		r.org = strings.TrimSpace(q.OrganizationName)
	}
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
