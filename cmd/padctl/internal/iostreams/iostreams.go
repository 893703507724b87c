// Package iostreams owns padctl's terminal: where output goes, whether
// stdout and stderr are terminals, the redaction of the API key from
// everything written, the one control-character escaper, and the progress
// line on stderr (cli/cli's iostreams).
package iostreams

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/padinterview/padapi/internal/lib/redact"
)

// IOStreams are where a command reads and writes, and whether each output
// is a terminal. Nothing else in padctl writes to os.Stdout or os.Stderr.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutTTY and ErrTTY say whether Out and ErrOut are terminals: a table
	// on one, tab-separated rows otherwise; progress only on a terminal.
	// InTTY says whether In is one: padctl asks a question only when In
	// and Out both are.
	OutTTY, ErrTTY, InTTY bool
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutTTY: IsTerminal(os.Stdout), ErrTTY: IsTerminal(os.Stderr), InTTY: IsTerminal(os.Stdin),
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

// ColorEnabled reports whether padctl may colour what it writes to Out:
// Out is a terminal, NO_COLOR (https://no-color.org) is unset or empty,
// and TERM is not "dumb". getenv reads the environment.
func (s *IOStreams) ColorEnabled(getenv func(string) string) bool {
	return s.OutTTY && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
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

// CanPrompt reports whether padctl may ask the user a question: stdin and
// stdout are both terminals (gh's rule), so a script never waits on one.
func (s *IOStreams) CanPrompt() bool { return s.InTTY && s.OutTTY }

// maxAnswer bounds the line Prompt reads.
const maxAnswer = 1 << 10

// Prompt writes question on stderr and returns the line the user typed,
// without its line ending and surrounding spaces, at most maxAnswer bytes
// of it. It reads In a byte at a time, so nothing after the line is
// consumed. When ctx ends first (Ctrl-C) it returns ctx's error; the read
// then ends with the process.
func (s *IOStreams) Prompt(ctx context.Context, question string) (string, error) {
	fmt.Fprint(s.ErrOut, question)
	s.Flush() // the question has no line end for the redactor to wait for
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := readLine(s.In)
		got <- answer{line, err}
	}()
	select {
	case a := <-got:
		return a.line, a.err
	case <-ctx.Done():
		fmt.Fprintln(s.ErrOut)
		return "", context.Cause(ctx)
	}
}

// readLine reads one line from r, up to maxAnswer bytes, and returns it
// trimmed of spaces and its line ending.
func readLine(r io.Reader) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for len(line) < maxAnswer {
		n, err := r.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
	}
	return strings.TrimSpace(string(line)), nil
}
