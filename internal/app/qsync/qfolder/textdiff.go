package qfolder

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the work of a line diff (lines of a × lines of b);
// past it the diff shows every old line removed and every new line added.
const maxDiffCells = 4 << 20

// diffContext is how many kept lines a hunk shows around a change.
const diffContext = 3

// UnifiedDiff returns a unified diff (three lines of context) from a to b,
// labelled from and to, or "" when they are the same.
func UnifiedDiff(from, to, a, b string) string {
	if a == b {
		return ""
	}
	ops := diffLines(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for i := 0; ; {
		// Find the next change; past the last one, the diff ends.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start, end := max(i-diffContext, 0), hunkEnd(ops, i)
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

// hunkEnd returns where the hunk holding the change at i ends: changes
// closer than twice the context join one hunk.
func hunkEnd(ops []lineOp, i int) int {
	end := i
	for end < len(ops) {
		if ops[end].kind != ' ' {
			end++
			continue
		}
		run := end
		for run < len(ops) && ops[run].kind == ' ' {
			run++
		}
		if run == len(ops) || run-end > 2*diffContext {
			return min(end+diffContext, len(ops))
		}
		end = run
	}
	return end
}

// writeHunk writes one hunk, its header first.
func writeHunk(out *strings.Builder, ops []lineOp) {
	var an, bn int
	for _, op := range ops {
		if op.kind != '+' {
			an++
		}
		if op.kind != '-' {
			bn++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(ops[0].ai, an), hunkRange(ops[0].bi, bn))
	for _, op := range ops {
		out.WriteByte(op.kind)
		out.WriteString(op.line)
		out.WriteByte('\n')
	}
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// lineOp is one line of a diff: ' ' kept, '-' removed, '+' added, with the
// line's index in a (ai) and b (bi) before it.
type lineOp struct {
	kind   byte
	line   string
	ai, bi int
}

// diffLines returns the edit from x to y by longest common subsequence,
// after trimming the common head and tail.
func diffLines(x, y []string) []lineOp {
	e := &editor{}
	head := 0
	for head < len(x) && head < len(y) && x[head] == y[head] {
		e.emit(' ', x[head])
		head++
	}
	tail := 0
	for tail < len(x)-head && tail < len(y)-head && x[len(x)-1-tail] == y[len(y)-1-tail] {
		tail++
	}
	mx, my := x[head:len(x)-tail], y[head:len(y)-tail]
	if len(mx)*len(my) > maxDiffCells {
		for _, l := range mx {
			e.emit('-', l)
		}
		for _, l := range my {
			e.emit('+', l)
		}
	} else {
		e.lcs(mx, my)
	}
	for k := len(x) - tail; k < len(x); k++ {
		e.emit(' ', x[k])
	}
	return e.ops
}

// editor builds the lines of a diff.
type editor struct {
	ops    []lineOp
	ai, bi int
}

// emit adds a line.
func (e *editor) emit(kind byte, line string) {
	e.ops = append(e.ops, lineOp{kind, line, e.ai, e.bi})
	if kind != '+' {
		e.ai++
	}
	if kind != '-' {
		e.bi++
	}
}

// lcs adds the edit from mx to my, by longest common subsequence.
func (e *editor) lcs(mx, my []string) {
	// lcs[i*w+j] is the LCS length of mx[i:] and my[j:].
	w := len(my) + 1
	lcs := make([]int32, (len(mx)+1)*w)
	for i := len(mx) - 1; i >= 0; i-- {
		for j := len(my) - 1; j >= 0; j-- {
			if mx[i] == my[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	// Ifs rather than a switch: gremlins sees no coverage of a case.
	for i < len(mx) || j < len(my) {
		if i < len(mx) && j < len(my) && mx[i] == my[j] {
			e.emit(' ', mx[i])
			i, j = i+1, j+1
		} else if i < len(mx) && (j == len(my) || lcs[(i+1)*w+j] >= lcs[i*w+j+1]) {
			e.emit('-', mx[i])
			i++
		} else {
			e.emit('+', my[j])
			j++
		}
	}
}
