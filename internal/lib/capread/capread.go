// Package capread reads an HTTP body for a decoder within a context and a
// size cap, keeping the bytes it read for whoever needs them after the
// decode (padapi's WithResponse, a *json.RawMessage, an error's Body, a
// second decode).
package capread

import (
	"context"
	"errors"
	"io"
	"math"
)

// ErrTooLarge is the error of a body over its cap; padapi exports it as
// ErrResponseTooLarge.
var ErrTooLarge = errors.New("response too large")

// Reader reads a body for a decoder: it checks the context before every
// read, so that a decode stops at the call's deadline however
// much the body holds (issue 28 #12); it stops one byte past the size cap;
// and it keeps what it read (up to keep bytes, -1 for all) for what needs
// the service's bytes after the decode: WithResponse, a *json.RawMessage,
// an error's Body, a second decode.
type Reader struct {
	ctx  context.Context
	body io.Reader
	max  int64 // the size cap
	read int64
	keep int
	kept []byte
	// err is the first read error other than io.EOF: the context's,
	// the transport's, or ErrTooLarge. A decode error with err
	// set is the body's loss, not the JSON's fault.
	err error
}

// Reset makes r read body, as newly made: it stops past max bytes, and
// keeps up to keep of them (-1: all, 0: none).
func (r *Reader) Reset(ctx context.Context, body io.Reader, contentLength, max int64, keep int) {
	*r = Reader{ctx: ctx, body: body, max: max, keep: keep}
	if keep != 0 {
		// An announced length is trusted only so far: the buffer grows
		// as the bytes come.
		size := int64(512)
		if contentLength >= 0 {
			size = min(contentLength+1, 64<<10)
		}
		if keep > 0 {
			size = min(size, int64(keep)) // never more than is kept
		}
		r.kept = make([]byte, 0, size)
	}
}

// Read reads for a decoder, keeping what it reads as r keeps.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.fill(p)
	if r.keep < 0 || len(r.kept) < r.keep {
		k := n
		if r.keep >= 0 {
			k = min(n, r.keep-len(r.kept))
		}
		r.kept = append(r.kept, p[:k]...)
	}
	return n, err
}

// fill reads into p, checking the context first and stopping at the cap.
func (r *Reader) fill(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return 0, err
	}
	limit := r.max - r.read // one byte past it shows the cap exceeded
	if limit < math.MaxInt64 {
		limit++
	}
	if int64(len(p)) > limit {
		p = p[:limit]
	}
	n, err := r.body.Read(p)
	r.read += int64(n)
	if r.read > r.max {
		n -= int(r.read - r.max)
		r.read = r.max
		err = ErrTooLarge
	}
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// Rest reads what is left of a body kept whole, straight into what is
// kept, without a buffer between. A body kept in part is left to be
// drained.
func (r *Reader) Rest() error {
	for r.keep < 0 {
		if len(r.kept) == cap(r.kept) {
			r.kept = append(r.kept, 0)[:len(r.kept)] // room to read on
		}
		n, err := r.fill(r.kept[len(r.kept):cap(r.kept)])
		r.kept = r.kept[:len(r.kept)+n]
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return r.err
}

// Kept returns what r kept of the body.
func (r *Reader) Kept() []byte { return r.kept }

// Err returns the first read error other than io.EOF: the context's, the
// body's, or ErrTooLarge. A decode error with Err set is the body's loss,
// not the JSON's fault.
func (r *Reader) Err() error { return r.err }
