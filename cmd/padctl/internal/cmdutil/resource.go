package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/spf13/cobra"
)

// This file holds the commands that pads, questions and the organization
// share: list one page or all of them, get one, delete one.

// PageQuery is the sort and page of a list: the shape of every list
// method's options type (padapi.PadListOptions, ...).
type PageQuery = padapi.ListOptions

// Lister is one paged list of the API: a page at a time, or all of it.
type Lister[T any] struct {
	Page func(context.Context, PageQuery) (*padapi.Page[T], error)
	All  func(context.Context, PageQuery) iter.Seq2[*T, error]
	// Key is the field of a page that holds its items, for --json, which
	// prints the items as the service sent them.
	Key string
}

// Under returns l with the field that holds a page's items.
func (l Lister[T]) Under(key string) Lister[T] {
	l.Key = key
	return l
}

// Paged makes a Lister of a list method and its iterator, whatever their
// options type.
func Paged[O ~struct {
	Sort   padapi.Sort
	Page   int
	Cursor string
}, T any](list func(context.Context, *O) (*padapi.Page[T], error), all func(context.Context, *O) iter.Seq2[*T, error]) Lister[T] {
	return Lister[T]{
		Page: func(ctx context.Context, q PageQuery) (*padapi.Page[T], error) { o := O(q); return list(ctx, &o) },
		All:  func(ctx context.Context, q PageQuery) iter.Seq2[*T, error] { o := O(q); return all(ctx, &o) },
	}
}

// DefaultPagesAtOnce is how many pages a list command fetches at once
// with --all or --limit, unless --concurrency says otherwise: the
// library's WithConcurrentPages, which keeps the items in order.
const DefaultPagesAtOnce = 8

// pageSize is how many items the service puts on a page of a list.
const pageSize = 50

// ListOptions are what a list command runs with: its flags, its
// arguments, and the list the command's pick chose.
type ListOptions[T any] struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	View   View[T]
	Pick   func(*padapi.Client, []string) Lister[T]
	Args   []string

	Sort  padapi.Sort
	Page  uint
	All   bool
	Limit uint
	// Concurrency is --concurrency: how many pages are fetched at once
	// while the list is followed.
	Concurrency int
}

