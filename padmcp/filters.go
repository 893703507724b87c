// filters.go: list_pads' filters, applied while the list streams, and count_pads / count_questions, one streaming walk each.

package padmcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
)

// Bounds of a filtered list.
const (
	filteredPage  = 50  // answers a filtered list_pads page holds
	filteredPages = 200 // service pages one filtered call reads at most (10 000 pads)
	maxGroups     = 1000
	otherGroup    = "(other groups)"
)

// padFilterArgs are list_pads' and count_pads' filters.
type padFilterArgs struct {
	Owner         string `json:"owner,omitempty" jsonschema:"only pads whose owner_email is exactly this"`
	State         string `json:"state,omitempty" jsonschema:"only pads in this state, such as open or ended"`
	Language      string `json:"language,omitempty" jsonschema:"only pads in this language, exactly as listed, such as python3"`
	CreatedAfter  string `json:"created_after,omitempty" jsonschema:"only pads created at or after this time: RFC 3339, or a date such as 2026-10-01 (midnight UTC)"`
	CreatedBefore string `json:"created_before,omitempty" jsonschema:"only pads created before this time (RFC 3339 or a date)"`
	UpdatedAfter  string `json:"updated_after,omitempty" jsonschema:"only pads last changed at or after this time (RFC 3339 or a date)"`
	UpdatedBefore string `json:"updated_before,omitempty" jsonschema:"only pads last changed before this time (RFC 3339 or a date)"`
}

// padFilter is padFilterArgs read.
type padFilter struct {
	owner, state, language                                   string
	createdAfter, createdBefore, updatedAfter, updatedBefore time.Time
}

// filter reads the filter arguments; every date must parse.
func (a padFilterArgs) filter() (padFilter, error) {
	f := padFilter{owner: a.Owner, state: a.State, language: a.Language}
	for _, d := range []struct {
		name, v string
		t       *time.Time
	}{{"created_after", a.CreatedAfter, &f.createdAfter}, {"created_before", a.CreatedBefore, &f.createdBefore},
		{"updated_after", a.UpdatedAfter, &f.updatedAfter}, {"updated_before", a.UpdatedBefore, &f.updatedBefore}} {
		t, err := timeArg(d.name, d.v)
		if err != nil {
			return f, err
		}
		*d.t = t
	}
	return f, nil
}

// any reports whether the filter keeps only some pads.
func (f padFilter) any() bool { return f != padFilter{} }

