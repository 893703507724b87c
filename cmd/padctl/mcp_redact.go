// mcp_redact.go: the redactor padctl mcp uses, padctl's one redactor
// (internal/iostreams) under the names the MCP code calls.

package main

import (
	"io"

	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

// mcpRedacted replaces the key wherever the MCP server would show it.
const mcpRedacted = iostreams.Redacted

// redactor takes API keys out of text (see iostreams.Redactor).
type redactor struct {
	keys []string
	r    *iostreams.Redactor
}

// newRedactor returns a redactor for keys; empty keys are ignored.
func newRedactor(keys ...string) *redactor {
	r := iostreams.NewRedactor(keys...)
	return &redactor{r.Keys(), r}
}

// wire returns a redactor for whole JSON-RPC lines: the keys of at least
// minWireKey bytes.
func (r *redactor) wire() *redactor {
	w := r.r.Wire()
	return &redactor{w.Keys(), w}
}

// redact returns s with every key, in any of its encodings, replaced.
func (r *redactor) redact(s string) string {
	if r == nil {
		return s
	}
	return r.r.Redact(s)
}

// writer returns w with the keys redacted from every Write.
func (r *redactor) writer(w io.Writer) io.Writer { return r.r.Writer(w) }
