// mcp_stdio.go: the stdio relay between padctl mcp and its client.

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpMaxLine bounds one JSON-RPC message read from stdin, as the SDK's own
// transport bounds a frame (mcp.DefaultMaxLineLength).
const mcpMaxLine = mcp.DefaultMaxLineLength

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
func (r *stdioRelay) transport() mcp.Transport {
	return &mcp.IOTransport{Reader: r.pr, Writer: relayWriter{r}}
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

// mcpRPCMessage is enough of a JSON-RPC message to check it and correlate it.
type mcpRPCMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// mcpIDKey normalizes a JSON-RPC id for matching a request with its response:
// "" for none or null, else the string or the number's integer form.
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
	// As the SDK reads a number id: a float64, then an int64 (so 1.0 and
	// 1 are the same id, and the answer carries the int64).
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n" + strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}

// forward passes one line to the SDK, or answers it with an error when the
// SDK could not read it. It reports false when the SDK no longer reads.
func (r *stdioRelay) forward(line []byte) bool {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		r.reply(nil, -32700, "Parse error: a line is not JSON; send one JSON-RPC message per line")
		return true
	}
	if line[0] == '[' {
		// Batches left JSON-RPC in MCP 2025-06-18, and the SDK ends the
		// session on one after that version: refuse them all alike.
		r.reply(nil, -32600, "Invalid Request: batches are not supported; send one message per line")
		return true
	}
	var m mcpRPCMessage
	if json.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" || (m.Method == "" && m.Result == nil && m.Error == nil) {
		id, ok := mcpIDKey(m.ID)
		if !ok || id == "" {
			r.reply(nil, -32600, "Invalid Request: not a JSON-RPC 2.0 message")
		} else {
			r.reply(m.ID, -32600, "Invalid Request: not a JSON-RPC 2.0 message")
		}
		return true
	}
	id, ok := mcpIDKey(m.ID)
	if !ok {
		r.reply(nil, -32600, "Invalid Request: the id must be a string or a number")
		return true
	}
	if m.Method != "" && id != "" {
		r.mu.Lock()
		r.pending[id]++
		r.mu.Unlock()
	}
	if m.Method == "notifications/cancelled" {
		// A cancelled request gets no answer: stop waiting for one.
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(m.Params, &p) == nil {
			if cancelled, ok := mcpIDKey(p.RequestID); ok && cancelled != "" {
				r.answered(cancelled)
			}
		}
	}
	if _, err := r.pw.Write(append(line, '\n')); err != nil {
		if m.Method != "" && id != "" {
			r.answered(id)
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
