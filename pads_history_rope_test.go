// pads_history_rope_test.go: the replay's rope against a plain slice, with its invariants.

package padapi

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// check returns an error when the tree below nd breaks an invariant: sizes
// that add up, leaves of at most ropeLeafMax units, inner nodes of at most
// ropeKidsMax children, no empty node but the root, every leaf at the same
// depth. height is the depth of nd's leaves below it (1 for a leaf).
func (nd *ropeNode) check(root bool) (height int, err error) {
	if !root && nd.n <= 0 {
		return 0, fmt.Errorf("a node of %d units below the root", nd.n)
	}
	if nd.kids == nil {
		if len(nd.leaf) != nd.n || len(nd.leaf) > ropeLeafMax {
			return 0, fmt.Errorf("a leaf of %d units says %d (at most %d)", len(nd.leaf), nd.n, ropeLeafMax)
		}
		return 1, nil
	}
	if len(nd.kids) > ropeKidsMax || (root && len(nd.kids) < 2) {
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
			r    rope
			want []uint16
		)
		next := uint16(0)
		maxHeight := 0
		for step := range 3000 {
			pos := rng.IntN(len(want) + 1)
			switch k := rng.IntN(100); {
			case step == 1500 && seed%2 == 0: // everything, then grow again
				r.delete(0, len(want))
				want = want[:0]
			case step == 2500 && len(want) > 10: // all but the first 10
				r.delete(10, len(want)-10)
				want = want[:10]
			case k < 45 || len(want) == 0: // insert, now and then several leaves' worth
				n := 1 + rng.IntN(16)
				if k < 5 {
					n = rng.IntN(5 * ropeLeafMax)
				}
				units := make([]uint16, n)
				for i := range units {
					units[i], next = next, next+1
				}
				r.insert(pos, units)
				want = slices.Insert(want, pos, units...)
			default: // delete, now and then much
				n := min(len(want)-pos, 1+rng.IntN(64))
				if k == 99 {
					n = rng.IntN(len(want) - pos + 1)
				}
				r.delete(pos, n)
				want = slices.Delete(want, pos, pos+n)
			}
			if r.len() != len(want) {
				t.Fatalf("seed %d, step %d: length %d, want %d", seed, step, r.len(), len(want))
			}
			if step%50 != 0 {
				continue
			}
			if got := r.units(); !slices.Equal(got, want) {
				t.Fatalf("seed %d, step %d: the rope's %d units differ from the slice's %d", seed, step, len(got), len(want))
			}
			if r.root == nil {
				continue
			}
			height, err := r.root.check(true)
			if err != nil {
				t.Fatalf("seed %d, step %d: %v", seed, step, err)
			}
			// Each leaf split takes more than ropeLeafMax/2 new units, and
			// each inner split leaves halves of ropeKidsMax/2 children or
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
