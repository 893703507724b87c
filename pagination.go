package padapi

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
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

// listOptions are the sort and page every paged list takes. Each list
// method has its own public options type of this shape (PadListOptions,
// QuestionListOptions, ...), converted by pageOf.
type listOptions struct {
	Sort Sort
	Page int
}

// pageOf converts a list method's options (nil: the service's defaults).
func pageOf[O ~struct {
	Sort Sort
	Page int
}](o *O) listOptions {
	if o == nil {
		return listOptions{}
	}
	return listOptions(*o)
}

func (o listOptions) query() url.Values {
	q := url.Values{}
	if o.Sort != "" {
		q.Set("sort", string(o.Sort))
	}
	if o.Page > 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	return q
}

// pageWire is a list response. Its items come under a key that depends on
// the list ("pads", "questions", "events", "users"); list names the key,
// and reads the field that holds it.
type pageWire[W any] struct {
	wireStatus
	Pads      []W    `json:"pads"`
	Questions []W    `json:"questions"`
	Events    []W    `json:"events"`
	Users     []W    `json:"users"`
	Total     int    `json:"total"`
	NextPage  string `json:"next_page"`
	PrevPage  string `json:"prev_page"`

	key   string
	items *[]W // the field of key
}

func newPageWire[W any](key string) *pageWire[W] {
	w := &pageWire[W]{key: key}
	switch key {
	case "pads":
		w.items = &w.Pads
	case "questions":
		w.items = &w.Questions
	case "events":
		w.items = &w.Events
	default:
		w.items = &w.Users
	}
	// encoding/json appends to the slice it finds: given room for a full
	// page, it does not grow the slice from nothing, copying every item at
	// each doubling (a quarter of the bytes a page decode allocates). The
	// room also tells an absent key from an empty list: encoding/json
	// replaces the slice for [] and null, and leaves it alone when the key
	// is absent.
	*w.items = make([]W, 0, pageSize)
	return w
}

// missing names the list's key when the body did not have it: a page
// without its items is malformed, not empty.
func (w *pageWire[W]) missing() string {
	if len(*w.items) == 0 && cap(*w.items) == pageSize {
		return strconv.Quote(w.key) + " list"
	}
	return ""
}

// pageSize is the most items the service puts in one page.
const pageSize = 50

// list fetches one page of the list at path, whose items come under key,
// and converts them.
func list[W, T any](ctx context.Context, c *Client, path, key string, opts listOptions, conv func(*W) T) (*Page[T], error) {
	w := newPageWire[W](key)
	if _, err := c.do(ctx, request{method: http.MethodGet, path: path, query: opts.query()}, w); err != nil {
		return nil, err
	}
	return convertPage(w, conv), nil
}

// convertPage converts a decoded list response.
func convertPage[W, T any](w *pageWire[W], conv func(*W) T) *Page[T] {
	items := *w.items
	p := &Page[T]{Items: make([]T, len(items)), Total: w.Total, NextPage: w.NextPage, PrevPage: w.PrevPage}
	for i := range items {
		p.Items[i] = conv(&items[i])
	}
	return p
}

// WithConcurrentPages lets the iterators (Pads.All, Pads.AllEvents,
// Questions.All, Organization.AllPads, Organization.AllQuestions) fetch up
// to n pages at once, which shortens a long listing by up to n times the
// service's answer time. The default, 1, fetches the page after the one the
// loop is on while the loop reads it.
//
// With n > 1, once a page's total says how many pages the list has, the
// pages after the next one are requested by number alongside it. The items
// still come in order, each exactly once on a list that does not change
// meanwhile: a page fetched ahead is used only when the page before it
// links to it; any other is dropped, and the page the link names is fetched
// instead. So a list that changes during the loop reads as it would without
// the option, at the cost of some requests. The loop stops at the first
// error in list order, and holds at most n pages besides the one it is on,
// so memory grows with n. Breaking out of the loop cancels the pages still
// being fetched.
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
func all[W, T any](ctx context.Context, c *Client, path, key string, first listOptions, conv func(*W) T) iter.Seq2[*T, error] {
	return allPages(ctx, c, path, key, first, conv, max(c.cfg.pages, 1))
}

