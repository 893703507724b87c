// stats_test.go: the flags of org stats (org.go).

package org_test

import (
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/org"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// org stats reads a date or an RFC 3339 time for each end of the window,
// parsed alone through runF.
func TestStatsFlags(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	f := &cmdutil.Factory{IOStreams: ios, Getenv: func(string) string { return "" }}
	var got *org.StatsOptions
	cmd := org.NewCmdStats(f, func(o *org.StatsOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"--start", "2026-05-01", "--end", "2026-05-08T09:30:00+02:00"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC); !got.Start.Equal(want) {
		t.Errorf("start %v, want %v", got.Start.Time, want)
	}
	if want := time.Date(2026, 5, 8, 7, 30, 0, 0, time.UTC); !got.End.Equal(want) {
		t.Errorf("end %v, want %v", got.End.Time, want)
	}
}
