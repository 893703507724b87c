// user.go: User and GET /api/user.

package padapi

import (
	"context"
	"net/http"
)

// User is whose API key the client holds.
type User struct {
	// Name is the user's name; nil when the service has none.
	Name *string `json:"name"`
	// AllowPadCreation reports whether the user may create pads.
	AllowPadCreation bool `json:"allow_pad_creation"`
	// AnalyticsID is the service's opaque ID of the user.
	AnalyticsID string `json:"analytics_id"`
}

// Get returns the user whose key this is (GET /api/user): the natural
// first call of a tool that acts for a person. A wrong key is an error
// matching ErrUnauthorized, as on every endpoint.
func (s *UserService) Get(ctx context.Context) (*User, error) {
	return get[User](ctx, s.client, &request{method: http.MethodGet, path: "/api/user", what: "user", bare: true})
}
