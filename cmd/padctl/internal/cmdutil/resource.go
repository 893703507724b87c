package cmdutil

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"

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
	// Path is the list's API path and Key the field holding its items,
	// for --json, which prints the items as the service sent them.
	Path, Key string
}

// At returns l with the API path and items key --json reads.
func (l Lister[T]) At(path, key string) Lister[T] {
	l.Path, l.Key = path, key
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
	_ = cmd.RegisterFlagCompletionFunc("sort", cobra.FixedCompletions(SortNames, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// ListRun lists one page (--page, default the first), or with --all or
// --limit follows the pages. When a page is not all there is, stderr says
// so.
func ListRun[T any](o *ListOptions[T]) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	l := o.Pick(c, o.Args)
	if o.JSON {
		return rawListRun(o, c, l.Path, l.Key)
	}
	q := PageQuery{Sort: o.Sort, Page: int(o.Page)}
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
	items := []T{}
	update, done := o.IO.Progress(o.View.Noun)
	defer done()
	for item, err := range l.All(o.Ctx, q) {
		if err != nil {
			return err
		}
		items = append(items, *item)
		update(len(items))
		if o.Limit > 0 && len(items) >= int(o.Limit) {
			break
		}
	}
	done() // before the table goes to the same terminal
	return PrintList(o.IO, false, o.View, items)
}

// rawListRun is ListRun for --json: the items as the service sent them
// (null stays null, "" stays "", unknown fields stay), one page or with
// --all or --limit every page's concatenated, in one JSON array. The pages
// are followed by the library (Client.DoAll), as for the typed lists.
func rawListRun[T any](o *ListOptions[T], c *padapi.Client, path, key string) error {
	q := url.Values{}
	if o.Sort != "" {
		q.Set("sort", string(o.Sort))
	}
	if o.Page > 0 {
		q.Set("page", strconv.FormatUint(uint64(o.Page), 10))
	}
	if !o.All && o.Limit == 0 {
		page, items, err := RawPage(o.Ctx, c, path, key, q)
		if err != nil {
			return err
		}
		var next string
		var total int
		_ = json.Unmarshal(page["next_page"], &next) // absent or null: none
		_ = json.Unmarshal(page["total"], &total)
		if next != "" {
			Note(o.IO, "showing %d of %d %s; --all, --limit N or --page N for more", len(items), total, o.View.Noun)
		}
		return PrintRawList(o.IO, items)
	}
	items := []json.RawMessage{}
	update, done := o.IO.Progress(o.View.Noun)
	defer done()
	for item, err := range c.DoAll(o.Ctx, path, key, q) {
		if err != nil {
			return err
		}
		items = append(items, item)
		update(len(items))
		if o.Limit > 0 && len(items) >= int(o.Limit) {
			break
		}
	}
	done() // before the output goes to the same terminal
	return PrintRawList(o.IO, items)
}

// RawPage fetches one page of a list: its fields, and its items as sent.
func RawPage(ctx context.Context, c *padapi.Client, path, key string, q url.Values) (map[string]json.RawMessage, []json.RawMessage, error) {
	var body json.RawMessage
	if err := c.Do(ctx, http.MethodGet, path, q, &body); err != nil {
		return nil, nil, err
	}
	var page map[string]json.RawMessage
	var items []json.RawMessage
	if err := json.Unmarshal(body, &page); err != nil {
		return nil, nil, fmt.Errorf("GET %s: the answer is not a JSON object", path)
	}
	if err := json.Unmarshal(page[key], &items); err != nil && page[key] != nil {
		return nil, nil, fmt.Errorf("GET %s: the answer's %s is not a list", path, key)
	}
	return page, items, nil
}

// GetRaw fetches path and prints the body as the service sent it.
func GetRaw(ctx context.Context, ios *iostreams.IOStreams, c *padapi.Client, path string, q url.Values) error {
	var body json.RawMessage
	if err := c.Do(ctx, http.MethodGet, path, q, &body); err != nil {
		return err
	}
	return PrintRaw(ios, body)
}

// GetOptions are what a get command runs with.
type GetOptions[T any] struct {
	IO     *iostreams.IOStreams
	Client func() (*padapi.Client, error)
	Ctx    context.Context
	JSON   bool
	View   View[T]
	Get    func(*padapi.Client) func(context.Context, padapi.ID) (*T, error)
	PathOf func(padapi.ID) string
	ID     padapi.ID
}

// NewCmdGet returns a command that shows one resource by ID; with --json
// it prints the body of GET pathOf(ID) as the service sent it.
func NewCmdGet[T any](f *Factory, use, short string, v View[T], get func(*padapi.Client) func(context.Context, padapi.ID) (*T, error), pathOf func(padapi.ID) string, runF func(*GetOptions[T]) error) *cobra.Command {
	o := &GetOptions[T]{IO: f.IOStreams, Client: f.Client, View: v, Get: get, PathOf: pathOf}
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
		return GetRaw(o.Ctx, o.IO, c, o.PathOf(o.ID), nil)
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
}

// NewCmdDelete returns a command that deletes one resource by ID. With
// --json it prints the service's answer to a delete, {"status":"OK"}.
func NewCmdDelete(f *Factory, noun string, del func(*padapi.Client) func(context.Context, padapi.ID) error, runF func(*DeleteOptions) error) *cobra.Command {
	o := &DeleteOptions{IO: f.IOStreams, Client: f.Client, Noun: noun, Delete: del}
	return &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a " + noun,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Ctx, o.JSON, o.ID = cmd.Context(), f.Flags.JSON, padapi.ID(args[0])
			if runF != nil {
				return runF(o)
			}
			return DeleteRun(o)
		},
	}
}

// DeleteRun deletes one resource.
func DeleteRun(o *DeleteOptions) error {
	c, err := o.Client()
	if err != nil {
		return err
	}
	if err := o.Delete(c)(o.Ctx, o.ID); err != nil {
		return err
	}
	if o.JSON {
		return PrintJSON(o.IO, map[string]string{"status": "OK"})
	}
	Note(o.IO, "deleted %s %s", o.Noun, o.ID)
	return nil
}
