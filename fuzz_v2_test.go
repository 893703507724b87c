package padapi_test

// Fuzz targets for the decoders of the post-interview endpoints
// (environments, events pages, users; those of edit history and its
// replay are in pads_history_test.go). Each feeds any body through the
// whole pipeline (memoryClient) and through encoding/json: neither panics,
// errors stay bounded and name no internal type, and both agree on what
// decodes.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
)

// FuzzEnvironment sends any body as the answer to Pads.Environment: no
// panic, bounded errors, the same environment as json.Unmarshal (which
// the pipeline refuses only without status OK or an ID), and a trip
// through its JSON changes nothing.
func FuzzEnvironment(f *testing.F) {
	rlAddFiles(f, "environment_*.json")
	f.Add([]byte(`{"status":"OK","id":"7","file_contents":[null,{"path":"a","binary":null}]}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := c.Pads.Environment(answering(http.StatusOK, body), "98765")
		rlCheckError(t, err, body)
		var direct padapi.PadEnvironment
		directErr := padapi.UnmarshalForTest(body, &direct)
		var status struct {
			Status string `json:"status"`
		}
		_ = padapi.UnmarshalForTest(body, &status)
		switch {
		case err == nil:
			rlAgree(t, body, got, &direct, directErr)
		case directErr == nil && status.Status == "OK" && direct.ID != "":
			t.Fatalf("json.Unmarshal decodes %q, the pipeline fails: %v", body, err)
		}
		if directErr == nil {
			rlRoundTrip(t, body, &direct, new(padapi.PadEnvironment))
		}
	})
}

// ltEventsPage is an events page in its wire shape, decoded with
// encoding/json alone.
type ltEventsPage struct {
	Status   string            `json:"status"`
	Events   []padapi.PadEvent `json:"events"`
	Total    int               `json:"total"`
	NextPage string            `json:"next_page"`
	PrevPage string            `json:"prev_page"`
}

// FuzzEventsPage sends any body as the answer to Pads.ListEvents: no
// panic, bounded errors, and a page that decodes holds what encoding/json
// finds under "events".
func FuzzEventsPage(f *testing.F) {
	rlAddFiles(f, "events_*.json")
	f.Add([]byte(`{"status":"OK","events":[null,{"KIND":"ran","metadata":null}],"total":"1"}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.ListEvents(answering(http.StatusOK, body), "P1", nil)
		rlCheckError(t, err, body)
		if err != nil {
			return
		}
		var direct ltEventsPage
		rlDecodesOK(t, body, &direct, &direct.Status)
		items := direct.Events
		if items == nil {
			items = []padapi.PadEvent{}
		}
		want := &padapi.Page[padapi.PadEvent]{Items: items, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		rlAgree(t, body, page, want, nil)
	})
}

// FuzzUsersPage sends any body as the answer to Organization.ListUsers: no
// panic, bounded errors, and the users encoding/json finds.
func FuzzUsersPage(f *testing.F) {
	rlAddFiles(f, "users_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := c.Organization.ListUsers(answering(http.StatusOK, body), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
		rlCheckError(t, err, body)
		if err != nil {
			if strings.Contains(err.Error(), "a@example.com") {
				t.Fatalf("error quotes the query: %q", err)
			}
			return
		}
		var direct struct {
			Status string                    `json:"status"`
			Users  []padapi.OrganizationUser `json:"users"`
		}
		rlDecodesOK(t, body, &direct, &direct.Status)
		rlAgree(t, body, users, direct.Users, nil)
	})
}
