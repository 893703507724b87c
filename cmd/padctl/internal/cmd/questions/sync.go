// sync.go: what questions pull, diff and apply share: their options, the
// engine (internal/app/qsync, which prints nothing) and the folder's lock.

package questions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/qsync"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/spf13/cobra"
)

// DefaultSettle is how long the service's lists may lag behind a create:
// a create with no answer is looked for that long before it is made again.
const DefaultSettle = time.Minute

// SyncOptions are what questions pull, diff and apply run with.
type SyncOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	// Redact takes the API key out of what pull writes into files (nil:
	// nothing is taken out).
	Redact func(string) string
	// Dir is the question folder.
	Dir string
	// BaseURL is the service's base URL, recorded in the folder as its
	// origin and checked against the one recorded ("" for neither).
	BaseURL string
	// CacheFile is the folder's read cache (see qsync.Options.CacheFile),
	// "" for none.
	CacheFile string
	// JSON prints diff's plan and apply's results as JSON.
	JSON bool
	// Color colours diff's plan (stdout is a terminal, and NO_COLOR is
	// not set).
	Color bool
	// IDs are the questions pull writes (none: all).
	IDs []string
	// Variants makes pull write every question's variants.
	Variants bool
	// Force lets pull overwrite files changed in the folder, and pull,
	// diff and apply plan against a service or organization other than
	// the folder's origin.
	Force bool
	// Prune lets apply delete, and diff plan deleting, the questions the
	// folder recorded and no longer holds.
	Prune bool
	// DryRun makes pull and apply change nothing and show what they would
	// do.
	DryRun bool
	// Settle is how long the service's lists lag behind a create.
	Settle time.Duration
	// Timeout bounds apply, with Settle added (0: no bound).
	Timeout time.Duration
}

// newSyncOptions returns the options of a sync command, with f's streams
// and client.
func newSyncOptions(f *cmdutil.Factory) *SyncOptions {
	return &SyncOptions{IO: f.IOStreams, Client: f.Client, Settle: DefaultSettle}
}

// syncRunE returns a command's RunE: it fills o from f and the arguments
// and runs runF, or run when runF is nil.
func syncRunE(f *cmdutil.Factory, o *SyncOptions, runF, run func(*SyncOptions) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		o.Ctx, o.Dir, o.Timeout = cmd.Context(), args[0], f.Timeout
		// The service's list is read with the library's walker, several
		// pages at once, as padctl's list commands and the archive read
		// theirs (before the client is made, which takes it).
		f.PagesAtOnce = cmdutil.DefaultPagesAtOnce
		o.BaseURL, o.JSON, o.Color = f.BaseURL(), f.Flags.JSON, f.IOStreams.ColorEnabled(f.Getenv)
		o.CacheFile = readCachePath(f.Getenv, o.Dir)
		o.Redact = redact.New(f.Keys()...).String
		if runF != nil {
			return runF(o)
		}
		return run(o)
	}
}

// readCachePath returns where the read cache of the question folder dir
// lives: below the user's cache directory ($XDG_CACHE_HOME, or
// $HOME/.cache, or %LocalAppData%), named by the folder's absolute path,
// so that nothing is added to a folder kept in Git. It is "" (no cache)
// when there is no such directory.
func readCachePath(getenv func(string) string, dir string) string {
	base := getenv("XDG_CACHE_HOME")
	if base == "" {
		if home := getenv("HOME"); home != "" {
			base = filepath.Join(home, ".cache")
		} else {
			base = getenv("LocalAppData")
		}
	}
	abs, err := filepath.Abs(dir)
	if base == "" || !filepath.IsAbs(base) || err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, "padctl", "questions", hex.EncodeToString(sum[:12])+".json")
}

// addSettle adds --settle, whose default comes from PAD_SETTLE.
func addSettle(cmd *cobra.Command, f *cmdutil.Factory, o *SyncOptions) {
	cmd.Flags().DurationVar(&o.Settle, "settle", DefaultSettle, "how long the service's lists lag behind a create ($PAD_SETTLE sets the default; 0s against a fake)")
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		env := f.Getenv("PAD_SETTLE")
		if env != "" && !cmd.Flags().Changed("settle") {
			d, err := time.ParseDuration(env)
			if err != nil {
				return cmdutil.UsageErrorf("PAD_SETTLE=%q: want a Go duration such as 1m or 0s", env)
			}
			o.Settle = d
		}
		if o.Settle < 0 {
			return cmdutil.UsageErrorf("the settle time %s is negative", o.Settle)
		}
		return nil
	}
}

// syncer renders the question sync engine's plans and events as pull,
// diff and apply.
type syncer struct {
	o *SyncOptions
	e *qsync.Syncer
}

// newSyncer returns a syncer for o's folder, with o's client.
func newSyncer(o *SyncOptions) (*syncer, error) {
	c, err := o.Client()
	if err != nil {
		return nil, err
	}
	e := qsync.New(c, o.Dir, qsync.Options{Settle: o.Settle, Prune: o.Prune, Force: o.Force, IDs: o.IDs, Redact: o.Redact, BaseURL: o.BaseURL, CacheFile: o.CacheFile, Variants: o.Variants})
	return &syncer{o: o, e: e}, nil
}

// printf writes to stdout.
func (s *syncer) printf(format string, a ...any) { fmt.Fprintf(s.o.IO.Out, format, a...) }

// notef writes to stderr.
func (s *syncer) notef(format string, a ...any) { fmt.Fprintf(s.o.IO.ErrOut, format, a...) }

// plan returns the engine's plan; a folder that cannot be synced, or
// that was synced with another service or organization, is a usage error
// (exit 2), found before anything is sent.
func (s *syncer) plan(ctx context.Context, mode qsync.Mode) (*qsync.Plan, error) {
	p, err := s.e.Plan(ctx, mode)
	return p, usageOf(err)
}

// usageOf makes a folder that cannot be synced as it is, or with this
// service, a usage error (exit 2).
func usageOf(err error) error {
	var bad *qsync.BadFolderError
	var oe *qsync.OriginError
	if errors.As(err, &bad) || errors.As(err, &oe) {
		return &cmdutil.UsageError{Err: err}
	}
	return err
}

// addForce adds --force to diff and apply.
func addForce(cmd *cobra.Command, o *SyncOptions) {
	cmd.Flags().BoolVar(&o.Force, "force", false, "plan against a service or organization other than the one DIR was pulled from or applied to")
}

// lock takes the folder's lock for a run that changes it, saying on stderr
// when it waits for another run's: the wait ends with that run or with
// the command's deadline.
func (s *syncer) lock(ctx context.Context) error {
	err := s.e.Lock(ctx, false)
	if !errors.Is(err, qsync.ErrLocked) {
		return err
	}
	s.notef("Waiting for another padctl questions apply or pull on %s to end...\n", s.o.Dir)
	return s.e.Lock(ctx, true)
}

// notePrune says on stderr that only --prune deletes a recorded question.
func (s *syncer) notePrune(st *qsync.Step) {
	s.notef("note: #%s %q was recorded in this folder and no folder holds it now: --prune deletes it\n", st.ID, st.Title)
}

// plural returns "1 question" or "n questions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
