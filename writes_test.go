package padapi_test

// Pad deletes, pad notes, and question writes with files or a zip archive.

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/padinterview/padapi"
)

// ltZip returns a zip archive holding files (path, contents), written with
// the bytes a multipart boundary or a line end could be confused with.
func ltZip(t *testing.T, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		f, err := w.Create(files[i])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(f, files[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// ltFiles is a multi-file question's files, with characters that JSON
// escapes and one outside the BMP.
var ltFiles = []padapi.QuestionFile{
	{Path: "src/main.py", Contents: "print(\"hi\")\n"},
	{Path: "README.md", Contents: "# <Task> & 👋"},
}

// ltFilesJSON is ltFiles as the question[file_contents] value: JSON, as
// encoding/json writes it.
const ltFilesJSON = `[{"path":"src/main.py","contents":"print(\"hi\")\n"},{"path":"README.md","contents":"# \u003cTask\u003e \u0026 👋"}]`

func TestWritesEndpoints(t *testing.T) {
	archive := ltZip(t, "main.py", "print('hi')\r\n--boundary\r\n", "data/\x00bin", "\x00\x01\xff")
	runEndpoints(t, []endpointCase{
		{
			name:   "Delete a pad",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Pads.Delete(ctx, "DM32JWG2") },
			method: "PUT", path: "/gw/api/pads/DM32JWG2",
			form: url.Values{"deleted": {"true"}},
			file: "delete_ok.json", want: nil,
		},
		{
			// The service may answer a delete with the pad: still success.
			name:   "Delete a pad answered with the pad",
			call:   func(ctx context.Context, c *padapi.Client) (any, error) { return nil, c.Pads.Delete(ctx, "a/b") },
			method: "PUT", path: "/gw/api/pads/a%2Fb",
			form: url.Values{"deleted": {"true"}},
			file: "pad_live.json", want: nil,
		},
		{
			name: "Create a pad with notes",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Backend screen"), Notes: padapi.Ptr("Ask about queues & caching\n- retries")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"title": {"Backend screen"}, "notes": {"Ask about queues & caching\n- retries"}},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			// Empty notes are set, so they are sent.
			name: "Create a pad with empty notes",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Pads.Create(ctx, &padapi.PadCreateParams{Notes: padapi.Ptr("")})
			},
			method: "POST", path: "/gw/api/pads",
			form: url.Values{"notes": {""}},
			file: "pad_live.json", want: epPadLive(),
		},
		{
			name: "Create a multi-file question",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{Title: padapi.Ptr("Two files"), Language: padapi.Ptr("python3"), Files: ltFiles})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{"question[title]": {"Two files"}, "question[language]": {"python3"}, "question[file_contents]": {ltFilesJSON}},
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Update a question's files",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Files: ltFiles})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[file_contents]": {ltFilesJSON}},
			file: "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Create a question from a zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Create(ctx, &padapi.QuestionCreateParams{
					Title: padapi.Ptr("Zipped"), Language: padapi.Ptr("python3"), AIAssistPrompt: padapi.Ptr("Hints only."), Zip: archive,
				})
			},
			method: "POST", path: "/gw/api/questions",
			form: url.Values{
				"question[title]":                          {"Zipped"},
				"question[language]":                       {"python3"},
				"question[ai_assist_custom_system_prompt]": {"Hints only."},
			},
			files: map[string][2]string{"question[zip_file]": {"question.zip", string(archive)}},
			file:  "question_live.json", want: epQuestionLive(),
		},
		{
			name: "Update a question from a zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Zip: archive})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form:  url.Values{},
			files: map[string][2]string{"question[zip_file]": {"question.zip", string(archive)}},
			file:  "question_live.json", want: epQuestionLive(),
		},
		{
			// An empty archive is no archive: the body stays a form.
			name: "Update with an empty zip",
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.Update(ctx, "1234", &padapi.QuestionUpdateParams{Title: padapi.Ptr("t"), Zip: []byte{}})
			},
			method: "PUT", path: "/gw/api/questions/1234",
			form: url.Values{"question[title]": {"t"}},
			file: "question_live.json", want: epQuestionLive(),
		},
	})
}

