package padapitest

import (
	"io"
	"maps"
	"mime/multipart"
	"slices"
	"strings"
)

// The request log's default bounds: Requests keeps the last
// DefaultRequestLogSize requests, and of each at most DefaultRequestBodyCap
// bytes of header, query and form values, file names and file contents.
// The log then holds at most about 64 MiB, whatever clients send.
const (
	DefaultRequestLogSize = 1000
	DefaultRequestBodyCap = 64 << 10
)

// WithRequestLog bounds the request log that Requests returns: it keeps the
// last n requests (default DefaultRequestLogSize; n <= 0 keeps none), and
// of each request at most capBytes bytes of header values, query and form
// values, file names and file contents, in that order (default
// DefaultRequestBodyCap; capBytes <= 0 keeps none of them). A value cut
// short is kept up to the cap, the ones after it are kept empty, and the
// Request's Truncated field is set. The fake's own handling never sees the
// cut: it reads the whole request, as before.
func WithRequestLog(n, capBytes int) Option {
	return func(c *config) { c.log = logConfig{size: max(n, 0), capBytes: max(capBytes, 0)} }
}

// logConfig is the bounds of the request log.
type logConfig struct{ size, capBytes int }

// defaultLog is the log's bounds when WithRequestLog is not given.
var defaultLog = logConfig{size: DefaultRequestLogSize, capBytes: DefaultRequestBodyCap}

// requestLog holds the last size requests, oldest first from next once it
// is full: a ring, so that recording never copies the log. The Server's mu
// guards it.
type requestLog struct {
	size int
	reqs []Request
	next int // where the next request goes once len(reqs) == size
}

// add records r, dropping the oldest request when the log is full.
func (l *requestLog) add(r Request) {
	switch {
	case l.size <= 0:
	case len(l.reqs) < l.size:
		l.reqs = append(l.reqs, r)
	default:
		l.reqs[l.next] = r
		l.next = (l.next + 1) % l.size
	}
}

// all returns the requests kept, oldest first. They share memory with the
// log: the caller copies them.
func (l *requestLog) all() []Request {
	return append(slices.Clone(l.reqs[l.next:]), l.reqs[:l.next]...)
}

// budget is what is left of one request's cap as it is recorded.
type budget struct {
	left int
	cut  bool // something was cut short or left out
}

// take returns s, or as much of it as the budget has left.
func (b *budget) take(s string) string {
	if len(s) <= b.left {
		b.left -= len(s)
		return s
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
		out[redact(name)] = clean
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
