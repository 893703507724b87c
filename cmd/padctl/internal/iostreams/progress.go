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

// StatusLine is a line on stderr that a long command redraws in place, on
// a terminal only: show replaces it with line (its control characters made
// visible), clear blanks it so that a note or the summary can be written
// after. Off a terminal both do nothing. The line always ends in a space,
// so that a redacting writer, which keeps back the end of a line until a
// byte no key crosses, lets it through at once.
func (s *IOStreams) StatusLine() (show func(line string), clear func()) {
	width := 0
	show = func(line string) {
		if !s.ErrTTY {
			return
		}
		line = Escape(line, Line) + " "
		pad := ""
		if n := width - len(line); n > 0 {
			pad = strings.Repeat(" ", n)
		}
		fmt.Fprint(s.ErrOut, "\r"+line+pad)
		width = len(line)
	}
	clear = func() {
		if width > 0 {
			fmt.Fprintf(s.ErrOut, "\r%s\r", strings.Repeat(" ", width))
			width = 0
		}
	}
	return show, clear
}
