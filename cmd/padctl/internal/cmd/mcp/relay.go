// relay.go: the stdio relay between padctl mcp and its client.

package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpMaxLine bounds one JSON-RPC message read from stdin, as the SDK's own
// transport bounds a frame (sdk.DefaultMaxLineLength).
const mcpMaxLine = sdk.DefaultMaxLineLength

// stdioRelay sits between padctl's stdin and stdout and the SDK's
// IOTransport. It exists for two defects of reading stdin directly:
//
//   - go-sdk v1.8.0 ends the session at end of input even while requests are
//     being answered, dropping their replies (upstream issue #1061): a client
//     that pipes requests and closes stdin got 0 or 1 of 5 answers. The relay
//     holds end of input back from the SDK until every request it passed on
//     has been answered, for at most drain (and while ctx lasts).
//   - a line that is not JSON, or not a JSON-RPC message, ends the SDK's
//     session. The relay answers it with a JSON-RPC error (id null, -32700
//     or -32600) and reads on.
//
// It reads stdin line by line (newline-delimited JSON, as the SDK writes),
// and watches the SDK's writes for the responses.
type stdioRelay struct {
	src   io.Reader
	out   io.Writer // stdout, already redacting
	drain time.Duration

	mu      sync.Mutex
	pending map[string]int // request id -> requests with it not yet answered
	changed chan struct{}  // closed and replaced when pending shrinks

	pr *io.PipeReader // what the SDK reads
	pw *io.PipeWriter
}

// newStdioRelay returns a relay from src to the SDK and from the SDK to out.
func newStdioRelay(src io.Reader, out io.Writer, drain time.Duration) *stdioRelay {
	pr, pw := io.Pipe()
	return &stdioRelay{src: src, out: out, drain: drain, pending: map[string]int{}, changed: make(chan struct{}), pr: pr, pw: pw}
}

// transport is what the SDK runs on: the relay's side of the pipe, and the
// relay's writer.
func (r *stdioRelay) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: r.pr, Writer: relayWriter{r}}
}

// pump copies stdin's messages to the SDK until stdin ends, then waits for
// the answers (bounded) and ends the SDK's input. It returns when the SDK
// stops reading, too (the pipe is closed). Run it in its own goroutine.
func (r *stdioRelay) pump(ctx context.Context) {
	br := bufio.NewReaderSize(r.src, 64<<10)
	for {
		line, err := readRPCLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			if !r.forward(line) {
				return // the SDK is gone
			}
		}
		if err != nil {
			break
		}
	}
	r.waitAnswered(ctx)
	r.pw.Close()
}

// readRPCLine reads one line without its newline. A line over mcpMaxLine is
// consumed to its end and returned as a short line that is not JSON, so
// that it is answered with a parse error and memory stays bounded.
func readRPCLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > mcpMaxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if tooLong {
			return []byte("(too long)"), err
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// mcpRPCMessage is enough of a JSON-RPC message to correlate it.
type mcpRPCMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// mcpMaxDepth is go-sdk's limit on a message's nesting (its internal/json
// checkMaxDepth): a deeper line is a read error that ends its session.
const mcpMaxDepth = 1000

// mcpMaxSafeID is the largest number id the SDK answers with the same
// number: it reads a number id as a float64, then an int64.
const mcpMaxSafeID = 1 << 53

// mcpIDKey normalizes a JSON-RPC id as the SDK reads it, for matching a
// request with its response: "" for none or null, else the string or the
// number. ok is false for an id the SDK refuses (not a string, number or
// null) or might answer under another id: a number written with a
// fraction or an exponent, or beyond 2^53.
func mcpIDKey(raw json.RawMessage) (key string, ok bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > mcpMaxSafeID || n < -mcpMaxSafeID {
		return "", false
	}
	return "n" + strconv.FormatInt(n, 10), true
}

// mcpDepth is a line's nesting depth as go-sdk counts it: brackets and
// braces outside strings.
func mcpDepth(line []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range line {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString:
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			deepest = max(deepest, depth)
		case (b == '}' || b == ']') && depth > 0:
			depth--
		}
	}
	return deepest
}

// mcpLine is what the relay learned of a line it checked.
type mcpLine struct {
	id      json.RawMessage // the id as sent; nil for none
	idKey   string          // mcpIDKey of id
	method  string          // a request's method; "" for a response
	request bool
}

// checkRPCLine reports whether go-sdk reads line as the one JSON-RPC
// message it is, reading it as the SDK does: member names exactly as
// JSON-RPC spells them (the SDK ignores "METHOD" and "Id"), nesting at most
// 1 000 deep, an id that is a string or a whole number, a version of
// "2.0", and either a method (a request or notification) or, with an id, a
// result or an error object (a response). Otherwise code and why say what
// to answer: -32700 for a line that is not JSON, -32600 for the rest.
func checkRPCLine(line []byte) (m mcpLine, code int, why string) {
	if !json.Valid(line) {
		return m, -32700, "Parse error: a line is not JSON; send one JSON-RPC message per line"
	}
	if mcpDepth(line) > mcpMaxDepth {
		return m, -32600, fmt.Sprintf("Invalid Request: nested deeper than %d levels", mcpMaxDepth)
	}
	switch line[0] {
	case '[':
		// Batches left JSON-RPC in MCP 2025-06-18, and the SDK ends the
		// session on one after that version: refuse them all alike.
		return m, -32600, "Invalid Request: batches are not supported; send one message per line"
	case '{':
	default:
		return m, -32600, "Invalid Request: a message is a JSON object"
	}
	var fields map[string]json.RawMessage // member names exactly as sent
	if json.Unmarshal(line, &fields) != nil {
		return m, -32600, "Invalid Request: not a JSON-RPC 2.0 message"
	}
	key, ok := mcpIDKey(fields["id"])
	if !ok {
		return m, -32600, "Invalid Request: the id must be a string, or a whole number of at most 2^53 written without a fraction or exponent"
	}
	m.id, m.idKey = fields["id"], key
	if key == "" {
		m.id = nil
	}
	var version string
	if json.Unmarshal(fields["jsonrpc"], &version) != nil || version != "2.0" {
		return m, -32600, `Invalid Request: "jsonrpc" must be "2.0" (member names are case-sensitive)`
	}
	if raw, ok := fields["method"]; ok {
		if json.Unmarshal(raw, &m.method) != nil || m.method == "" {
			return m, -32600, `Invalid Request: "method" must be a non-empty string`
		}
		m.request = true
		return m, 0, ""
	}
	code, why = checkRPCResponse(fields, key)
	return m, code, why
}

