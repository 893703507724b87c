package archive

import (
	"fmt"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	engine "github.com/padinterview/padapi/internal/app/archive"
)

// redrawEvery is how often, at most, the progress line is redrawn.
const redrawEvery = 200 * time.Millisecond

// renderer shows a run's events: the progress line on a terminal, and on
// stderr, terminal or not, each pad that failed, each file skipped and
// each file the key was redacted from.
type renderer struct {
	io          *iostreams.IOStreams
	now         func() time.Time
	start, last time.Time
	show        func(string)
	clear       func()
	done        int
}

func newRenderer(o *ArchiveOptions) *renderer {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	r := &renderer{io: o.IO, now: now, start: now()}
	r.show, r.clear = o.IO.StatusLine()
	r.show(progressLine(0, 0, 0)) // until the first page of the list says how many
	return r
}

// event is engine.Options.Progress: the engine calls it one event at a
// time.
func (r *renderer) event(p engine.Progress) {
	r.done = p.Done
	switch p.Kind {
	case engine.PadFailed:
		r.note("pad %s could not be archived: %s", p.Pad, cmdutil.Message(p.Err))
	case engine.FileSkipped:
		r.note("skipped %s: %s", p.Path, cmdutil.Message(p.Err))
	case engine.Redacted:
		r.note("the API key was found in %s and written redacted", p.Path)
	case engine.Paused:
		r.show(fmt.Sprintf("the service asked to slow down: every request waits %s", p.Wait.Round(time.Second/10)))
		r.last = r.now()
		return
	}
	now := r.now()
	if !r.last.IsZero() && now.Sub(r.last) < redrawEvery && p.Done != p.Known {
		return
	}
	r.last = now
	r.show(progressLine(p.Done, p.Known, now.Sub(r.start)))
}

// note writes one line on stderr, below the progress line.
func (r *renderer) note(format string, args ...any) {
	r.clear()
	r.last = time.Time{}
	cmdutil.Note(r.io, "padctl: "+format, args...)
}

// progressLine is the progress line: the pads done of those the service
// lists, the rate, and the time left at that rate.
func progressLine(done, known int, elapsed time.Duration) string {
	if known == 0 {
		return "archiving: listing the pads..."
	}
	line := fmt.Sprintf("archiving: %d of %d pads", done, known)
	if done == 0 || elapsed <= 0 {
		return line
	}
	rate := float64(done) / elapsed.Seconds()
	line += fmt.Sprintf(", %.1f pads/s", rate)
	if left := known - done; left > 0 {
		eta := time.Duration(float64(left) / rate * float64(time.Second))
		line += fmt.Sprintf(", about %s left", eta.Round(time.Second))
	}
	return line
}
