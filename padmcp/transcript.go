// transcript.go: one pad with its code and events, read only as far as a result's cap needs.

package padmcp

import (
	"context"
	"strings"

	"github.com/padinterview/padapi"
)

// Bounds of a transcript read.
const transcriptEnvs = 16 // environments read at most; the rest are named

// padTranscript is a pad, its environments with each file's contents cut
// to what a result can show, and its events as lines, read only until
// they fill the budget: memory follows the answer, not what the service
// lists.
type padTranscript struct {
	Pad          *padapi.Pad
	Environments []padapi.PadEnvironment
	// sizes are the files' sizes as the service sent them, by
	// environment ID and path, where the contents kept were cut.
	sizes       map[string]int
	EnvsSkipped int
	Events      []string
	// EventsCut is set when the events were read only until they filled
	// the budget: there are more.
	EventsCut bool
}

// fileKey is a file's key in padTranscript.sizes.
func fileKey(env padapi.ID, path string) string { return string(env) + "\x00" + path }

// size is a file's size as the service sent it.
func (t *padTranscript) size(env padapi.ID, f *padapi.FileContent) int {
	if n, ok := t.sizes[fileKey(env, f.Path)]; ok {
		return n
	}
	return len(f.Contents)
}

// transcript reads pad id, its environments (each file kept to at most
// budget bytes) and, with events, its events as lines until budget bytes
// of them are read.
func (ts *toolset) transcript(ctx context.Context, id string, budget int, events bool) (*padTranscript, error) {
	c := ts.client(ctx)
	p, err := c.Pads.Get(ctx, padapi.ID(id))
	if err != nil {
		return nil, err
	}
	t := &padTranscript{Pad: p, sizes: map[string]int{}}
	ids, err := p.EnvironmentIDs() // the library's one policy for a bad ID
	if err != nil {
		return nil, err
	}
	if len(ids) > transcriptEnvs {
		t.EnvsSkipped = len(ids) - transcriptEnvs
		ids = ids[:transcriptEnvs]
	}
	for _, envID := range ids {
		env, err := c.Pads.Environment(ctx, envID)
		if err != nil {
			return nil, err
		}
		for i := range env.Files {
			f := &env.Files[i]
			if len(f.Contents) > budget {
				t.sizes[fileKey(env.ID, f.Path)] = len(f.Contents)
				f.Contents = strings.Clone(cutUTF8(f.Contents, budget))
			}
		}
		t.Environments = append(t.Environments, *env)
	}
	if !events {
		return t, nil
	}
	// The library's iterator: its paging and its list limit; breaking out
	// of it stops the reading, so the events read are those the answer
	// can show, whatever total the service claims.
	used := 0
	for e, err := range c.Pads.AllEvents(ctx, p.ID, &padapi.PadEventListOptions{Sort: padapi.SortCreatedAsc}) {
		if err != nil {
			return nil, err
		}
		if used > budget {
			t.EventsCut = true
			break
		}
		line := ts.eventLine(e)
		used += jsonLen(line) + 3
		t.Events = append(t.Events, line)
	}
	return t, nil
}
