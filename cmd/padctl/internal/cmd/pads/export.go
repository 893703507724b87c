package pads

import (
	"context"
	"fmt"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/archive"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/spf13/cobra"
)

// ExportOptions are what pads export runs with.
type ExportOptions struct {
	IO      *iostreams.IOStreams
	Client  func() (*padapi.Client, error)
	Ctx     context.Context
	ID      padapi.ID
	Dir     string
	History bool
	// Redact takes the API key out of every byte written into a file (nil:
	// nothing is taken out).
	Redact *redact.Redactor
}

// NewCmdExport returns pads export: the transcript of an interview on
// disk, written so that nothing from the service can reach outside DIR.
// runF, when not nil, runs instead of exportRun.
func NewCmdExport(f *cmdutil.Factory, runF func(*ExportOptions) error) *cobra.Command {
	o := &ExportOptions{}
	cmd := &cobra.Command{
		Use:   "export PAD_ID DIR",
		Short: "Write an interview's transcript to a directory",
		Long: `Write everything the service keeps about one interview to DIR (created if
missing; files already there are replaced), laid out as padctl archive lays
out each pad's folder:

  DIR/pad.json                 the pad, as the service sends it
  DIR/events.json              the whole event log, oldest first, one JSON
                               array of the events as the service sends them
  DIR/notes.md                 the interviewer's notes
  DIR/ENV/PATH                 each file of each environment, its final code
  DIR/environments/ENV.json    each environment, as the service sends it
  DIR/history/ENV/PATH.json    with --history: each file's edit-history
                               document, as the service sends it

Nothing is ever written outside DIR, whatever a path or an ID from the service
says. Each file is written under a temporary name beside it and renamed into
place, so a hard link already at its path is replaced, never written through.
No symbolic link already in DIR is followed, and nothing but a regular file is
replaced (a FIFO is never opened): such a file is skipped, named on stderr, and
the export exits 1 after writing the rest.

The API key is never written into a file: where the service's text holds it
(in any encoding padctl knows), the export writes it redacted and names the
file on stderr.

ENV is the environment's ID as a safe folder name: lower-case letters, digits,
'-' and '_' stay; any other byte is written %xx (so "." is %2e and "A" is
%41); an ID too long for a name is cut and given a hash; an ID that would be
"history" or "environments" has its first letter written %xx.`,
		Example: `  padctl pads export ABC123 interview
  padctl pads export ABC123 interview --history`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			// DIR is an argument, as for archive and questions pull;
			// --dir DIR, the earlier spelling, still works.
			switch {
			case len(args) == 2 && o.Dir != "" && o.Dir != args[1]:
				return cmdutil.UsageErrorf("two folders: %s and --dir %s: give DIR once", args[1], o.Dir)
			case len(args) == 2:
				o.Dir = args[1]
			case o.Dir == "":
				return cmdutil.UsageErrorf("pads export needs a DIR to write into: padctl pads export PAD_ID DIR")
			}
			o.IO, o.Client, o.Ctx, o.ID = f.IOStreams, f.Client, cmd.Context(), padapi.ID(args[0])
			o.Redact = redact.New(f.Keys()...)
			if runF != nil {
				return runF(o)
			}
			return exportRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Dir, "dir", "", "write into `DIR` (the same as the DIR argument)")
	cmd.Flags().BoolVar(&o.History, "history", false, "also write each file's edit-history document into DIR/history/")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

// exportRun writes pad o.ID into o.Dir through the archive engine's
// one-pad writer (archive.WritePad), so that an export and a pad folder
// of an archive are laid out alike. A file that cannot be written safely
// is skipped and named on stderr; the export then fails once the rest is
// written.
func exportRun(o *ExportOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	res, err := archive.WritePad(o.Ctx, c, o.ID, o.Dir, archive.PadOptions{
		NoHistory: !o.History,
		Redact:    o.Redact.String,
		Progress: func(p archive.Progress) {
			switch p.Kind {
			case archive.FileSkipped:
				// A file system error names the file already.
				cmdutil.Note(o.IO, "padctl: skipped %s: %s", p.Path, strings.TrimPrefix(cmdutil.Message(p.Err), p.Path+": "))
			case archive.Redacted:
				cmdutil.Note(o.IO, "note: %s: the API key was taken out of what the service sent (padctl writes no key into a file)", p.Path)
			}
		},
	})
	if err != nil {
		return err
	}
	if res.Skipped > 0 {
		return fmt.Errorf("export incomplete: %d of %d files written to %s", res.Written, res.Written+res.Skipped, o.Dir)
	}
	cmdutil.Note(o.IO, "wrote %d files to %s", res.Written, o.Dir)
	return nil
}
