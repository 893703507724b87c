// Package iostreams owns padctl's terminal: where output goes, whether
// stdout and stderr are terminals, the redaction of the API key from
// everything written, the one control-character escaper, and the progress
// line on stderr (cli/cli's iostreams).
package iostreams

import (
	"bytes"
	"io"
	"os"

	"github.com/padinterview/padapi/internal/redact"
)

// IOStreams are where a command reads and writes, and whether each output
// is a terminal. Nothing else in padctl writes to os.Stdout or os.Stderr.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY and ErrTTY say whether Out and ErrOut are terminals: a table
	// on one, tab-separated rows otherwise; progress only on a terminal.
	OutTTY, ErrTTY bool
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: IsTerminal(os.Stdout), ErrTTY: IsTerminal(os.Stderr),
	}
}

// Test returns streams over buffers, for tests: stdin, stdout and stderr.
// Neither output is a terminal until the test says so.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsTerminal reports whether w is a character device, such as a terminal
// (so /dev/null, a file or a pipe is not one).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Redact makes every later write to Out and ErrOut go through r, so that
// the API key never leaves padctl: a hostile service may echo it in a
// pad's title or an error, escaped or encoded.
func (s *IOStreams) Redact(r *redact.Redactor) {
	s.Out, s.ErrOut = r.Writer(s.Out), r.Writer(s.ErrOut)
}

// Flush writes what the redacting writers keep back: the end of an
// unfinished line, which the next write could still have made a key.
func (s *IOStreams) Flush() {
	for _, w := range []io.Writer{s.Out, s.ErrOut} {
		if rw, ok := w.(*redact.Writer); ok {
			_ = rw.Flush()
		}
	}
}