// NewCmdList returns a list command. pick chooses the list, given the
// client and the command's arguments. runF, when not nil, runs instead of
// ListRun (tests).
func NewCmdList[T any](f *Factory, use, short string, v View[T], pick func(*padapi.Client, []string) Lister[T], runF func(*ListOptions[T]) error) *cobra.Command {
	o := &ListOptions[T]{IO: f.IOStreams, Client: f.Client, View: v, Pick: pick}
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("page") && o.Page == 0 {
				return UsageErrorf("--page 0: pages are numbered from 1")
			}
			if o.Concurrency < 1 {
				return UsageErrorf("--concurrency %d: want at least 1 page at once", o.Concurrency)
			}
			// The client is made on first use, after this: it fetches
			// that many pages at once, and no more pages than --limit
			// needs.
			f.PagesAtOnce = o.Concurrency
			if o.Limit > 0 && !o.All {
				f.PagesAtOnce = min(o.Concurrency, int((o.Limit+pageSize-1)/pageSize))
			}
			o.Ctx, o.JSON, o.Args = cmd.Context(), f.Flags.JSON, args
			if runF != nil {
				return runF(o)
			}
			return ListRun(o)
		},
	}
	fl := cmd.Flags()
	fl.Var(&SortFlag{&o.Sort}, "sort", "the order: created or updated, then ,desc (the default) or ,asc")
	fl.UintVar(&o.Page, "page", 0, "show page `N`, from 1 (50 items a page; default the first)")
	fl.BoolVar(&o.All, "all", false, "follow every page")
	fl.UintVar(&o.Limit, "limit", 0, "stop after `N` items, following pages as needed")
	fl.IntVar(&o.Concurrency, "concurrency", DefaultPagesAtOnce, "with --all or --limit, fetch up to `N` pages at once (the output keeps the list's order)")
	// --all from page 2 would be every page, or the rest: neither is
	// what someone typing both can be sure of.
	cmd.MarkFlagsMutuallyExclusive("all", "page")
	_ = cmd.RegisterFlagCompletionFunc("sort", cobra.FixedCompletions(SortNames, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// ListRun lists one page (--page, default the first), or with --all or
// --limit follows the pages, writing each item as it comes, in the list's
// order. When a page is not all there is, stderr says so.
func ListRun[T any](o *ListOptions[T]) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	l := o.Pick(c, o.Args)
	q := PageQuery{Sort: o.Sort, Page: int(o.Page)}
	if o.JSON {
		return rawListRun(o, l, q)
	}
	if !o.All && o.Limit == 0 {
		p, err := l.Page(o.Ctx, q)
		if err != nil {
			return err
		}
		if err := PrintList(o.IO, false, o.View, p.Items); err != nil {
			return err
		}
		if p.NextPage != "" {
			Note(o.IO, "showing %d of %d %s; --all, --limit N or --page N for more", len(p.Items), p.Total, o.View.Noun)
		}
		return nil
	}
	rows := NewRowWriter(o.IO, o.View)
	update, done := o.IO.Progress(o.View.Noun)
	defer done()
	n := 0
	for item, err := range l.All(o.Ctx, q) {
		if err != nil {
			// Every row that came before the error goes out, as a
			// pipe reading the rows expects (a terminal's table is
			// not shown half).
			_ = rows.Flush()
			return err
		}
		if err := rows.Add(item); err != nil {
			return err
		}
		n++
		update(n)
		if o.Limit > 0 && n >= int(o.Limit) {
			break
		}
	}
	done() // before the table goes to the same terminal
	return rows.Close()
}

// rawListRun is ListRun for --json: the items as the service sent them
// (null stays null, "" stays "", unknown fields stay), one page or with
// --all or --limit every page's, written one by one as they come, as one
// JSON array. The pages are the typed list's (its route, checks and
// paging), each item with its bytes (padapi.WithJSON).
func rawListRun[T any](o *ListOptions[T], l Lister[T], q PageQuery) error {
	if !o.All && o.Limit == 0 {
		var resp padapi.Response
		p, err := l.Page(padapi.WithResponse(o.Ctx, &resp), q)
		if err != nil {
			return err
		}
		items, err := RawItems(resp.Body, l.Key)
		if err != nil {
			return err
		}
		if p.NextPage != "" {
			Note(o.IO, "showing %d of %d %s; --all, --limit N or --page N for more", len(items), p.Total, o.View.Noun)
		}
		return PrintRawList(o.IO, items)
	}
	arr := NewRawArray(o.IO)
	update, done := o.IO.Progress(o.View.Noun)
	defer done()
	n := 0
	all := func(ctx context.Context) iter.Seq2[*T, error] { return l.All(ctx, q) }
	for item, err := range padapi.WithJSON(o.Ctx, all) {
		if err != nil {
			// The array stays open: a program reading it sees it
			// cut, not a shorter list.
			_ = arr.Flush()
			return err
		}
		if err := arr.Add(item.JSON); err != nil {
			return err
		}
		n++
		update(n)
		if o.Limit > 0 && n >= int(o.Limit) {
			break
		}
	}
	done() // before the end of the array goes to the same terminal
	return arr.Close()
}

// RawItems returns the items under key of a page the service sent, each
// as it came.
func RawItems(body []byte, key string) ([]json.RawMessage, error) {
	var page map[string]json.RawMessage
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, errors.New("the service's answer is not a JSON object")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(page[key], &items); err != nil && page[key] != nil {
		return nil, fmt.Errorf("the service's %s is not a list", key)
	}
	return items, nil
}

// PrintAnswer makes a call through call, a typed method of the library
// under the context it is given, and prints the service's answer to it as
// it came (padapi.WithResponse): --json of every command that shows one
// thing.
func PrintAnswer(ctx context.Context, ios *iostreams.IOStreams, call func(context.Context) error) error {
	var resp padapi.Response
	if err := call(padapi.WithResponse(ctx, &resp)); err != nil {
		return err
	}
	return PrintRaw(ios, resp.Body)
}

// GetOptions are what a get command runs with.
type GetOptions[T any] struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	View   View[T]
	Get    func(*padapi.Client) func(context.Context, padapi.ID) (*T, error)
	ID     padapi.ID
}

