package pads

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/app/archive"
	"github.com/padinterview/padapi/internal/lib/redact"
	"github.com/padinterview/padapi/internal/lib/safefile"
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
missing; files already there are replaced):

  DIR/pad.json                the pad, as the service sends it
  DIR/events.json             the whole event log, oldest first, one JSON
                              array of the events as the service sends them
  DIR/notes.md                the interviewer's notes
  DIR/ENV_ID/PATH             each file of each environment, its final code
  DIR/history/ENV_ID/PATH     with --history: each file's text replayed from
                              its edit history, as it was when the pad ended

Nothing is ever written outside DIR, whatever a path or an ID from the service
says. Each file is written under a temporary name beside it and renamed into
place, so a hard link already at its path is replaced, never written through.
No symbolic link already in DIR is followed, and nothing but a regular file is
replaced (a FIFO is never opened): such a file is skipped, named on stderr, and
the export exits 1 after writing the rest.

The API key is never written into a file: where the service's text holds it
(in any encoding padctl knows), the export writes it redacted and names the
file on stderr.

ENV_ID is the environment's ID as a safe folder name: lower-case letters,
digits, '-' and '_' stay; any other byte is written %xx (so "." is %2e and
"A" is %41); an ID too long for a name is cut and given a hash; an ID that
would be "history", or that another environment already has, is changed so
that no two environments, and no environment and DIR's own files, share a
name.`,
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
	cmd.Flags().BoolVar(&o.History, "history", false, "also replay each file's edit history into DIR/history/")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

// ownNames are the names the export gives its own files and folders at the
// top of DIR. No environment is ever given one of them.
var ownNames = []string{"pad.json", "events.json", "notes.md", "history"}

// exporter is one run of pads export: where it writes, and what it wrote.
type exporter struct {
	o                *ExportOptions
	dir              *safefile.Dir
	written, skipped int
	// taken holds every name written so far, case-folded: no two files of
	// the export may land on one name, even on a file system that ignores
	// case.
	taken map[string]bool
}

// exportRun writes pad o.ID's transcript into o.Dir, through safefile. A
// file that cannot be written safely is skipped and named on stderr; the
// export then fails once the rest is written. pad.json and events.json are
// the service's answers as it sent them (padapi.WithResponse, and the
// archive engine's EventsJSON), indented: null stays null and fields padapi does not know
// stay.
func exportRun(o *ExportOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	var resp padapi.Response
	pad, err := c.Pads.Get(padapi.WithResponse(o.Ctx, &resp), o.ID)
	if err != nil {
		return err
	}
	events, err := archive.EventsJSON(o.Ctx, c, o.ID)
	if err != nil {
		return err
	}
	dir, err := safefile.Open(o.Dir)
	if err != nil {
		return err
	}
	defer dir.Close()
	// No name from the service that holds the key becomes a file's.
	dir.Redact = o.Redact.String
	e := &exporter{o: o, dir: dir, taken: map[string]bool{}}
	e.saveJSON("pad.json", resp.Body)
	e.saveJSON("events.json", events)
	e.save("notes.md", []byte(withNewline(pad.Notes)))
	if err := e.environments(c, pad); err != nil {
		return err
	}
	if e.skipped > 0 {
		return fmt.Errorf("export incomplete: %d of %d files written to %s", e.written, e.written+e.skipped, o.Dir)
	}
	cmdutil.Note(o.IO, "wrote %d files to %s", e.written, o.Dir)
	return nil
}

// environments writes each environment's files, and with --history each
// file's replayed history: the environments the pad lists, each once, one
// after the other. An ID the library refuses came from the service: that
// environment is skipped, the rest written.
func (e *exporter) environments(c *padapi.Client, pad *padapi.Pad) error {
	dirs := envDirs{}
	for _, id := range archive.Environments(pad) {
		env, err := c.Pads.Environment(e.o.Ctx, id)
		switch {
		case e.o.Ctx.Err() != nil:
			return e.o.Ctx.Err()
		case errors.Is(err, padapi.ErrInvalidArgument):
			e.fail(fmt.Errorf("the pad lists environment ID %q, which names no environment", id))
			continue
		case err != nil:
			return err
		}
		if err := e.environment(c, pad, env, dirs.name(env.ID)); err != nil {
			return err
		}
	}
	return nil
}

// environment writes the files of env into dir, and with --history each
// file's replayed history.
func (e *exporter) environment(c *padapi.Client, pad *padapi.Pad, env *padapi.PadEnvironment, dir string) error {
	ctx := e.o.Ctx
	for _, file := range env.Files {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		name, err := localName(dir, env.ID, file.Path)
		if err != nil {
			e.fail(err)
			continue
		}
		e.save(name, []byte(file.Contents))
		if !e.o.History || file.History == "" {
			continue
		}
		text, err := replay(ctx, c, file.History, pad)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			e.fail(fmt.Errorf("the history of %s: %w", name, err))
		default:
			e.save(path.Join("history", name), []byte(text))
		}
	}
	return nil
}

// saveJSON writes a JSON document of the service's at name, indented, its
// values as they came.
func (e *exporter) saveJSON(name string, doc []byte) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, doc, "", "  "); err != nil {
		e.fail(fmt.Errorf("%s: the service's answer is not JSON", name))
		return
	}
	e.save(name, append(buf.Bytes(), '\n'))
}

// fail names a file the export skipped, on stderr.
func (e *exporter) fail(err error) {
	e.skipped++
	cmdutil.Note(e.o.IO, "padctl: skipped %s", cmdutil.Message(err))
}

// save writes data at name (a slash path below DIR), unless another file
// of the export has that name already. The API key is taken out of data
// first, and the file named on stderr when it was there.
func (e *exporter) save(name string, data []byte) {
	key := strings.ToLower(name)
	if e.taken[key] {
		e.fail(fmt.Errorf("%s: another file of the export has this name", name))
		return
	}
	e.taken[key] = true
	clean := e.o.Redact.Bytes(data)
	if err := e.dir.WriteFile(name, clean); err != nil {
		e.fail(err)
		return
	}
	e.written++
	if !bytes.Equal(clean, data) {
		cmdutil.Note(e.o.IO, "note: %s: the API key was taken out of what the service sent (padctl writes no key into a file)", name)
	}
}

// replay fetches a file's edit history and replays it to the end of the
// interview: what the candidate had written when the pad ended, or all of
// it while the pad is open. The command's context (--timeout, Ctrl-C) stops
// a long replay.
func replay(ctx context.Context, c *padapi.Client, link string, pad *padapi.Pad) (string, error) {
	h, err := c.Pads.History(ctx, link)
	if err != nil {
		return "", err
	}
	if pad.EndedAt != nil {
		return h.ReplayUntilContext(ctx, *pad.EndedAt)
	}
	return h.ReplayContext(ctx)
}

// envDirs gives each environment of an export its own folder name.
type envDirs map[string]bool

// name returns the folder for environment id: envName's, or, when an
// earlier environment of the export has that name already (the service
// sent one ID twice), the name with "~2", "~3"... appended.
func (d envDirs) name(id padapi.ID) string {
	base := envName(id)
	name := base
	for n := 2; d[name]; n++ { // ends: each round tries a new name
		name = base + "~" + strconv.Itoa(n)
	}
	d[name] = true
	return name
}

// envName is the folder name of environment id: safefile.Name, never one
// of the export's own names.
func envName(id padapi.ID) string { return safefile.Name(string(id), ownNames...) }

// localName is where a file of an environment goes below the export
// directory, DIR_NAME/PATH as a slash path; or an error when the path
// leaves the directory or is not one a file system can hold.
func localName(dir string, env padapi.ID, p string) (string, error) {
	local := filepath.FromSlash(p)
	if !filepath.IsLocal(local) || filepath.Clean(local) == "." || strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("environment %q, file %q: not a path inside the directory", env, p)
	}
	return path.Join(dir, filepath.ToSlash(filepath.Clean(local))), nil
}

// withNewline ends a non-empty text with a newline.
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
