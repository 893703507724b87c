// stream.go: decoding a success body as it arrives (read through
// internal/capread): the one-pass decode of an answer whose resource can be
// read member by member (a list page).

package padapi

import (
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

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
