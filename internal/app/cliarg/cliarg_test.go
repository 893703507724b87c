package cliarg

import (
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

func TestSort(t *testing.T) {
	for in, want := range map[string]padapi.Sort{
		"created": padapi.SortCreatedDesc, "created,asc": padapi.SortCreatedAsc, "updated": padapi.SortUpdatedDesc,
		"updated,asc": padapi.SortUpdatedAsc, "updated_at,desc": padapi.SortUpdatedDesc, "created_at,asc": padapi.SortCreatedAsc,
	} {
		if got, err := Sort(in); got != want || err != nil {
			t.Errorf("Sort(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "newest", "created,up", "Created", "updated,asc,x"} {
		if got, err := Sort(in); err == nil {
			t.Errorf("Sort(%q) = %q, want an error", in, got)
		}
	}
}

func TestTime(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2026-01-01":           time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		"2026-01-02T15:04:05Z": time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC),
	} {
		if got, err := Time(in); !got.Equal(want) || err != nil {
			t.Errorf("Time(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "2026-13-01", "2026-01-01 10:00"} {
		if _, err := Time(in); err == nil {
			t.Errorf("Time(%q): no error", in)
		}
	}
}
