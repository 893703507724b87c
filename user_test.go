// user_test.go: tests of GET /api/user.

package padapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/padinterview/padapi"
)

// User.Get reads whose key this is, with or without a status; a status
// other than OK, an empty object and a 401 are errors.
func TestUserGet(t *testing.T) {
	t.Parallel()
	runWire(t, []wireCase{
		{name: "User without status", method: "GET", path: "/gw/api/user", status: 200,
			answer: `{"name":null,"allow_pad_creation":true,"analytics_id":"u-1"}`,
			want:   &padapi.User{AllowPadCreation: true, AnalyticsID: "u-1"},
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.User.Get(ctx) }},
		{name: "User with status", method: "GET", path: "/gw/api/user", status: 200,
			answer: `{"status":"OK","name":"Ada","allow_pad_creation":false,"analytics_id":"u-2"}`,
			want:   &padapi.User{Name: padapi.Ptr("Ada"), AnalyticsID: "u-2"},
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.User.Get(ctx) }},
	})
	c := memoryClient(t)
	for _, body := range []string{`{"status":"ERROR"}`, `{}`, `[]`, ``, `{"allow_pad_creation":"yes"}`} {
		if _, err := c.User.Get(answering(200, []byte(body))); err == nil {
			t.Errorf("User.Get answered %q: no error", body)
		}
	}
	if _, err := c.User.Get(answering(401, []byte(`{"status":"ERROR","message":"Invalid API key"}`))); !errors.Is(err, padapi.ErrUnauthorized) {
		t.Errorf("User.Get 401: %v", err)
	}
}
