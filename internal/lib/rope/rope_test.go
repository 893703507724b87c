// rope_test.go: the rope against a plain slice, with its invariants.

package rope

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf16"
)

// check returns an error when the tree below nd breaks an invariant: sizes
// that add up, leaves of at most leafMax units, inner nodes of at most
// kidsMax children, no empty node but the root, every leaf at the same
// depth. height is the depth of nd's leaves below it (1 for a leaf).
func (nd *node) check(root bool) (height int, err error) {
	if !root && nd.n <= 0 {
		return 0, fmt.Errorf("a node of %d units below the root", nd.n)
	}
	if nd.kids == nil {
		if len(nd.leaf) != nd.n || len(nd.leaf) > leafMax {
			return 0, fmt.Errorf("a leaf of %d units says %d (at most %d)", len(nd.leaf), nd.n, leafMax)
		}
		return 1, nil
	}
	if len(nd.kids) > kidsMax || (root && len(nd.kids) < 2) {
		return 0, fmt.Errorf("an inner node (root %v) of %d children", root, len(nd.kids))
	}
	sum := 0
	for i, k := range nd.kids {
		h, err := k.check(false)
		if err != nil {
			return 0, err
		}
		if i > 0 && h != height {
			return 0, fmt.Errorf("leaves at depths %d and %d", height, h)
		}
		height = h
		sum += k.n
	}
	if sum != nd.n {
		return 0, fmt.Errorf("an inner node of %d units says %d", sum, nd.n)
	}
	return height + 1, nil
}

// The rope keeps the text a plain slice keeps, through inserts of any
// length (up to several leaves at once), deletes of a unit to all of it,
// and stays a balanced tree as shallow as the text allows.
func TestRopeAgainstSlice(t *testing.T) {
	t.Parallel()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 2))
		var (
			r    Rope
			want []uint16
		)
		next := uint16(0)
		maxHeight := 0
		for step := range 3000 {
			pos := rng.IntN(len(want) + 1)
			switch k := rng.IntN(100); {
			case step == 1500 && seed%2 == 0: // everything, then grow again
				r.Delete(0, len(want))
				want = want[:0]
			case step == 2500 && len(want) > 10: // all but the first 10
				r.Delete(10, len(want)-10)
				want = want[:10]
			case k < 45 || len(want) == 0: // insert, now and then several leaves' worth
				n := 1 + rng.IntN(16)
				if k < 5 {
					n = rng.IntN(5 * leafMax)
				}
				units := make([]uint16, n)
				for i := range units {
					units[i], next = next, next+1
				}
				r.Insert(pos, units)
				want = slices.Insert(want, pos, units...)
			default: // delete, now and then much
				n := min(len(want)-pos, 1+rng.IntN(64))
				if k == 99 {
					n = rng.IntN(len(want) - pos + 1)
				}
				r.Delete(pos, n)
				want = slices.Delete(want, pos, pos+n)
			}
			if r.Len() != len(want) {
				t.Fatalf("seed %d, step %d: length %d, want %d", seed, step, r.Len(), len(want))
			}
			if step%50 != 0 {
				continue
			}
			if got := r.Units(); !slices.Equal(got, want) {
				t.Fatalf("seed %d, step %d: the rope's %d units differ from the slice's %d", seed, step, len(got), len(want))
			}
			if r.root == nil {
				continue
			}
			height, err := r.root.check(true)
			if err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, step, err)
			}
			// Each leaf split takes more than leafMax/2 new units, and
			// each inner split leaves halves of kidsMax/2 children or
			// more: the under a million units this test inserts fit in 4
			// levels.
			maxHeight = max(maxHeight, height)
			if height > 4 {
				t.Fatalf("seed %d, step %d: height %d for %d units", seed, step, height, len(want))
			}
		}
		if maxHeight < 3 {
			t.Errorf("seed %d: the tree grew to height %d only, so inner nodes never split", seed, maxHeight)
		}
	}
}

// FuzzRopeAgainstSlice reads ops from the input, three bytes each (kind,
// position, length), and applies each to a rope and to a plain slice: they
// hold the same text after every op, and the tree keeps its invariants.
// A length byte of 255 inserts several leaves' worth at once.
func FuzzRopeAgainstSlice(f *testing.F) {
	f.Add([]byte{0, 0, 10, 1, 3, 4, 0, 2, 255, 1, 0, 255})
	f.Add(slices.Repeat([]byte{0, 128, 255}, 40))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var (
			r    Rope
			want []uint16
			next uint16
		)
		for i := 0; i+2 < len(ops) && i < 3*400; i += 3 {
			pos := int(ops[i+1]) * (len(want) + 1) / 256
			n := int(ops[i+2])
			if ops[i]%2 == 0 {
				if n == 255 {
					n = 3 * leafMax
				}
				units := make([]uint16, n)
				for k := range units {
					units[k], next = next, next+1
				}
				r.Insert(pos, units)
				want = slices.Insert(want, pos, units...)
			} else {
				n = min(n, len(want)-pos)
				r.Delete(pos, n)
				want = slices.Delete(want, pos, pos+n)
			}
			if got := r.Units(); r.Len() != len(want) || !slices.Equal(got, want) {
				t.Fatalf("op %d: the rope holds %d units (Len %d), the slice %d, or they differ", i/3, len(got), r.Len(), len(want))
			}
			if r.root != nil {
				if _, err := r.root.check(true); err != nil {
					t.Fatalf("op %d: %v", i/3, err)
				}
			}
		}
	})
}

func TestApply(t *testing.T) {
	var r Rope
	pos, scratch, why := r.Apply(0, 0, 0, "a😀b", nil)
	if why != "" || pos != 4 || string(utf16.Decode(r.Units())) != "a😀b" {
		t.Fatalf("insert: pos %d, why %q, text %q", pos, why, string(utf16.Decode(r.Units())))
	}
	if pos, _, why = r.Apply(1, 0, 2, "", scratch); why != "" || pos != 1 || string(utf16.Decode(r.Units())) != "ab" {
		t.Fatalf("delete the emoji's two units: pos %d, why %q", pos, why)
	}
	for _, bad := range []struct{ retain, del int }{{-1, 0}, {0, -1}, {3, 0}, {0, 3}, {1, 1}} {
		if _, _, why := r.Apply(0, bad.retain, bad.del, "", nil); why == "" {
			t.Errorf("Apply(retain %d, delete %d) on 2 units: no refusal", bad.retain, bad.del)
		}
	}
	if _, _, why := r.Apply(0, 1, 0, "x", nil); why == "" {
		t.Error("retain with insert: no refusal")
	}
	if got := string(utf16.Decode(r.Units())); got != "ab" {
		t.Errorf("a refused operation changed the text to %q", got)
	}
}
