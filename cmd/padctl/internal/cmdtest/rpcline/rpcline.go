// Package rpcline builds the JSON-RPC lines that the tests of padctl mcp
// write to its stdin: the binary's tests and the stdin relay's. It stands
// apart from cmdtest, which the mcp command's own tests cannot import
// (cmdtest builds the root, which holds the mcp command). Only tests
// import it.
package rpcline

import "encoding/json"

// Line is one JSON-RPC message; a nil id makes a notification and nil
// params leaves them out.
func Line(id any, method string, params any) string {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != nil {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// Init is an initialize request.
func Init(id any) string {
	return Line(id, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "0"}})
}

// Call is a tools/call request (nil args: none).
func Call(id any, tool string, args map[string]any) string {
	if args == nil {
		args = map[string]any{}
	}
	return Line(id, "tools/call", map[string]any{"name": tool, "arguments": args})
}
