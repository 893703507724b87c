// writer.go: a redacting io.Writer.

package redact

import (
	"io"
	"sync"
)

// Writer writes through another io.Writer with the secrets redacted, as
// a Redactor's String would redact all it was given at once, even when a
// secret is split across two Writes: it keeps back the end of what it was
// given from the last byte that cannot be part of a secret's form (a
// newline, a space, '.', ':', '{' and the like), which no secret's form
// crosses. A line longer than 64 KiB (or than sixteen times the longest
// secret) with no such byte is written but for its last part, long enough
// to hold any secret's escaped form. Flush writes what is kept back. A
// Writer is safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	r   *Redactor
	w   io.Writer
	buf []byte
}

// maxKeep is how much of an unfinished line a Writer keeps back at least
// before it writes part of it.
const maxKeep = 64 << 10

// Writer returns a Writer that writes to w with r's secrets redacted.
func (r *Redactor) Writer(w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Write takes p and writes what of it, and of what it kept back, can be
// redacted for good. It reports len(p) when it wrote all it could, and 0
// with the error when the underlying writer failed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.r.empty() {
		return w.w.Write(p)
	}
	w.buf = append(w.buf, p...)
	if err := w.emit(w.r.settled(w.buf)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what the Writer kept back, redacted.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.emit(len(w.buf))
}

// emit writes the first n bytes kept, redacted, and keeps the rest.
func (w *Writer) emit(n int) error {
	if n == 0 {
		return nil
	}
	_, err := w.w.Write(w.r.Bytes(w.buf[:n]))
	w.buf = append(w.buf[:0], w.buf[n:]...)
	return err
}

// settled returns how many bytes at the start of b can be redacted without
// what may follow b: up to the last byte no span can hold, or, when that
// leaves more than the Writer may keep, all but r.hold bytes, less the
// start of a span that the cut would split.
func (r *Redactor) settled(b []byte) int {
	n := len(b)
	for n > 0 && r.inSpan[b[n-1]] {
		n--
	}
	if len(b)-n <= max(maxKeep, 4*r.hold) {
		return n
	}
	cut := len(b) - r.hold
	for _, s := range find(r, b) {
		if s.b > cut {
			return min(cut, s.a)
		}
	}
	return cut
}
