// Package archive is the interview archive engine behind padctl archive:
// a local, complete, incremental copy of an organization's interviews. It
// prints nothing; Run reports what happens through Options.Progress and
// returns a Summary, and the command renders both.
//
// The archive folder holds:
//
//	DIR/.padctl-archive                     the marker (format, high-water mark)
//	DIR/.padctl-archive.lock                held (flock) while a run works on DIR
//	DIR/index.jsonl                         one line per pad, sorted by id
//	DIR/pads/<pad>/pad.json                 the pad, as the service sent it
//	DIR/pads/<pad>/events.json              its whole event log, oldest first: one JSON
//	                                        array of each event as the service sent it
//	DIR/pads/<pad>/notes.md                 the interviewer's notes
//	DIR/pads/<pad>/<env>/PATH               each file of each environment, its final text
//	DIR/pads/<pad>/environments/<env>.json  each environment, as the service sent it
//	DIR/pads/<pad>/history/<env>/PATH.json  each file's edit-history document, as sent
//
// <pad> is the pad's ID wherever that is a safe name: letters of either
// case, digits, '-' and '_' as they are (DIR/pads/DM32JWG2), any other
// byte %xx, and when another pad of the archive has an ID that differs
// only in case, every letter of the later one %xx too, so that no two
// folders share a name on a disk that ignores case. An archive written
// with the earlier names (every upper-case letter %xx) has its folders
// renamed on its next run. <env> is the environment ID the pad lists, as
// safefile.Name maps it. A pad's folder is written by the one pad writer
// that padctl pads export uses too (WritePad), so the two are laid out
// alike. The documents are the service's bytes (padapi.WithResponse,
// padapi.WithJSON for the events, Pads.HistoryTo for the edit histories,
// which are checked as JSON and never decoded into operations), passed
// through Options.Redact and nothing else. An index line holds the pad's
// id, title, state, updated_at (as the list sent it), its folder, the
// SHA-256 of each file written, and "deleted": true once the pad is gone
// from the service (its folder stays).
//
// Incremental: a run lists the pads by updated_at, newest first, fetches
// each pad the archive does not hold at that updated_at, and stops at the
// first pad older than the high-water mark less Options.Overlap (default
// two minutes, for the list's lag and clock skew), once the list's total
// agrees with what the archive holds. Completeness is decided by identity,
// not by count: a run lists every pad (a full walk) when the total
// disagrees, on Options.Full, and when the last full walk is FullEvery (a
// day) old; a full walk fetches every pad the archive lacks, wherever it
// sits in the list, and marks the pads gone. Between full walks, a run
// with nothing changed sends one request, or two. The mark is the newest
// updated_at of the last run that completed with no failure; a run cut
// short or with a failure leaves it as it was (so while a pad fails on
// every run, each run reads the list further down, up to its end when the
// failing pad is below the mark).
//
// Resumable: a pad's folder is built under a temporary name and renamed
// into place whole, so it is complete or absent; its index line is written
// only after. The index is written every few seconds and at the end. Killed
// at any moment, the next run removes the temporary folders, drops the
// index lines whose folder is gone and the folders the index does not name
// (they are fetched again), and finishes the job.
//
// Safe on disk: every write goes through internal/lib/safefile below DIR (no
// symbolic link, FIFO or hard link is written through), every text written
// passes Options.Redact, and Run refuses a DIR that is neither empty nor an
// archive.
package archive

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/padinterview/padapi"
)

// The bounds of Options.Concurrency. By default (Concurrency 0) a run
// adapts: it starts with DefaultConcurrency requests in flight, adds one
// after each round of answers with no 429, up to MaxConcurrency, and
// halves them on a 429, besides the pause every 429 brings.
//
// Chosen by measurement (BenchmarkConcurrencyBehindLatency: 300 pads
// behind 20 ms each way, 2 cores under load): a fixed 4 took 2.5 times
// the best schedule of its requests on 8 connections, 8 took 1.4 to 1.9
// times, 12 and 16 about 1.0 to 1.1. So the default climbs to 16 where the
// service takes it, and the service's 429 is the brake: twice the
// requests of a fixed 8 at once, and half as many each time it says too
// many.
const (
	DefaultConcurrency = 8
	MaxConcurrency     = 16
)

// DefaultOverlap is how far below the high-water mark a run keeps listing.
const DefaultOverlap = 2 * time.Minute

// FullEvery is how old the last full walk of the list may be before a run
// lists every pad again (see Options.Full).
const FullEvery = 24 * time.Hour