// checkRPCResponse checks a message without a method: a response needs an
// id and a result or an error object the SDK can read.
func checkRPCResponse(fields map[string]json.RawMessage, key string) (int, string) {
	_, hasResult := fields["result"]
	rawErr, hasError := fields["error"]
	hasError = hasError && string(bytes.TrimSpace(rawErr)) != "null"
	switch {
	case !hasResult && !hasError:
		return -32600, `Invalid Request: neither "method" nor "result" nor "error" (member names are case-sensitive)`
	case key == "":
		return -32600, "Invalid Request: a response needs the id of the request it answers"
	case hasError && !mcpWireError(rawErr):
		return -32600, `Invalid Request: "error" must be an object with an integer "code" and a string "message"`
	}
	return 0, ""
}

// mcpWireError reports whether raw is an error object the SDK can read: an
// object whose code, when present, is an integer within int64 and whose
// message, when present, is a string.
func mcpWireError(raw json.RawMessage) bool {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil || e == nil {
		return false
	}
	if c, ok := e["code"]; ok {
		if _, err := strconv.ParseInt(string(bytes.TrimSpace(c)), 10, 64); err != nil {
			return false
		}
	}
	if msg, ok := e["message"]; ok {
		var s string
		if json.Unmarshal(msg, &s) != nil {
			return false
		}
	}
	return true
}

// forward passes one line to the SDK, or answers it with an error when the
// SDK would not read it as the message it is (which would end the session,
// and with it every call in flight). It reports false when the SDK no
// longer reads.
func (r *stdioRelay) forward(line []byte) bool {
	line = bytes.TrimSpace(line)
	m, code, why := checkRPCLine(line)
	if code != 0 {
		r.reply(m.id, code, why)
		return true
	}
	if m.request && m.idKey != "" {
		r.mu.Lock()
		busy := r.pending[m.idKey] > 0
		if !busy {
			r.pending[m.idKey]++
		}
		r.mu.Unlock()
		if busy {
			// The SDK would answer it with a null id, and the relay would
			// wait for an answer to it that never comes.
			r.reply(nil, -32600, "Invalid Request: the id is already in use by a request in flight")
			return true
		}
	}
	if m.method == "notifications/cancelled" {
		// A cancelled request gets no answer: stop waiting for one.
		var p struct {
			Params struct {
				RequestID json.RawMessage `json:"requestId"`
			} `json:"params"`
		}
		if json.Unmarshal(line, &p) == nil {
			if cancelled, ok := mcpIDKey(p.Params.RequestID); ok && cancelled != "" {
				r.answered(cancelled)
			}
		}
	}
	if _, err := r.pw.Write(append(line, '\n')); err != nil {
		if m.request && m.idKey != "" {
			r.answered(m.idKey)
		}
		return false
	}
	return true
}

// reply writes a JSON-RPC error response on stdout.
func (r *stdioRelay) reply(id json.RawMessage, code int, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	r.write(append(b, '\n'))
}

// write writes one whole message to stdout, never interleaved with another.
func (r *stdioRelay) write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Write(p)
}

// answered records a response to id.
func (r *stdioRelay) answered(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending[id] == 0 {
		return
	}
	if r.pending[id]--; r.pending[id] == 0 {
		delete(r.pending, id)
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// waitAnswered waits until every request passed on has been answered, drain
// has passed, or ctx is done.
func (r *stdioRelay) waitAnswered(ctx context.Context) {
	timer := time.NewTimer(r.drain)
	defer timer.Stop()
	for {
		r.mu.Lock()
		n, changed := len(r.pending), r.changed
		r.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// close ends the relay's side of the SDK's input, so that pump stops at the
// next line it reads.
func (r *stdioRelay) close() { r.pr.Close() }

// relayWriter is the SDK's writer: it writes each message through the relay
// and records the responses among them.
type relayWriter struct{ r *stdioRelay }

// Write writes one message (the SDK writes a whole line at a time) and
// marks the request it answers as answered, once it is on stdout.
func (w relayWriter) Write(p []byte) (int, error) {
	n, err := w.r.write(p)
	var m mcpRPCMessage
	if json.Unmarshal(p, &m) == nil && m.Method == "" {
		if id, ok := mcpIDKey(m.ID); ok && id != "" {
			w.r.answered(id)
		}
	}
	return n, err
}

// Close does nothing: stdout stays open for the relay's own replies.
func (relayWriter) Close() error { return nil }
