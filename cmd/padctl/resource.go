// resource.go: list and get commands shared by every resource.

package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/padinterview/padapi"
	"github.com/spf13/cobra"
)

// This file holds the commands that pads, questions and the organization
// share: list one page or all of them, get one, delete one.

// pageQuery is the sort and page of a list: the shape of every list
// method's options type (padapi.PadListOptions, ...).
type pageQuery = padapi.ListOptions

// lister is one paged list of the API: a page at a time, or all of it.
type lister[T any] struct {
	page func(context.Context, pageQuery) (*padapi.Page[T], error)
	all  func(context.Context, pageQuery) iter.Seq2[*T, error]
	// path is the list's API path and key the field holding its items,
	// for --json, which prints the items as the service sent them.
	path, key string
}

// at returns l with the API path and items key --json reads.
func (l lister[T]) at(path, key string) lister[T] {
	l.path, l.key = path, key
	return l
}

// paged makes a lister of a list method and its iterator, whatever their
// options type.
func paged[O ~struct {
	Sort   padapi.Sort
	Page   int
	Cursor string
}, T any](list func(context.Context, *O) (*padapi.Page[T], error), all func(context.Context, *O) iter.Seq2[*T, error]) lister[T] {
	return lister[T]{
		page: func(ctx context.Context, q pageQuery) (*padapi.Page[T], error) { o := O(q); return list(ctx, &o) },
		all:  func(ctx context.Context, q pageQuery) iter.Seq2[*T, error] { o := O(q); return all(ctx, &o) },
	}
}

// listOptions are the flags of every paged list.
type listOptions struct {
	sort  padapi.Sort
	page  uint
	all   bool
	limit uint
}

