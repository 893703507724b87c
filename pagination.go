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
	items := *w.items
	p := &Page[T]{Items: make([]T, len(items)), Total: w.Total, NextPage: w.NextPage, PrevPage: w.PrevPage}
	for i := range items {
		p.Items[i] = conv(&items[i])
	}
	return p, nil
}

// all iterates over every item of the list at path, fetching each page only
// when the caller reaches it.
//
// A next_page link is never requested as given: only its page number (and
// sort, when it has one) is taken, and sent to the same endpoint below the
// base URL. So a link that names another host, or a backend's address
// without the gateway's prefix, can neither receive the API key nor break
// paging. A link back to a page number already fetched (whatever sort it
// names), or a link onward from an empty page, ends the iteration with an
// error, so a misbehaving service cannot make it loop forever.
func all[W, T any](ctx context.Context, c *Client, path, key string, next listOptions, conv func(*W) T) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		fetched := map[int]bool{}
		for {
			fetched[max(next.Page, 1)] = true // no page is page 1
			page, err := list(ctx, c, path, key, next, conv)
			if err != nil {
				yield(nil, err)
				return
			}
			for i := range page.Items {
				if !yield(&page.Items[i], nil) {
					return
				}
			}
			if page.NextPage == "" {
				return
			}
			if len(page.Items) == 0 {
				yield(nil, fmt.Errorf("padapi: GET %s: page %d is empty but has a next_page link", path, max(next.Page, 1)))
				return
			}
			if next, err = next.follow(page.NextPage); err != nil {
				yield(nil, fmt.Errorf("padapi: GET %s: %w", path, err))
				return
			}
			if fetched[next.Page] {
				yield(nil, fmt.Errorf("padapi: GET %s: next_page links back to page %d, already fetched", path, next.Page))
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
