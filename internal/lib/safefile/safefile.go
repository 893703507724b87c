// Package safefile is the module's one way to write files below a folder
// that the caller names: padctl's export, the question folder and the
// archive all write through it.
//
// Every write goes through an os.Root (no ".." and no symbolic link leads
// out of the folder), follows no symbolic link even inside it, never opens
// an existing path for writing (a new file is written under a temporary
// name in the same folder and renamed over the old one, so a hard link
// planted at the name is replaced, never written through), and refuses
// anything but a regular file where a file goes (a FIFO, a socket, a
// device) and anything but a real folder on the way.
package safefile

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/padinterview/padapi/internal/lib/redact"
)

// TempPrefix starts the name of every temporary file or folder safefile
// makes; a reader of the folder can skip such names (they are left only by
// a process killed between a write and its rename).
const TempPrefix = ".padctl-tmp-"

// Dir is a folder opened for writing.
type Dir struct {
	root *os.Root
	// Lazy skips the fsync before each rename: a write is still atomic
	// for readers and if the process dies, but not if the machine loses
	// power. Set it where what is written can be fetched again.
	Lazy bool
	// Redact, when set, is the caller's redactor (the API key out of a
	// text, in every encoding it knows): a text it changes holds a
	// secret. No file or folder is then made, or renamed to, under a
	// name that holds one: not as the name is written, and not with its
	// %xx escapes undone (those of Name). Such a write fails with
	// ErrSecretName, its error showing the name with each part that
	// holds a secret as redact.Mark.
	Redact func(string) string
	// Own are the caller's own names: file or folder names the program
	// chose itself (a constant such as ".padctl-archive", "index.jsonl",
	// "pad.json"), never made from what a service sent. A part of a path
	// equal to one of them is not checked against Redact: a name the
	// program wrote into its own source cannot leak the key, even when
	// 8 characters of the key match it. Every other part, and the parts
	// that are not the caller's own taken together, still are. Sub passes
	// them on.
	Own []string
}

// ErrSecretName is the error of a write refused because its name (a
// file's or a folder's on the way) would hold a secret (Dir.Redact).
var ErrSecretName = errors.New("the name would hold the API key: no file is written under it")

// checkNew is check for a name that a write makes: it also refuses a name
// that holds a secret, naming it with that part masked.
func (d *Dir) checkNew(name string) error {
	if err := check(name); err != nil || d.Redact == nil {
		return err
	}
	parts := strings.Split(name, "/")
	masked := false
	var theirs []string // the parts that are not the caller's own
	for i, p := range parts {
		if slices.Contains(d.Own, p) {
			continue
		}
		theirs = append(theirs, p)
		if u, err := url.PathUnescape(p); d.secret(p) || err == nil && d.secret(u) {
			parts[i], masked = redact.Mark, true
		}
	}
	shown := strings.Join(parts, "/")
	switch {
	case masked:
	case d.secret(strings.Join(theirs, "/")):
		shown = redact.Mark // the parts together hold it
	default:
		return nil
	}
	return fmt.Errorf("%s: %w", shown, ErrSecretName)
}

// secret reports whether d's redactor changes s.
func (d *Dir) secret(s string) bool { return d.Redact(s) != s }

// noFsync, when set, makes every Dir of the process lazy (SkipFsync).
var noFsync atomic.Bool

// SkipFsync makes every Dir of this process skip fsync, as if each had
// Lazy set. It is for tests, from their TestMain: no test can observe a
// power loss, and fsync on a real disk costs milliseconds a call, which
// adds up to seconds in tests of apply (three durable writes per create).
// Writes stay atomic for readers and against a process killed mid-write.
func SkipFsync() { noFsync.Store(true) }

// lazy reports whether d skips fsync.
func (d *Dir) lazy() bool { return d.Lazy || noFsync.Load() }

// Open creates dir (and its parents) when needed and opens it.
func Open(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root}, nil
}

// Close releases the folder.
func (d *Dir) Close() error { return d.root.Close() }

// FS returns the folder as a read-only file system (fs.ReadFile,
// fs.WalkDir); like every access through d, it cannot leave the folder.
func (d *Dir) FS() fs.FS { return d.root.FS() }

// check refuses a name that is not a clean, local slash path.
func check(name string) error {
	if name == "" || !fs.ValidPath(name) || name == "." || strings.ContainsRune(name, '\\') {
		return fmt.Errorf("%q: not a path inside the folder", name)
	}
	return nil
}

