package cmdutil

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

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// Column is one field of a resource as padctl prints it. Value returns a
// string, number, bool, time, ID or pointer to one of those (nil: empty).
type Column[T any] struct {
	Name  string // as a terminal shows it ("Title"); upper-cased as a table header
	Value func(*T) any
}

// Block is a long text shown under a single resource on a terminal.
type Block struct{ Name, Text string }

// View is how padctl prints one kind of resource.
type View[T any] struct {
	Noun string // plural, for notes ("pads")
	// Cols are a list's columns, and the fields of the one line a single
	// resource prints as when piped.
	Cols []Column[T]
	// Detail are more fields a single resource shows on a terminal.
	Detail []Column[T]
	// Blocks are the long texts a single resource shows on a terminal.
	Blocks func(*T) []Block
}

// PrintJSON writes v as the service's JSON: the library's marshalling is
// the wire shape, so a script can decode it into padapi's types.
func PrintJSON(ios *iostreams.IOStreams, v any) error {
	enc := json.NewEncoder(ios.Out)
	enc.SetIndent("", "  ")
	// Code and descriptions are full of < > &: keep them readable.
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// PrintRaw writes a body of the service as it came, indented: null stays
// null, "" stays "", a field padapi does not know stays, every string
// keeps its bytes.
func PrintRaw(ios *iostreams.IOStreams, body json.RawMessage) error {
	var buf bytes.Buffer
	if err := json.Indent(&buf, body, "", "  "); err != nil {
		return fmt.Errorf("the service's answer is not JSON: %w", err)
	}
	buf.WriteByte('\n')
	_, err := ios.Out.Write(buf.Bytes())
	return err
}

// PrintRawList writes items, each as it came, as one JSON array.
func PrintRawList(ios *iostreams.IOStreams, items []json.RawMessage) error {
	arr := NewRawArray(ios)
	for _, it := range items {
		if err := arr.Add(it); err != nil {
			return err
		}
	}
	return arr.Close()
}

// flushAt is how much output a streaming writer holds before it writes:
// a few items, so that a long list costs few writes and a reader still
// gets each page soon after it arrives.
const flushAt = 32 << 10

// RawArray writes a JSON array of the service's items one by one, as
// they come, each indented as PrintRaw indents a body: memory holds one
// item at a time, never the list.
type RawArray struct {
	w   io.Writer
	buf bytes.Buffer
	n   int
}

// NewRawArray starts an array on ios's stdout.
func NewRawArray(ios *iostreams.IOStreams) *RawArray { return &RawArray{w: ios.Out} }

// Add writes item, a JSON value as the service sent it, as the array's
// next element.
func (a *RawArray) Add(item json.RawMessage) error {
	if a.n == 0 {
		a.buf.WriteString("[\n  ")
	} else {
		a.buf.WriteString(",\n  ")
	}
	if err := json.Indent(&a.buf, item, "  ", "  "); err != nil {
		return fmt.Errorf("the service's answer is not JSON: %w", err)
	}
	a.n++
	if a.buf.Len() >= flushAt {
		return a.Flush()
	}
	return nil
}

// Flush writes the elements held so far, leaving the array open.
func (a *RawArray) Flush() error {
	_, err := a.w.Write(a.buf.Bytes())
	a.buf.Reset()
	return err
}

// Close ends the array and writes what is left of it.
func (a *RawArray) Close() error {
	if a.n == 0 {
		a.buf.WriteString("[]\n")
	} else {
		a.buf.WriteString("\n]\n")
	}
	return a.Flush()
}

// RowWriter writes a list's items as they come: tab-separated rows to a
// pipe at once, or on a terminal a table with a header once the list is
// complete, since a column's width depends on every row (only the cells'
// text is kept, not the items).
type RowWriter[T any] struct {
	ios  *iostreams.IOStreams
	v    View[T]
	buf  bytes.Buffer // rows not yet written to a pipe
	rows [][]string   // a terminal's rows
}

// NewRowWriter returns a writer of v's rows to ios's stdout.
func NewRowWriter[T any](ios *iostreams.IOStreams, v View[T]) *RowWriter[T] {
	return &RowWriter[T]{ios: ios, v: v}
}

// Add writes item's row, or keeps it for the table on a terminal.
func (r *RowWriter[T]) Add(item *T) error {
	if r.ios.OutTTY {
		cells := make([]string, len(r.v.Cols))
		for i, c := range r.v.Cols {
			cells[i] = Format(c.Value(item), true)
		}
		r.rows = append(r.rows, cells)
		return nil
	}
	writeRow(&r.buf, false, r.v.Cols, item)
	if r.buf.Len() >= flushAt {
		return r.Flush()
	}
	return nil
}

// Flush writes the rows a pipe has not had yet.
func (r *RowWriter[T]) Flush() error {
	_, err := r.ios.Out.Write(r.buf.Bytes())
	r.buf.Reset()
	return err
}

// Close writes the rest: the rows a pipe has not had, or the table.
func (r *RowWriter[T]) Close() error {
	if !r.ios.OutTTY {
		return r.Flush()
	}
	if len(r.rows) == 0 {
		Note(r.ios, "no %s", r.v.Noun)
		return nil
	}
	tw := newTable(r.ios)
	names := make([]string, len(r.v.Cols))
	for i, c := range r.v.Cols {
		names[i] = strings.ToUpper(c.Name)
	}
	fmt.Fprintln(tw, strings.Join(names, "\t"))
	for _, cells := range r.rows {
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// PrintList writes items as a JSON array (asJSON), a table with a header
// (a terminal), or tab-separated rows (a pipe).
func PrintList[T any](ios *iostreams.IOStreams, asJSON bool, v View[T], items []T) error {
	if asJSON {
		if items == nil {
			items = []T{} // an array, never null
		}
		return PrintJSON(ios, items)
	}
	rows := NewRowWriter(ios, v)
	for i := range items {
		if err := rows.Add(&items[i]); err != nil {
			return err
		}
	}
	return rows.Close()
}

// PrintOne writes one resource as JSON (asJSON), as "Name: value" lines
// and text blocks (a terminal), or as one tab-separated line (a pipe).
func PrintOne[T any](ios *iostreams.IOStreams, asJSON bool, v View[T], item *T) error {
	if asJSON {
		return PrintJSON(ios, item)
	}
	if !ios.OutTTY {
		writeRow(ios.Out, false, v.Cols, item)
		return nil
	}
	tw := newTable(ios)
	for _, c := range slices.Concat(v.Cols, v.Detail) {
		if s := Format(c.Value(item), true); s != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", c.Name, s)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if v.Blocks != nil {
		for _, b := range v.Blocks(item) {
			text := strings.TrimRight(iostreams.Escape(b.Text, iostreams.Text), "\n")
			if text != "" {
				fmt.Fprintf(ios.Out, "\n%s:\n    %s\n", b.Name, strings.ReplaceAll(text, "\n", "\n    "))
			}
		}
	}
	return nil
}

// writeRow writes item's columns to w as one tab-separated line, formatted
// for a terminal when tty is set.
func writeRow[T any](w io.Writer, tty bool, cols []Column[T], item *T) {
	cells := make([]string, len(cols))
	for i, c := range cols {
		cells[i] = Format(c.Value(item), tty)
	}
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

// newTable returns a writer that aligns tab-separated cells on stdout.
func newTable(ios *iostreams.IOStreams) *tabwriter.Writer {
	return tabwriter.NewWriter(ios.Out, 0, 4, 2, ' ', 0)
}

// Format renders one value for a cell: for people on a terminal (yes/no,
// times to the minute), for programs otherwise (true/false, RFC 3339).
// Either way it is one line: control characters, tabs and newlines
// included, become spaces, so a value can neither break a row nor send
// escape sequences to a terminal.
func Format(v any, tty bool) string {
	switch x := v.(type) {
	case Unknown:
		if !tty {
			return ""
		}
		return string(x)
	case *padapi.ID:
		if x == nil {
			return ""
		}
		return Format(*x, tty)
	case *int:
		if x == nil {
			return ""
		}
		return Format(*x, tty)
	case *bool:
		if x == nil {
			return ""
		}
		return Format(*x, tty)
	case *time.Time:
		if x == nil {
			return ""
		}
		return Format(*x, tty)
	}
	return iostreams.Escape(formatValue(v, tty), iostreams.Cell)
}

// formatValue is Format for a value that is not a pointer.
func formatValue(v any, tty bool) string {
	switch x := v.(type) {
	case string:
		return x
	case padapi.ID:
		return string(x)
	case []padapi.ID:
		ids := make([]string, len(x))
		for i, id := range x {
			ids[i] = string(id)
		}
		return strings.Join(ids, ",")
	case []string:
		return strings.Join(x, ", ")
	case int:
		return strconv.Itoa(x)
	case bool:
		switch {
		case !tty:
			return strconv.FormatBool(x)
		case x:
			return "yes"
		}
		return "no"
	case time.Time:
		switch {
		case x.IsZero():
			return ""
		case tty:
			return x.UTC().Format("2006-01-02 15:04 UTC")
		}
		return x.UTC().Format(time.RFC3339)
	}
	return fmt.Sprint(v)
}

// Unknown is a value the service did not give, in words for a terminal
// ("not reported"); piped it is empty, as any missing value.
type Unknown string
