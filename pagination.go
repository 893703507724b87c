// pagination.go: ListOptions, Page, and the iterators that follow next_page links.

package padapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/pathcheck"
)

// Page is one page of a list: at most 50 items, the total across all pages,
// and the links to the pages around it ("" when there is none).
type Page[T any] struct {
	// Items are the page's items, in the requested order.
	Items []T
	// Total counts the items across all pages.
	Total int
	// NextPage and PrevPage are the service's absolute links to the next
	// and previous pages, or "" when there is no such page.
	NextPage, PrevPage string
}

// Sort orders a list by creation or update time.
type Sort string

// The orders the service knows. The zero Sort leaves the choice to the
// service, which sorts by SortCreatedDesc.
const (
	SortCreatedDesc Sort = "created_at,desc"
	SortCreatedAsc  Sort = "created_at,asc"
	SortUpdatedDesc Sort = "updated_at,desc"
	SortUpdatedAsc  Sort = "updated_at,asc"
)

// ListOptions choose the order and the page of a list. Every list method
// has its own options type with these fields (PadListOptions,
// QuestionListOptions, ...), defined from this one, so that one encoder
// builds every list's query and a field added here reaches every list.
type ListOptions struct {
	// Sort is the order; "" leaves it to the service (SortCreatedDesc).
	Sort Sort
	// Page is the 1-based page number; 0 means the first page.
	Page int
	// Cursor continues a list from where a next_page link that carries a
	// cursor left it; "" for none.
	Cursor string
}

// query is the one encoder of list options: sort, page and cursor as the
// service takes them.
func (o *ListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	if o.Sort != "" {
		q.Set("sort", string(o.Sort))
	}
	if o.Page > 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	return q
}

// pageBody is a list answer, decoded member by member as it streams: the
// items under key (with each item's bytes when keep is set: WithJSON),
// the total and the links; any other member is skipped.
type pageBody[T any] struct {
	key                string
	keep               bool
	items              []T
	raws               []json.RawMessage
	total              int
	nextPage, prevPage string
}

// DecodeMember decodes one top-level member of a list answer.
func (b *pageBody[T]) DecodeMember(dec *jsontext.Decoder, name string) error {
	var dst any
	switch name {
	case b.key:
		if b.keep && dec.PeekKind() == '[' {
			return b.decodeKept(dec)
		}
		dst = &b.items
	case "total":
		dst = &b.total
	case "next_page":
		dst = &b.nextPage
	case "prev_page":
		dst = &b.prevPage
	default:
		return dec.SkipValue()
	}
	return jsonv2.UnmarshalDecode(dec, dst, decodeOptions)
}

// decodeKept decodes the items one by one, keeping each one's bytes.
func (b *pageBody[T]) decodeKept(dec *jsontext.Decoder) error {
	if _, err := dec.ReadToken(); err != nil { // [
		return err
	}
	b.items, b.raws = []T{}, nil
	for dec.PeekKind() != ']' {
		raw, err := dec.ReadValue()
		if err != nil {
			return err
		}
		var v T
		if err := unmarshal(raw, &v); err != nil {
			return err
		}
		b.items, b.raws = append(b.items, v), append(b.raws, json.RawMessage(bytes.Clone(raw)))
	}
	_, err := dec.ReadToken() // ]
	return err
}

// Reset zeroes the answer before a decode starts again.
func (b *pageBody[T]) Reset() { *b = pageBody[T]{key: b.key, keep: b.keep} }

// list fetches one page of the list at path, whose items come under key.
func list[T any](ctx context.Context, c *Client, path, key string, q url.Values) (*Page[T], error) {
	p, _, err := listKept[T](ctx, c, path, key, q, false)
	return p, err
}

// listKept is list, which with keep also returns each item's bytes.
func listKept[T any](ctx context.Context, c *Client, path, key string, q url.Values, keep bool) (*Page[T], []json.RawMessage, error) {
	b := &pageBody[T]{key: key, keep: keep}
	if _, err := c.do(ctx, &request{method: http.MethodGet, path: path, query: q, need: key, what: strconv.Quote(key) + " list"}, b); err != nil {
		return nil, nil, err
	}
	if b.items == nil {
		b.items = []T{} // a null list is an empty page
	}
	return &Page[T]{Items: b.items, Total: b.total, NextPage: b.nextPage, PrevPage: b.prevPage}, b.raws, nil
}