// newListCmd returns a list command. pick chooses the list, given the
// client and the command's arguments.
func newListCmd[T any](f *factory, use, short string, v view[T], pick func(*padapi.Client, []string) lister[T]) *cobra.Command {
	var o listOptions
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("page") && o.page == 0 {
				return usageErrorf("--page 0: pages are numbered from 1")
			}
			c, err := f.client()
			if err != nil {
				return err
			}
			l := pick(c, args)
			if f.flags.json {
				return runRawList(cmd.Context(), f, c, &o, v.noun, l.path, l.key)
			}
			return runList(cmd.Context(), f, &o, v, l)
		},
	}
	fl := cmd.Flags()
	fl.Var(&sortFlag{&o.sort}, "sort", "the order: created or updated, then ,desc (the default) or ,asc")
	fl.UintVar(&o.page, "page", 0, "show page `N`, from 1 (50 items a page; default the first)")
	fl.BoolVar(&o.all, "all", false, "follow every page")
	fl.UintVar(&o.limit, "limit", 0, "stop after `N` items, following pages as needed")
	_ = cmd.RegisterFlagCompletionFunc("sort", cobra.FixedCompletions(sortNames, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// runList lists one page (--page, default the first), or with --all or
// --limit follows the pages. When a page is not all there is, stderr says so.
func runList[T any](ctx context.Context, f *factory, o *listOptions, v view[T], l lister[T]) error {
	q := pageQuery{Sort: o.sort, Page: int(o.page)}
	if !o.all && o.limit == 0 {
		p, err := l.page(ctx, q)
		if err != nil {
			return err
		}
		if err := printList(f, v, p.Items); err != nil {
			return err
		}
		if p.NextPage != "" {
			f.note("showing %d of %d %s; --all, --limit N or --page N for more", len(p.Items), p.Total, v.noun)
		}
		return nil
	}
	items := []T{}
	update, done := f.progress(v.noun)
	defer done()
	for item, err := range l.all(ctx, q) {
		if err != nil {
			return err
		}
		items = append(items, *item)
		update(len(items))
		if o.limit > 0 && len(items) >= int(o.limit) {
			break
		}
	}
	done() // before the table goes to the same terminal
	return printList(f, v, items)
}

// runRawList is runList for --json: the items as the service sent them
// (null stays null, "" stays "", unknown fields stay), one page or with
// --all or --limit every page's concatenated, in one JSON array. The pages
// are followed by the library (Client.DoAll), as for the typed lists.
func runRawList(ctx context.Context, f *factory, c *padapi.Client, o *listOptions, noun, path, key string) error {
	q := url.Values{}
	if o.sort != "" {
		q.Set("sort", string(o.sort))
	}
	if o.page > 0 {
		q.Set("page", strconv.FormatUint(uint64(o.page), 10))
	}
	if !o.all && o.limit == 0 {
		page, items, err := rawPage(ctx, c, path, key, q)
		if err != nil {
			return err
		}
		var next string
		var total int
		_ = json.Unmarshal(page["next_page"], &next) // absent or null: none
		_ = json.Unmarshal(page["total"], &total)
		if next != "" {
			f.note("showing %d of %d %s; --all, --limit N or --page N for more", len(items), total, noun)
		}
		return printRawList(f, items)
	}
	items := []json.RawMessage{}
	update, done := f.progress(noun)
	defer done()
	for item, err := range c.DoAll(ctx, path, key, q) {
		if err != nil {
			return err
		}
		items = append(items, item)
		update(len(items))
		if o.limit > 0 && len(items) >= int(o.limit) {
			break
		}
	}
	done() // before the output goes to the same terminal
	return printRawList(f, items)
}

// rawPage fetches one page of a list: its fields, and its items as sent.
func rawPage(ctx context.Context, c *padapi.Client, path, key string, q url.Values) (map[string]json.RawMessage, []json.RawMessage, error) {
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

// getRaw fetches path and prints the body as the service sent it.
func getRaw(ctx context.Context, f *factory, c *padapi.Client, path string, q url.Values) error {
	var body json.RawMessage
	if err := c.Do(ctx, http.MethodGet, path, q, &body); err != nil {
		return err
	}
	return printRaw(f, body)
}

// newGetCmd returns a command that shows one resource by ID; with --json
// it prints the body of GET pathOf(ID) as the service sent it.
func newGetCmd[T any](f *factory, use, short string, v view[T], get func(*padapi.Client) func(context.Context, padapi.ID) (*T, error), pathOf func(padapi.ID) string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if f.flags.json {
				return getRaw(cmd.Context(), f, c, pathOf(padapi.ID(args[0])), nil)
			}
			item, err := get(c)(cmd.Context(), padapi.ID(args[0]))
			if err != nil {
				return err
			}
			return printOne(f, v, item)
		},
	}
}

// newDeleteCmd returns a command that deletes one resource by ID. With
// --json it prints the service's answer to a delete, {"status":"OK"}.
func newDeleteCmd(f *factory, noun string, del func(*padapi.Client) func(context.Context, padapi.ID) error) *cobra.Command {
	return &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a " + noun,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := f.client()
			if err != nil {
				return err
			}
			if err := del(c)(cmd.Context(), padapi.ID(args[0])); err != nil {
				return err
			}
			if f.flags.json {
				return printJSON(f, map[string]string{"status": "OK"})
			}
			f.note("deleted %s %s", noun, args[0])
			return nil
		},
	}
}

// sortNames are the values --sort takes, for help and completion. Without a
// direction the order is the service's default, newest first.
var sortNames = []string{"created", "created,desc", "created,asc", "updated", "updated,desc", "updated,asc"}

// sortFlag is --sort. The service's own spellings (created_at,asc) are
// accepted too.
type sortFlag struct{ sort *padapi.Sort }

// String, Type and Set make sortFlag a pflag.Value.
func (s *sortFlag) String() string { return string(*s.sort) }
func (s *sortFlag) Type() string   { return "order" }

func (s *sortFlag) Set(v string) error {
	field, dir, hasDir := strings.Cut(v, ",")
	field = strings.TrimSuffix(field, "_at")
	if (field != "created" && field != "updated") || (hasDir && dir != "asc" && dir != "desc") {
		return errors.New("want created or updated, optionally followed by ,asc or ,desc")
	}
	*s.sort = padapi.Sort(field + "_at," + cmp.Or(dir, "desc"))
	return nil
}
