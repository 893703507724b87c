// Package cliarg reads the words and dates a person types for a list's
// order and a time window, the same way in padctl's flags and in the MCP
// tools' arguments.
package cliarg

import (
	"cmp"
	"errors"
	"strings"
	"time"

	"github.com/padinterview/padapi"
)

// SortNames are the words Sort takes, for help and completion. Without a
// direction the order is newest first, the service's default.
var SortNames = []string{"created", "created,desc", "created,asc", "updated", "updated,desc", "updated,asc"}

// ErrSort is Sort's error: what it takes.
var ErrSort = errors.New("want created or updated, optionally followed by ,asc or ,desc")

// Sort reads an order: created or updated, optionally followed by ,asc or
// ,desc (default desc). The service's own spellings (created_at,asc) are
// accepted too.
func Sort(v string) (padapi.Sort, error) {
	field, dir, hasDir := strings.Cut(v, ",")
	field = strings.TrimSuffix(field, "_at")
	if (field != "created" && field != "updated") || (hasDir && dir != "asc" && dir != "desc") {
		return "", ErrSort
	}
	return padapi.Sort(field + "_at," + cmp.Or(dir, "desc")), nil
}

// ErrTime is Time's error: what it takes.
var ErrTime = errors.New("want an RFC 3339 time such as 2026-05-01T09:00:00Z, or a date such as 2026-05-01")

// Time reads an RFC 3339 time, or a date (midnight UTC).
func Time(v string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, time.DateOnly} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, ErrTime
}
