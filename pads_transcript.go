// pads_transcript.go: Transcript, everything about one interview in one call.

package padapi

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"sync"
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
	// Environments are the pad's environments, in the order the pad lists
	// them (Pad.PadEnvironmentIDs, then Pad.ActiveEnvironmentID when it is
	// not among them).
	Environments []PadEnvironment
}

// transcriptWorkers is how many environments, and how many pages of
// events, Transcript fetches at once.
const transcriptWorkers = 8

// Transcript returns one pad with its event log and environments: the text
// dump of an interview after the fact. It reads the pad, then its events
// and its environments at the same time (up to 8 pages of events and 8
// environments at once, whatever WithConcurrentPages says), and fails as a
// whole on the first error, cancelling the rest.
func (s *PadsService) Transcript(ctx context.Context, id ID) (*Transcript, error) {
	pad, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	ids := slices.Clone(pad.PadEnvironmentIDs)
	if a := pad.ActiveEnvironmentID; a != nil && *a != "" && !slices.Contains(ids, *a) {
		ids = append(ids, *a)
	}
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
		slots = make(chan struct{}, transcriptWorkers)
	)
	fail := func(err error) {
		once.Do(func() { first = err; cancel() })
	}
	wg.Add(1 + len(ids))
	go func() {
		defer wg.Done()
		// Oldest first: the service's default is newest first, which
		// reads a transcript backwards.
		for ev, err := range allPages(ctx, s.client, events+"/events", "events", listOptions{Sort: SortCreatedAsc}, (*eventWire).event, transcriptWorkers) {
			if err != nil {
				fail(err)
				return
			}
			t.Events = append(t.Events, *ev)
		}
	}()
	for i, envID := range ids {
		go func() {
			defer wg.Done()
			select {
			case slots <- struct{}{}:
				defer func() { <-slots }()
			case <-ctx.Done():
				// Cancelled while waiting for a slot: Environment
				// below returns the context's error at once, without
				// a request. Returning here instead would leave this
				// environment empty, and the whole call a success,
				// when the caller's context ended after every other
				// part had arrived.
			}
			env, err := s.Environment(ctx, envID)
			if err != nil {
				fail(err)
				return
			}
			t.Environments[i] = *env
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return t, nil
}
