// quota_internal_test.go: quota.go's run function, from inside the package.

package quota

import (
	"context"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/padapitest"
)

// quotaRun alone, without the root: test streams and a client of the fake.
func TestQuotaRun(t *testing.T) {
	srv := padapitest.NewServer(t)
	srv.SetQuota(50, 12)
	for _, tc := range []struct {
		json bool
		want string
	}{
		{false, "12\t50\t38\tfalse\t"},
		{true, `"pads_used": 12`},
	} {
		ios, _, out, errOut := iostreams.Test()
		o := &QuotaOptions{IO: ios, Client: func() (*padapi.Client, error) { return srv.Client(), nil }, Ctx: context.Background(), JSON: tc.json}
		if err := quotaRun(o); err != nil || errOut.Len() != 0 || !strings.Contains(out.String(), tc.want) {
			t.Errorf("json %v: %v, stdout %q, stderr %q; want %q", tc.json, err, out, errOut, tc.want)
		}
	}
}
