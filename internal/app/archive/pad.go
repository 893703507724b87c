// pad.go: one pad fetched whole and written as one folder.

package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// The names of a pad folder's own files and folders.
const (
	padFile   = "pad.json"
	eventFile = "events.json"
	notesFile = "notes.md"
	envsDir   = "environments"
	histDir   = "history"
)

// archivePad fetches one pad and writes its folder, trying again when the
// service said 429 (the Gate has paused every request meanwhile).
func (r *run) archivePad(ctx context.Context, j job) result {
	var err error
	for range maxAttempts {
		var e *entry
		if e, err = r.fetchPad(ctx, j.pad); err == nil {
			return result{job: j, entry: e}
		}
		if !errors.Is(err, padapi.ErrRateLimited) || ctx.Err() != nil {
			break
		}
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return result{job: j, err: err}
}

// fetchPad fetches pad p whole, writes it under a temporary folder, and
// renames that over the pad's folder: a reader sees the old folder or the
// new one, and a killed run leaves only a temporary folder.
func (r *run) fetchPad(ctx context.Context, p padapi.Pad) (*entry, error) {
	// The ID goes into the index as it is: one that holds the key (cut
	// and hashed, its folder name would not) is refused before anything
	// is fetched or written.
	if shown := r.o.Redact(string(p.ID)); shown != string(p.ID) {
		return nil, fmt.Errorf("pad %s: %w", shown, safefile.ErrSecretName)
	}
	tr, err := r.fetch(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	dir := r.st.dirFor(p.ID)
	files := map[string]string{}
	if err := r.st.alive(); err != nil {
		return nil, err
	}
	tmp, err := r.st.lazy.MkdirTemp(padsDir)
	if err != nil {
		return nil, err
	}
	err = r.writePad(ctx, tmp, dir, p.ID, tr, files)
	if err == nil {
		err = r.st.alive()
	}
	if err == nil {
		err = r.st.lazy.Rename(tmp, dir)
	}
	if err != nil {
		if r.st.alive() == nil {
			_ = r.st.lazy.RemoveAll(tmp)
		}
		return nil, err
	}
	return &entry{
		ID: p.ID, Title: r.o.Redact(p.Title), State: r.o.Redact(p.State), UpdatedAt: p.UpdatedAt,
		Dir: dir, Files: files,
	}, nil
}

// writePad writes pad id, as fetched in tr, into the temporary folder
// tmp (which becomes its folder dir), noting each file's digest in files.
func (r *run) writePad(ctx context.Context, tmp, dir string, id padapi.ID, tr *fetched, files map[string]string) error {
	out, err := r.st.lazy.Sub(tmp)
	if err != nil {
		return err
	}
	defer out.Close()
	w := &padWriter{run: r, out: out, dir: dir, pad: id, files: files, taken: map[string]bool{}}
	if err := w.write(ctx, tr); err != nil {
		return err
	}
	return ctx.Err()
}

// padWriter writes one pad's files: the one layout of a pad folder, which
// padctl archive and padctl pads export (WritePad) share.
type padWriter struct {
	run   *run
	out   *safefile.Dir // the temporary folder, or the export's folder
	dir   string        // the pad's folder, relative to DIR, for events
	pad   padapi.ID
	files map[string]string // name in the folder -> SHA-256, hex
	taken map[string]bool   // names written, case-folded
	// replace: out is a folder that may hold files already (an export):
	// each file replaces what has its name (safefile.WriteFile), and one
	// that cannot be written is skipped, not a failure of the pad.
	replace bool
	skipped int
}

func (w *padWriter) write(ctx context.Context, tr *fetched) error {
	if err := w.own(padFile, string(tr.padJSON)); err != nil {
		return err
	}
	if err := w.own(eventFile, string(tr.events)); err != nil {
		return err
	}
	notes := tr.pad.Notes
	if notes != "" && !strings.HasSuffix(notes, "\n") {
		notes += "\n"
	}
	if err := w.own(notesFile, notes); err != nil {
		return err
	}
	for _, env := range tr.envs {
		if err := w.environment(ctx, env); err != nil {
			return err
		}
	}
	return nil
}

// environment writes one environment: its JSON as the service sent it,
// each file's final text, and each file's edit-history document.
func (w *padWriter) environment(ctx context.Context, fe fetchedEnv) error {
	name := safefile.Name(string(fe.id), histDir, envsDir)
	if err := w.own(path.Join(envsDir, name+".json"), string(fe.body)); err != nil {
		return err
	}
	for _, f := range fe.env.Files {
		file, ok := w.claim(name, f.Path)
		if !ok {
			continue
		}
		if err := w.put(file, f.Contents); err != nil {
			w.skip(file, err)
			continue
		}
		if w.run.o.NoHistory || f.History == "" || f.Binary {
			continue
		}
		if err := w.history(ctx, path.Join(histDir, file+".json"), f.History); err != nil {
			return err
		}
	}
	return nil
}

// claim returns where file p of environment folder env goes, or false
// (and a FileSkipped event) when p is not a path inside the folder, or
// another file of the pad has that name, case aside.
func (w *padWriter) claim(env, p string) (string, bool) {
	name := path.Join(env, p)
	switch {
	case p == "" || p == "." || !fs.ValidPath(p) || strings.ContainsAny(p, "\\\x00"):
		// Named as sent: path.Join would clean "../x" to a name inside.
		w.skip(env+"/"+p, fmt.Errorf("file %q: not a path inside the folder", p))
		return "", false
	case w.taken[strings.ToLower(name)]:
		w.skip(name, fmt.Errorf("file %q: another file of the pad has this name", p))
		return "", false
	}
	w.taken[strings.ToLower(name)] = true
	return name, true
}

// history fetches an edit-history document and writes it at name as the
// service sent it. A link the library refuses, or one the service no
// longer has, is skipped; any other failure fails the pad.
func (w *padWriter) history(ctx context.Context, name, link string) error {
	doc, err := historyDocument(ctx, w.run.c, link)
	if errors.Is(err, padapi.ErrInvalidArgument) || errors.Is(err, padapi.ErrNotFound) {
		w.skip(name, err)
		return nil
	}
	if err != nil {
		return err
	}
	return w.own(name, string(doc))
}

// historyDocument returns the edit-history document at link as the
// service sent it (issue 37 #7): the library's Pads.HistoryTo checks it is
// JSON token by token as it streams, within the client's size cap and
// looking at ctx, and never decodes it into operations.
func historyDocument(ctx context.Context, c *padapi.Client, link string) ([]byte, error) {
	var doc bytes.Buffer
	if _, err := c.Pads.HistoryTo(ctx, link, &doc); err != nil {
		return nil, err
	}
	return doc.Bytes(), nil
}

// put redacts text and writes it at name in the pad's folder.
func (w *padWriter) put(name, text string) error {
	if err := w.run.st.alive(); err != nil {
		return err
	}
	clean := w.run.o.Redact(text)
	if clean != text {
		w.run.emit(Progress{Kind: Redacted, Pad: w.pad, Path: path.Join(w.dir, name)})
	}
	write := w.out.Create // a new folder: no file is there yet
	if w.replace {
		write = w.out.WriteFile
	}
	if err := write(name, []byte(clean)); err != nil {
		if w.dir == "" {
			return err
		}
		return fmt.Errorf("%s: %w", w.dir, err)
	}
	sum := sha256.Sum256([]byte(clean))
	w.files[name] = hex.EncodeToString(sum[:])
	return nil
}

// own writes one of the pad's own files (not one of an environment's):
// one that cannot be written fails the pad, or in an export is skipped.
func (w *padWriter) own(name, text string) error {
	err := w.put(name, text)
	if err != nil && w.replace && w.run.st.alive() == nil {
		w.skip(name, err)
		return nil
	}
	return err
}

func (w *padWriter) skip(name string, err error) {
	w.skipped++
	if w.dir != "" {
		name = w.dir + "/" + name // not path.Join: the name as sent
	}
	w.run.emit(Progress{Kind: FileSkipped, Pad: w.pad, Path: name, Err: err})
}