// WithConcurrentPages lets the iterators (Pads.All, Pads.AllEvents,
// Questions.All, Organization.AllPads, Organization.AllQuestions) fetch up
// to n pages at once, which shortens a long listing by up to n times the
// service's answer time. The default, 1, fetches the page after the one the
// loop is on while the loop reads it.
//
// With n > 1, once a page's total says how many pages the list has, and
// its next_page link is by page number, the pages after the next one are
// requested by number alongside it. The items still come in order, each
// exactly once on a list that does not change meanwhile: a page fetched
// ahead is used only when the page before it links to it; any other is
// dropped, and the page the link names is fetched instead. The loop stops
// at the first error in list order, and holds at most n pages besides the
// one it is on, so memory grows with n. Breaking out of the loop cancels
// the pages still being fetched.
func WithConcurrentPages(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.err = fmt.Errorf("padapi: WithConcurrentPages(%d): need at least 1", n)
			return
		}
		c.pages = n
	}
}

// all iterates over every item of the list at path, fetching the next page
// while the caller reads the current one, and up to the client's
// WithConcurrentPages pages at once.
func all[T any](ctx context.Context, c *Client, path, key string, first url.Values) iter.Seq2[*T, error] {
	return allPages[T](ctx, c, path, key, first, max(c.cfg.pages, 1))
}

// DoAll iterates over every item of the list at path (an API path, as for
// Do) whose items come under key ("pads", "questions", "events" or
// "users"), each as the service sent it, through the same pipeline and the
// same paging as the typed All methods: next_page links are followed by
// sending their paging parameters to path below the base URL, and the same
// bounds end a list that does not. params is the first page's query (nil:
// none). It stops at the first error, which it yields once.
func (c *Client) DoAll(ctx context.Context, path, key string, params url.Values) iter.Seq2[json.RawMessage, error] {
	return func(yield func(json.RawMessage, error) bool) {
		if why := pathcheck.Check(path); why != "" {
			yield(nil, argError("Do: "+why))
			return
		}
		switch key {
		case "pads", "questions", "events", "users":
		default:
			yield(nil, argError("DoAll: key "+quoteShort([]byte(key))+": need pads, questions, events or users"))
			return
		}
		for item, err := range all[json.RawMessage](ctx, c, path, key, params) {
			var v json.RawMessage
			if item != nil {
				v = *item
			}
			if !yield(v, err) {
				return
			}
		}
	}
}

// pageFetch is one page being fetched by a goroutine of allPages.
type pageFetch[T any] struct {
	query  string // the encoded paging query
	cancel context.CancelFunc
	done   chan struct{} // closed when page, raws and err are set
	page   *Page[T]
	raws   []json.RawMessage // each item's bytes, for WithJSON
	err    error
}

// allPages iterates over every item of the list at path with up to window
// pages fetched or held ahead of the page the caller is on.
//
// A next_page link is never requested as given: only its paging
// parameters (page, cursor, sort, per_page) are taken, and sent to the same
// endpoint below the base URL. So a link that names another host, or a
// backend's address without the gateway's prefix, can neither receive the
// API key nor break paging. The iteration ends with an error on a link
// with neither a page nor a cursor, on a link to a query already fetched,
// on a link onward from an empty page, and once it has fetched more pages
// than the first page's total allows (⌈total ÷ page size⌉ + 1), so a
// misbehaving service cannot make it loop forever.
//
// Pages ahead of the next one are guessed from the total: page k+1 follows
// page k. A guess is used only where the link confirms it, so the items
// are those that following the links one by one gives.
func allPages[T any](ctx context.Context, c *Client, path, key string, first url.Values, window int) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if ctx == nil {
			_, err := list[T](ctx, c, path, key, first) // the pipeline's own error
			yield(nil, err)
			return
		}
		slot, _ := ctx.Value(itemJSONKey{}).(*json.RawMessage)
		p := &pager[T]{ctx: ctx, c: c, path: path, key: key, window: window, next: first, keep: slot != nil,
			fetched: map[string]bool{}, fetchedPages: map[string]bool{}, limit: -1, room: c.cfg.listLimit}
		// No fetch outlives the loop: a break cancels them and waits.
		defer func() { p.drop(p.ahead) }()
		p.start(first)
		for pages := 1; ; pages++ {
			page, raws, err := p.take()
			if err != nil {
				yield(nil, err)
				return
			}
			yieldItem := func(i int) bool {
				if slot != nil && i < len(raws) {
					*slot = raws[i]
				}
				return yield(&page.Items[i], nil)
			}
			if p.overLimit(page, yieldItem, yield) {
				return
			}
			// Work out the page after this one, and set it (and those
			// after it) fetching before the caller reads this one.
			stop := p.plan(page, pages)
			for i := range page.Items {
				if !yieldItem(i) {
					return
				}
			}
			if page.NextPage == "" {
				return
			}
			if stop != nil {
				yield(nil, stop)
				return
			}
		}
	}
}