// MkdirAll makes the folder name and its parents, refusing any part that
// exists and is not a real folder (a symbolic link included).
func (d *Dir) MkdirAll(name string) error {
	if name == "." {
		return nil
	}
	if err := d.checkNew(name); err != nil {
		return err
	}
	parts := strings.Split(name, "/")
	for i := range parts {
		p := path.Join(parts[:i+1]...)
		fi, err := d.root.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			err = d.root.Mkdir(p, 0o755)
			if errors.Is(err, fs.ErrExist) { // made by another writer meanwhile
				err = d.isDir(p)
			}
		case err != nil:
		case !fi.IsDir():
			err = fmt.Errorf("%s (%s): padctl writes through no link and into no file", Kind(fi.Mode()), p)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", p, Pathless(err))
		}
	}
	return nil
}

func (d *Dir) isDir(p string) error {
	fi, err := d.root.Lstat(p)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("%s: not a directory", Kind(fi.Mode()))
	}
	return err
}

// WriteFile puts data at name (a slash path below the folder) atomically:
// a reader sees the old file or the new one, never a part. It makes the
// folders on the way and refuses a name where something other than a
// regular file stands.
func (d *Dir) WriteFile(name string, data []byte) error {
	if err := d.checkNew(name); err != nil {
		return err
	}
	if err := d.MkdirAll(path.Dir(name)); err != nil {
		return err
	}
	if fi, err := d.root.Lstat(name); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %s: not replacing it", name, Kind(fi.Mode()))
	}
	tmp, err := d.writeTemp(path.Dir(name), data)
	if err == nil {
		err = d.root.Rename(tmp, name)
	}
	if err != nil {
		if tmp != "" {
			_ = d.root.Remove(tmp)
		}
		return fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return d.syncDir(path.Dir(name))
}

