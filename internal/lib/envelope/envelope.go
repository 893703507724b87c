// Package envelope reads the status envelope every answer of the Pad
// Interview Service carries beside its resource ("status", "message",
// "code"), with the presence of the member the request needs, in one pass:
// from the bytes of a read answer (Read), or as a list page streams
// (DecodeMembers), with pooled decoders. What the envelope means (status
// "OK" or an error) is padapi's to decide.
package envelope

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Envelope is what every answer of the service carries beside its
// resource: status, message and code, and whether anything else came.
type Envelope struct {
	Status, Message, Code string
	// Others counts the members besides status, message and code.
	Others int
	// HasNeed reports whether the key asked for was present.
	HasNeed bool
}

// Read reads the top-level members of an answer: the envelope's
// three, the presence of need (a key, "" for none), and whether others
// came. It stops as soon as the status is "OK" and the resource is known to
// be there, when whole is false: the decode of the resource that follows
// reads (and checks) the rest, so a page's items are not scanned twice.
func Read(data []byte, need string, whole bool, opts json.Options) (Envelope, error) {
	r := envelopeReaders.Get().(*envelopeReader)
	defer r.release()
	r.buf = *bytes.NewBuffer(data)
	dec := &r.dec
	dec.Reset(&r.buf, opts)
	if dec.PeekKind() != '{' {
		// Let the codec say what is wrong: a syntax error or a kind.
		var top struct{}
		return Envelope{}, json.Unmarshal(data, &top, opts)
	}
	if _, err := dec.ReadToken(); err != nil {
		return Envelope{}, err
	}
	// A status given twice is refused, so no reading of the answer can
	// take the first and another the last: with "status" once, the scan
	// can stop early.
	early := !whole && bytes.Count(data, []byte(`"status"`)) < 2
	env, err := readMembers(dec, need, nil, early, nil, opts)
	if err != nil || dec.PeekKind() != '}' {
		return env, err // an error, or stopped early
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, err
	}
	if _, err := dec.ReadToken(); err == nil {
		return env, errors.New("data after the top-level value")
	}
	return env, nil
}

// readMembers reads the members of an answer's top-level object, after
// its '{' and up to its '}': the envelope's three, the presence of need (a
// key, "" for none) and the count of the others, whose values go to m (nil:
// skipped). With early, it stops as soon as done says the answer is known
// to be good.
//
// With bad non-nil, a member m cannot decode is set there, the first
// only, and the read goes on past it, skipping m's members after it.
func readMembers(dec *jsontext.Decoder, need string, m MemberDecoder, early bool, bad *error, opts json.Options) (Envelope, error) {
	var env Envelope
	var seen [3]bool
	for dec.PeekKind() != '}' {
		if early && env.done(need) {
			return env, nil
		}
		name, err := dec.ReadToken()
		if err != nil {
			return env, err
		}
		key := name.String()
		if ok, err := env.member(dec, key, &seen, opts); ok || err != nil {
			if err != nil {
				return env, err
			}
			continue
		}
		env.Others++
		// A list's items may be null (none); an id may not.
		if need != "" && key == need && (need != "id" || dec.PeekKind() != 'n') {
			env.HasNeed = true
		}
		if m != nil {
			err = m.DecodeMember(dec, key)
		} else {
			err = dec.SkipValue()
		}
		if err != nil && bad != nil && m != nil {
			first := err
			var past bool
			if past, err = readPast(dec, err); past {
				*bad, m = first, nil
			}
		}
		if err != nil {
			return env, err
		}
	}
	return env, nil
}

// done reports whether the envelope read so far says the answer is good:
// status "OK", the resource asked for, and something beside the envelope.
func (env *Envelope) done(need string) bool {
	return env.Status == "OK" && env.Others > 0 && (need == "" || env.HasNeed)
}

// member reads the value of the top-level member key when it is one of
// the envelope's three, and reports whether it was. A member given twice is
// refused, so that no reading of the answer can take the first and another
// the last.
func (env *Envelope) member(dec *jsontext.Decoder, key string, seen *[3]bool, opts json.Options) (bool, error) {
	var dst *string
	var i int
	switch key {
	case "status":
		dst, i = &env.Status, 0
	case "message":
		dst, i = &env.Message, 1
	case "code":
		dst, i = &env.Code, 2
	default:
		return false, nil
	}
	if seen[i] {
		return true, fmt.Errorf("the answer gives %q twice", key)
	}
	seen[i] = true
	v, err := dec.ReadValue()
	if err != nil {
		return true, err
	}
	*dst, err = text(key, v, opts)
	return true, err
}

// envelopeReaders keeps Read's decoders, each with the buffer it
// reads (a decoder reads a bytes.Buffer's bytes in place, without a copy),
// so that a call allocates neither: 4 allocations fewer per call
// (BenchmarkQuotaGet), a tenth of the client's own.
var envelopeReaders = sync.Pool{New: func() any { return new(envelopeReader) }}

