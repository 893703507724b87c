// output.go: printing results: tables, JSON and raw bodies.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/padinterview/padapi"
)

// column is one field of a resource as padctl prints it. value returns a
// string, number, bool, time, ID or pointer to one of those (nil: empty).
type column[T any] struct {
	name  string // as a terminal shows it ("Title"); upper-cased as a table header
	value func(*T) any
}

// block is a long text shown under a single resource on a terminal.
type block struct{ name, text string }

// view is how padctl prints one kind of resource.
type view[T any] struct {
	noun string // plural, for notes ("pads")
	// cols are a list's columns, and the fields of the one line a single
	// resource prints as when piped.
	cols []column[T]
	// detail are more fields a single resource shows on a terminal.
	detail []column[T]
	// blocks are the long texts a single resource shows on a terminal.
	blocks func(*T) []block
}

// printJSON writes v as the service's JSON: the library's marshalling is the
// wire shape, so a script can decode it into padapi's types.
func printJSON(f *factory, v any) error {
	enc := json.NewEncoder(f.out)
	enc.SetIndent("", "  ")
	// Code and descriptions are full of < > &: keep them readable.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// printRaw writes a body of the service as it came, indented: null stays
// null, "" stays "", a field padapi does not know stays, every string
// keeps its bytes.
func printRaw(f *factory, body json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		return fmt.Errorf("the service's answer is not JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err := f.out.Write(buf.Bytes())
	return err
}

// printRawList writes items, each as it came, as one JSON array.
func printRawList(f *factory, items []json.RawMessage) error {
	arr := []byte("[")
	for i, it := range items {
		if i > 0 {
			arr = append(arr, ',')
		}
		arr = append(arr, it...)
	}
	return printRaw(f, append(arr, ']'))
}

// printList writes items as a JSON array (--json), a table with a header
// (a terminal), or tab-separated rows (a pipe).
func printList[T any](f *factory, v view[T], items []T) error {
	if f.flags.json {
		if items == nil {
			items = []T{} // an array, never null
		}
		return printJSON(f, items)
	}
	if !f.outTTY {
		for i := range items {
			writeRow(f.out, false, v.cols, &items[i])
		}
		return nil
	}
	if len(items) == 0 {
		f.note("no %s", v.noun)
		return nil
	}
	tw := newTable(f)
	names := make([]string, len(v.cols))
	for i, c := range v.cols {
		names[i] = strings.ToUpper(c.name)
	}
	fmt.Fprintln(tw, strings.Join(names, "\t"))
	for i := range items {
		writeRow(tw, true, v.cols, &items[i])
	}
	return tw.Flush()
}

// printOne writes one resource as JSON (--json), as "Name: value" lines and
// text blocks (a terminal), or as one tab-separated line (a pipe).
func printOne[T any](f *factory, v view[T], item *T) error {
	if f.flags.json {
		return printJSON(f, item)
	}
	if !f.outTTY {
		writeRow(f.out, false, v.cols, item)
		return nil
	}
	tw := newTable(f)
	for _, c := range slices.Concat(v.cols, v.detail) {
		if s := format(c.value(item), true); s != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", c.name, s)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if v.blocks != nil {
		for _, b := range v.blocks(item) {
			text := strings.TrimRight(strings.Map(printable(true), b.text), "\n")
			if text != "" {
				fmt.Fprintf(f.out, "\n%s:\n    %s\n", b.name, strings.ReplaceAll(text, "\n", "\n    "))
			}
		}
	}
	return nil
}

// writeRow writes item's columns to w as one tab-separated line, formatted
// for a terminal when tty is set.
func writeRow[T any](w io.Writer, tty bool, cols []column[T], item *T) {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = format(c.value(item), tty)
	}
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

// newTable returns a writer that aligns tab-separated cells on stdout.
func newTable(f *factory) *tabwriter.Writer {
	return tabwriter.NewWriter(f.out, 0, 4, 2, ' ', 0)
}

// format renders one value for a cell: for people on a terminal (yes/no,
// times to the minute), for programs otherwise (true/false, RFC 3339). Either
// way it is one line: control characters, tabs and newlines included, become
// spaces, so a value can neither break a row nor send escape sequences to
// a terminal.
func format(v any, tty bool) string {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case padapi.ID:
		s = string(x)
	case *padapi.ID:
		if x != nil {
			s = string(*x)
		}
	case []padapi.ID:
		ids := make([]string, len(x))
		for i, id := range x {
			ids[i] = string(id)
		}
		s = strings.Join(ids, ",")
	case []string:
		s = strings.Join(x, ", ")
	case int:
		s = strconv.Itoa(x)
	case *int:
		if x != nil {
			s = strconv.Itoa(*x)
		}
	case bool:
		s = strconv.FormatBool(x)
		if tty && x {
			s = "yes"
		} else if tty {
			s = "no"
		}
	case *bool:
		if x != nil {
			return format(*x, tty)
		}
	case time.Time:
		switch {
		case x.IsZero():
		case tty:
			s = x.UTC().Format("2006-01-02 15:04 UTC")
		default:
			s = x.UTC().Format(time.RFC3339)
		}
	case *time.Time:
		if x != nil {
			return format(*x, tty)
		}
	default:
		s = fmt.Sprint(x)
	}
	return strings.Map(printable(false), s)
}

// printable maps control characters to spaces; a multi-line text keeps its
// newlines and tabs.
func printable(multiline bool) func(rune) rune {
	return func(r rune) rune {
		if multiline && (r == '\n' || r == '\t') {
			return r
		}
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}
}

// progress counts fetched items on stderr while a list follows its pages,
// on a terminal only: a log file or a pipe gets nothing. It returns the
// function to call after each item, and the one that blanks the line.
func (f *factory) progress(noun string) (update func(n int), done func()) {
	width := 0
	update = func(n int) {
		if f.errTTY && n%50 == 0 {
			line := fmt.Sprintf("fetched %d %s...", n, noun)
			fmt.Fprint(f.err, "\r"+line)
			width = len(line)
		}
	}
	done = func() {
		if width > 0 {
			fmt.Fprintf(f.err, "\r%s\r", strings.Repeat(" ", width))
			width = 0
		}
	}
	return update, done
}