// args are the filter's arguments, for next_page.
func (a padFilterArgs) args() map[string]any {
	m := map[string]any{}
	for k, v := range map[string]string{"owner": a.Owner, "state": a.State, "language": a.Language,
		"created_after": a.CreatedAfter, "created_before": a.CreatedBefore, "updated_after": a.UpdatedAfter, "updated_before": a.UpdatedBefore} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// match reports whether p passes the filter.
func (f padFilter) match(p *padapi.Pad) bool {
	return (f.owner == "" || p.OwnerEmail == f.owner) && (f.state == "" || padState(p) == f.state) &&
		(f.language == "" || p.Language == f.language) &&
		(f.createdAfter.IsZero() || !p.CreatedAt.Before(f.createdAfter)) && (f.createdBefore.IsZero() || p.CreatedAt.Before(f.createdBefore)) &&
		(f.updatedAfter.IsZero() || !p.UpdatedAt.Before(f.updatedAfter)) && (f.updatedBefore.IsZero() || p.UpdatedAt.Before(f.updatedBefore))
}

// past reports whether p, read in the order sort, shows that no later pad
// of the list can pass the filter: newest first, a pad older than the
// "after" bound of its time; oldest first, one at or past the "before"
// bound.
func (f padFilter) past(p *padapi.Pad, sort padapi.Sort) bool {
	switch sort {
	case "", padapi.SortCreatedDesc:
		return !f.createdAfter.IsZero() && p.CreatedAt.Before(f.createdAfter)
	case padapi.SortCreatedAsc:
		return !f.createdBefore.IsZero() && !p.CreatedAt.Before(f.createdBefore)
	case padapi.SortUpdatedDesc:
		return !f.updatedAfter.IsZero() && p.UpdatedAt.Before(f.updatedAfter)
	case padapi.SortUpdatedAsc:
		return !f.updatedBefore.IsZero() && !p.UpdatedAt.Before(f.updatedBefore)
	}
	return false
}

// filteredList is list_pads with filters: it reads the list page by page
// from a's page, keeps the pads that pass, and stops once a page of
// answers is full, the list ends, or the order shows no later pad can
// pass. next_page resumes after the last pad read.
func (ts *toolset) filteredList(ctx context.Context, a listPadsArgs, f padFilter) (*padListResult, error) {
	sort, err := sortArg(a.Sort)
	if err != nil {
		return nil, err
	}
	opts := padapi.ListOptions{Sort: sort, Page: a.Page, Cursor: a.Cursor}
	out := &padListResult{Pads: []padRow{}}
	extra := a.padFilterArgs.args()
	if sort != "" {
		extra["sort"] = string(sort)
	}
	want := filteredPage
	if a.Limit > 0 {
		want = min(a.Limit, filteredPage)
		extra["limit"] = want
	}
	skip := max(a.Skip, 0)
	for range filteredPages {
		lo := padapi.PadListOptions(opts)
		page, err := ts.client(ctx).Pads.List(ctx, &lo)
		if err != nil {
			return nil, err
		}
		out.Total = page.Total
		out.Walked += max(len(page.Items)-skip, 0)
		for i := skip; i < len(page.Items); i++ {
			p := &page.Items[i]
			if f.past(p, sort) {
				out.Walked -= len(page.Items) - i - 1
				return out, nil
			}
			if !f.match(p) {
				continue
			}
			out.Pads = append(out.Pads, ts.padRow(p))
			if len(out.Pads) == want {
				out.Walked -= len(page.Items) - i - 1
				if i+1 < len(page.Items) {
					here := opts // this page again, past the pads read
					if here.Cursor == "" {
						here.Page = max(here.Page, 1)
					}
					out.NextPage, out.NextPageNote = nextArgs(here, true, with(extra, "skip", i+1))
				} else {
					n, more := page.Next(opts)
					out.NextPage, out.NextPageNote = nextArgs(n, more, extra)
				}
				return out, nil
			}
		}
		skip = 0
		next, ok := page.Next(opts)
		if !ok {
			return out, nil
		}
		opts = next
	}
	out.NextPage, out.NextPageNote = nextArgs(opts, true, extra)
	out.Note = fmt.Sprintf("%d pages read without filling a page of answers: call again with next_page to read on", filteredPages)
	return out, nil
}

// with is m with k set to v, m unchanged.
func with(m map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(m)+1)
	for mk, mv := range m {
		c[mk] = mv
	}
	c[k] = v
	return c
}

// countArgs are count_pads' arguments.
type countArgs struct {
	GroupBy string `json:"group_by" jsonschema:"what to count by: owner, language, state or month (YYYY-MM of created_at, in UTC)"`
	padFilterArgs
}

// countQuestionsArgs are count_questions' arguments.
type countQuestionsArgs struct {
	GroupBy string `json:"group_by" jsonschema:"what to count by: owner, language, state (draft or published) or month (YYYY-MM of created_at, in UTC)"`
}

// groupBys are the groupings the count tools know.
var groupBys = []string{"owner", "language", "state", "month"}

// groupSchema makes group_by one of groupBys.
func groupSchema(s *jsonschema.Schema) {
	enum := make([]any, len(groupBys))
	for i, g := range groupBys {
		enum[i] = g
	}
	s.Properties["group_by"].Enum = enum
}

// countGroup is one group of a count.
type countGroup struct {
	Key   string `json:"key" jsonschema:"the group: an owner_email or a language as sent, a state, or a month as YYYY-MM"`
	Count int    `json:"count" jsonschema:"how many items are in it"`
}

// countResult is count_pads' and count_questions' result.
type countResult struct {
	Walked   int          `json:"walked" jsonschema:"how many items the walk read"`
	Complete bool         `json:"complete" jsonschema:"false when the walk stopped at the list limit before the list's end"`
	Note     string       `json:"note,omitempty" jsonschema:"why the count is not complete"`
	Groups   []countGroup `json:"groups" jsonschema:"the groups, by month in order, otherwise largest first"`
}

