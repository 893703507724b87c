package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
)

// exportOptions are the flags of pads export.
type exportOptions struct {
	dir     string
	history bool
}

// newPadsExportCmd returns pads export: the transcript of an interview on
// disk, written so that nothing from the service can reach outside DIR.
func newPadsExportCmd(f *factory) *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export PAD_ID --dir DIR",
		Short: "Write an interview's transcript to a directory",
		Long: `Write everything the service keeps about one interview to DIR (created if
missing; files already there are overwritten):

  DIR/pad.json                the pad, as the service sends it
  DIR/events.json             the whole event log, one JSON array
  DIR/notes.md                the interviewer's notes
  DIR/ENV_ID/PATH             each file of each environment, its final code
  DIR/history/ENV_ID/PATH     with --history: each file's text replayed from
                              its edit history, as it was when the pad ended

Nothing is ever written outside DIR, whatever a path or an ID from the service
says, and no symbolic link already in DIR is followed: such a file is skipped,
named on stderr, and the export exits 1 after writing the rest.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			return o.run(cmd.Context(), f, c, padapi.ID(args[0]))
		},
	}
	cmd.Flags().StringVar(&o.dir, "dir", "", "write into `DIR`")
	cmd.Flags().BoolVar(&o.history, "history", false, "also replay each file's edit history into DIR/history/")
	_ = cmd.MarkFlagRequired("dir")
	_ = cmd.MarkFlagDirname("dir")
	return cmd
}

// run writes pad id's transcript into o.dir. A file that cannot be written
// safely is skipped and named on stderr; the export then fails once the
// rest is written.
func (o *exportOptions) run(ctx context.Context, f *factory, c *padapi.Client, id padapi.ID) error {
	tr, err := c.Pads.Transcript(ctx, id)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	// os.Root refuses any name that leads outside the directory, through
	// "..", an absolute path or a symbolic link; write refuses symbolic
	// links inside it too.
	root, err := os.OpenRoot(o.dir)
	if err != nil {
		return err
	}
	defer root.Close()

	written, skipped := 0, 0
	fail := func(err error) {
		skipped++
		f.note("padctl: skipped %s", message(err))
	}
	save := func(name string, data []byte) {
		if err := write(root, name, data); err != nil {
			fail(err)
			return
		}
		written++
	}
	for _, doc := range []struct {
		name string
		v    any
	}{{"pad.json", tr.Pad}, {"events.json", tr.Events}} {
		b, err := json.MarshalIndent(doc.v, "", "  ")
		if err != nil {
			return err
		}
		save(doc.name, append(b, '\n'))
	}
	save("notes.md", []byte(withNewline(tr.Pad.Notes)))

	for _, env := range tr.Environments {
		for _, file := range env.Files {
			name, err := localName(env.ID, file.Path)
			if err != nil {
				fail(err)
				continue
			}
			save(name, []byte(file.Contents))
			if !o.history || file.History == "" {
				continue
			}
			text, err := replay(ctx, c, file.History, tr.Pad)
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			case err != nil:
				fail(fmt.Errorf("the history of %s: %w", name, err))
			default:
				save(filepath.Join("history", name), []byte(text))
			}
		}
	}
	if skipped > 0 {
		return fmt.Errorf("export incomplete: %d of %d files written to %s", written, written+skipped, o.dir)
	}
	f.note("wrote %d files to %s", written, o.dir)
	return nil
}

// replay fetches a file's edit history and replays it to the end of the
// interview: what the candidate had written when the pad ended, or all of
// it while the pad is open.
func replay(ctx context.Context, c *padapi.Client, link string, pad *padapi.Pad) (string, error) {
	h, err := c.Pads.History(ctx, link)
	if err != nil {
		return "", err
	}
	if pad.EndedAt != nil {
		return h.ReplayUntil(*pad.EndedAt)
	}
	return h.Replay()
}

// localName is where a file of an environment goes below the export
// directory, ENV_ID/PATH; or an error when the ID is not one plain directory
// name or the path leaves the directory.
func localName(env padapi.ID, path string) (string, error) {
	id := string(env)
	if strings.ContainsAny(id, `/\`) || !filepath.IsLocal(id) || id == "history" {
		return "", fmt.Errorf("environment %q: not a plain directory name", id)
	}
	p := filepath.FromSlash(path)
	if !filepath.IsLocal(p) || filepath.Clean(p) == "." {
		return "", fmt.Errorf("environment %s, file %q: not a path inside the directory", id, path)
	}
	return filepath.Join(id, p), nil
}

// write writes data to name below root, making the directories on the
// way. It follows no symbolic link, not even one that stays inside root: a
// link where a directory or the file should be is an error.
func write(root *os.Root, name string, data []byte) error {
	parts := strings.Split(name, string(filepath.Separator))
	for i := range parts {
		sub := filepath.Join(parts[:i+1]...)
		dir := i < len(parts)-1
		fi, err := root.Lstat(sub)
		switch {
		case errors.Is(err, fs.ErrNotExist) && dir:
			err = root.Mkdir(sub, 0o755)
		case errors.Is(err, fs.ErrNotExist):
			err = nil
		case err != nil:
		case fi.Mode()&fs.ModeSymlink != 0:
			err = errors.New("a symbolic link: not following it")
		case dir && !fi.IsDir():
			err = errors.New("not a directory")
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sub, pathless(err))
		}
	}
	fh, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %w", name, pathless(err))
	}
	_, err = fh.Write(data)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, pathless(err))
	}
	return nil
}

// pathless drops the operation and path of a *fs.PathError, which the
// caller names already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// withNewline ends a non-empty text with a newline.
func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s
}
