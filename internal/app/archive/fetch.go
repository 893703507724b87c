// fetch.go: one pad as the service sent it, byte for byte.

package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"

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

// fetchedEnv is one environment, decoded and as sent.
type fetchedEnv struct {
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
	for _, envID := range Environments(pad) {
		var resp padapi.Response
		env, err := r.c.Pads.Environment(padapi.WithResponse(ctx, &resp), envID)
		if err != nil {
			return nil, err
		}
		f.envs = append(f.envs, fetchedEnv{env: env, body: resp.Body})
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
// typed list method checks the ID and says what it would ask for
// (WithDryRun); the library's one pager follows the pages
// (Client.DoAll), within its bounds, and maxEvents bounds what one pad
// holds in memory. (When the library fetches "a pad with its bytes", this
// becomes a call of it.)
func EventsJSON(ctx context.Context, c *padapi.Client, id padapi.ID) ([]byte, error) {
	var req padapi.Request
	opts := &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc}
	if _, err := c.Pads.ListEvents(padapi.WithDryRun(ctx, &req), id, opts); !errors.Is(err, padapi.ErrDryRun) {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('[')
	n := 0
	for item, err := range c.DoAll(ctx, req.Path, "events", req.Query) {
		if err != nil {
			return nil, err
		}
		if n++; n > maxEvents {
			return nil, fmt.Errorf("pad %s: events: more than %d", id, maxEvents)
		}
		if n > 1 {
			b.WriteByte(',')
		}
		b.Write(item)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// Environments returns the environments pad lists, distinct, non-empty,
// in the order it first lists them (PadEnvironmentIDs, then
// ActiveEnvironmentID), as Pads.Transcript reads them: the one list that
// padctl archive and padctl pads export share. (When the library has
// Pad.EnvironmentIDs, this becomes a call of it.)
func Environments(pad *padapi.Pad) []padapi.ID {
	ids := pad.PadEnvironmentIDs
	if a := pad.ActiveEnvironmentID; a != nil {
		ids = append(ids[:len(ids):len(ids)], *a)
	}
	var out []padapi.ID
	seen := map[padapi.ID]bool{}
	for _, id := range ids {
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