// Options choose what Run archives and how.
type Options struct {
	// Mine archives the caller's own pads instead of the organization's.
	Mine bool
	// Concurrency is how many requests are in flight at once (1 to 16),
	// each until its answer's body is read; twice as many pads are worked
	// on at once. 0 adapts (see DefaultConcurrency): 8 at first, up to
	// 16, halved on a 429.
	Concurrency int
	// NoHistory skips the edit-history documents.
	NoHistory bool
	// Overlap is how far below the high-water mark a run keeps listing
	// (0: DefaultOverlap).
	Overlap time.Duration
	// Full lists every pad, whatever the totals say: a pad deleted and
	// another one listed late below the high-water mark leave the totals
	// as they were, and only a walk of the whole list finds them. A run
	// does so anyway when the last full walk is FullEvery old, and when
	// the list's total disagrees with what the archive holds.
	Full bool
	// Progress, when not nil, is told of each event, one call at a time.
	Progress func(Progress)
	// Redact is applied to every text before it is written (the API key
	// redactor); nil writes texts as they are.
	Redact func(string) string
	// Gate, when not nil, is the transport the client sends through: it
	// pauses every request on a 429 and counts them (Summary.Requests).
	Gate *Gate

	adaptive   bool          // Concurrency was 0: the Gate adapts it
	crash      func() bool   // tests: see store.crash
	flushEvery time.Duration // tests: 0 is the package's flushEvery
}

// Summary is what a run did.
type Summary struct {
	// Added and Updated count the pads fetched: new to the archive, or
	// changed since. Unchanged counts the pads it holds and kept as they
	// were; Deleted the pads found gone from the service this run; Failed
	// the pads that could not be fetched or written (the next run tries
	// them again).
	Added, Updated, Unchanged, Deleted, Failed int
	// Requests counts the requests sent (with a Gate; else 0).
	Requests int
	// Seconds is how long the run took.
	Seconds float64
}

// Kind names an event of a run.
type Kind string

// The events Run reports.
const (
	// PadDone: a pad was fetched and its folder written (Updated tells
	// whether the archive held it before).
	PadDone Kind = "pad"
	// PadFailed: a pad could not be archived; Err says why.
	PadFailed Kind = "failed"
	// PadDeleted: a pad is gone from the service; it stays, marked.
	PadDeleted Kind = "deleted"
	// FileSkipped: a file of a pad was not written (its path or ID from
	// the service is not one a folder can hold, or the link is refused);
	// Err says why. The rest of the pad is.
	FileSkipped Kind = "skipped"
	// Redacted: the redactor changed a text before it was written.
	Redacted Kind = "redacted"
	// Paused: the service said 429; every request waits Wait.
	Paused Kind = "paused"
	// Relisting: the list's total disagrees with the archive: the run
	// lists every pad to find those gone.
	Relisting Kind = "relisting"
)

// Progress is one event of a run.
type Progress struct {
	Kind Kind
	// Pad is the pad concerned, or "".
	Pad padapi.ID
	// Path is the file concerned, relative to DIR, or "".
	Path string
	// Updated: for PadDone, the archive held the pad before.
	Updated bool
	// Err is why, for PadFailed and FileSkipped.
	Err error
	// Wait is the pause, for Paused.
	Wait time.Duration
	// Done counts the pads fetched or failed so far; Known the pads the
	// service's list says it has (0 until the first page).
	Done, Known int
}

// ErrNotArchive is returned for a DIR that is neither empty nor an archive.
var ErrNotArchive = errors.New("not an archive folder (no .padctl-archive marker) and not empty")

// ErrLocked is returned when another run holds DIR.
var ErrLocked = errors.New("another archive run is working on this folder")

// normalize checks o and fills in the defaults.
func (o Options) normalize() (Options, error) {
	switch {
	case o.Concurrency == 0:
		// Adaptive: the workers are as many as the most it grows to.
		o.Concurrency, o.adaptive = MaxConcurrency, true
	case o.Concurrency < 1 || o.Concurrency > MaxConcurrency:
		return o, fmt.Errorf("concurrency %d: need 1 to %d", o.Concurrency, MaxConcurrency)
	}
	if o.Overlap <= 0 {
		o.Overlap = DefaultOverlap
	}
	if o.Redact == nil {
		o.Redact = func(s string) string { return s }
	}
	return o, nil
}

// Run brings the archive in dir up to date with the service that c talks
// to, and returns what it did. A run cut short by ctx keeps every pad
// finished so far and returns ctx's error with the summary; the next run
// goes on from there.
func Run(ctx context.Context, c *padapi.Client, dir string, opts Options) (Summary, error) {
	start := time.Now()
	o, err := opts.normalize()
	if err != nil {
		return Summary{}, err
	}
	st, err := openStore(dir, o.Redact)
	if err != nil {
		return Summary{}, err
	}
	defer st.close()
	st.crash = o.crash
	r := newRun(c, st, o)
	before := 0
	if o.Gate != nil {
		before = o.Gate.Requests()
		n := o.Concurrency
		if o.adaptive {
			n = DefaultConcurrency
		}
		o.Gate.configure(n, o.adaptive, func(d time.Duration) { r.emit(Progress{Kind: Paused, Wait: d}) })
	}
	err = r.run(ctx)
	sum := r.summary()
	if o.Gate != nil {
		sum.Requests = o.Gate.Requests() - before
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, err
}
