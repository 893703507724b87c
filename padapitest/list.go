package padapitest

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// pageSize is the service's page size.
const pageSize = 50

// listPage answers a list request: one page of items, under key ("pads" or
// "questions"), sorted as the request's sort asks, with the total and the
// links to the pages around it. times gives an item's created and updated
// times.
func listPage[T any](s *Server, r *http.Request, key string, items []T, times func(T) (created, updated time.Time)) (int, any) {
	q := r.URL.Query()
	sortBy := q.Get("sort")
	byUpdated, desc, ok := parseSort(sortBy)
	if !ok {
		return fail(http.StatusBadRequest, "Invalid sort %q: use created_at or updated_at, optionally with ,asc or ,desc", sortBy)
	}
	page := 1
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fail(http.StatusBadRequest, "Invalid page %q", v)
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
	lastPage := (total + pageSize - 1) / pageSize
	from := min((page-1)*pageSize, total)
	to := min(from+pageSize, total)
	body := map[string]any{key: append(make([]T, 0, to-from), sorted[from:to]...), "total": total}
	link := func(n int) string {
		lq := url.Values{"page": {strconv.Itoa(n)}}
		if sortBy != "" {
			lq.Set("sort", sortBy)
		}
		return s.URL + r.URL.Path + "?" + lq.Encode()
	}
	if page < lastPage {
		body["next_page"] = link(page + 1)
	}
	if page > 1 && lastPage > 0 {
		// Past the end, "previous" is the last page that has items.
		body["prev_page"] = link(min(page-1, lastPage))
	}
	return http.StatusOK, body
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
