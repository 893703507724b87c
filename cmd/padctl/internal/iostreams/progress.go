package iostreams

import (
	"fmt"
	"strings"
)

// Progress counts fetched items on stderr while a list follows its pages,
// on a terminal only: a log file or a pipe gets nothing. It returns the
// function to call after each item, and the one that blanks the line.
func (s *IOStreams) Progress(noun string) (update func(n int), done func()) {
	width := 0
	update = func(n int) {
		if s.ErrTTY && n%50 == 0 {
			line := fmt.Sprintf("fetched %d %s...", n, noun)
			fmt.Fprint(s.ErrOut, "\r"+line)
			width = len(line)
		}
	}
	done = func() {
		if width > 0 {
			fmt.Fprintf(s.ErrOut, "\r%s\r", strings.Repeat(" ", width))
			width = 0
		}
	}
	return update, done
}
