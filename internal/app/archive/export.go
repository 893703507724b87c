// export.go: WritePad, one pad into a folder of its own (padctl pads export).

package archive

import (
	"context"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/lib/safefile"
)

// PadOptions choose how WritePad writes a pad.
type PadOptions struct {
	// NoHistory skips the edit-history documents.
	NoHistory bool
	// Redact is applied to every text before it is written (the API key
	// redactor), and no name it changes is written; nil writes texts as
	// they are.
	Redact func(string) string
	// Progress, when not nil, is told of each file skipped (FileSkipped)
	// and each text the redactor changed (Redacted), one call at a time;
	// Path is the file's name in the folder.
	Progress func(Progress)
}

// PadResult counts what WritePad wrote, and the files it skipped.
type PadResult struct {
	Written, Skipped int
}

// WritePad fetches pad id whole and writes it into the folder dir
// (created if missing) as a pad folder of an archive is laid out — the
// one layout, which padctl pads export and padctl archive share:
//
//	dir/pad.json                 the pad, as the service sent it
//	dir/events.json              its whole event log, oldest first: one
//	                             JSON array of each event as sent
//	dir/notes.md                 the interviewer's notes
//	dir/<env>/PATH               each file of each environment, its final text
//	dir/environments/<env>.json  each environment, as the service sent it
//	dir/history/<env>/PATH.json  each file's edit-history document, as sent
//	                             (not with NoHistory)
//
// Files of those names already in dir are replaced, each written under a
// temporary name and renamed over it (a hard link is replaced, never
// written through); nothing but a regular file is replaced, no symbolic
// link is followed, and nothing is written outside dir. A file that
// cannot be written so, or whose path from the service is not one inside
// the folder, is skipped (a FileSkipped event) and the rest written. An
// error is returned when the pad cannot be fetched, or dir opened.
func WritePad(ctx context.Context, c *padapi.Client, id padapi.ID, dir string, o PadOptions) (PadResult, error) {
	opts, err := Options{NoHistory: o.NoHistory, Redact: o.Redact, Progress: o.Progress}.normalize()
	if err != nil {
		return PadResult{}, err
	}
	r := &run{c: c, o: opts, st: &store{}}
	tr, err := r.fetch(ctx, id)
	if err != nil {
		return PadResult{}, err
	}
	out, err := safefile.Open(dir)
	if err != nil {
		return PadResult{}, err
	}
	defer out.Close()
	out.Redact, out.Own = opts.Redact, ownNames // no name that holds the key
	w := &padWriter{run: r, out: out, pad: id, files: map[string]string{}, taken: map[string]bool{}, replace: true}
	err = w.write(ctx, tr)
	if err == nil {
		err = ctx.Err()
	}
	return PadResult{Written: len(w.files), Skipped: w.skipped}, err
}
