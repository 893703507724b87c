// list.go: the list of pads, newest change first, and where to stop it.

package archive

import (
	"context"
	"iter"

	"github.com/padinterview/padapi"
)

// byUpdate lists the pads newest change first.
var byUpdate = padapi.ListOptions{Sort: padapi.SortUpdatedDesc}

// firstPage returns the first page of the pads to archive, newest change
// first: its total says how many there are.
func (r *run) firstPage(ctx context.Context) (*padapi.Page[padapi.Pad], error) {
	if r.o.Mine {
		return r.c.Pads.List(ctx, (*padapi.PadListOptions)(&byUpdate))
	}
	return r.c.Organization.ListPads(ctx, (*padapi.OrganizationPadListOptions)(&byUpdate))
}

// allPads iterates over the pads to archive, newest change first, from
// the page opts names on, through the library's pager.
func (r *run) allPads(ctx context.Context, opts padapi.ListOptions) iter.Seq2[*padapi.Pad, error] {
	if r.o.Mine {
		return r.c.Pads.All(ctx, (*padapi.PadListOptions)(&opts))
	}
	return r.c.Organization.AllPads(ctx, (*padapi.OrganizationPadListOptions)(&opts))
}

// list hands the workers every pad the archive must fetch, until the stop
// rule (see the package doc) or the end of the list. The first page is
// read on its own, which is all a run with nothing changed needs; the
// library's pager reads on from the page it names next (Page.Next).
func (r *run) list(ctx context.Context, jobs chan<- job) error {
	first, err := r.firstPage(ctx)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.known = first.Total
	r.mu.Unlock()
	for i := range first.Items {
		if stop, err := r.consider(ctx, &first.Items[i], jobs); stop || err != nil {
			return err
		}
	}
	if next, ok := first.Next(byUpdate); ok {
		for p, err := range r.allPads(ctx, next) {
			if err != nil {
				return err
			}
			if stop, err := r.consider(ctx, p, jobs); stop || err != nil {
				return err
			}
		}
	}
	r.listedAll = true
	return nil
}

// consider hands pad p to the workers when the archive does not hold it at
// its updated_at, or reports that the list can stop there.
func (r *run) consider(ctx context.Context, p *padapi.Pad, jobs chan<- job) (stop bool, err error) {
	if r.seen[p.ID] {
		return false, nil // listed twice (the list moved under us)
	}
	if r.belowMark(p) && !r.full {
		r.mu.Lock()
		agree := r.known == r.heldActive+r.newSeen
		r.mu.Unlock()
		if agree {
			return true, nil
		}
		r.full = true
		r.emit(Progress{Kind: Relisting})
	}
	r.seen[p.ID] = true
	if p.UpdatedAt.After(r.newest) {
		r.newest = p.UpdatedAt
	}
	h, held := r.held[p.ID]
	if held && !h.deleted && h.updatedAt.Equal(p.UpdatedAt) {
		return false, nil
	}
	if !held || h.deleted {
		r.newSeen++
	}
	select {
	case jobs <- job{pad: *p, update: held}:
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// belowMark reports whether p changed before the high-water mark less the
// overlap: the archive held every such pad after the last complete run.
func (r *run) belowMark(p *padapi.Pad) bool {
	hw := r.st.mark.HighWater
	return hw != nil && p.UpdatedAt.Before(hw.Add(-r.o.Overlap))
}