// pager is the state of one allPages iteration.
type pager[T any] struct {
	ctx       context.Context
	c         *Client
	path, key string
	window    int
	keep      bool            // keep each item's bytes (WithJSON)
	ahead     []*pageFetch[T] // in list order; ahead[0] is the next page
	// The queries fetched, and the page numbers of those without a
	// cursor: a link back to a number fetched is a loop, whatever
	// sort it names.
	fetched, fetchedPages map[string]bool
	next                  url.Values // the query of the page after the current one
	limit                 int        // pages the total allows, once the first page says
	room                  int        // items the caller still allows
	lastGuess             int        // the last page number worth fetching ahead
}

// start fetches the page of query q in a goroutine of its own.
func (p *pager[T]) start(q url.Values) {
	fctx, cancel := context.WithCancel(p.ctx)
	f := &pageFetch[T]{query: q.Encode(), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(f.done)
		f.page, f.raws, f.err = listKept[T](fctx, p.c, p.path, p.key, q, p.keep)
	}()
	p.ahead = append(p.ahead, f)
}

// drop cancels the fetches fs and waits for them to end.
func (p *pager[T]) drop(fs []*pageFetch[T]) {
	for _, f := range fs {
		f.cancel()
	}
	for _, f := range fs {
		<-f.done
	}
}

// take waits for the next page and notes its query as fetched.
func (p *pager[T]) take() (*Page[T], []json.RawMessage, error) {
	f := p.ahead[0]
	<-f.done
	f.cancel()
	// Clear the slot: the array behind ahead would keep the page
	// alive until append moves it.
	p.ahead[0] = nil
	p.ahead = p.ahead[1:]
	p.fetched[f.query] = true
	if q, _ := url.ParseQuery(f.query); q.Get("cursor") == "" {
		p.fetchedPages[cmp.Or(q.Get("page"), "1")] = true // no page is page 1
	}
	return f.page, f.raws, f.err
}

// overLimit yields what the caller's bound (WithListLimit) leaves of page
// and then ErrListLimit, before any further page is fetched, and reports
// whether it did; it sets the page limit from the first page with items.
func (p *pager[T]) overLimit(page *Page[T], yieldItem func(int) bool, yield func(*T, error) bool) bool {
	if p.limit < 0 && len(page.Items) > 0 {
		p.limit = (page.Total+len(page.Items)-1)/len(page.Items) + 1
		// No page past the one that holds the caller's last item
		// is guessed, whatever the total says.
		p.lastGuess = min(p.limit-1, (p.c.cfg.listLimit+len(page.Items)-1)/len(page.Items))
	}
	if len(page.Items) < p.room || (len(page.Items) == p.room && page.NextPage == "") {
		p.room -= len(page.Items)
		return false
	}
	for i := range page.Items[:p.room] {
		if !yieldItem(i) {
			return true
		}
	}
	yield(nil, fmt.Errorf("padapi: GET %s: %w of %d items (WithListLimit)", p.path, ErrListLimit, p.c.cfg.listLimit))
	return true
}

// plan checks page's next_page link (page number pages) and starts the
// fetch of the page it names, and of the pages guessed after it; it
// returns the error that ends the iteration after page's items.
func (p *pager[T]) plan(page *Page[T], pages int) error {
	if page.NextPage == "" {
		return nil
	}
	var err error
	switch {
	case len(page.Items) == 0:
		return fmt.Errorf("padapi: GET %s: page %d is empty but has a next_page link", p.path, pages)
	case pages >= p.limit:
		return fmt.Errorf("padapi: GET %s: next_page after %d pages, more than a total of %d allows", p.path, pages, page.Total)
	}
	if p.next, err = follow(p.next, page.NextPage); err != nil {
		return fmt.Errorf("padapi: GET %s: %w", p.path, err)
	}
	if n := p.next.Get("page"); p.fetched[p.next.Encode()] || (p.next.Get("cursor") == "" && p.fetchedPages[n]) {
		return fmt.Errorf("padapi: GET %s: next_page links back to page %s, already fetched", p.path, cmp.Or(n, "(cursor)"))
	}
	p.prefetch()
	return nil
}

// prefetch starts the fetch of p.next, unless a guess already did, and of
// the pages guessed after it, up to the window.
func (p *pager[T]) prefetch() {
	if len(p.ahead) > 0 && p.ahead[0].query != p.next.Encode() {
		p.drop(p.ahead) // guessed wrong: the list changed
		p.ahead = nil
	}
	if len(p.ahead) == 0 {
		p.start(p.next)
	}
	if p.window > 1 && p.next.Get("cursor") == "" {
		// A page with a next page is full, so page k
		// starts at item (k-1) × its size.
		k, _ := strconv.Atoi(p.ahead[len(p.ahead)-1].pageNumber())
		for k++; len(p.ahead) < p.window && k <= p.lastGuess; k++ {
			guess := copyValues(p.next)
			guess.Set("page", strconv.Itoa(k))
			p.start(guess)
		}
	}
}

