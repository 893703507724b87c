// requestlog.go: the bounded log of the requests the fake received.

package padapitest

import (
	"io"
	"maps"
	"mime/multipart"
	"slices"
	"strings"
)

// The request log's bounds: Requests keeps the last DefaultRequestLogSize
// requests, of each at most DefaultRequestBodyCap bytes of header, query
// and form values, file names and file contents, and at most
// RequestLogBytes in all, the oldest dropped first. A request counts for
// the memory it holds (keptCost): its bytes, and the headers of every
// string, slice and map entry it keeps (a form of 9 999 empty values
// counts 9 999 string headers, not 0 bytes), so that the log's bound is
// its memory. The log then holds a few
// tens of MiB at most, whatever clients send, while the usual small
// requests of a test (a few hundred bytes) are all kept up to 10 000.
const (
	DefaultRequestLogSize = 10_000
	DefaultRequestBodyCap = 64 << 10
	RequestLogBytes       = 32 << 20
)

// What a kept request is counted for beyond its bytes (keptCost), each a
// little over what it takes on a 64-bit machine, so that the count bounds
// the memory:
//   - requestOverhead: the Request itself, its place in the log, and the
//     fixed part of each of its maps;
//   - entryOverhead: a map entry (a string and a slice header, in a table
//     up to twice the entries it holds) and the rounding of its values'
//     slice;
//   - valueOverhead: a string header in a slice, and the rounding of its
//     bytes to an allocation's size;
//   - fileOverhead: a File and its strings' headers.
const (
	requestOverhead = 1 << 10
	entryOverhead   = 128
	valueOverhead   = 24
	fileOverhead    = 128
)

// keptCost is what req counts for in the log: the bytes it keeps and
// the headers they are kept in.
func keptCost(req Request) int {
	n := requestOverhead + len(req.Method) + len(req.Path)
	for _, m := range []map[string][]string{req.Header, req.Query, req.Form} {
		for name, values := range m {
			n += entryOverhead + len(name) + valueOverhead*len(values)
			for _, v := range values {
				n += len(v)
			}
		}
	}
	n += len(req.JSON)
	for name, files := range req.Files {
		n += entryOverhead + len(name)
		for _, f := range files {
			n += fileOverhead + len(f.Filename) + len(f.ContentType) + len(f.Data)
		}
	}
	return n
}

// WithRequestLog bounds the request log that Requests returns: it keeps the
// last n requests (default DefaultRequestLogSize; n <= 0 keeps none), and
// of each request at most capBytes bytes of header values, query and form
// values, file names and file contents, in that order (default
// DefaultRequestBodyCap; capBytes <= 0 keeps none of them); and never more
// than RequestLogBytes in all. A value cut short is kept up to the cap, the
// ones after it are kept empty, and the Request's Truncated field is set.
// The fake's own handling never sees the cut: it reads the whole request,
// as before.
func WithRequestLog(n, capBytes int) Option {
	return func(c *config) { c.log = logConfig{size: max(n, 0), capBytes: max(capBytes, 0)} }
}

// logConfig is the bounds of the request log.
type logConfig struct{ size, capBytes int }

// defaultLog is the log's bounds when WithRequestLog is not given.
var defaultLog = logConfig{size: DefaultRequestLogSize, capBytes: DefaultRequestBodyCap}

// requestLog holds the last requests within its bounds, oldest first from
// head. The Server's mu guards it.
type requestLog struct {
	size  int // the most requests kept
	reqs  []Request
	costs []int // what each request is counted for
	head  int   // reqs[:head] are dropped, awaiting compaction
	bytes int   // the sum of costs[head:]
}

// add records r, which cost bytes, dropping the oldest requests while the
// log is over its bounds.
func (l *requestLog) add(r Request, cost int) {
	if l.size <= 0 {
		return
	}
	l.reqs, l.costs = append(l.reqs, r), append(l.costs, cost)
	l.bytes += cost
	for len(l.reqs)-l.head > l.size || (l.bytes > RequestLogBytes && len(l.reqs)-l.head > 1) {
		l.bytes -= l.costs[l.head]
		l.reqs[l.head] = Request{} // let it be collected
		l.head++
	}
	// Compact once half the slice is dropped: each request is moved at
	// most once on average.
	if l.head > 0 && l.head >= len(l.reqs)/2 {
		n := copy(l.reqs, l.reqs[l.head:])
		copy(l.costs, l.costs[l.head:])
		clear(l.reqs[n:])
		l.reqs, l.costs, l.head = l.reqs[:n], l.costs[:n], 0
	}
}

// all returns the requests kept, oldest first. They share memory with the
// log: the caller copies them.
func (l *requestLog) all() []Request {
	return slices.Clone(l.reqs[l.head:])
}

// budget is what is left of one request's cap as it is recorded.
type budget struct {
	left int
	cut  bool // something was cut short or left out
}

// take returns a copy of s, or of as much of it as the budget has left:
// never s itself, which may be a substring of the whole body (a form's
// values are), and would keep it alive.
func (b *budget) take(s string) string {
	if len(s) <= b.left {
		b.left -= len(s)
		return strings.Clone(s)
	}
	// A copy: a substring would keep the whole value alive.
	s = strings.Clone(s[:b.left])
	b.left, b.cut = 0, true
	return s
}

// values copies m with each value through redact and then the budget,
// names in sorted order so that what a cut keeps is always the same.
func (b *budget) values(m map[string][]string, redact func(string) string) map[string][]string {
	if m == nil {
		return nil
	}
	out := make(map[string][]string, len(m))
	for _, name := range slices.Sorted(maps.Keys(m)) {
		clean := make([]string, len(m[name]))
		for i, v := range m[name] {
			clean[i] = b.take(redact(v))
		}
		out[strings.Clone(redact(name))] = clean
	}
	return out
}

// file reads an uploaded file's contents, as much as the budget has left.
// A part that cannot be read is kept empty.
func (b *budget) file(fh *multipart.FileHeader) []byte {
	f, err := fh.Open()
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, int64(b.left)+1))
	if len(data) > b.left {
		data, b.cut = data[:b.left], true
	}
	b.left -= len(data)
	return data
}
