// pads_transcript.go: Transcript, everything about one interview in one
// call, and the environments a pad has.

package padapi

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
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
	// Environments are the pad's environments, in the order of
	// Pad.EnvironmentIDs.
	Environments []PadEnvironment
	// JSON is what the service sent for each part, byte for byte, when
	// the transcript was read with TranscriptWithJSON; nil otherwise.
	JSON *TranscriptJSON
}

// TranscriptJSON is a transcript as the service sent it: the bytes of
// each answer and item a Transcript was decoded from.
type TranscriptJSON struct {
	// Pad is the pad's answer (GET /api/pads/ID), status and all.
	Pad json.RawMessage
	// Events holds each event of Transcript.Events as the service sent
	// it, in the same order.
	Events []json.RawMessage
	// Environments holds each environment's answer
	// (GET /api/pad_environments/ID), status and all, in the order of
	// Transcript.Environments.
	Environments []json.RawMessage
}

// transcriptWorkers is how many environments, and how many pages of
// events, Transcript fetches at once.
const transcriptWorkers = 8

// EnvironmentIDs returns the environments the pad has, each once, in the
// order the pad first lists them: PadEnvironmentIDs, then
// ActiveEnvironmentID when it is not among them. Empty IDs are left out.
// An ID that names no environment ("." or "..", which no request can
// carry) is the service's bad answer, and the one policy for it is this
// error: whoever reads the pad's environments fails for this pad, before
// any request. The list holds the distinct IDs only, however long the
// pad's.
func (p *Pad) EnvironmentIDs() ([]ID, error) {
	var ids []ID
	seen := make(map[ID]struct{})
	add := func(id ID) {
		if _, ok := seen[id]; !ok && id != "" {
			seen[id] = struct{}{}
			ids = append(ids, id)
		}
	}
	for _, id := range p.PadEnvironmentIDs {
		add(id)
	}
	if p.ActiveEnvironmentID != nil {
		add(*p.ActiveEnvironmentID)
	}
	for _, id := range ids {
		if _, err := resourcePath("/api/pad_environments", id); err != nil {
			return nil, fmt.Errorf("padapi: GET /api/pads/%s: the pad lists environment ID %q, which names no environment", url.PathEscape(string(p.ID)), id)
		}
	}
	return ids, nil
}

// Transcript returns one pad with its event log and environments: the text
// dump of an interview after the fact. It reads the pad, then its events
// and its environments at the same time (up to 8 pages of events and 8
// environments at once, whatever WithConcurrentPages says), and fails as a
// whole on the first error, cancelling the rest. An environment the pad
// lists more than once is read once (Pad.EnvironmentIDs): the cost follows
// the pad's distinct environments, however long its list.
func (s *PadsService) Transcript(ctx context.Context, id ID) (*Transcript, error) {
	return s.transcript(ctx, id, false)
}

// TranscriptWithJSON is Transcript, which also keeps what the service sent
// for each part (Transcript.JSON): the one fetch of "a pad with the
// service's bytes" that an export or an archive writes from.
func (s *PadsService) TranscriptWithJSON(ctx context.Context, id ID) (*Transcript, error) {
	return s.transcript(ctx, id, true)
}

func (s *PadsService) transcript(ctx context.Context, id ID, keep bool) (*Transcript, error) {
	t := &Transcript{Events: []PadEvent{}}
	var resp Response
	var err error
	if t.Pad, err = s.Get(keptResponse(ctx, keep, &resp), id); err != nil {
		return nil, err
	}
	ids, err := t.Pad.EnvironmentIDs()
	if err != nil {
		return nil, err
	}
	t.Environments = make([]PadEnvironment, len(ids))
	if keep {
		t.JSON = &TranscriptJSON{Pad: resp.Body, Events: []json.RawMessage{}, Environments: make([]json.RawMessage, len(ids))}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	fail := func(err error) { once.Do(func() { first = err; cancel() }) }
	wg.Go(func() { s.transcriptEvents(ctx, t, fail) })
	s.transcriptEnvironments(ctx, t, ids, &wg, fail)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return t, nil
}

// keptResponse is ctx, under which a call fills resp when keep is set.
func keptResponse(ctx context.Context, keep bool, resp *Response) context.Context {
	if !keep || ctx == nil {
		return ctx
	}
	return WithResponse(ctx, resp)
}

// transcriptEvents reads t.Pad's whole event log into t, oldest first
// (the service's default is newest first, which reads a transcript
// backwards), with each event's bytes when t keeps them.
func (s *PadsService) transcriptEvents(ctx context.Context, t *Transcript, fail func(error)) {
	path, err := resourcePath("/api/pads", t.Pad.ID)
	if err != nil {
		fail(err)
		return
	}
	events := func(ctx context.Context) iter.Seq2[*PadEvent, error] {
		return allPages[PadEvent](ctx, s.client, path+"/events", "events", (&ListOptions{Sort: SortCreatedAsc}).query(), transcriptWorkers)
	}
	items := WithJSON(ctx, events)
	if t.JSON == nil { // no bytes kept: each page decodes as it streams
		items = func(yield func(Item[PadEvent], error) bool) {
			for ev, err := range events(ctx) {
				if !yield(Item[PadEvent]{Value: ev}, err) {
					return
				}
			}
		}
	}
	for it, err := range items {
		if err != nil {
			fail(err)
			return
		}
		t.Events = append(t.Events, *it.Value)
		if t.JSON != nil {
			t.JSON.Events = append(t.JSON.Events, it.JSON)
		}
	}
}

// transcriptEnvironments starts the workers that read the environments ids
// into t, a fixed number taking them in turn. Once the context has ended,
// each remaining read returns its error at once, without a request: so a
// caller's context that ends after every other part has arrived still
// fails the call, rather than leaving environments empty in a success.
func (s *PadsService) transcriptEnvironments(ctx context.Context, t *Transcript, ids []ID, wg *sync.WaitGroup, fail func(error)) {
	var next atomic.Int64 // the index in ids of the next environment to read
	for range min(transcriptWorkers, len(ids)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(ids); i = int(next.Add(1) - 1) {
				var resp Response
				env, err := s.Environment(keptResponse(ctx, t.JSON != nil, &resp), ids[i])
				if err != nil {
					fail(err)
					return
				}
				t.Environments[i] = *env
				if t.JSON != nil {
					t.JSON.Environments[i] = resp.Body
				}
			}
		})
	}
}