// Every answer the service gives a delete that means "done" is success:
// the status alone, an empty body, a 204, the pad. Anything else is an
// error that keeps its sentinel.
func TestPadsDeleteAnswers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		is     error // nil: success
		errAny bool  // an error without a sentinel
	}{
		{"status only", 200, `{"status":"OK"}`, nil, false},
		{"empty 200", 200, ``, nil, false},
		{"white space", 200, " \n", nil, false},
		{"204", 204, ``, nil, false},
		{"the pad", 200, okPad, nil, false},
		{"status ERROR", 200, `{"status":"ERROR","message":"Pad is locked"}`, nil, true},
		{"not JSON", 200, `<html>ok</html>`, nil, true},
		{"not found", 404, `{"status":"ERROR","message":"Pad not found"}`, padapi.ErrNotFound, false},
		{"forbidden", 403, `{"status":"ERROR","message":"Not your pad"}`, padapi.ErrForbidden, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mux := setup(t, noRetry)
			mux.HandleFunc("PUT /gw/api/pads/DM32JWG2", func(w http.ResponseWriter, r *http.Request) {
				if err := r.ParseForm(); err != nil || r.PostForm.Encode() != "deleted=true" {
					t.Errorf("form %q (%v), want deleted=true", r.PostForm.Encode(), err)
				}
				if tc.body == "" {
					w.WriteHeader(tc.status)
					return
				}
				respond(w, tc.status, []byte(tc.body))
			})
			err := c.Pads.Delete(context.Background(), "DM32JWG2")
			switch {
			case tc.is == nil && !tc.errAny:
				if err != nil {
					t.Errorf("error %v, want success", err)
				}
			case tc.errAny:
				var apiErr *padapi.APIError
				if !errors.As(err, &apiErr) {
					t.Errorf("error %v, want an *APIError", err)
				}
			default:
				if !errors.Is(err, tc.is) {
					t.Errorf("error %v, want %v", err, tc.is)
				}
			}
		})
	}
}

// A delete is retried after a 5xx with the same body, and a refused ID
// sends nothing.
func TestPadsDeleteRetriedAndRefused(t *testing.T) {
	c, mt := newMockClient(t)
	var mu sync.Mutex
	var bodies []string
	record := func(status int, body string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			bodies = append(bodies, r.Header.Get("Content-Type")+" "+string(b))
			mu.Unlock()
			return httpmock.NewStringResponse(status, body), nil
		}
	}
	mt.RegisterResponder("PUT", padsURL+"/DM32JWG2", record(503, "busy").Then(record(200, `{"status":"OK"}`)))
	if err := c.Pads.Delete(context.Background(), "DM32JWG2"); err != nil {
		t.Fatal(err)
	}
	want := []string{"application/x-www-form-urlencoded deleted=true", "application/x-www-form-urlencoded deleted=true"}
	if diff := cmp.Diff(want, bodies); diff != "" {
		t.Errorf("attempts mismatch (-want +got):\n%s", diff)
	}

	c2, n := countingClient(t)
	for _, id := range []padapi.ID{"", ".", ".."} {
		if err := c2.Pads.Delete(context.Background(), id); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Delete(%q): %v, want ErrInvalidArgument", id, err)
		}
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}

// ltPart is one part of a multipart body.
type ltPart struct {
	Name, Filename, ContentType, Body string
}

// ltParts reads a multipart/form-data request body into its parts.
func ltParts(t *testing.T, contentType string, body []byte) []ltPart {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		t.Fatalf("Content-Type %q, want multipart/form-data with a boundary", contentType)
	}
	var parts []ltPart
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, ltPart{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), string(b)})
	}
}

