package padapitest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi/internal/app/reference"
	shapespkg "github.com/padinterview/padapi/internal/lib/shapes"
	"github.com/padinterview/padapi/padapitest"
)

var update = flag.Bool("update", false, "rewrite internal/app/reference/reference.json from padapitest.ReferenceShapes")

// goldenPath is the reference shapes padctl embeds.
var goldenPath = filepath.Join("..", "internal", "app", "reference", "reference.json")

// computedReference returns padapitest.ReferenceShapes, as JSON and read.
func computedReference(t *testing.T) ([]byte, map[string]shapespkg.Shape) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := padapitest.ReferenceShapes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ref map[string]shapespkg.Shape
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return b, ref
}

// TestReferenceGolden: the reference shapes padctl embeds are what the
// fake sends today. A change of the fake that changes a shape fails here
// until reference.json is rewritten (go test ./padapitest -run
// TestReferenceGolden -update), so the change shows in review.
func TestReferenceGolden(t *testing.T) {
	b, _ := computedReference(t)
	b = append(b, '\n')
	if *update {
		if err := os.WriteFile(goldenPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(golden, b) {
		t.Errorf("%s is not what padapitest.ReferenceShapes computes: run go test ./padapitest -run TestReferenceGolden -update and review the change", goldenPath)
	}
	embedded, err := reference.Shapes()
	if err != nil {
		t.Fatal(err)
	}
	if back, _ := json.MarshalIndent(embedded, "", "  "); !bytes.Equal(append(back, '\n'), golden) {
		t.Error("the embedded reference does not read back as the file")
	}
}

// recordedDir holds the recorded live answers, one per call.
var recordedDir = filepath.Join("..", "testdata")

// recordedSamples are the recorded live answers (testdata/recorded) and
// the live samples of testdata that agree with the evidence, by the label
// of the call that answers each.
var recordedSamples = []struct{ label, file string }{
	{"GET /api/quota", "recorded/quota.json"},
	{"GET /api/pads", "recorded/pads.json"},
	{"GET /api/pads/:id", "recorded/pad.json"},
	{"GET /api/pads/:id/events", "recorded/events.json"},
	{"GET /api/pad_environments/:id", "recorded/environment.json"},
	{"GET /api/organization", "recorded/organization.json"},
	{"GET /api/organization/stats", "recorded/stats.json"},
	{"GET /api/organization/users", "recorded/users.json"},
	{"GET /api/questions", "recorded/questions.json"},
	{"GET /api/questions/:id", "recorded/question.json"},
	{"GET /api/pad_environments/:id", "environment_live.json"},
	{"GET /api/questions/:id", "question_live.json"},
	{"GET /api/pads/:id", "pad_notifications.json"},
	{"GET /api/quota", "quota_limited.json"},
	{"GET /api/quota", "quota_unlimited.json"},
	{"GET /api/quota", "quota_limited_without_limits.json"},
	{"GET /api/organization/stats", "stats.json"},
	{"GET /api/organization/users", "users_one.json"},
}

func callNamed(t *testing.T, label string) reference.Call {
	t.Helper()
	calls := reference.Calls()
	i := slices.IndexFunc(calls, func(c reference.Call) bool { return c.Label == label })
	if i < 0 {
		t.Fatalf("no call %s", label)
	}
	return calls[i]
}

// TestFakeMatchesRecordedShapes: the fake answers every call in the shapes
// the live service was recorded in: no recorded sample differs from the
// reference.
func TestFakeMatchesRecordedShapes(t *testing.T) {
	_, ref := computedReference(t)
	for _, s := range recordedSamples {
		b, err := os.ReadFile(filepath.Join(recordedDir, s.file))
		if err != nil {
			t.Fatal(err)
		}
		live, err := callNamed(t, s.label).Shape(b)
		if err != nil {
			t.Fatalf("%s: %v", s.file, err)
		}
		for _, d := range shapespkg.Compare(live, ref[s.label]) {
			t.Errorf("%s (%s): %s  live: %s  fake: %s", s.file, s.label, d.Path, d.Live, d.Fake)
		}
	}
}

// TestReferenceCoversEverything: the reference has each call, an element
// in every array it has, and a page longer than a page, so that a live
// answer's arrays and links are compared, not waved through.
func TestReferenceCoversEverything(t *testing.T) {
	_, ref := computedReference(t)
	for _, call := range reference.Calls() {
		s := ref[call.Label]
		if s == nil {
			t.Fatalf("no reference for %s", call.Label)
		}
		for path, f := range s {
			if f.Kinds&shapespkg.Array != 0 && s[path+"[]"] == nil && !strings.HasSuffix(path, "child_organizations") {
				t.Errorf("%s: %s is never an array with elements", call.Label, path)
			}
		}
	}
	if len(ref) != len(reference.Calls()) {
		t.Errorf("the reference has %d calls, want %d", len(ref), len(reference.Calls()))
	}
	for _, label := range []string{"GET /api/pads", "GET /api/pads/:id/events", "GET /api/questions"} {
		if f := ref[label]["next_page"]; f == nil || f.Kinds != shapespkg.String || !f.Optional {
			t.Errorf("%s: next_page %+v, want a string, sometimes absent", label, f)
		}
	}
}
