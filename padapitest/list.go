// list.go: one page of a list: sorting, paging and next_page links.

package padapitest

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pageSize is the service's page size, and the fake's unless WithPageSize
// sets another.
const pageSize = 50

// listPage answers a list request: one page of items, under key ("pads",
// "questions" or "events"), sorted as the request's sort asks, with the
// total and the links to the pages around it. times gives an item's created
// and updated times, render what the page carries for it.
func listPage[T any](s *Server, r *http.Request, key string, items []T, times func(T) (created, updated time.Time), render func(T) any) (any, error) {
	q := r.Form
	sortBy := q.Get("sort")
	byUpdated, desc, ok := parseSort(sortBy)
	if !ok {
		return nil, badRequest("Invalid sort %q: use created_at or updated_at, optionally with ,asc or ,desc", sortBy)
	}
	page := 1
	if q.Has("page") {
		n, err := strconv.Atoi(q.Get("page"))
		if err != nil || n < 1 {
			return nil, badRequest("Invalid page %q: use a positive integer", q.Get("page"))
		}
		page = n
	}

	sorted := slices.Clone(items)
	// A stable sort keeps creation order among equal times; reversing it
	// afterwards puts the newest first among them too.
	slices.SortStableFunc(sorted, func(a, b T) int {
		ac, au := times(a)
		bc, bu := times(b)
		if byUpdated {
			return au.Compare(bu)
		}
		return ac.Compare(bc)
	})
	if desc {
		slices.Reverse(sorted)
	}

	total := len(sorted)
	pageSize := s.cfg.pageSize
	lastPage := (total + pageSize - 1) / pageSize
	// Compared before multiplying: (page-1)*pageSize overflows for a page
	// number near the largest int, which a request may send.
	from := total
	if page <= lastPage {
		from = (page - 1) * pageSize
	}
	to := min(from+pageSize, total)
	out := make([]any, 0, to-from)
	for _, item := range sorted[from:to] {
		out = append(out, render(item))
	}
	body := map[string]any{key: out, "total": total}
	link := func(n int) string {
		lq := url.Values{"page": {strconv.Itoa(n)}}
		if sortBy != "" {
			lq.Set("sort", sortBy)
		}
		return s.URL + r.URL.EscapedPath() + "?" + lq.Encode()
	}
	if page < lastPage {
		body["next_page"] = link(page + 1)
	}
	if page > 1 && lastPage > 0 {
		// Past the end, "previous" is the last page that has items.
		body["prev_page"] = link(min(page-1, lastPage))
	}
	return body, nil
}

// parseSort reads created_at or updated_at, optionally followed by ,asc or
// ,desc; "" is the service's default, created_at,desc.
func parseSort(v string) (byUpdated, desc, ok bool) {
	field, dir, hasDir := strings.Cut(v, ",")
	switch field {
	case "", "created_at":
	case "updated_at":
		byUpdated = true
	default:
		return false, false, false
	}
	switch {
	case !hasDir, dir == "desc":
		desc = true
	case dir == "asc":
	default:
		return false, false, false
	}
	if field == "" && hasDir {
		return false, false, false
	}
	return byUpdated, desc, true
}
