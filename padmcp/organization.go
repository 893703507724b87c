// organization.go: the organization tools: the organization, its stats, its users.

package padmcp

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi"
)

type statsArgs struct {
	Start string `json:"start,omitempty" jsonschema:"start of the window: an RFC 3339 time such as 2026-01-01T00:00:00Z, or a date such as 2026-01-01 (midnight UTC); give both start and end, or neither for the last 7 days"`
	End   string `json:"end,omitempty" jsonschema:"end of the window (exclusive), a time or a date as start; give both start and end, or neither"`
}

type listUsersArgs struct {
	Email string `json:"email,omitempty" jsonschema:"only the user with this email"`
}

// Most users a result lists.
const (
	orgUsers   = 100
	statsUsers = 200
)

// getOrganization is get_organization.
func getOrganization(ts *toolset) serverTool {
	return newTool(ts, spec[noArgs]{kind: read, tool: &mcp.Tool{Name: "get_organization", Title: "Get the organization",
		Description: "The caller's organization: name, default language, sign-on, teams, and its first 100 users (list_users has them all). Needs an owner's key."}},
		func(ctx context.Context, _ noArgs) (*organizationResult, error) { return ts.organizationView(ctx) })
}

// organizationView is the organization as get_organization and
// pad://organization show it.
func (ts *toolset) organizationView(ctx context.Context) (*organizationResult, error) {
	o, err := ts.client(ctx).Organization.Get(ctx)
	if err != nil {
		return nil, err
	}
	users := o.Users[:min(len(o.Users), orgUsers)]
	return &organizationResult{Name: ts.clip(o.Name, rowBytes, "cut"), ID: string(o.ID), UserCount: o.UserCount, DefaultLanguage: o.DefaultLanguage,
		SingleSignOnSupported: o.SingleSignOnSupported, Teams: ts.teams(o.Teams), Users: ts.userRows(users), UsersShown: len(users)}, nil
}

// statsWindow reads get_organization_stats' window: both ends or neither,
// end after start.
func statsWindow(a statsArgs) (*padapi.StatsOptions, error) {
	start, err := timeArg("start", a.Start)
	if err != nil {
		return nil, err
	}
	end, err := timeArg("end", a.End)
	if err != nil {
		return nil, err
	}
	switch {
	case a.Start != "" && a.End == "":
		return nil, argError("end", "missing: give both start and end, or neither")
	case a.Start == "" && a.End != "":
		return nil, argError("start", "missing: give both start and end, or neither")
	case a.Start != "" && !end.After(start):
		return nil, argError("end", "%s is not after start %s", a.End, a.Start)
	}
	return &padapi.StatsOptions{Start: start, End: end}, nil
}

// getOrganizationStats is get_organization_stats.
func getOrganizationStats(ts *toolset) serverTool {
	return newTool(ts, spec[statsArgs]{kind: read, tool: &mcp.Tool{Name: "get_organization_stats", Title: "Count the organization's pads",
		Description: "How many pads the organization created in a window of time, in all and per user. Default window: the last 7 days. Needs an owner's key."}},
		func(ctx context.Context, a statsArgs) (*statsResult, error) {
			opts, err := statsWindow(a)
			if err != nil {
				return nil, err
			}
			st, err := ts.client(ctx).Organization.Stats(ctx, opts)
			if err != nil {
				return nil, err
			}
			users := st.Users[:min(len(st.Users), statsUsers)]
			rows := make([]statsUser, len(users))
			for i, u := range users {
				rows[i] = statsUser{Email: ts.clip(u.Email, rowBytes, "cut"), Name: ts.clip(u.Name, rowBytes, "cut"), PadsCreated: u.PadsCreated}
			}
			return &statsResult{StartTime: st.StartTime, EndTime: st.EndTime, PadsCreated: st.PadsCreated,
				Users: rows, UsersShown: len(users), UsersTotal: len(st.Users)}, nil
		})
}

// listUsers is list_users.
func listUsers(ts *toolset) serverTool {
	return newTool(ts, spec[listUsersArgs]{kind: read, tool: &mcp.Tool{Name: "list_users", Title: "List the organization's users",
		Description: "The organization's users (email, name, teams), or with email just that one. Needs an owner's key."}},
		func(ctx context.Context, a listUsersArgs) (*usersResult, error) {
			var opts *padapi.OrganizationUserListOptions
			if a.Email != "" {
				opts = &padapi.OrganizationUserListOptions{Email: a.Email}
			}
			users, err := ts.client(ctx).Organization.ListUsers(ctx, opts)
			if err != nil {
				return nil, err
			}
			rows, budget := []userRow{}, ts.opts.MaxResultBytes-reserve
			for _, u := range users {
				row := ts.userRows([]padapi.OrganizationUser{u})[0]
				if budget -= jsonLen(fmt.Sprint(row)) + 48; budget < 0 {
					break
				}
				rows = append(rows, row)
			}
			out := &usersResult{Users: rows, Total: len(users)}
			if len(rows) < len(users) {
				out.Truncated = fmt.Sprintf("%d of %d users shown; call list_users with email to look one up", len(rows), len(users))
			}
			return out, nil
		})
}
