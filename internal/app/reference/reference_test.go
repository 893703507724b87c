package reference

import (
	"strings"
	"testing"
)

// TestCalls: every call has a reference shape, and its path puts the ID
// it needs in its route, escaped, or is "" while that ID is unknown.
func TestCalls(t *testing.T) {
	ref, err := Shapes()
	if err != nil {
		t.Fatal(err)
	}
	calls := Calls()
	if len(ref) != len(calls) {
		t.Errorf("%d reference shapes for %d calls", len(ref), len(calls))
	}
	known := IDs{Pad: "A/B", Env: "1001", Question: "7"}
	for _, c := range calls {
		if ref[c.Label] == nil || ref[c.Label][""] == nil {
			t.Errorf("%s: no reference shape", c.Label)
		}
	}
	for label, want := range map[string]string{
		"GET /api/quota":                "/api/quota",
		"GET /api/pads/:id/events":      "/api/pads/A%2FB/events",
		"GET /api/pad_environments/:id": "/api/pad_environments/1001",
		"GET /api/questions/:id":        "/api/questions/7",
	} {
		for _, c := range calls {
			if c.Label != label {
				continue
			}
			if got := c.Path(known); got != want {
				t.Errorf("%s: path %q, want %q", label, got, want)
			}
			if got := c.Path(IDs{}); strings.Contains(label, ":id") && got != "" {
				t.Errorf("%s with no ID: path %q, want none", label, got)
			}
		}
	}
}
