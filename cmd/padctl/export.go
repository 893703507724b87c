// export.go: padctl pads export: a pad, its events, notes and files on disk.

package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
missing; files already there are replaced):

  DIR/pad.json                the pad, as the service sends it
  DIR/events.json             the whole event log, one JSON array
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

ENV_ID is the environment's ID as a safe folder name: lower-case letters,
digits, '-' and '_' stay; any other byte is written %xx (so "." is %2e and
"A" is %41); an ID too long for a name is cut and given a hash; an ID that
would be "history", or that another environment already has, is changed so
that no two environments, and no environment and DIR's own files, share a
name.`,
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

// ownNames are the names the export gives its own files and folders at the
// top of DIR. No environment is ever given one of them.
var ownNames = []string{"pad.json", "events.json", "notes.md", "history"}

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
	// links inside it too, and never opens a path that exists.
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
	// taken holds every name written so far, case-folded: no two files of
	// the export may land on one name, even on a file system that ignores
	// case.
	taken := map[string]bool{}
	save := func(name string, data []byte) {
		key := strings.ToLower(name)
		if taken[key] {
			fail(fmt.Errorf("%s: another file of the export has this name", name))
			return
		}
		taken[key] = true
		if err := write(ctx, root, name, data); err != nil {
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

	dirs := envDirs{}
	for _, env := range tr.Environments {
		dir := dirs.name(env.ID)
		for _, file := range env.Files {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			name, err := localName(dir, env.ID, file.Path)
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

// name returns the folder for environment id: safeName's, or, when an
// earlier environment of the export has that name already (the service
// sent one ID twice), the name with "~2", "~3"... appended.
func (d envDirs) name(id padapi.ID) string {
	base := safeName(string(id))
	name := base
	for n := 2; d[name]; n++ { // ends: each round tries a new name
		name = base + "~" + strconv.Itoa(n)
	}
	d[name] = true
	return name
}

// maxNameLen bounds a folder name made from an ID, well below the 255
// bytes file systems allow.
const maxNameLen = 64

// safeName maps an ID from the service to one folder name, the same for
// the same ID and different for different IDs, on any file system:
//
//   - lower-case ASCII letters, digits, '-' and '_' stand for themselves;
//     every other byte (upper-case letters, '.', '/', '\\', NUL, '%', '~',
//     any non-ASCII byte) is written %xx in lower-case hex, so the name
//     holds no upper-case letter (two IDs that differ in case stay apart
//     where the file system ignores case), no separator, and is never "."
//     or "..";
//   - a name that would be one of the export's own (history) has its
//     first byte escaped;
//   - an empty ID, or a name over maxNameLen bytes, becomes its first
//     bytes, '~' and a hash of the whole ID ('~' appears nowhere else, as
//     it is escaped).
func safeName(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	name := b.String()
	if slices.Contains(ownNames, name) {
		name = fmt.Sprintf("%%%02x", name[0]) + name[1:]
	}
	if name == "" || len(name) > maxNameLen {
		sum := sha256.Sum256([]byte(id))
		keep := name[:min(len(name), maxNameLen-17)]
		// Cut at an escape's start, not inside one.
		if i := strings.LastIndexByte(keep, '%'); i >= 0 && i > len(keep)-3 {
			keep = keep[:i]
		}
		name = keep + "~" + hex.EncodeToString(sum[:8])
	}
	return name
}

// localName is where a file of an environment goes below the export
// directory, DIR_NAME/PATH; or an error when the path leaves the
// directory or is not one a file system can hold.
func localName(dir string, env padapi.ID, path string) (string, error) {
	p := filepath.FromSlash(path)
	if !filepath.IsLocal(p) || filepath.Clean(p) == "." || strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("environment %q, file %q: not a path inside the directory", env, path)
	}
	return filepath.Join(dir, p), nil
}

// write puts data at name below root, making the folders on the way. It
// never opens a path that exists: it writes a new file under a temporary
// name in the same folder and renames it into place, so that a hard link
// planted at name is replaced, never written through. It follows no
// symbolic link, not even one that stays inside root, and refuses
// anything but a regular file where the file goes (a FIFO, a socket, a
// device) and anything but a folder on the way, without opening it.
func write(ctx context.Context, root *os.Root, name string, data []byte) error {
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
		case !dir && !fi.Mode().IsRegular():
			err = fmt.Errorf("not a regular file (%s): not replacing it", kind(fi.Mode()))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", sub, pathless(err))
		}
	}
	tmp, err := writeTemp(root, filepath.Dir(name), data)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // interrupted: leave the old file as it was
	}
	if err == nil {
		err = root.Rename(tmp, name)
	}
	if err != nil {
		if tmp != "" {
			_ = root.Remove(tmp)
		}
		return fmt.Errorf("%s: %w", name, pathless(err))
	}
	return nil
}

// writeTemp writes data to a new file in folder dir below root, under a
// name no other file has (O_EXCL: not even a link), and returns that name.
func writeTemp(root *os.Root, dir string, data []byte) (string, error) {
	var (
		fh   *os.File
		name string
		err  error
	)
	for range 10 { // a clash with an existing name is already unlikely
		name = filepath.Join(dir, ".padctl-"+rand.Text()[:12]+".tmp")
		fh, err = root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	_, err = fh.Write(data)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = root.Remove(name)
		return "", err
	}
	return name, nil
}

// kind names a file mode that is not a regular file, for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}

// pathless drops the operation and path of a *fs.PathError or
// *os.LinkError, which the caller names already.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
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
