// accounts.go: several accounts (Options.Accounts): the optional account argument, list_accounts and whoami.

package padmcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
)

// accountArg is the argument every tool takes when Options.Accounts names
// accounts.
const accountArg = "account"

// accountKey is the context key of the client an account argument chose,
// accountNameKey of its name.
type (
	accountKey     struct{}
	accountNameKey struct{}
)

// client is the client a call uses: its account's, or NewServer's.
func (ts *toolset) client(ctx context.Context) *padapi.Client {
	if c, ok := ctx.Value(accountKey{}).(*padapi.Client); ok {
		return c
	}
	return ts.c
}

// accountNames are Options.Accounts' names, sorted.
func (ts *toolset) accountNames() []string {
	names := make([]string, 0, len(ts.opts.Accounts))
	for n := range ts.opts.Accounts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// takeAccount takes the account argument out of a call's arguments (the
// tools' own schemas do not hold it) and returns the context the call runs
// in: with the account's client, or as it was without an account. An
// account that Options.Accounts does not name is a tool error's text.
func (ts *toolset) takeAccount(ctx context.Context, call *mcp.CallToolParamsRaw) (context.Context, string) {
	raw := bytes.TrimSpace(call.Arguments)
	if len(raw) == 0 || raw[0] != '{' {
		return ctx, ""
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(raw, &args) != nil {
		return ctx, "" // the SDK reports arguments that are not an object
	}
	v, given := args[accountArg]
	if !given {
		return ctx, ""
	}
	delete(args, accountArg)
	call.Arguments, _ = json.Marshal(args)
	var name string
	if json.Unmarshal(v, &name) != nil {
		return ctx, "argument account: not a string; list_accounts names the accounts. Nothing was sent to the service."
	}
	if name == "" {
		return ctx, ""
	}
	c, ok := ts.opts.Accounts[name]
	if !ok || c == nil {
		if len(ts.opts.Accounts) == 0 {
			return ctx, fmt.Sprintf("argument account: %q: this server has one account, so leave account out "+
				"(an embedder names more in Options.Accounts, padctl in mcp --accounts). Nothing was sent to the service.", cutUTF8(name, 64))
		}
		return ctx, fmt.Sprintf("argument account: no account %q; the accounts are %s (list_accounts). Nothing was sent to the service.",
			cutUTF8(name, 64), strings.Join(ts.accountNames(), ", "))
	}
	return context.WithValue(context.WithValue(ctx, accountKey{}, c), accountNameKey{}, name), ""
}

// addAccountArg adds the optional account argument to a tool's input
// schema, when there are accounts to choose from.
func (ts *toolset) addAccountArg(s *jsonschema.Schema) {
	if len(ts.opts.Accounts) == 0 {
		return
	}
	if s.Properties == nil {
		s.Properties = map[string]*jsonschema.Schema{}
	}
	enum := []any{}
	for _, n := range ts.accountNames() {
		enum = append(enum, n)
	}
	s.Properties[accountArg] = &jsonschema.Schema{Type: "string", Enum: enum,
		Description: "which account to act as (list_accounts names them); default the server's own"}
}

// accountsResult is list_accounts' result.
type accountsResult struct {
	Default  string   `json:"default" jsonschema:"the account a call without account uses"`
	Accounts []string `json:"accounts" jsonschema:"the names a call may pass as account, sorted"`
}

// listAccounts is list_accounts: the names a call may pass as account.
func listAccounts(ts *toolset) serverTool {
	return newTool(ts, spec[noArgs]{kind: read, plain: true, tool: &mcp.Tool{Name: "list_accounts", Title: "List the accounts",
		Description: "The accounts this server may act as: pass one's name as any tool's account argument. " +
			"Without account a call uses the default (the server's own key)."}},
		func(ctx context.Context, _ noArgs) (*accountsResult, error) {
			return &accountsResult{Default: "(the server's own)", Accounts: ts.accountNames()}, nil
		})
}