// NewCmdGet returns a command that shows one resource by ID; with --json
// it prints the service's answer as it came.
func NewCmdGet[T any](f *Factory, use, short string, v View[T], get func(*padapi.Client) func(context.Context, padapi.ID) (*T, error), runF func(*GetOptions[T]) error) *cobra.Command {
	o := &GetOptions[T]{IO: f.IOStreams, Client: f.Client, View: v, Get: get}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.JSON, o.ID = cmd.Context(), f.Flags.JSON, padapi.ID(args[0])
			if runF != nil {
				return runF(o)
			}
			return GetRun(o)
		},
	}
}

// GetRun shows one resource.
func GetRun[T any](o *GetOptions[T]) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if o.JSON {
		return PrintAnswer(o.Ctx, o.IO, func(ctx context.Context) error { _, err := o.Get(c)(ctx, o.ID); return err })
	}
	item, err := o.Get(c)(o.Ctx, o.ID)
	if err != nil {
		return err
	}
	return PrintOne(o.IO, false, o.View, item)
}

// DeleteOptions are what a delete command runs with.
type DeleteOptions struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	Noun   string
	Delete func(*padapi.Client) func(context.Context, padapi.ID) error
	ID     padapi.ID
	// Yes is --yes: delete without asking.
	Yes bool
}

// NewCmdDelete returns a command that deletes one resource by ID. On a
// terminal it asks first (type the ID to confirm), as gh does; --yes
// skips the question, and without a terminal to ask on --yes is required.
// With --json it prints the service's answer to the delete
// ({"status":"OK"}).
func NewCmdDelete(f *Factory, noun string, del func(*padapi.Client) func(context.Context, padapi.ID) error, runF func(*DeleteOptions) error) *cobra.Command {
	o := &DeleteOptions{IO: f.IOStreams, Client: f.Client, Noun: noun, Delete: del}
	cmd := &cobra.Command{
		Use:   "delete " + strings.ToUpper(noun) + "_ID",
		Short: "Delete a " + noun,
		Long: "Delete a " + noun + ". On a terminal padctl asks first: type the " + noun + "'s ID to confirm.\n" +
			"--yes deletes without asking, and is required when padctl cannot ask (in a\nscript, or with stdin or stdout not a terminal).",
		Example: fmt.Sprintf("  padctl %[1]ss delete ID          # asks: type the ID to confirm\n  padctl %[1]ss delete ID --yes    # in a script", noun),
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.JSON, o.ID = cmd.Context(), f.Flags.JSON, padapi.ID(args[0])
			if !o.Yes && !o.IO.CanPrompt() {
				return UsageErrorf("--yes is required to delete when padctl cannot ask (not on a terminal)")
			}
			if runF != nil {
				return runF(o)
			}
			return DeleteRun(o)
		},
	}
	cmd.Flags().BoolVarP(&o.Yes, "yes", "y", false, "delete without asking")
	return cmd
}

// DeleteRun deletes one resource, after asking on a terminal unless --yes
// was given.
func DeleteRun(o *DeleteOptions) error {
	if !o.Yes {
		answer, err := o.IO.Prompt(o.Ctx, fmt.Sprintf("Delete %s %s? Type its ID to confirm: ", o.Noun, o.ID))
		if err != nil {
			return err
		}
		if answer != string(o.ID) {
			return &CancelError{fmt.Sprintf("cancelled: %s %s not deleted", o.Noun, o.ID)}
		}
	}
	c, err := o.Client()
	if err != nil {
		return err
	}
	var resp padapi.Response
	if err := o.Delete(c)(padapi.WithResponse(o.Ctx, &resp), o.ID); err != nil {
		return err
	}
	if o.JSON {
		if json.Valid(resp.Body) {
			return PrintRaw(o.IO, resp.Body)
		}
		// An answer without a body: what the service says to a delete.
		return PrintJSON(o.IO, map[string]string{"status": "OK"})
	}
	Note(o.IO, "deleted %s %s", o.Noun, o.ID)
	return nil
}
