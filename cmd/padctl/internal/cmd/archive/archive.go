// Package archive is padctl archive: the organization's whole interview
// record kept in a local folder, incremental, resumable and safe to run
// from cron, and padctl archive verify, which checks such a folder against
// its index. The work is internal/app/archive's, which prints nothing; this
// package parses the flags and renders the engine's progress and summary.
package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	engine "github.com/padinterview/padapi/internal/app/archive"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/spf13/cobra"
)

// ArchiveOptions are what padctl archive runs with.
type ArchiveOptions struct {
	IO *iostreams.IOStreams
	// Client makes the API client; it must send through Gate.
	Client func() (*padapi.Client, error)
	// Gate is the transport every request of the run goes through: it
	// bounds the requests in flight, pauses them all on a 429 and counts
	// them.
	Gate *engine.Gate
	Ctx  context.Context
	Dir  string
	JSON bool
	// Mine, Concurrency, NoHistory and Full are the flags; Concurrency 0
	// (no --concurrency) adapts.
	Mine        bool
	Concurrency int
	NoHistory   bool
	Full        bool
	// Timeout bounds the whole run when the user asked for a limit
	// (--timeout or PAD_TIMEOUT); 0 for none.
	Timeout time.Duration
	// Redact takes the API key out of every text written to the archive.
	Redact func(string) string
	// Now is the clock of the progress line's rate (time.Now when nil).
	Now func() time.Time
}

// NewCmdArchive returns padctl archive, with verify below it. runF, when
// not nil, runs instead of archiveRun; verifyF instead of verifyRun.
func NewCmdArchive(f *cmdutil.Factory, runF func(*ArchiveOptions) error, verifyF func(*VerifyOptions) error) *cobra.Command {
	o := &ArchiveOptions{}
	cmd := &cobra.Command{
		Use:   "archive DIR",
		Short: "Keep every interview of the organization in a local folder",
		Long:  archiveLong,
		Example: `  padctl archive interviews                 # the first run fetches every pad
  padctl archive interviews                 # later runs fetch what changed
  padctl archive interviews --mine --no-history
  padctl archive interviews --json          # the summary as JSON, for a log
  padctl archive verify interviews          # check every file against the index
  # cron, every night at 03:17:
  17 3 * * * PAD_API_KEY=... /usr/local/bin/padctl archive /srv/interviews --json >> /var/log/padctl-archive.log 2>&1`,
		Args: cobra.ExactArgs(1),
		// A whole organization takes longer than the 30 s default: the
		// run has no limit unless the user sets one (see RunE).
		Annotations: map[string]string{cmdutil.NoDeadline: "unless --timeout or PAD_TIMEOUT is given"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("concurrency") && (o.Concurrency < 1 || o.Concurrency > engine.MaxConcurrency) {
				return cmdutil.UsageErrorf("--concurrency %d: must be from 1 to %d", o.Concurrency, engine.MaxConcurrency)
			}
			if f.TimeoutErr != nil {
				return f.TimeoutErr
			}
			if userTimeout(f) {
				o.Timeout = f.Timeout
			}
			// The list is read with the library's walker, several pages
			// at once, as padctl's list commands read theirs.
			f.PagesAtOnce = cmdutil.DefaultPagesAtOnce
			// Every request goes through the gate: the test's transport
			// (or the default one) under it.
			o.Gate = engine.NewGate(f.Transport)
			f.Transport = o.Gate
			o.IO, o.Client, o.Ctx, o.Dir, o.JSON = f.IOStreams, f.Client, cmd.Context(), args[0], f.Flags.JSON
			o.Redact = redact.New(f.Keys()...).String
			if runF != nil {
				return runF(o)
			}
			return archiveRun(o)
		},
	}
	cmd.Flags().BoolVar(&o.Mine, "mine", false, "archive only your own pads, not the organization's")
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", 0, fmt.Sprintf("how many requests are in flight at once, 1 to %d (default: %d at first, up to %d while the service keeps up, halved on a 429)", engine.MaxConcurrency, engine.DefaultConcurrency, engine.MaxConcurrency))
	cmd.Flags().BoolVar(&o.NoHistory, "no-history", false, "skip each file's edit-history document")
	cmd.Flags().BoolVar(&o.Full, "full", false, "list every pad, to find the pads deleted or listed late (a run does once a day)")
	cmd.AddCommand(NewCmdVerify(f, verifyF))
	return cmd
}

