package padapi_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// The email goes in the query escaped, so that a '+' in it stays a plus
// rather than becoming a space on the server; an empty email sends no
// query at all.
func TestListUsersEmailQuery(t *testing.T) {
	for _, tc := range []struct {
		email, rawQuery string
	}{
		{"sam+pads@example.com", "email=sam%2Bpads%40example.com"},
		{"a&b=c@example.com", "email=a%26b%3Dc%40example.com"},
		{"", ""},
	} {
		c, mux := setup(t, noRetry)
		var raw, email string
		mux.HandleFunc("GET /gw/api/organization/users", func(w http.ResponseWriter, r *http.Request) {
			raw, email = r.URL.RawQuery, r.URL.Query().Get("email")
			respond(w, http.StatusOK, fixture(t, "users_one.json"))
		})
		if _, err := c.Organization.ListUsers(context.Background(), &padapi.OrganizationUserListOptions{Email: tc.email}); err != nil {
			t.Fatal(err)
		}
		if raw != tc.rawQuery || email != tc.email {
			t.Errorf("Email %q: query %q (email %q), want %q", tc.email, raw, email, tc.rawQuery)
		}
	}
}

// The users list is one answer, not pages: every user comes back, however
// many, and an empty list is no error.
func TestListUsersSizes(t *testing.T) {
	for _, n := range []int{0, 1, 50, 51, 240} {
		users := make([]string, n)
		want := make([]padapi.OrganizationUser, n)
		for i := range n {
			users[i] = fmt.Sprintf(`{"email":"u%d@example.com","name":"User %d","teams":["T%d"]}`, i, i, i%3)
			want[i] = padapi.OrganizationUser{Email: fmt.Sprintf("u%d@example.com", i), Name: fmt.Sprintf("User %d", i), Teams: []string{fmt.Sprintf("T%d", i%3)}}
		}
		body := `{"status":"OK","users":[` + strings.Join(users, ",") + `]}`
		got, err := memoryClient(t).Organization.ListUsers(answering(http.StatusOK, []byte(body)), nil)
		if err != nil {
			t.Fatalf("%d users: %v", n, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d users: mismatch (-want +got):\n%s", n, diff)
		}
	}
}

// A users answer must carry its "users" list; a list of the wrong shape
// is a decode error; the service's refusals keep their sentinels.
func TestListUsersErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		is     error
		want   string
	}{
		{"no users key", 200, `{"status":"OK"}`, nil, `the answer has no "users" list`},
		{"users as an object", 200, `{"status":"OK","users":{"email":"a"}}`, nil, "users"},
		{"teams as a string", 200, `{"status":"OK","users":[{"email":"a","teams":"Platform"}]}`, nil, "teams"},
		{"forbidden", 403, `{"status":"ERROR","message":"Only organization owners can do that","code":"Forbidden"}`, padapi.ErrForbidden, "Only organization owners"},
		{"unauthorized", 401, `{"status":"ERROR","message":"Invalid API key"}`, padapi.ErrUnauthorized, "Invalid API key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := memoryClient(t).Organization.ListUsers(answering(tc.status, []byte(tc.body)), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != tc.status || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want an *APIError %d saying %q", err, tc.status, tc.want)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v, want %v", err, tc.is)
			}
			if apiErr.Path != "/api/organization/users" || strings.Contains(err.Error(), "a@example.com") {
				t.Errorf("error %q (path %q): want the path without its query", err, apiErr.Path)
			}
			if got != nil {
				t.Errorf("users %+v with the error", got)
			}
		})
	}
}
