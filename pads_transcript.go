// pads_transcript.go: Transcript, everything about one interview in one call.

package padapi

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
)

// Transcript is everything the service keeps about one interview: the pad
// (title, notes, participants), its whole event log, and every environment
// with the final code of each file.
type Transcript struct {
	// Pad is the pad as Pads.Get returns it.
	Pad *Pad
	// Events is the pad's whole event log, every page of it, oldest
	// first (the service's order for SortCreatedAsc), as a transcript
	// reads.
	Events []PadEvent
	// Environments are the pad's environments, each once, in the order
	// the pad first lists them (Pad.PadEnvironmentIDs, then
	// Pad.ActiveEnvironmentID when it is not among them).
	Environments []PadEnvironment
}

// transcriptWorkers is how many environments, and how many pages of
// events, Transcript fetches at once.
const transcriptWorkers = 8

// Transcript returns one pad with its event log and environments: the text
// dump of an interview after the fact. It reads the pad, then its events
// and its environments at the same time (up to 8 pages of events and 8
// environments at once, whatever WithConcurrentPages says), and fails as a
// whole on the first error, cancelling the rest. An environment the pad
// lists more than once is read once: the cost follows the pad's distinct
// environments, however long its list.
func (s *PadsService) Transcript(ctx context.Context, id ID) (*Transcript, error) {
	pad, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	ids := transcriptEnvironments(pad)
	for _, envID := range ids {
		// An ID that Environment would refuse came from the service, not
		// the caller: it is a bad answer, not ErrInvalidArgument.
		if _, err := resourcePath("/api/pad_environments", envID); err != nil {
			return nil, fmt.Errorf("padapi: GET /api/pads/%s: the pad lists environment ID %q, which names no environment", url.PathEscape(string(pad.ID)), envID)
		}
	}
	events, err := resourcePath("/api/pads", pad.ID)
	if err != nil {
		return nil, err
	}
	t := &Transcript{Pad: pad, Events: []PadEvent{}, Environments: make([]PadEnvironment, len(ids))}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		next  atomic.Int64 // the index in ids of the next environment to read
	)
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	wg.Go(func() {
		// Oldest first: the service's default is newest first, which
		// reads a transcript backwards.
		for ev, err := range allPages[PadEvent](ctx, s.client, events+"/events", "events", (&ListOptions{Sort: SortCreatedAsc}).query(), transcriptWorkers) {
			if err != nil {
				fail(err)
				return
			}
			t.Events = append(t.Events, *ev)
		}
	})
	// A fixed number of workers take the environments in turn. Once the
	// context has ended, each remaining read returns its error at once,
	// without a request: so a caller's context that ends after every other
	// part has arrived still fails the call, rather than leaving
	// environments empty in a success.
	for range min(transcriptWorkers, len(ids)) {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(ids) {
					return
				}
				env, err := s.Environment(ctx, ids[i])
				if err != nil {
					fail(err)
					return
				}
				t.Environments[i] = *env
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return t, nil
}

// transcriptEnvironments returns the environments pad lists, each once, in
// the order it first lists them: Pad.PadEnvironmentIDs, then
// Pad.ActiveEnvironmentID when it is not among them. It holds the distinct
// IDs only, however long the pad's list.
func transcriptEnvironments(pad *Pad) []ID {
	var ids []ID
	seen := make(map[ID]struct{})
	add := func(id ID) {
		if _, ok := seen[id]; !ok {
			seen[id] = struct{}{}
			ids = append(ids, id)
		}
	}
	for _, id := range pad.PadEnvironmentIDs {
		add(id)
	}
	if a := pad.ActiveEnvironmentID; a != nil && *a != "" {
		add(*a)
	}
	return ids
}
