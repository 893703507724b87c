// pads_environments_test.go: tests of Pads.Environment and the PadEnvironment shapes.

package padapi_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// An environment read must carry the environment: a status alone, an empty
// body or null is an error, never an empty struct; a malformed field is an
// error that names it.
func TestEnvironmentAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, wantErr string
	}{
		{"status only", `{"status":"OK"}`, "the answer has no environment"},
		{"empty body", ``, "the answer has no body"},
		{"null", `null`, `response status ""`},
		{"no id", `{"status":"OK","pad_id":1,"language":"go","file_contents":[]}`, "the answer has no environment"},
		{"a fractional id", `{"status":"OK","id":1.5}`, "1.5"},
		{"a negative pad_id", `{"status":"OK","id":1,"pad_id":-4}`, "-4"},
		{"files as an object", `{"status":"OK","id":1,"file_contents":{"path":"a"}}`, "file_contents"},
		{"a numeric path", `{"status":"OK","id":1,"file_contents":[{"path":7}]}`, "path"},
		{"binary as a string", `{"status":"OK","id":1,"file_contents":[{"path":"a","binary":"yes"}]}`, "binary"},
		{"a bad timestamp", `{"status":"OK","id":1,"updated_at":"5 March"}`, "updated_at"},
		{"status ERROR", `{"status":"ERROR","message":"Environment is gone","id":1}`, "Environment is gone"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := memoryClient(t)
			env, err := c.Pads.Environment(answering(http.StatusOK, []byte(tc.body)), "98765")
			var apiErr *padapi.APIError
			if !errors.As(err, &apiErr) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want an *APIError saying %q", err, tc.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "padapi: GET /api/pad_environments/98765: ") {
				t.Errorf("error %q does not name the request", err)
			}
			if env != nil {
				t.Errorf("environment %+v with the error", env)
			}
		})
	}
}

// Null and absent fields decode as their zero values; unknown fields are
// ignored, at any depth.
func TestEnvironmentNullsAndUnknowns(t *testing.T) {
	t.Parallel()
	body := `{"status":"OK","id":"7","pad_id":null,"question_id":null,"example_question_id":null,"language":null,
		"file_contents":[{"path":"a.txt","contents":null,"history":null,"binary":null,"mode":"0644"},null],
		"created_at":null,"x_new":{"deep":[1,{"file_contents":7}]}}`
	c := memoryClient(t)
	got, err := c.Pads.Environment(answering(http.StatusOK, []byte(body)), "7")
	if err != nil {
		t.Fatal(err)
	}
	want := &padapi.PadEnvironment{ID: "7", Files: []padapi.FileContent{{Path: "a.txt"}, {}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	var direct padapi.PadEnvironment
	if err := padapi.UnmarshalForTest([]byte(body), &direct); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, &direct); diff != "" {
		t.Errorf("json.Unmarshal mismatch (-want +got):\n%s", diff)
	}
}

// The IDs a pad lists are the IDs Environment takes, whatever their JSON
// type: the request goes to the same path.
func TestEnvironmentIDsFromPad(t *testing.T) {
	t.Parallel()
	var pad padapi.Pad
	if err := padapi.UnmarshalForTest([]byte(`{"id":"P1","pad_environment_ids":[98765,"98766"],"active_environment_id":"98765"}`), &pad); err != nil {
		t.Fatal(err)
	}
	c, mux := setup(t, noRetry)
	var paths []string
	mux.HandleFunc("GET /gw/api/pad_environments/{id}", func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.EscapedPath())
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":`+r.PathValue("id")+`}`))
	})
	for _, id := range append(pad.PadEnvironmentIDs, *pad.ActiveEnvironmentID) {
		env, err := c.Pads.Environment(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if env.ID != id {
			t.Errorf("environment %q, want %q", env.ID, id)
		}
	}
	want := []string{"/gw/api/pad_environments/98765", "/gw/api/pad_environments/98766", "/gw/api/pad_environments/98765"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths mismatch (-want +got):\n%s", diff)
	}
}

