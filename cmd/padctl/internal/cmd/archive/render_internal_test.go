package archive

import (
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		done, known int
		elapsed     time.Duration
		want        string
	}{
		{0, 0, 0, "archiving: listing the pads..."},
		{0, 200, time.Second, "archiving: 0 of 200 pads"},
		{50, 200, 10 * time.Second, "archiving: 50 of 200 pads, 5.0 pads/s, about 30s left"},
		{200, 200, 40 * time.Second, "archiving: 200 of 200 pads, 5.0 pads/s"},
	} {
		if got := progressLine(tc.done, tc.known, tc.elapsed); got != tc.want {
			t.Errorf("progressLine(%d, %d, %s) = %q, want %q", tc.done, tc.known, tc.elapsed, got, tc.want)
		}
	}
}
