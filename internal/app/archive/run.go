// run.go: one run: the list, the workers, and the index they advance.

package archive

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/padinterview/padapi"
)

// flushEvery is how often the index is written while a run goes on.
const flushEvery = 2 * time.Second

// maxAttempts is how many times a pad refused with 429 is tried in a run.
const maxAttempts = 3

// heldPad is what the archive held of a pad when the run began.
type heldPad struct {
	updatedAt time.Time
	deleted   bool
}

// job is a pad to fetch, as the list gave it.
type job struct {
	pad    padapi.Pad
	update bool // the archive holds the pad (changed since, or deleted)
}

// result is a job done: its index line, or why not.
type result struct {
	job   job
	entry *entry
	err   error
}

// run is one Run.
type run struct {
	c  *padapi.Client
	st *store
	o  Options

	// Read-only once the run starts: what the archive held.
	held       map[padapi.ID]heldPad
	heldActive int

	// The lister's own (one goroutine).
	seen      map[padapi.ID]bool
	newSeen   int
	full      bool // listing to the end, to find the pads gone
	listedAll bool
	newest    time.Time

	flushEvery time.Duration
	start      time.Time // when the run began

	mu    sync.Mutex // guards what follows, and serializes Progress
	sum   Summary
	done  int
	known int
}

func newRun(c *padapi.Client, st *store, o Options) *run {
	r := &run{c: c, st: st, o: o, held: map[padapi.ID]heldPad{}, seen: map[padapi.ID]bool{}, flushEvery: flushEvery, start: time.Now()}
	if o.flushEvery > 0 {
		r.flushEvery = o.flushEvery
	}
	// A full walk: asked for, or the last one is a day old (or there has
	// been none).
	last := st.mark.LastFull
	r.full = o.Full || last == nil || !r.start.Before(last.Add(FullEvery))
	for id, e := range st.index {
		r.held[id] = heldPad{updatedAt: e.UpdatedAt, deleted: e.Deleted}
		if !e.Deleted {
			r.heldActive++
		}
	}
	return r
}

// emit tells Options.Progress of ev.
func (r *run) emit(ev Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev.Done, ev.Known = r.done, r.known
	// A pad ID or a path from the service may hold the key: what the
	// caller prints is redacted, as every file is.
	ev.Pad, ev.Path = padapi.ID(r.o.Redact(string(ev.Pad))), r.o.Redact(ev.Path)
	if r.o.Progress != nil {
		r.o.Progress(ev)
	}
}

// run lists the pads, fetches those it must with the workers, and advances
// the index and the mark as far as what is done allows.
func (r *run) run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan job)
	// A slot for each worker's result: while the index is written (an
	// fsync), the workers go on with their next pad.
	results := make(chan result, 2*r.o.Concurrency)
	var (
		wg      sync.WaitGroup
		listErr error
	)
	for range 2 * r.o.Concurrency {
		wg.Go(func() {
			for j := range jobs {
				results <- r.archivePad(ctx, j)
			}
		})
	}
	go func() {
		listErr = r.list(ctx, jobs)
		close(jobs)
		wg.Wait()
		close(results)
	}()
	err := r.collect(results, cancel)
	// results is closed: listErr is set.
	if err != nil {
		return err
	}
	return r.finish(ctx, listErr)
}

// collect puts each pad done into the index, writing the index every few
// seconds. An index that cannot be written stops the run.
func (r *run) collect(results <-chan result, cancel context.CancelFunc) error {
	var saveErr error
	last := time.Now()
	for res := range results {
		if saveErr != nil {
			continue // draining after a failed write
		}
		r.record(res)
		if time.Since(last) >= r.flushEvery {
			last = time.Now()
			if saveErr = r.st.saveIndex(); saveErr != nil {
				cancel()
			}
		}
	}
	return saveErr
}

// record notes one pad done or failed.
func (r *run) record(res result) {
	id := res.job.pad.ID
	if res.err == nil {
		res.err = r.st.set(res.entry)
	}
	if res.err != nil {
		if errors.Is(res.err, context.Canceled) || errors.Is(res.err, context.DeadlineExceeded) {
			return // cut short, not failed: the next run fetches it
		}
		r.mu.Lock()
		r.sum.Failed++
		r.done++
		r.mu.Unlock()
		r.emit(Progress{Kind: PadFailed, Pad: id, Err: res.err})
		return
	}
	r.mu.Lock()
	if res.job.update {
		r.sum.Updated++
	} else {
		r.sum.Added++
	}
	r.done++
	r.mu.Unlock()
	r.emit(Progress{Kind: PadDone, Pad: id, Path: res.entry.Dir, Updated: res.job.update})
}

// finish writes the index, marks the pads gone when the list was read to
// its end (and notes when that walk began), and advances the mark when
// the run is complete.
func (r *run) finish(ctx context.Context, listErr error) error {
	complete := listErr == nil && ctx.Err() == nil
	if complete && r.listedAll {
		if err := r.markDeleted(); err != nil {
			return err
		}
	}
	if err := r.st.saveIndex(); err != nil {
		return err
	}
	if listErr != nil {
		return listErr
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r.mu.Lock()
	failed := r.sum.Failed
	r.mu.Unlock()
	save := false
	if r.listedAll {
		r.st.mark.LastFull, save = &r.start, true
	}
	if hw := r.st.mark.HighWater; failed == 0 && !r.newest.IsZero() && (hw == nil || r.newest.After(*hw)) {
		r.st.mark.HighWater, save = &r.newest, true
	}
	if save {
		return r.st.saveMarker()
	}
	return nil
}

// markDeleted marks the pads of the index that a whole list did not name.
func (r *run) markDeleted() error {
	for id, e := range r.st.index {
		if !r.seen[id] && !e.Deleted {
			if err := r.st.setDeleted(id); err != nil {
				return err
			}
			r.mu.Lock()
			r.sum.Deleted++
			r.mu.Unlock()
			r.emit(Progress{Kind: PadDeleted, Pad: id, Path: e.Dir})
		}
	}
	return nil
}

// summary counts what the run did.
func (r *run) summary() Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sum
	active := 0
	for _, e := range r.st.index {
		if !e.Deleted {
			active++
		}
	}
	s.Unchanged = max(active-s.Added-s.Updated, 0)
	return s
}
