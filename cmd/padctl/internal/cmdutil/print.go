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
	arr := []byte("[")
	for i, it := range items {
		if i > 0 {
			arr = append(arr, ',')
		}
		arr = append(arr, it...)
	}
	return PrintRaw(ios, append(arr, ']'))
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
	if !ios.OutTTY {
		for i := range items {
			writeRow(ios.Out, false, v.Cols, &items[i])
		}
		return nil
	}
	if len(items) == 0 {
		Note(ios, "no %s", v.Noun)
		return nil
	}
	tw := newTable(ios)
	names := make([]string, len(v.Cols))
	for i, c := range v.Cols {
		names[i] = strings.ToUpper(c.Name)
	}
	fmt.Fprintln(tw, strings.Join(names, "\t"))
	for i := range items {
		writeRow(tw, true, v.Cols, &items[i])
	}
	return tw.Flush()
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

// Known returns &n when ok, else nil (printed empty): for the quota's
// helpers, which say whether they know a number.
func Known(n int, ok bool) *int {
	if !ok {
		return nil
	}
	return &n
}
