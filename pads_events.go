// pads_events.go: PadEvent, and a pad's event log (GET /api/pads/ID/events).

package padapi

import (
	"context"
	"iter"
	"time"
)

// PadEvent is one thing that happened in a pad.
type PadEvent struct {
	// Message describes the event for people.
	Message string `json:"message"`
	// Kind is "joined", "left", "ran" or another kind; unknown kinds come
	// through as they are.
	Kind string `json:"kind"`
	// Metadata is extra detail, such as the language that ran; "" when none.
	Metadata string `json:"metadata"`
	// UserName and UserEmail name who did it; UserEmail may be "".
	UserName  string `json:"user_name"`
	UserEmail string `json:"user_email"`
	// CreatedAt is when it happened.
	CreatedAt time.Time `json:"created_at"`
}

// PadEventListOptions choose the order and page of Pads.ListEvents and
// Pads.AllEvents. A nil *PadEventListOptions means the service's defaults.
type PadEventListOptions ListOptions

// ListEvents returns one page of a pad's event log (GET /api/pads/ID/events):
// who joined and left, what ran.
func (s *PadsService) ListEvents(ctx context.Context, id ID, opts *PadEventListOptions) (*Page[PadEvent], error) {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return nil, err
	}
	return list[PadEvent](ctx, s.client, path+"/events", "events", (*ListOptions)(opts).query())
}

// AllEvents iterates over a pad's whole event log, page by page of
// GET /api/pads/ID/events, fetching the next page while the loop reads
// the current one (see WithConcurrentPages). It stops at the first error,
// which it yields once.
func (s *PadsService) AllEvents(ctx context.Context, id ID, opts *PadEventListOptions) iter.Seq2[*PadEvent, error] {
	path, err := resourcePath("/api/pads", id)
	if err != nil {
		return func(yield func(*PadEvent, error) bool) { yield(nil, err) }
	}
	return all[PadEvent](ctx, s.client, path+"/events", "events", (*ListOptions)(opts).query())
}
