// example_test.go: the package's runnable Example (server.go's NewServer over an in-memory transport).

package padmcp_test

import (
	"context"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/padinterview/padapi/padapitest"
	"github.com/padinterview/padapi/padmcp"
)

// The tools served in-process over go-sdk's in-memory transport, against
// padapitest's fake service: a client lists them and calls get_quota.
// Read-only by default: no write tool is listed.
func Example() {
	srv := padapitest.Start() // padapitest.NewServer(t) in a test
	defer srv.Close()
	srv.SetQuota(50, 12)
	c := srv.Client()

	ctx := context.Background()
	serverSide, clientSide := mcp.NewInMemoryTransports()
	s := padmcp.NewServer(c, padmcp.Options{Secrets: []string{srv.APIKey}})
	ss, err := s.Connect(ctx, serverSide, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(tools.Tools), "tools, all read-only:", allReadOnly(tools.Tools))

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_quota", Arguments: map[string]any{}})
	if err != nil {
		log.Fatal(err)
	}
	quota := res.StructuredContent.(map[string]any)
	fmt.Println("pads used:", quota["pads_used"], "of", quota["monthly_pad_limit"], "- remaining:", quota["pads_remaining"])
	// Output:
	// 18 tools, all read-only: true
	// pads used: 12 of 50 - remaining: 38
}

// allReadOnly reports whether every tool says it only reads.
func allReadOnly(tools []*mcp.Tool) bool {
	for _, t := range tools {
		if t.Annotations == nil || !t.Annotations.ReadOnlyHint {
			return false
		}
	}
	return true
}
