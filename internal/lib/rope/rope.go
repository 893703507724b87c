// rope.go: a text of UTF-16 code units as a B-tree, for the replay of an edit history.

// Package rope holds the text of an edit-history replay (padapi's
// History.Replay): a B-tree of UTF-16 code units, the units the JavaScript
// editor counts in, on which an insert or a delete costs a walk down a
// shallow tree rather than a copy of the text. Copying the text once per
// entry, as a plain replay does, makes a history of many small entries
// quadratic in its length. The tests check it against a plain slice.
package rope

import (
	"fmt"
	"slices"
	"unicode/utf16"
)

// The tree's shape: leaves hold up to leafMax units and inner nodes up to
// kidsMax children, each knowing how many units lie below it. An operation
// finds its place from the root, in steps bounded by the depth, so an entry
// of a history costs what its operations cost, not the length of the text
// it rewrites.
//
// Nodes are never merged, only dropped when empty. Every leaf split takes
// more than leafMax/2 newly inserted units, and every inner split leaves
// halves of at least kidsMax/2 children, so the depth stays logarithmic in
// what the history inserts.
const (
	leafMax = 1024
	kidsMax = 32
)

// Rope is a text of UTF-16 code units; its zero value is the empty text.
type Rope struct{ root *node }

// node is a leaf (kids nil: its units in leaf) or an inner node. Every
// node but the root holds at least one unit.
type node struct {
	n    int // code units below the node
	leaf []uint16
	kids []*node
}

// Len returns the length of the text in code units.
func (r *Rope) Len() int {
	if r.root == nil {
		return 0
	}
	return r.root.n
}

// Insert inserts units at pos, 0 <= pos <= r.Len(). It keeps no reference
// to units.
func (r *Rope) Insert(pos int, units []uint16) {
	if r.root == nil {
		r.root = &node{}
	}
	// At most half a leaf at a time, so a leaf splits in two, never more.
	for len(units) > 0 {
		chunk := units[:min(len(units), leafMax/2)]
		if sib := r.root.insert(pos, chunk); sib != nil {
			r.root = &node{n: r.root.n + sib.n, kids: []*node{r.root, sib}}
		}
		pos += len(chunk)
		units = units[len(chunk):]
	}
}

// Delete removes count units from pos, 0 <= pos <= pos+count <= r.Len().
func (r *Rope) Delete(pos, count int) {
	if count == 0 {
		return
	}
	r.root.delete(pos, count)
	// A root left with one child or none gives way: the tree gets no
	// deeper than its text needs.
	for r.root.kids != nil && len(r.root.kids) <= 1 {
		if len(r.root.kids) == 0 {
			r.root = &node{}
		} else {
			r.root = r.root.kids[0]
		}
	}
}

// Units returns the text, in a slice of its own.
func (r *Rope) Units() []uint16 {
	if r.root == nil {
		return nil
	}
	return r.root.appendTo(make([]uint16, 0, r.root.n))
}

// insert inserts units (at most leafMax/2 of them) at pos below nd,
// and returns the node that nd split off to its right, if it split.
func (nd *node) insert(pos int, units []uint16) *node {
	nd.n += len(units)
	if nd.kids == nil {
		if len(nd.leaf)+len(units) <= leafMax {
			nd.leaf = slices.Insert(nd.leaf, pos, units...)
			return nil
		}
		all := slices.Concat(nd.leaf[:pos], units, nd.leaf[pos:])
		half := len(all) / 2
		// Each half gets an array of its own with room for a full leaf.
		nd.leaf = append(make([]uint16, 0, leafMax), all[:half]...)
		nd.n = half
		return &node{n: len(all) - half, leaf: append(make([]uint16, 0, leafMax), all[half:]...)}
	}
	// The first child that reaches pos: at a boundary, the end of the
	// child on the left.
	i := 0
	for ; i < len(nd.kids)-1 && pos > nd.kids[i].n; i++ {
		pos -= nd.kids[i].n
	}
	sib := nd.kids[i].insert(pos, units)
	if sib == nil {
		return nil
	}
	nd.kids = slices.Insert(nd.kids, i+1, sib)
	if len(nd.kids) <= kidsMax {
		return nil
	}
	half := len(nd.kids) / 2
	right := &node{kids: slices.Clone(nd.kids[half:])}
	for _, k := range right.kids {
		right.n += k.n
	}
	clear(nd.kids[half:])
	nd.kids = nd.kids[:half]
	nd.n -= right.n
	return right
}

// delete removes count units from pos below nd; the caller drops nd if
// that leaves it empty.
func (nd *node) delete(pos, count int) {
	nd.n -= count
	if nd.kids == nil {
		nd.leaf = slices.Delete(nd.leaf, pos, pos+count)
		return
	}
	kept := nd.kids[:0]
	for _, k := range nd.kids {
		switch {
		case count == 0:
		case pos >= k.n: // before the range
			pos -= k.n
		case pos == 0 && count >= k.n: // inside it: dropped whole
			count -= k.n
			continue
		default: // across one of its ends
			take := min(count, k.n-pos)
			k.delete(pos, take)
			count -= take
			pos = 0
		}
		kept = append(kept, k)
	}
	clear(nd.kids[len(kept):])
	nd.kids = kept
}

// appendTo appends the units below nd to out.
func (nd *node) appendTo(out []uint16) []uint16 {
	if nd.kids == nil {
		return append(out, nd.leaf...)
	}
	for _, k := range nd.kids {
		out = k.appendTo(out)
	}
	return out
}

// Apply makes one edit operation at pos, exactly one of retain (move past
// that many units), del (delete that many) and insert (insert the text,
// as UTF-16), and returns the position after it, or why the operation
// cannot be made (the text is then as it was). scratch is reused for the
// inserted text's units.
func (r *Rope) Apply(pos, retain, del int, insert string, scratch []uint16) (int, []uint16, string) {
	left := r.Len() - pos
	switch {
	case retain < 0 || del < 0:
		return pos, scratch, "negative count"
	case (retain > 0 && del > 0) || (insert != "" && retain+del > 0):
		return pos, scratch, "more than one of Retain, Delete and Insert"
	case retain > left:
		return pos, scratch, fmt.Sprintf("retain %d runs past the end of the text (%d left)", retain, left)
	case del > left:
		return pos, scratch, fmt.Sprintf("delete %d runs past the end of the text (%d left)", del, left)
	case retain > 0:
		pos += retain
	case del > 0:
		r.Delete(pos, del)
	case insert != "":
		scratch = scratch[:0]
		for _, c := range insert {
			scratch = utf16.AppendRune(scratch, c)
		}
		r.Insert(pos, scratch)
		pos += len(scratch)
	}
	return pos, scratch, ""
}