// pageFetch is one page being fetched by a goroutine of allPages.
type pageFetch[T any] struct {
	opts   listOptions
	cancel context.CancelFunc
	done   chan struct{} // closed when page and err are set
	page   *Page[T]
	err    error
}

// allPages iterates over every item of the list at path with up to window
// pages fetched or held ahead of the page the caller is on.
//
// A next_page link is never requested as given: only its page number (and
// sort, when it has one) is taken, and sent to the same endpoint below the
// base URL. So a link that names another host, or a backend's address
// without the gateway's prefix, can neither receive the API key nor break
// paging. A link back to a page number already fetched (whatever sort it
// names), or a link onward from an empty page, ends the iteration with an
// error, so a misbehaving service cannot make it loop forever.
//
// Pages ahead of the next one are guessed from the total: page k+1 follows
// page k. A guess is used only where the link confirms it, so the items
// are those that following the links one by one gives.
func allPages[W, T any](ctx context.Context, c *Client, path, key string, first listOptions, conv func(*W) T, window int) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		if ctx == nil {
			_, err := list(ctx, c, path, key, first, conv) // the pipeline's own error
			yield(nil, err)
			return
		}
		var ahead []*pageFetch[T] // in list order; ahead[0] is the next page
		start := func(o listOptions) {
			fctx, cancel := context.WithCancel(ctx)
			f := &pageFetch[T]{opts: o, cancel: cancel, done: make(chan struct{})}
			go func() {
				defer close(f.done)
				f.page, f.err = list(fctx, c, path, key, o, conv)
			}()
			ahead = append(ahead, f)
		}
		drop := func(fs []*pageFetch[T]) {
			for _, f := range fs {
				f.cancel()
			}
			for _, f := range fs {
				<-f.done
			}
		}
		// No fetch outlives the loop: a break cancels them and waits.
		defer func() { drop(ahead) }()

		fetched := map[int]bool{}
		next := first
		start(next)
		for {
			f := ahead[0]
			<-f.done
			f.cancel()
			// Clear the slot: the array behind ahead would keep the page
			// alive until append moves it.
			ahead[0] = nil
			ahead = ahead[1:]
			fetched[max(next.Page, 1)] = true // no page is page 1
			if f.err != nil {
				yield(nil, f.err)
				return
			}
			page := f.page
			// Work out the page after this one, and set it (and those
			// after it) fetching before the caller reads this one.
			var stop error
			if page.NextPage != "" {
				var err error
				switch {
				case len(page.Items) == 0:
					stop = fmt.Errorf("padapi: GET %s: page %d is empty but has a next_page link", path, max(next.Page, 1))
				default:
					if next, err = next.follow(page.NextPage); err != nil {
						stop = fmt.Errorf("padapi: GET %s: %w", path, err)
					} else if fetched[next.Page] {
						stop = fmt.Errorf("padapi: GET %s: next_page links back to page %d, already fetched", path, next.Page)
					}
				}
				if stop == nil {
					if len(ahead) > 0 && ahead[0].opts != next {
						drop(ahead) // guessed wrong: the list changed
						ahead = nil
					}
					if len(ahead) == 0 {
						start(next)
					}
					if window > 1 && page.Total > 0 {
						// A page with a next page is full: its length is
						// the page size.
						last := (page.Total + len(page.Items) - 1) / len(page.Items)
						for k := ahead[len(ahead)-1].opts.Page + 1; len(ahead) < window && k <= last; k++ {
							start(listOptions{Sort: next.Sort, Page: k})
						}
					}
				}
			}
			for i := range page.Items {
				if !yield(&page.Items[i], nil) {
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

// follow returns the options that a next_page link asks for: its page, and
// its sort when it names one.
func (o listOptions) follow(link string) (listOptions, error) {
	u, err := url.Parse(link)
	if err != nil {
		return o, errors.New("next_page is not a URL")
	}
	q := u.Query()
	page, err := strconv.Atoi(q.Get("page"))
	if err != nil || page < 1 {
		return o, errors.New("next_page has no page number")
	}
	o.Page = page
	if sort := q.Get("sort"); sort != "" {
		o.Sort = Sort(sort)
	}
	return o, nil
}
