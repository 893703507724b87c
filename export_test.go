package padapi

import "crypto/tls"

// WithTLSConfigForTest makes the client's own pool use cfg, so that a test
// can trust its own TLS server and still measure the pool as users get it.
func WithTLSConfigForTest(cfg *tls.Config) Option {
	return func(c *config) { c.tls = cfg }
}
