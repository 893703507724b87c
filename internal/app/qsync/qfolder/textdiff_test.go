package qfolder

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// unifiedDiff is UnifiedDiff with a deadline: a diff that never ends (a
// mutant of the hunk loops) fails the test after 10 s (of work that takes
// microseconds) instead of hanging the run, and gremlins counts it killed.
func unifiedDiff(t *testing.T, from, to, a, b string) string {
	t.Helper()
	done := make(chan string, 1)
	go func() { done <- UnifiedDiff(from, to, a, b) }()
	timer := time.NewTimer(10 * time.Second)
	defer timer.Stop()
	select {
	case d := <-done:
		return d
	case <-timer.C:
		t.Fatalf("UnifiedDiff(%q, %q, %q, %q) still running after 10s", from, to, a, b)
		return ""
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten"
	b := "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\nnine\nten\neleven"
	// Six equal lines between two changes join their hunks, as GNU diff
	// does; eight split them.
	want := "--- a\n+++ b\n@@ -1,10 +1,11 @@\n one\n two\n three\n-four\n+FOUR\n five\n six\n seven\n eight\n nine\n ten\n+eleven\n"
	if got := unifiedDiff(t, "a", "b", a, b); got != want {
		t.Errorf("UnifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12"
	b = "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11"
	want = "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n@@ -9,4 +9,3 @@\n 9\n 10\n 11\n-12\n"
	if got := unifiedDiff(t, "a", "b", a, b); got != want {
		t.Errorf("UnifiedDiff:\n%s\nwant:\n%s", got, want)
	}
	if got := unifiedDiff(t, "a", "b", "", "x"); got != "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("from nothing: %q", got)
	}
	if unifiedDiff(t, "a", "b", "same", "same") != "" {
		t.Errorf("a diff of equal texts")
	}
}

// Kept lines after the last hunk's context end the diff without a hunk.
func TestUnifiedDiffTrailingLines(t *testing.T) {
	got := unifiedDiff(t, "a", "b", "a\nb\nc\nd\ne\nf\ng", "A\nb\nc\nd\ne\nf\ng")
	if want := "--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n"; got != want {
		t.Errorf("UnifiedDiff:\n%s\nwant:\n%s", got, want)
	}
}

// refDiff is diffLines written the slow, obvious way (the same trimming,
// then a memoized longest common subsequence, preferring a removal to an
// addition when both keep the most lines): what diffLines must return.
func refDiff(x, y []string) []lineOp {
	head := 0
	for head < min(len(x), len(y)) && x[head] == y[head] {
		head++
	}
	tail := 0
	for tail < min(len(x), len(y))-head && x[len(x)-1-tail] == y[len(y)-1-tail] {
		tail++
	}
	mx, my := x[head:len(x)-tail], y[head:len(y)-tail]
	memo := map[[2]int]int{}
	var lcs func(i, j int) int
	lcs = func(i, j int) int {
		if i == len(mx) || j == len(my) {
			return 0
		}
		if n, ok := memo[[2]int{i, j}]; ok {
			return n
		}
		n := max(lcs(i+1, j), lcs(i, j+1))
		if mx[i] == my[j] {
			n = 1 + lcs(i+1, j+1)
		}
		memo[[2]int{i, j}] = n
		return n
	}
	var kinds []byte
	for range head {
		kinds = append(kinds, ' ')
	}
	for i, j := 0, 0; i < len(mx) || j < len(my); {
		switch {
		case i < len(mx) && j < len(my) && mx[i] == my[j]:
			kinds = append(kinds, ' ')
			i, j = i+1, j+1
		case j == len(my) || (i < len(mx) && lcs(i+1, j) >= lcs(i, j+1)):
			kinds = append(kinds, '-')
			i++
		default:
			kinds = append(kinds, '+')
			j++
		}
	}
	for range tail {
		kinds = append(kinds, ' ')
	}
	return opsOf(x, y, kinds)
}

// opsOf turns the kinds of a diff's lines into its ops, with their lines
// and indexes.
func opsOf(x, y []string, kinds []byte) []lineOp {
	var ops []lineOp
	ai, bi := 0, 0
	for _, k := range kinds {
		op := lineOp{kind: k, ai: ai, bi: bi}
		switch k {
		case '+':
			op.line = y[bi]
			bi++
		case '-':
			op.line = x[ai]
			ai++
		default:
			op.line = x[ai]
			ai, bi = ai+1, bi+1
		}
		ops = append(ops, op)
	}
	return ops
}

// showOps writes a diff's ops as words such as "-a@0,0" (a removed line
// and its indexes in a and b), "=" for a kept line.
func showOps(ops []lineOp) string {
	var b strings.Builder
	for _, op := range ops {
		kind := op.kind
		if kind == ' ' {
			kind = '='
		}
		fmt.Fprintf(&b, "%c%s@%d,%d ", kind, op.line, op.ai, op.bi)
	}
	return b.String()
}

// Every diff of short texts over three lines is the shortest edit, with
// removals first where the choice is free, and each line's indexes right:
// a change to the trimming, the table, the walk back or the indexes shows.
func TestDiffLinesMatchesTheObviousDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	text := func() []string {
		out := make([]string, rng.IntN(8))
		for i := range out {
			out[i] = string(rune('a' + rng.IntN(3)))
		}
		return out
	}
	for range 3000 {
		x, y := text(), text()
		if got, want := showOps(diffLines(x, y)), showOps(refDiff(x, y)); got != want {
			t.Fatalf("diffLines(%q, %q):\n got %s\nwant %s", x, y, got, want)
		}
	}
}

// Cases where the table's first row or column decides: a walk back that
// read an uncomputed cell there would take an addition first.
func TestDiffLinesFirstRowAndColumn(t *testing.T) {
	for _, tt := range []struct{ x, y, want string }{
		{"b c", "a b d", "+a@0,0 =b@0,1 -c@1,2 +d@2,2 "},
		{"a b e", "c b f", "-a@0,0 +c@1,0 =b@1,1 -e@2,2 +f@3,2 "},
		{"a b c", "a b", "=a@0,0 =b@1,1 -c@2,2 "},
		{"a b", "a b c", "=a@0,0 =b@1,1 +c@2,2 "},
		{"x a b", "a b", "-x@0,0 =a@1,0 =b@2,1 "},
		{"a b", "x a b", "+x@0,0 =a@0,1 =b@1,2 "},
	} {
		x, y := strings.Fields(tt.x), strings.Fields(tt.y)
		if got := showOps(diffLines(x, y)); got != tt.want {
			t.Errorf("diffLines(%q, %q):\n got %s\nwant %s", x, y, got, tt.want)
		}
	}
}

// Past maxDiffCells the middle is shown all removed, then all added; at
// exactly maxDiffCells it is still a real diff.
func TestDiffLinesBound(t *testing.T) {
	side := 1
	for side*side < maxDiffCells {
		side++
	}
	if side*side != maxDiffCells {
		t.Fatalf("maxDiffCells %d is not a square: pick sizes by hand", maxDiffCells)
	}
	// Each text starts and ends with its own line (nothing is trimmed),
	// and holds "k" at every other line between: a real diff keeps them.
	mk := func(tag string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "k"
			if i%2 == 0 || i == n-1 {
				out[i] = fmt.Sprint(tag, i)
			}
		}
		return out
	}
	for _, tt := range []struct {
		nx, ny int
		kept   bool
	}{{side, side, true}, {side + 1, side, false}, {side, side + 1, false}} {
		ops := diffLines(mk("x", tt.nx), mk("y", tt.ny))
		kept := slices.ContainsFunc(ops, func(op lineOp) bool { return op.kind == ' ' })
		if kept != tt.kept || len(ops) < max(tt.nx, tt.ny) {
			t.Errorf("%d x %d lines: kept lines %v, want %v (%d ops)", tt.nx, tt.ny, kept, tt.kept, len(ops))
		}
		if !tt.kept && (ops[tt.nx-1].kind != '-' || ops[tt.nx].kind != '+') {
			t.Errorf("%d x %d lines: not every removal before every addition", tt.nx, tt.ny)
		}
	}
}