// An unknown environment is ErrNotFound; a refused ID sends nothing.
func TestEnvironmentErrors(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, fastRetry)
	n := handle(mux, "GET /gw/api/pad_environments/404", http.StatusNotFound, fixture(t, "error_pad_not_found.json"))
	if _, err := c.Pads.Environment(context.Background(), "404"); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("error %v, want ErrNotFound", err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("%d requests for a 404, want 1", got)
	}

	c, mux = setup(t, noRetry)
	n = handle(mux, gwPrefix+"/", http.StatusInternalServerError, []byte(`should not be called`))
	for _, id := range []padapi.ID{"", ".", ".."} {
		if _, err := c.Pads.Environment(context.Background(), id); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Environment(%q): %v, want ErrInvalidArgument", id, err)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests for refused IDs, want 0", got)
	}
}

// An environment read is retried like any GET.
func TestEnvironmentRetried(t *testing.T) {
	t.Parallel()
	c, mt := newMockClient(t)
	mt.RegisterResponder("GET", testBase+"/api/pad_environments/98765",
		httpmock.NewStringResponder(http.StatusBadGateway, "<html>bad gateway</html>").
			Then(httpmock.NewStringResponder(http.StatusOK, string(fixture(t, "environment_live.json")))))
	got, err := c.Pads.Environment(context.Background(), "98765")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(environmentLive(), got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d calls, want 2", n)
	}
}

// Each live shape decodes through its endpoint, which sends exactly the
// request the service takes.
func TestEnvironmentLiveShapes(t *testing.T) {
	t.Parallel()
	runEndpoints(t, []endpointCase{
		{
			name:   "Environment with integer IDs",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "98765") },
			method: "GET", path: "/gw/api/pad_environments/98765",
			file: "environment_live.json", want: environmentLive(),
		},
		{
			name:   "Environment with string IDs",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "98766") },
			method: "GET", path: "/gw/api/pad_environments/98766",
			file: "environment_string_ids.json", want: environmentStringIDs(),
		},
		{
			name:   "Environment ID that needs escaping",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return c.Pads.Environment(ctx, "../pads/X") },
			method: "GET", path: "/gw/api/pad_environments/..%2Fpads%2FX",
			file: "environment_live.json", want: environmentLive(),
		},
	})
}

// mainPy is the final text of main.py in testdata/environment_live.json,
// which testdata/history_live.json replays to.
const mainPy = "def greet():\n    # 你好, cafe\u0301 🎉\n    return 'hi there'\nprint(greet())\n"

// environmentLive is testdata/environment_live.json: integer IDs, a null
// question, null contents and history, a binary file.
func environmentLive() *padapi.PadEnvironment {
	return &padapi.PadEnvironment{
		ID:         "98765",
		PadID:      "4321",
		QuestionID: padapi.Ptr[padapi.ID]("1234"),
		Language:   "python3",
		Files: []padapi.FileContent{
			{Path: "main.py", Contents: mainPy, History: "https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/main.json"},
			{Path: "notes/empty.txt"},
			{Path: "assets/logo.png", Contents: "iVBORw0KGgo=", Binary: true},
			{Path: "README.md", Contents: "# Task\n", History: "https://pad-history.example.firebaseio.com/pads/K3P9ZR2A/readme.json"},
		},
		CreatedAt: time.Date(2024, 3, 5, 10, 15, 30, 123_000_000, time.UTC),
		UpdatedAt: time.Date(2024, 3, 5, 11, 2, 10, 987_000_000, offset(1, 0)),
	}
}

// environmentStringIDs is testdata/environment_string_ids.json: every ID a
// JSON string, no files, offsets without a colon.
func environmentStringIDs() *padapi.PadEnvironment {
	at := time.Date(2024, 3, 5, 10, 15, 30, 0, time.UTC)
	return &padapi.PadEnvironment{
		ID: "98766", PadID: "4321", ExampleQuestionID: padapi.Ptr[padapi.ID]("77"), Language: "go",
		Files: []padapi.FileContent{}, CreatedAt: at, UpdatedAt: at,
	}
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