// The zip goes as a file part that Rails treats as an upload: field
// question[zip_file], a filename, Content-Type application/zip, the bytes
// exactly. A retried update sends the same body again.
func TestQuestionZipPart(t *testing.T) {
	archive := ltZip(t, "src/app.go", "package main\n", "go.mod", "module x\n")
	c, mt := newMockClient(t)
	var mu sync.Mutex
	var attempts [][2]string // Content-Type and body of each attempt
	record := func(status int, body string) httpmock.Responder {
		return func(r *http.Request) (*http.Response, error) {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			attempts = append(attempts, [2]string{r.Header.Get("Content-Type"), string(b)})
			mu.Unlock()
			return httpmock.NewStringResponse(status, body), nil
		}
	}
	mt.RegisterResponder("PUT", testBase+"/api/questions/1234",
		record(502, "bad gateway").Then(record(200, string(fixture(t, "question_live.json")))))
	_, err := c.Questions.Update(context.Background(), "1234", &padapi.QuestionUpdateParams{
		Title: padapi.Ptr("Go service"), Language: padapi.Ptr("go"), Zip: archive,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(attempts))
	}
	if attempts[0] != attempts[1] {
		t.Errorf("the retry sent another body:\n%q\n%q", attempts[0], attempts[1])
	}
	want := []ltPart{
		{Name: "question[title]", Body: "Go service"},
		{Name: "question[language]", Body: "go"},
		{Name: "question[zip_file]", Filename: "question.zip", ContentType: "application/zip", Body: string(archive)},
	}
	if diff := cmp.Diff(want, ltParts(t, attempts[0][0], []byte(attempts[0][1]))); diff != "" {
		t.Errorf("parts mismatch (-want +got):\n%s", diff)
	}
	// What the upload carries is the archive, whole.
	zr, err := zip.NewReader(strings.NewReader(ltParts(t, attempts[1][0], []byte(attempts[1][1]))[2].Body), int64(len(archive)))
	if err != nil || len(zr.File) != 2 || zr.File[0].Name != "src/app.go" {
		t.Errorf("the uploaded archive does not read back: %v", err)
	}
}

// Contents, Files and Zip are three ways to give a question's code: any
// two together are refused before anything is sent, on create and update.
func TestQuestionCodeExclusive(t *testing.T) {
	contents, zipped := padapi.Ptr("print(1)"), []byte("PK\x03\x04")
	files := []padapi.QuestionFile{{Path: "a.py", Contents: "x"}}
	combos := map[string]padapi.QuestionUpdateParams{
		"contents and files":  {Contents: contents, Files: files},
		"contents and zip":    {Contents: contents, Zip: zipped},
		"files and zip":       {Files: files, Zip: zipped},
		"all three":           {Contents: contents, Files: files, Zip: zipped},
		"empty contents, zip": {Contents: padapi.Ptr(""), Zip: zipped},
	}
	c, n := countingClient(t)
	ctx := context.Background()
	for name, p := range combos {
		_, err := c.Questions.Update(ctx, "1", &p)
		if !errors.Is(err, padapi.ErrInvalidArgument) || !strings.Contains(err.Error(), "at most one of Contents, Files and Zip") {
			t.Errorf("Update with %s: %v, want ErrInvalidArgument", name, err)
		}
		create := padapi.QuestionCreateParams{Title: padapi.Ptr("t"), Language: padapi.Ptr("go"), Contents: p.Contents, Files: p.Files, Zip: p.Zip}
		if _, err := c.Questions.Create(ctx, &create); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Create with %s: %v, want ErrInvalidArgument", name, err)
		}
	}
	// A zip does not make up for a missing title.
	if _, err := c.Questions.Create(ctx, &padapi.QuestionCreateParams{Language: padapi.Ptr("go"), Zip: zipped}); !errors.Is(err, padapi.ErrInvalidArgument) {
		t.Errorf("Create with a zip and no title: %v, want ErrInvalidArgument", err)
	}
	if got := n.Load(); got != 0 {
		t.Errorf("%d requests, want 0", got)
	}
}