// ErrListLimit ends a list iteration (the All methods, DoAll, the events
// of a transcript) that reached the client's WithListLimit with items
// still to come.
var ErrListLimit = errors.New("list limit reached")

// defaultListLimit is the default of WithListLimit.
const defaultListLimit = 100_000

// WithListLimit caps how many items one list iteration yields (default
// 100 000): the All methods, DoAll, and the events a transcript reads. A
// list with more ends, after n items, with an error matching ErrListLimit
// that names n, so memory never follows what a service says its total is.
func WithListLimit(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.err = fmt.Errorf("padapi: WithListLimit(%d): need at least 1", n)
			return
		}
		c.listLimit = n
	}
}

// pageNumber is the page a fetch asks for ("" for none).
func (f *pageFetch[T]) pageNumber() string {
	q, _ := url.ParseQuery(f.query)
	return q.Get("page")
}

// pagingParams are the query parameters of a next_page link that the
// iterator sends back.
var pagingParams = []string{"page", "cursor", "sort", "per_page"}

// follow returns the query that a next_page link asks for: its paging
// parameters, and those of the current query that it does not name.
func follow(cur url.Values, link string) (url.Values, error) {
	u, err := url.Parse(link)
	if err != nil {
		return nil, errors.New("next_page is not a URL")
	}
	lq := u.Query()
	next := copyValues(cur)
	next.Del("page")
	next.Del("cursor")
	for _, name := range pagingParams {
		if v, ok := lq[name]; ok && len(v) > 0 {
			next.Set(name, v[0])
		}
	}
	page, cursor := next.Get("page"), next.Get("cursor")
	if page == "" && cursor == "" {
		return nil, errors.New("next_page has neither a page number nor a cursor")
	}
	if n, err := strconv.Atoi(page); page != "" && (err != nil || n < 1) {
		return nil, fmt.Errorf("next_page has a page number that is not a positive integer (%s)", quoteShort([]byte(page)))
	}
	return next, nil
}

func copyValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// Next returns the options that ask for the page after p: cur (the options
// p was listed with) with the page number and cursor of p's next_page link,
// and its sort where the link names one. It reports false on the last page,
// and on a link that names neither a positive page number nor a cursor.
// So a caller pages on without reading the link:
//
//	next, ok := page.Next(padapi.ListOptions(opts))
//	if ok {
//		opts = padapi.PadListOptions(next) // and List again
//	}
//
// It reads the link as the iterators (All) do.
func (p *Page[T]) Next(cur ListOptions) (ListOptions, bool) {
	if p == nil || p.NextPage == "" {
		return ListOptions{}, false
	}
	q, err := follow(cur.query(), p.NextPage)
	if err != nil {
		return ListOptions{}, false
	}
	next := ListOptions{Sort: Sort(q.Get("sort")), Cursor: q.Get("cursor")}
	next.Page, _ = strconv.Atoi(q.Get("page")) // follow checked it
	return next, true
}

// Item is an item of a list with the bytes the service sent for it.
type Item[T any] struct {
	// Value is the item, decoded.
	Value *T
	// JSON is the item as the service sent it, byte for byte.
	JSON json.RawMessage
}

type itemJSONKey struct{}

// WithJSON iterates over the items that all iterates over, each with the
// bytes the service sent for it: all is one of the client's list
// iterators (Pads.All, Pads.AllEvents, Questions.All,
// Organization.AllPads, Organization.AllQuestions), called with the
// context WithJSON gives it, as in
//
//	for it, err := range padapi.WithJSON(ctx, func(ctx context.Context) iter.Seq2[*padapi.Pad, error] {
//		return c.Pads.All(ctx, nil)
//	}) { ... it.Value.ID, it.JSON ... }
//
// So a caller that promises the service's bytes (padctl's --json, an
// archive) lists through the typed method, with its route, validation and
// paging, and names no items key. The paging, the bounds and the errors
// are those of all; an item's JSON stays valid after the loop moves on.
// An iterator that is not the client's (or that drops the context) yields
// items without JSON.
func WithJSON[T any](ctx context.Context, all func(context.Context) iter.Seq2[*T, error]) iter.Seq2[Item[T], error] {
	return func(yield func(Item[T], error) bool) {
		var slot json.RawMessage
		if ctx != nil { // a nil one is the pipeline's error to give
			ctx = context.WithValue(ctx, itemJSONKey{}, &slot)
		}
		for v, err := range all(ctx) {
			it := Item[T]{Value: v}
			if v != nil {
				it.JSON, slot = slot, nil
			}
			if !yield(it, err) {
				return
			}
		}
	}
}
