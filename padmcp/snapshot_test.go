// snapshot_test.go: every tool's schema against its snapshot in testdata (tools.go).

package padmcp

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the schema snapshots: go test ./padmcp -run TestToolSnapshots -update
var update = flag.Bool("update", false, "rewrite the tool snapshots under testdata/")

// Every tool's name, description, schemas and annotations are snapshotted
// under testdata/<tool>.json, so that a changed tool is a reviewed change,
// not an accident (github-mcp-server's __toolsnaps__).
func TestToolSnapshots(t *testing.T) {
	tools := newToolset(nil, Options{}).all()
	seen := map[string]bool{}
	for _, tool := range tools {
		got, err := json.MarshalIndent(tool.tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, '\n')
		name := tool.tool.Name
		seen[name+".json"] = true
		path := filepath.Join("testdata", name+".json")
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: no snapshot (run with -update to write it): %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed from its snapshot %s (run with -update if the change is meant):\n%s", name, path, got)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, f := range files {
		if !seen[filepath.Base(f)] {
			t.Errorf("%s: a snapshot of no tool", f)
		}
	}
	if len(tools) != 28 {
		t.Errorf("%d tools, want 28", len(tools))
	}
}
