// fuzz_test.go: fuzz targets for the decoders, each run through the whole pipeline.

package padapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// The fuzz targets below feed server answers through the whole pipeline
// (status check, size cap, decoding, error building) and check what comes
// out: never a panic, never an error holding more than a bounded slice of the
// body, and the same result as encoding/json on the public types.

const (
	// maxErrorBody is the documented cap of APIError.Body.
	maxErrorBody = 64 << 10
	// maxErrorText bounds the text of an error, leaving out a message the
	// service wrote itself: enough for method, path, status and a short
	// description, far less than a body.
	maxErrorText = 1 << 10
)

// addFiles adds the JSON files of testdata matching pattern as seeds, so
// the documented responses and edge cases seed the fuzzers as they change.
func addFiles(f *testing.F, pattern string) {
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		f.Fatalf("no seeds match testdata/%s (%v)", pattern, err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

// serviceMessage is the "message" the service wrote in body, if any.
func serviceMessage(body []byte) (string, bool) {
	var w struct {
		Message string `json:"message"`
	}
	if padapi.UnmarshalForTest(body, &w) != nil || w.Message == "" {
		return "", false
	}
	return w.Message, true
}

// checkError checks the bounds every error of a call answered with body
// must keep: an *APIError's Body and Message fit the 64 KiB cap, and the
// error's text is short unless it carries the service's own message.
func checkError(t *testing.T, err error, body []byte) {
	t.Helper()
	if err == nil {
		return
	}
	text := err.Error()
	var apiErr *padapi.APIError
	if !errors.As(err, &apiErr) {
		if len(text) > maxErrorText {
			t.Fatalf("error text is %d bytes: %.200q...", len(text), text)
		}
		return
	}
	if _, ok := serviceMessage(body); !ok {
		for _, internal := range []string{"Wire", "Alias", "wireStatus"} {
			if strings.Contains(text, internal) {
				t.Fatalf("error text names an internal type: %.300q", text)
			}
		}
	}
	if len(apiErr.Body) > maxErrorBody {
		t.Fatalf("APIError.Body is %d bytes, over 64 KiB", len(apiErr.Body))
	}
	if len(apiErr.Message) > maxErrorBody {
		t.Fatalf("APIError.Message is %d bytes, over 64 KiB", len(apiErr.Message))
	}
	limit := maxErrorText
	for _, b := range [][]byte{apiErr.Body, body} {
		if msg, ok := serviceMessage(b); ok && strings.HasPrefix(msg, apiErr.Message) {
			limit += len(apiErr.Message)
			break
		}
	}
	if len(text) > limit {
		t.Fatalf("error text is %d bytes, over %d: %.200q...", len(text), limit, text)
	}
	if !bytes.HasPrefix(body, apiErr.Body) {
		t.Fatalf("APIError.Body %.100q is not the start of the body", apiErr.Body)
	}
}

// FuzzQuota decodes a quota with encoding/json and through the pipeline:
// neither panics, both agree (but for a body with no quota in it, which
// only the pipeline refuses), the helpers keep their rules on what
// decodes, and a decoded quota survives a trip through its own JSON.
func FuzzQuota(f *testing.F) {
	addFiles(f, "quota_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var direct padapi.Quota
		directErr := padapi.UnmarshalForTest(body, &direct)
		got, err := c.Quota.Get(answering(http.StatusOK, body))
		checkError(t, err, body)
		if err == nil {
			agree(t, body, got, &direct, directErr)
		} else if directErr == nil && direct.Status == "OK" && !strings.Contains(err.Error(), "the answer has no") {
			t.Fatalf("json.Unmarshal decodes %q with status OK, the pipeline fails: %v", body, err)
		}
		if directErr != nil {
			return
		}
		checkQuotaHelpers(t, &direct)
		roundTrips(t, body, &direct, new(padapi.Quota))
	})
}

// checkQuotaHelpers checks the rules of Quota's helpers on any quota.
func checkQuotaHelpers(t *testing.T, q *padapi.Quota) {
	t.Helper()
	remaining, rok := q.Remaining()
	limit, lok := q.Limit()
	switch {
	case q.Unlimited && (rok || lok):
		t.Fatalf("%+v: unlimited, but Remaining ok %v, Limit ok %v", q, rok, lok)
	case remaining < 0 || (!rok && remaining != 0):
		t.Fatalf("%+v: Remaining() = %d, %v", q, remaining, rok)
	case !lok && limit != 0:
		t.Fatalf("%+v: Limit() = %d, %v", q, limit, lok)
	case !q.CanCreate(0):
		t.Fatalf("%+v: CanCreate(0) is false", q)
	case !rok && !q.CanCreate(1_000_000):
		t.Fatalf("%+v: an unknown or unlimited quota refuses a create", q)
	case rok && !q.CanCreate(remaining):
		t.Fatalf("%+v: CanCreate(Remaining()) is false", q)
	}
}

// agree fails the run when the pipeline decoded body as got but
// encoding/json failed on it (directErr) or found direct instead.
func agree[T any](t *testing.T, body []byte, got, direct T, directErr error) {
	t.Helper()
	if directErr != nil {
		t.Fatalf("the pipeline decodes %q, json.Unmarshal fails: %v", body, directErr)
	}
	if diff := cmp.Diff(direct, got); diff != "" {
		t.Fatalf("%q: pipeline and json.Unmarshal differ (-json +pipeline):\n%s", body, diff)
	}
}

// decodesOK decodes body, which the pipeline accepted, into v with
// encoding/json alone, and fails the run unless that works and *status,
// which v's decode fills, is "OK".
func decodesOK(t *testing.T, body []byte, v any, status *string) {
	t.Helper()
	if err := padapi.UnmarshalForTest(body, v); err != nil {
		t.Fatalf("the pipeline decodes %q, json.Unmarshal fails: %v", body, err)
	}
	if *status != "OK" {
		t.Fatalf("the pipeline accepts %q, whose status is %q", body, *status)
	}
}

// roundTrips marshals v, decodes it into fresh, and wants v back.
func roundTrips[T any](t *testing.T, body []byte, v, fresh *T) {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%q decodes, but does not marshal back: %v", body, err)
	}
	if err := padapi.UnmarshalForTest(out, fresh); err != nil {
		t.Fatalf("%q decodes and marshals as %s, which does not decode: %v", body, out, err)
	}
	if diff := cmp.Diff(v, fresh); diff != "" {
		t.Fatalf("%q: a trip through %s changes it (-before +after):\n%s", body, out, diff)
	}
}