type envelopeReader struct {
	buf bytes.Buffer
	dec jsontext.Decoder
}

// release drops the body the reader held and puts it back in the pool.
func (r *envelopeReader) release() {
	r.buf = bytes.Buffer{}
	r.dec.Reset(&r.buf)
	envelopeReaders.Put(r)
}

// text is the text of an envelope member: status and message must
// be strings; code may be any scalar (a gateway's number), kept as its
// JSON text. null is "".
func text(key string, v jsontext.Value, opts json.Options) (string, error) {
	switch k := v.Kind(); {
	case string(v) == `"OK"`:
		return "OK", nil // the usual status, without an allocation
	case k == 'n':
		return "", nil
	case k == '"':
		var s string
		err := json.Unmarshal(v, &s, opts)
		return s, err
	case key == "code" && k != '{' && k != '[':
		return string(v), nil
	default:
		return "", &json.SemanticError{JSONPointer: jsontext.Pointer("/" + key), JSONKind: k, GoType: reflect.TypeFor[string]()}
	}
}

// streamDecoders keeps the decoders of streamed answers, as
// envelopeReaders keeps those of read ones.
var streamDecoders = sync.Pool{New: func() any { return new(jsontext.Decoder) }}

// noInput is what a pooled decoder reads: nothing, until it is reset.
var noInput = bytes.NewReader(nil)

// WithDecoder runs f with a pooled decoder reading r with opts.
func WithDecoder(r io.Reader, opts json.Options, f func(*jsontext.Decoder)) {
	dec := streamDecoders.Get().(*jsontext.Decoder)
	dec.Reset(r, opts)
	f(dec)
	dec.Reset(noInput) // drop r, and the body behind it
	streamDecoders.Put(dec)
}

// MemberDecoder is an answer that decodes its top-level members one by
// one as they come (pageBody), so that a list page is read in one pass:
// the envelope beside it needs no scan of its own.
type MemberDecoder interface {
	// DecodeMember decodes the value of the member name, or skips it.
	DecodeMember(dec *jsontext.Decoder, name string) error
	// Reset zeroes the answer, before a decode starts again.
	Reset()
}

// ErrEmpty is DecodeMembers' error for an answer with no JSON value at
// all (an empty body, or white space).
var ErrEmpty = errors.New("no JSON value")

// DecodeMembers reads an answer in one pass, as it streams: its envelope,
// what Read reports of need and the other members, and every other member
// into m. err is what ends the read: a syntax error, an envelope member of
// the wrong kind or given twice, a body lost, ErrEmpty. bad is the first
// member m could not decode: the read goes on past it, so that the
// envelope is known whole whatever order the members come in (a status
// other than OK is the answer's meaning even beside a malformed list), and
// m's later members are skipped.
func DecodeMembers(dec *jsontext.Decoder, need string, m MemberDecoder, opts json.Options) (env Envelope, bad, err error) {
	switch dec.PeekKind() {
	case '{':
	case 0:
		if _, err := dec.ReadToken(); err != io.EOF {
			return Envelope{}, nil, err
		}
		return Envelope{}, nil, ErrEmpty
	default:
		// Let the codec say what is wrong: a kind, as Read does.
		var top struct{}
		return Envelope{}, nil, json.UnmarshalDecode(dec, &top, opts)
	}
	if _, err := dec.ReadToken(); err != nil {
		return Envelope{}, nil, err
	}
	env, err = readMembers(dec, need, m, false, &bad, opts)
	if err != nil {
		return env, bad, err
	}
	if _, err := dec.ReadToken(); err != nil {
		return env, bad, err
	}
	return env, bad, CheckEnd(dec)
}

// readPast reads on past a member m could not decode (a semantic
// error: the decoder is sound, somewhere in or before that member's value)
// to the next member, and reports whether it did; any other error ends the
// read.
func readPast(dec *jsontext.Decoder, err error) (bool, error) {
	var se *json.SemanticError
	var sx *jsontext.SyntacticError
	if !errors.As(err, &se) || errors.As(err, &sx) {
		return false, err
	}
	for dec.StackDepth() > 1 {
		if _, err := dec.ReadToken(); err != nil {
			return false, err
		}
	}
	if _, n := dec.StackIndex(1); n%2 == 1 { // the value is still to come
		if err := dec.SkipValue(); err != nil {
			return false, err
		}
	}
	return true, nil
}

// CheckEnd reports data after the top-level value as json.Unmarshal does:
// a syntax error at the byte where it starts.
func CheckEnd(dec *jsontext.Decoder) error {
	at := dec.InputOffset()
	switch _, err := dec.ReadToken(); {
	case err == io.EOF:
		return nil
	case err != nil:
		return err
	}
	return &jsontext.SyntacticError{ByteOffset: at, Err: errors.New("invalid character after top-level value")}
}