// counter counts items into groups, at most maxGroups of them (the rest go
// to otherGroup).
type counter struct {
	by     string
	counts map[string]int
	walked int
}

// add counts one item with key k.
func (c *counter) add(k string) {
	if _, ok := c.counts[k]; !ok && len(c.counts) >= maxGroups {
		k = otherGroup
	}
	c.counts[k]++
}

// result is the count so far.
func (c *counter) result(ts *toolset, err error) (*countResult, error) {
	out := &countResult{Groups: make([]countGroup, 0, len(c.counts)), Walked: c.walked, Complete: true}
	switch {
	case errors.Is(err, padapi.ErrListLimit):
		out.Complete = false
		out.Note = fmt.Sprintf("the walk stopped at the client's list limit after %d items (its WithListLimit, padctl's PAD_LIST_LIMIT)", c.walked)
	case err != nil:
		return nil, err
	}
	for k, n := range c.counts {
		out.Groups = append(out.Groups, countGroup{Key: ts.clip(k, rowBytes, "cut"), Count: n})
	}
	slices.SortFunc(out.Groups, func(a, b countGroup) int {
		if c.by == "month" {
			return cmp.Compare(a.Key, b.Key)
		}
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Key, b.Key))
	})
	return out, nil
}

// groupBy checks a group_by argument.
func groupBy(v string) error {
	if !slices.Contains(groupBys, v) {
		return argError("group_by", "%q: want one of owner, language, state, month", cutUTF8(v, 64))
	}
	return nil
}

// month is the YYYY-MM of t in UTC.
func month(t time.Time) string { return t.UTC().Format("2006-01") }

// countPads is count_pads.
func countPads(ts *toolset) serverTool {
	return newTool(ts, spec[countArgs]{kind: read, schema: groupSchema, tool: &mcp.Tool{Name: "count_pads", Title: "Count pads by group",
		Description: "Count the caller's pads by owner, language, state or month, with list_pads' filters, in one walk of the list " +
			"(no pads come back, only the counts, and how many pads were read)."}},
		func(ctx context.Context, a countArgs) (*countResult, error) {
			if err := groupBy(a.GroupBy); err != nil {
				return nil, err
			}
			f, err := a.filter()
			if err != nil {
				return nil, err
			}
			c := &counter{by: a.GroupBy, counts: map[string]int{}}
			var walkErr error
			for p, err := range ts.client(ctx).Pads.All(ctx, nil) {
				if err != nil {
					walkErr = err
					break
				}
				c.walked++
				if f.past(p, "") {
					break
				}
				if !f.match(p) {
					continue
				}
				c.add(groupKey(a.GroupBy, p.OwnerEmail, p.Language, padState(p), p.CreatedAt))
			}
			return c.result(ts, walkErr)
		})
}

// groupKey is the group of an item with these fields, for group_by by
// (one of groupBy's words; month by default).
func groupKey(by, owner, language, state string, created time.Time) string {
	switch by {
	case "owner":
		return owner
	case "language":
		return language
	case "state":
		return state
	}
	return month(created)
}

// questionState is a question's state for count_questions.
func questionState(q *padapi.Question) string {
	if q.IsDraft {
		return "draft"
	}
	return "published"
}

// countQuestions is count_questions.
func countQuestions(ts *toolset) serverTool {
	return newTool(ts, spec[countQuestionsArgs]{kind: read, schema: groupSchema, tool: &mcp.Tool{Name: "count_questions", Title: "Count questions by group",
		Description: "Count the question library by owner, language, state (draft or published) or month created, in one walk of the list."}},
		func(ctx context.Context, a countQuestionsArgs) (*countResult, error) {
			if err := groupBy(a.GroupBy); err != nil {
				return nil, err
			}
			c := &counter{by: a.GroupBy, counts: map[string]int{}}
			var walkErr error
			for q, err := range ts.client(ctx).Questions.All(ctx, nil) {
				if err != nil {
					walkErr = err
					break
				}
				c.walked++
				c.add(groupKey(a.GroupBy, q.OwnerEmail, q.Language, questionState(q), q.CreatedAt))
			}
			return c.result(ts, walkErr)
		})
}