// FuzzPad decodes a pad with encoding/json and through Pads.Get: neither
// panics, both agree, and a decoded pad survives a trip through its JSON.
func FuzzPad(f *testing.F) {
	addFiles(f, "pad_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var direct padapi.Pad
		directErr := padapi.UnmarshalForTest(body, &direct)
		got, err := c.Pads.Get(answering(http.StatusOK, body), "P1")
		checkError(t, err, body)
		if err == nil {
			agree(t, body, got, &direct, directErr)
		}
		if directErr == nil {
			roundTrips(t, body, &direct, new(padapi.Pad))
		}
	})
}

// padPage is a pad list in its wire shape, decoded with encoding/json
// alone.
type padPage struct {
	Status   string       `json:"status"`
	Pads     []padapi.Pad `json:"pads"`
	Total    int          `json:"total"`
	NextPage string       `json:"next_page"`
	PrevPage string       `json:"prev_page"`
}

// FuzzPadsList sends a list page through Pads.List: no panic, bounded
// errors, and a page that decodes holds what encoding/json finds in it.
func FuzzPadsList(f *testing.F) {
	addFiles(f, "pads_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.List(answering(http.StatusOK, body), nil)
		checkError(t, err, body)
		if err != nil {
			return
		}
		var direct padPage
		decodesOK(t, body, &direct, &direct.Status)
		if direct.Pads == nil {
			// The pipeline reads a list under "questions" too, which
			// the service never sends for pads; only "pads" is
			// compared.
			return
		}
		want := &padapi.Page[padapi.Pad]{Items: direct.Pads, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		agree(t, body, page, want, nil)
	})
}

