// confirm.go: confirmation through elicitation before a tool deletes or ends something.

package padmcp

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// confirmSchema is what the user is asked for: a yes or no.
var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"confirm": map[string]any{"type": "boolean", "title": "Go ahead", "description": "true to go ahead; it cannot be undone"},
	},
	"required": []string{"confirm"},
}

// confirm asks the user, through the client, to confirm question before a
// call that cannot be undone, when the client supports elicitation; a
// client without it gets the call as before. It returns nil to go ahead,
// or the result to answer instead (the question, or a tool error when the
// user did not confirm), having sent nothing to the service.
func (ts *toolset) confirm(ctx context.Context, req *mcp.CallToolRequest, question string) *mcp.CallToolResult {
	if req == nil || req.Session == nil {
		return nil
	}
	caps := req.Session.InitializeParams()
	if caps == nil || caps.Capabilities == nil || caps.Capabilities.Elicitation == nil {
		return nil
	}
	if caps.Capabilities.Elicitation.URL != nil && caps.Capabilities.Elicitation.Form == nil {
		return nil // a client of URL elicitation only has no form to ask with
	}
	// The protocol's multi round-trip (SEP-2322): the first answer asks,
	// and the client calls again with the user's answer. go-sdk asks a
	// client of an older protocol version itself, and calls again.
	answer, asked := req.Params.InputResponses[confirmKey]
	if !asked {
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
			confirmKey: &mcp.ElicitParams{Mode: "form", Message: ts.redact(question), RequestedSchema: confirmSchema}}}
	}
	res, ok := answer.(*mcp.ElicitResult)
	switch {
	case !ok || res == nil:
		return errorResult("The user's confirmation did not come back as an answer to it, so nothing was done and nothing was sent to the service.")
	case res.Action != "accept":
		return errorResult(fmt.Sprintf("The user did not confirm (%s), so nothing was done and nothing was sent to the service. Do not call it again unless the user asks.", cutUTF8(res.Action, 32)))
	case res.Content["confirm"] != true:
		return errorResult("The user answered no, so nothing was done and nothing was sent to the service. Do not call it again unless the user asks.")
	}
	return nil
}

// confirmKey names the confirmation among a call's input requests.
const confirmKey = "padmcp_confirm"
