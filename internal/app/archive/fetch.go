// fetch.go: one pad as the service sent it, byte for byte.

package archive

import (
	"bytes"
	"context"
	"fmt"
	"iter"

	"github.com/padinterview/padapi"
)

// maxEvents bounds the event log of one pad that a run holds in memory.
const maxEvents = 100_000

// fetched is one pad as the service sent it: each document's bytes, and
// the decoded values the archive reads (the environments' files, the
// notes).
type fetched struct {
	pad     *padapi.Pad
	padJSON []byte
	events  []byte // one JSON array of the events as the service sent each
	envs    []fetchedEnv
}

// fetchedEnv is one environment, decoded and as sent, and the ID it was
// asked for by: the pad lists each once, so the ID names its folder (the
// ID in the body is the service's word, and may repeat another's).
type fetchedEnv struct {
	id   padapi.ID
	env  *padapi.PadEnvironment
	body []byte
}

// fetch reads pad id, its event log (every page, oldest first) and each
// environment it lists once, one request at a time: a run works on many
// pads at once, so a pad needs no fan-out of its own to keep the Gate's
// slots busy. Each typed call hands back the service's bytes through
// padapi.WithResponse.
func (r *run) fetch(ctx context.Context, id padapi.ID) (*fetched, error) {
	var resp padapi.Response
	pad, err := r.c.Pads.Get(padapi.WithResponse(ctx, &resp), id)
	if err != nil {
		return nil, err
	}
	f := &fetched{pad: pad, padJSON: resp.Body}
	if f.events, err = r.events(ctx, id); err != nil {
		return nil, err
	}
	envIDs, err := pad.EnvironmentIDs()
	if err != nil {
		return nil, err // the library's one policy: the pad fails
	}
	for _, envID := range envIDs {
		var resp padapi.Response
		env, err := r.c.Pads.Environment(padapi.WithResponse(ctx, &resp), envID)
		if err != nil {
			return nil, err
		}
		f.envs = append(f.envs, fetchedEnv{id: envID, env: env, body: resp.Body})
	}
	return f, nil
}

// events reads a pad's whole event log, oldest first, as one JSON array
// of each event's bytes as the service sent them (EventsJSON).
func (r *run) events(ctx context.Context, id padapi.ID) ([]byte, error) {
	return EventsJSON(ctx, r.c, id)
}

// EventsJSON returns pad id's whole event log, oldest first, as one JSON
// array of each event's bytes as the service sent them: the one reading
// of a pad's events that padctl archive and padctl pads export share. The
// library lists them (Pads.AllEvents, with its route, paging and bounds)
// and hands each event's bytes beside it (padapi.WithJSON); maxEvents
// bounds what one pad holds in memory.
func EventsJSON(ctx context.Context, c *padapi.Client, id padapi.ID) ([]byte, error) {
	opts := &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc}
	all := func(ctx context.Context) iter.Seq2[*padapi.PadEvent, error] { return c.Pads.AllEvents(ctx, id, opts) }
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for item, err := range padapi.WithJSON(ctx, all) {
		if err != nil {
			return nil, err
		}
		if n++; n > maxEvents {
			return nil, fmt.Errorf("pad %s: events: more than %d", id, maxEvents)
		}
		if n > 1 {
			b.WriteByte(',')
		}
		b.Write(item.JSON)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}
