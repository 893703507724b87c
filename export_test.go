package padapi

import (
	"crypto/tls"
	"encoding/json"
)

// WithTLSConfigForTest makes the client's own pool use cfg, so that a test
// can trust its own TLS server and still measure the pool as users get it.
func WithTLSConfigForTest(cfg *tls.Config) Option {
	return func(c *config) { c.tls = cfg }
}

// DecodePadPageForTest decodes a body of the pad list as the pipeline does
// once the body is read: into the wire page, then into a Page of Pads.
func DecodePadPageForTest(b []byte) (*Page[Pad], error) {
	w := newPageWire[padWire]("pads")
	if err := json.Unmarshal(b, w); err != nil {
		return nil, err
	}
	return convertPage(w, (*padWire).pad), nil
}
