// stream.go: reading a success body as it arrives: the reader that checks
// the context and the size cap, and the one-pass decode of an answer whose
// resource can be read member by member (a list page).

package padapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// bodyReader reads a success body for a decoder: it checks the context
// before every read, so that a decode stops at the call's deadline however
// much the body holds (issue 28 #12); it stops one byte past the size cap;
// and it keeps what it read (up to keep bytes, -1 for all) for what needs
// the service's bytes after the decode: WithResponse, a *json.RawMessage,
// an error's Body, a second decode.
type bodyReader struct {
	ctx  context.Context
	body io.Reader
	max  int64 // the size cap
	read int64
	keep int
	kept []byte
	// err is the first read error other than io.EOF: the context's,
	// the transport's, or ErrResponseTooLarge. A decode error with err
	// set is the body's loss, not the JSON's fault.
	err error
}

// reset makes r read body, as newly made.
func (r *bodyReader) reset(ctx context.Context, body io.Reader, contentLength, max int64, keep int) {
	*r = bodyReader{ctx: ctx, body: body, max: max, keep: keep}
	if keep != 0 {
		// An announced length is trusted only so far: the buffer grows
		// as the bytes come.
		size := int64(512)
		if contentLength >= 0 {
			size = min(contentLength+1, 64<<10)
		}
		r.kept = make([]byte, 0, size)
	}
}

// Read reads for a decoder, keeping what it reads as r keeps.
func (r *bodyReader) Read(p []byte) (int, error) {
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
func (r *bodyReader) fill(p []byte) (int, error) {
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
		err = ErrResponseTooLarge
	}
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// rest reads what is left of a body kept whole, straight into what is
// kept, without a buffer between. A body kept in part is left to be
// drained.
func (r *bodyReader) rest() error {
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

// streamDecoders keeps the decoders of streamed answers, as
// envelopeReaders keeps those of read ones.
var streamDecoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}

// noInput is what a pooled decoder reads: nothing, until it is reset.
var noInput = bytes.NewReader(nil)

// withDecoder runs f with a pooled decoder reading r.
func withDecoder(r io.Reader, f func(*jsontext.Decoder)) {
	dec := streamDecoders.Get().(*jsontext.Decoder)
	dec.Reset(r, decodeOptions)
	f(dec)
	dec.Reset(noInput) // drop r, and the body behind it
	streamDecoders.Put(dec)
}

// memberDecoder is an answer that decodes its top-level members one by
// one as they come (pageBody), so that a list page is read in one pass:
// the envelope beside it needs no scan of its own.
type memberDecoder interface {
	// decodeMember decodes the value of the member name, or skips it.
	decodeMember(dec *jsontext.Decoder, name string) error
	// reset zeroes the answer, before a decode starts again.
	reset()
}

// decodeMembers reads an answer in one pass: its envelope, what
// readEnvelope reports of need and the other members, and every other
// member into m. An error means the one-pass read did not work out (a
// syntax error, a timestamp only timeOptions read, a body lost); the
// caller then reads the answer from its bytes as before, for the same
// result and the same errors.
func decodeMembers(dec *jsontext.Decoder, need string, m memberDecoder) (envelope, error) {
	if dec.PeekKind() != '{' {
		return envelope{}, errors.New("not an object")
	}
	if _, err := dec.ReadToken(); err != nil {
		return envelope{}, err
	}
	env, err := readMembers(dec, need, m, false)
	if err != nil {
		return env, err
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, err
	}
	return env, checkEnd(dec)
}

// decodeStream decodes a whole JSON value from dec into v, as unmarshal
// does from bytes (timestamps in the service's other forms included), and
// checks that nothing follows it.
func decodeStream(dec *jsontext.Decoder, v any) error {
	if err := json.UnmarshalDecode(dec, v, timeOptions); err != nil {
		return err
	}
	return checkEnd(dec)
}

// checkEnd reports data after the top-level value as json.Unmarshal does:
// a syntax error at the byte where it starts.
func checkEnd(dec *jsontext.Decoder) error {
	at := dec.InputOffset()
	switch _, err := dec.ReadToken(); {
	case err == io.EOF:
		return nil
	case err != nil:
		return err
	}
	return &jsontext.SyntacticError{ByteOffset: at, Err: errors.New("invalid character after top-level value")}
}
