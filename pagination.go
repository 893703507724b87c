package padapi

import (
	"context"
	"errors"
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

// ListOptions choose the order and the page of a list. A nil *ListOptions
// means the service's defaults: newest first, first page.
type ListOptions struct {
	// Sort is the order; "" means SortCreatedDesc.
	Sort Sort
	// Page is the 1-based page number; 0 means the first page.
	Page int
}

// PadListOptions are the options of the pad lists.
type PadListOptions = ListOptions

// QuestionListOptions are the options of the question lists.
type QuestionListOptions = ListOptions

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
	return q
}

// pageWire is a list response. The items come under the resource's name;
// one struct serves both lists.
type pageWire[W any] struct {
	wireStatus
	Pads      []W    `json:"pads"`
	Questions []W    `json:"questions"`
	Total     int    `json:"total"`
	NextPage  string `json:"next_page"`
	PrevPage  string `json:"prev_page"`
}

// list fetches one page of the list at path and converts its items.
func list[W, T any](ctx context.Context, c *Client, path string, query url.Values, conv func(*W) T) (*Page[T], error) {
	var w pageWire[W]
	if err := c.do(ctx, http.MethodGet, path, query, nil, &w); err != nil {
		return nil, err
	}
	items := w.Pads
	if items == nil {
		items = w.Questions
	}
	p := &Page[T]{Items: make([]T, len(items)), Total: w.Total, NextPage: w.NextPage, PrevPage: w.PrevPage}
	for i := range items {
		p.Items[i] = conv(&items[i])
	}
	return p, nil
}

// all iterates over every item of the list at path, fetching each page only
// when the caller reaches it.
//
// A next_page link is never requested as given: its query (page, sort) is
// sent to the same endpoint below the base URL. So a link that names another
// host, or a backend's address without the gateway's prefix, can neither
// receive the API key nor break paging. A link that repeats a page already
// fetched ends the iteration with an error, so a misbehaving service cannot
// make it loop forever.
func all[W, T any](ctx context.Context, c *Client, path string, opts *ListOptions, conv func(*W) T) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		query := opts.query()
		seen := map[string]bool{}
		for {
			seen[query.Encode()] = true
			page, err := list(ctx, c, path, query, conv)
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
			next, err := url.Parse(page.NextPage)
			if err != nil {
				yield(nil, errors.New("padapi: GET "+path+": next_page is not a URL"))
				return
			}
			query = next.Query()
			if seen[query.Encode()] {
				yield(nil, errors.New("padapi: GET "+path+": next_page repeats a page already fetched"))
				return
			}
		}
	}
}