// FuzzErrorBody sends a non-2xx answer with any body through the pipeline:
// the error is always an *APIError with the status code, the first 64 KiB
// of the body, the sentinel of the status, and a bounded text.
func FuzzErrorBody(f *testing.F) {
	for _, status := range []uint16{0, 100, 101, 104, 129, 200, 202, 299} {
		f.Add(status, []byte(`{"status":"ERROR","message":"Over quota"}`))
	}
	for _, name := range []string{"error_over_quota.json", "error_pad_not_found.json", "error_server.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint16(200), b)
	}
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, code uint16, body []byte) {
		status := 300 + int(code)%300 // every 3xx, 4xx and 5xx
		for _, post := range []bool{false, true} {
			ctx := answering(status, body)
			var err error
			if post {
				_, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("t")})
			} else {
				_, err = c.Quota.Get(ctx)
			}
			checkError(t, err, body)
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
				t.Fatalf("status %d, body %q: error %#v, want an *APIError %d", status, body, err, status)
			}
			if want := body[:min(len(body), maxErrorBody)]; !bytes.Equal(apiErr.Body, want) {
				t.Fatalf("status %d: APIError.Body has %d bytes, want the first %d of the body", status, len(apiErr.Body), len(want))
			}
			if !strings.Contains(err.Error(), " "+strconv.Itoa(status)+": ") {
				t.Fatalf("error text %.200q does not name status %d", err.Error(), status)
			}
			if errors.Is(err, padapi.ErrServer) != (status >= 500) {
				t.Fatalf("status %d: errors.Is(err, ErrServer) = %v", status, !(status >= 500))
			}
			if unknown := post && status >= 500; errors.Is(err, padapi.ErrOutcomeUnknown) != unknown {
				t.Fatalf("POST %v, status %d: errors.Is(err, ErrOutcomeUnknown) = %v", post, status, !unknown)
			}
		}
	})
}

// FuzzEnvironment sends any body as the answer to Pads.Environment: no
// panic, bounded errors, the same environment as json.Unmarshal (which
// the pipeline refuses only without status OK or an ID), and a trip
// through its JSON changes nothing.
func FuzzEnvironment(f *testing.F) {
	addFiles(f, "environment_*.json")
	f.Add([]byte(`{"status":"OK","id":"7","file_contents":[null,{"path":"a","binary":null}]}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := c.Pads.Environment(answering(http.StatusOK, body), "98765")
		checkError(t, err, body)
		var direct padapi.PadEnvironment
		directErr := padapi.UnmarshalForTest(body, &direct)
		var status struct {
			Status string `json:"status"`
		}
		_ = padapi.UnmarshalForTest(body, &status)
		switch {
		case err == nil:
			agree(t, body, got, &direct, directErr)
		case directErr == nil && status.Status == "OK" && direct.ID != "":
			t.Fatalf("json.Unmarshal decodes %q, the pipeline fails: %v", body, err)
		}
		if directErr == nil {
			roundTrips(t, body, &direct, new(padapi.PadEnvironment))
		}
	})
}

// eventsPage is an events page in its wire shape, decoded with
// encoding/json alone.
type eventsPage struct {
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
	addFiles(f, "events_*.json")
	f.Add([]byte(`{"status":"OK","events":[null,{"KIND":"ran","metadata":null}],"total":"1"}`))
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		page, err := c.Pads.ListEvents(answering(http.StatusOK, body), "P1", nil)
		checkError(t, err, body)
		if err != nil {
			return
		}
		var direct eventsPage
		decodesOK(t, body, &direct, &direct.Status)
		items := direct.Events
		if items == nil {
			items = []padapi.PadEvent{}
		}
		want := &padapi.Page[padapi.PadEvent]{Items: items, Total: direct.Total, NextPage: direct.NextPage, PrevPage: direct.PrevPage}
		agree(t, body, page, want, nil)
	})
}

// FuzzUsersPage sends any body as the answer to Organization.ListUsers: no
// panic, bounded errors, and the users encoding/json finds.
func FuzzUsersPage(f *testing.F) {
	addFiles(f, "users_*.json")
	c := memoryClient(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		users, err := c.Organization.ListUsers(answering(http.StatusOK, body), &padapi.OrganizationUserListOptions{Email: "a@example.com"})
		checkError(t, err, body)
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
		decodesOK(t, body, &direct, &direct.Status)
		agree(t, body, users, direct.Users, nil)
	})
}