const archiveLong = `Keep a local, complete copy of the organization's interviews in DIR (with
--mine, only your own pads), and bring it up to date on each run:

  DIR/index.jsonl                         one line per pad, sorted by id: its id,
                                          title, state, updated_at, folder and a
                                          SHA-256 of each file
  DIR/pads/PAD/pad.json                   the pad, as the service sent it
  DIR/pads/PAD/events.json                its whole event log, oldest first
  DIR/pads/PAD/notes.md                   the interviewer's notes
  DIR/pads/PAD/ENV/PATH                   each file of each environment, its
                                          final text
  DIR/pads/PAD/environments/ENV.json      each environment, as the service sent it
  DIR/pads/PAD/history/ENV/PATH.json      each file's edit history (not with
                                          --no-history)

PAD is the pad's ID (DIR/pads/DM32JWG2): letters of either case, digits, '-'
and '_' stay as they are, any other byte is written %xx; when two pads' IDs
differ only in case, the one archived later has every letter written %xx,
so that no two folders share a name on a disk that ignores case. An archive
written by an earlier padctl (every upper-case letter %xx) has its folders
renamed on its next run.

DIR must be new, empty, or an archive padctl made. A run lists the pads
newest first and stops at the pads it already holds, so a run with nothing
changed sends one or two requests; a changed pad is fetched again whole.
Once a day, with --full, and whenever the service's count of pads differs
from the archive's, a run lists every pad instead: it finds a pad deleted
on the service, and a pad that appeared late below those already held
(which a count alone misses). A pad deleted on the service stays, marked
"deleted": true in the index.

A pad's folder is written under a temporary name and renamed into place, so
it is complete or absent; the index only names pads that are done. A run
stopped at any moment (Ctrl-C, --timeout, a crash, kill -9) keeps what it
finished: run it again to resume. One run at a time works on a DIR: a
second one exits 6.

At most --concurrency requests are in flight, each until its answer has been
read. Without --concurrency the run adapts: 8 at first, one more after each
round of answers, up to 16, and half as many after a 429 (behind 20 ms each
way, a fixed 8 took up to 1.9 times the best schedule of 8 connections, 16
about 1.1 times; the service's 429 is the brake). On a 429 every request
waits too: as long as its Retry-After asks, or without a usable one the
client's backoff (100 ms at first, doubling while 429s follow, at most 2 s).
The run has no time limit unless you set
one with --timeout or PAD_TIMEOUT; a run cut short by it exits 1, and the next
run resumes.

On a terminal a progress line on stderr shows the pads done, the rate and the
time left, and the summary is one line in words; piped, padctl prints only
the summary, as one tab-separated row: added, updated, unchanged, deleted,
failed, requests, seconds. --json prints it as one JSON object with those
keys. Nothing is written outside DIR, through no link planted in it, and
the API key is never written: a text that held it is written redacted, and
named on stderr. A pad that could not be fetched is named on stderr; the run
exits 1 after the summary, and the next run tries it again.`

// userTimeout reports whether the user set a time limit: --timeout or
// PAD_TIMEOUT. The 30 s default is for one request's worth of work, not
// for an archive.
func userTimeout(f *cmdutil.Factory) bool {
	if f.Persistent != nil {
		if fl := f.Persistent.Lookup("timeout"); fl != nil && fl.Changed {
			return true
		}
	}
	return f.Getenv != nil && f.Getenv("PAD_TIMEOUT") != ""
}

// summaryJSON is the summary --json prints.
type summaryJSON struct {
	Added     int     `json:"added"`
	Updated   int     `json:"updated"`
	Unchanged int     `json:"unchanged"`
	Deleted   int     `json:"deleted"`
	Failed    int     `json:"failed"`
	Requests  int     `json:"requests"`
	Seconds   float64 `json:"seconds"`
}

// archiveRun runs the engine on o.Dir, rendering its progress and then
// its summary.
func archiveRun(o *ArchiveOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	ctx := o.Ctx
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, o.Timeout, &cmdutil.TimeoutError{D: o.Timeout})
		defer cancel()
	}
	r := newRenderer(o)
	sum, err := engine.Run(ctx, c, o.Dir, engine.Options{
		Mine: o.Mine, Concurrency: o.Concurrency, NoHistory: o.NoHistory, Full: o.Full,
		Progress: r.event, Redact: o.Redact, Gate: o.Gate,
	})
	r.clear()
	switch {
	case errors.Is(err, engine.ErrNotArchive):
		return cmdutil.UsageErrorf("%s: %s: give a new or empty folder, or one padctl archive made", o.Dir, engine.ErrNotArchive)
	case errors.Is(err, engine.ErrLocked):
		return fmt.Errorf("%s: %w; wait for it to finish", o.Dir, err)
	}
	if perr := printSummary(o, sum); perr != nil && err == nil {
		err = perr
	}
	var te *cmdutil.TimeoutError
	switch {
	case err != nil && o.Ctx.Err() != nil:
		// Interrupted (Ctrl-C, SIGTERM): padctl says so after this.
		cmdutil.Note(o.IO, "padctl: archive stopped after %d pads; everything finished is kept: run it again to resume", r.done)
		return err
	case err != nil && o.Ctx.Err() == nil && errors.As(context.Cause(ctx), &te):
		return &cmdutil.TimeoutError{D: o.Timeout, Stopped: fmt.Sprintf("the archive stopped at the --timeout limit (%s) after %d pads; everything finished is kept, and the next run resumes from there", o.Timeout, r.done)}
	case err != nil:
		return err
	case sum.Failed > 0:
		return fmt.Errorf("%d pads could not be archived (named above); the next run tries them again", sum.Failed)
	}
	return nil
}

// printSummary prints what the run did on stdout: with --json one JSON
// object; on a terminal one line in words; piped one tab-separated row
// (added, updated, unchanged, deleted, failed, requests, seconds), as
// every padctl command prints piped.
func printSummary(o *ArchiveOptions, s engine.Summary) error {
	var err error
	switch {
	case o.JSON:
		var b []byte
		if b, err = json.Marshal(summaryJSON{s.Added, s.Updated, s.Unchanged, s.Deleted, s.Failed, s.Requests, s.Seconds}); err == nil {
			_, err = fmt.Fprintf(o.IO.Out, "%s\n", b)
		}
	case o.IO.OutTTY:
		_, err = fmt.Fprintf(o.IO.Out, "%s: %d added, %d updated, %d unchanged, %d deleted, %d failed; %d requests in %.1fs\n",
			iostreams.Escape(o.Dir, iostreams.Line), s.Added, s.Updated, s.Unchanged, s.Deleted, s.Failed, s.Requests, s.Seconds)
	default:
		_, err = fmt.Fprintf(o.IO.Out, "%d\t%d\t%d\t%d\t%d\t%d\t%.1f\n", s.Added, s.Updated, s.Unchanged, s.Deleted, s.Failed, s.Requests, s.Seconds)
	}
	return err
}