// writeTemp writes data to a new file in folder dir under a name no other
// file has (O_EXCL: not even a link) and returns that name.
func (d *Dir) writeTemp(dir string, data []byte) (string, error) {
	var (
		fh   *os.File
		name string
		err  error
	)
	for range 10 { // a clash with an existing name is already unlikely
		name = path.Join(dir, TempPrefix+rand.Text()[:12])
		fh, err = d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	_, err = fh.Write(data)
	if err = finish(fh, err, d.lazy()); err != nil {
		_ = d.root.Remove(name)
		return "", err
	}
	return name, nil
}

// syncDir makes a rename into dir durable (unless d is lazy).
func (d *Dir) syncDir(dir string) error {
	if d.lazy() {
		return nil
	}
	fh, err := d.root.Open(dir)
	if err != nil {
		return err
	}
	return finish(fh, nil, false)
}

// syncCloser is what finish needs of a file.
type syncCloser interface {
	Sync() error
	Close() error
}

// finish ends a write to f that returned err: it syncs f (unless lazy, or
// the write failed) and closes it, and returns the first error of the
// three.
func finish(f syncCloser, err error, lazy bool) error {
	if err == nil && !lazy {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Create writes data to name, a file that must not exist yet (O_EXCL: not
// even as a link), making the folders on the way. It is for filling a
// folder nobody else writes to, such as one MkdirTemp just made, before it
// is renamed into place whole: there a file needs no temporary name of its
// own.
func (d *Dir) Create(name string, data []byte) error {
	if err := d.checkNew(name); err != nil {
		return err
	}
	if err := d.MkdirAll(path.Dir(name)); err != nil {
		return err
	}
	fh, err := d.root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("%s: %w", name, Pathless(err))
	}
	_, err = fh.Write(data)
	if err = finish(fh, err, d.lazy()); err != nil {
		_ = d.root.Remove(name)
		return fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return nil
}

// Sub opens the folder name below d (which must be a real folder, not a
// link) as a Dir of its own, as lazy as d and with its Redact and Own: a short way
// to write many files deep below d, since every access resolves its path
// one part at a time.
func (d *Dir) Sub(name string) (*Dir, error) {
	if err := check(name); err != nil {
		return nil, err
	}
	if err := d.isDir(name); err != nil {
		return nil, fmt.Errorf("%s: %w", name, Pathless(err))
	}
	root, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return &Dir{root: root, Lazy: d.Lazy, Redact: d.Redact, Own: d.Own}, nil
}

// MkdirTemp makes a new, empty folder inside folder dir (made if needed)
// whose name starts with TempPrefix, and returns its path.
func (d *Dir) MkdirTemp(dir string) (string, error) {
	if err := d.MkdirAll(dir); err != nil {
		return "", err
	}
	for range 10 {
		name := path.Join(dir, TempPrefix+rand.Text()[:12])
		err := d.root.Mkdir(name, 0o755)
		if !errors.Is(err, fs.ErrExist) {
			return name, err
		}
	}
	return "", fmt.Errorf("%s: no free temporary name", dir)
}

// Rename moves oldname to newname, replacing a folder or regular file
// there: a replaced folder is first moved aside under a temporary name and
// removed after, so newname is at each moment the old whole or the new
// whole.
func (d *Dir) Rename(oldname, newname string) error {
	if err := check(oldname); err != nil {
		return err
	}
	if err := d.checkNew(newname); err != nil {
		return err
	}
	if err := d.MkdirAll(path.Dir(newname)); err != nil {
		return err
	}
	var aside string
	fi, err := d.root.Lstat(newname)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("%s: %w", newname, Pathless(err))
	case fi.IsDir():
		aside = path.Join(path.Dir(newname), TempPrefix+rand.Text()[:12])
		if err := d.root.Rename(newname, aside); err != nil {
			return fmt.Errorf("%s: %w", newname, Pathless(err))
		}
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: %s: not replacing it", newname, Kind(fi.Mode()))
	}
	if err := d.root.Rename(oldname, newname); err != nil {
		if aside != "" {
			_ = d.root.Rename(aside, newname)
		}
		return fmt.Errorf("%s: %w", newname, Pathless(err))
	}
	if aside != "" {
		if err := d.root.RemoveAll(aside); err != nil {
			return fmt.Errorf("%s: %w", aside, Pathless(err))
		}
	}
	return d.syncDir(path.Dir(newname))
}

// Remove removes the regular file or empty folder name; a name that does
// not exist is no error.
func (d *Dir) Remove(name string) error {
	if err := check(name); err != nil {
		return err
	}
	fi, err := d.root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
	case !fi.Mode().IsRegular() && !fi.IsDir():
		err = fmt.Errorf("%s: not removing it", Kind(fi.Mode()))
	default:
		err = d.root.Remove(name)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return nil
}

// RemoveAll removes name and everything below it (links are removed, not
// followed); a name that does not exist is no error.
func (d *Dir) RemoveAll(name string) error {
	if err := check(name); err != nil {
		return err
	}
	if err := d.root.RemoveAll(name); err != nil {
		return fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return nil
}

// ReadFile reads the regular file name, following no symbolic link and
// reading nothing but a regular file (never a FIFO, which would block).
func (d *Dir) ReadFile(name string) ([]byte, error) {
	if err := check(name); err != nil {
		return nil, err
	}
	fi, err := d.root.Lstat(name)
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s: not reading it", Kind(fi.Mode()))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, Pathless(err))
	}
	return d.root.ReadFile(name)
}

// Lstat describes name without following a link.
func (d *Dir) Lstat(name string) (fs.FileInfo, error) {
	if name != "." {
		if err := check(name); err != nil {
			return nil, err
		}
	}
	return d.root.Lstat(name)
}

// Kind names a file mode that is not a regular file, for a message.
func Kind(m fs.FileMode) string {
	for _, k := range kinds {
		if m&k.bits != 0 || k.bits == 0 && m.IsRegular() {
			return k.name
		}
	}
	return "mode " + m.String()
}

// kinds name the modes Kind knows, in the order it tries them (a device
// may also be a character device); bits 0 is a regular file.
var kinds = []struct {
	bits fs.FileMode
	name string
}{
	{fs.ModeSymlink, "a symbolic link"},
	{fs.ModeNamedPipe, "a FIFO"},
	{fs.ModeSocket, "a socket"},
	{fs.ModeDevice, "a device"},
	{fs.ModeDir, "a directory"},
	{0, "a regular file"},
}

// plain reports whether Name writes c as it is: a lower-case ASCII
// letter, a digit, '-' or '_'.
func plain(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}

// Pathless drops the operation and path of a *fs.PathError or
// *os.LinkError, which the caller names already.
func Pathless(err error) error {
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

// maxNameLen bounds a name made from an ID, well below the 255 bytes file
// systems allow.
const maxNameLen = 64

// Name maps an ID from the service to one file or folder name, the same
// for the same ID and different for different IDs, on any file system:
//
//   - lower-case ASCII letters, digits, '-' and '_' stand for themselves;
//     every other byte (upper-case letters, '.', '/', '\\', NUL, '%', '~',
//     any non-ASCII byte) is written %xx in lower-case hex, so the name
//     holds no upper-case letter (two IDs that differ in case stay apart
//     where the file system ignores case), no separator, and is never "."
//     or "..";
//   - a name that is one of reserved (a caller's own file names) has its
//     first byte escaped;
//   - an empty ID, or a name over 64 bytes, becomes its first bytes, '~'
//     and a hash of the whole ID ('~' appears nowhere else, as it is
//     escaped).
func Name(id string, reserved ...string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		if c := id[i]; plain(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02x", c)
		}
	}
	name := b.String()
	for _, r := range reserved {
		if name != "" && name == r {
			name = fmt.Sprintf("%%%02x", name[0]) + name[1:]
		}
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
