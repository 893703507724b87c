// export_test.go: internals exported to the tests of package padapi_test.

package padapi

import (
	"bytes"
	"crypto/tls"
	"net/http"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/padinterview/padapi/internal/lib/envelope"
	"github.com/padinterview/padapi/internal/lib/h2route"
)

// WithTLSConfigForTest makes the client's own transport use cfg, so that a
// test can trust its own TLS server and still measure the transport as
// users get it.
func WithTLSConfigForTest(cfg *tls.Config) Option {
	return func(c *config) { c.tls = cfg }
}

// DecodePadPageForTest decodes a body of the pad list as the pipeline does
// once the body is read.
func DecodePadPageForTest(b []byte) (*Page[Pad], error) {
	p := pageBody[Pad]{key: "pads"}
	if _, _, err := envelope.DecodeMembers(jsontext.NewDecoder(bytes.NewReader(b), decodeOptions), "pads", &p, decodeOptions); err != nil {
		return nil, err
	}
	return &Page[Pad]{Items: p.items, Total: p.total, NextPage: p.nextPage, PrevPage: p.prevPage}, nil
}

// UnmarshalForTest decodes data into v as the pipeline does: with the
// codec's options (the service's timestamp forms among them).
func UnmarshalForTest(data []byte, v any) error { return unmarshal(data, v) }

// TransportsForTest returns the two transports the client's own is made
// of: h1 for HTTP/1.1, h2 for the HTTP/2 router's connections.
func TransportsForTest() (h1, h2 *http.Transport) {
	r := h2route.NewTransport(nil)
	return r.H1, r.H2
}

// StreamDecodeForTest decodes data into v as the pipeline decodes a list
// page's items while the page streams.
func StreamDecodeForTest(data []byte, v any) error {
	return json.UnmarshalDecode(jsontext.NewDecoder(bytes.NewReader(data), decodeOptions), v)
}
