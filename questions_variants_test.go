// questions_variants_test.go: tests of the question variant endpoints: JSON bodies, answers with or without a status, refusals.

package padapi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

// variantJSON is a variant as the peers' fixtures show it: no status, a
// null starter, a template's files.
const variantJSON = `{"id":7,"question_id":42,"language":"ruby","project_template_id":3,"project_template_slug":"rails","display":"Ruby","contents":null,"file_contents":[{"path":"app.rb","contents":"puts 1","hidden":true}],"solution":"x","created_at":"2026-09-30T10:00:00Z","updated_at":"2026-10-06T10:00:00+0000"}`

func variantWant() *padapi.QuestionVariant {
	return &padapi.QuestionVariant{
		ID: "7", QuestionID: "42", Language: "ruby", ProjectTemplateID: padapi.Ptr[padapi.ID]("3"),
		ProjectTemplateSlug: padapi.Ptr("rails"), Display: "Ruby",
		Files:     []padapi.VariantFile{{Path: "app.rb", Contents: "puts 1", Hidden: true}},
		Solution:  padapi.Ptr("x"),
		CreatedAt: time.Date(2026, 9, 30, 10, 0, 0, 0, time.UTC),
		UpdatedAt: time.Date(2026, 10, 6, 10, 0, 0, 0, time.UTC),
	}
}

// wireCase is one call, the exact request it must send and the answer it
// gets.
type wireCase struct {
	name         string
	call         func(context.Context, *padapi.Client) (any, error)
	method, path string
	contentType  string // "" for no body
	body         string // the exact body
	status       int
	answer       string
	want         any
}

// runWire runs each case against its own server, which checks the method,
// path, Content-Type and body byte for byte, and answers once.
func runWire(t *testing.T, cases []wireCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, mux := setup(t, noRetry)
			var hits atomic.Int32
			mux.HandleFunc(tc.method+" "+tc.path, func(w http.ResponseWriter, r *http.Request) {
				hits.Add(1)
				b, _ := io.ReadAll(r.Body)
				if ct := r.Header.Get("Content-Type"); ct != tc.contentType {
					t.Errorf("Content-Type %q, want %q", ct, tc.contentType)
				}
				if string(b) != tc.body {
					t.Errorf("body\n%s\nwant\n%s", b, tc.body)
				}
				if got := r.Header.Get("Authorization"); got != `Token token="`+testKey+`"` {
					t.Errorf("Authorization %q", got)
				}
				respond(w, tc.status, []byte(tc.answer))
			})
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("result mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// Every variant call sends the route, the JSON body (null vs "", nil vs
// [] files, a deleted file without contents) and reads its answer with or
// without "status", a list wrapped or bare.
func TestVariantsWire(t *testing.T) {
	t.Parallel()
	const js = "application/json"
	list := []padapi.QuestionVariant{*variantWant()}
	runWire(t, []wireCase{
		{name: "List wrapped, no status", method: "GET", path: "/gw/api/questions/42/variants", status: 200,
			answer: `{"variants":[` + variantJSON + `]}`, want: list,
			call: func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.ListVariants(ctx, "42") }},
		{name: "List bare array", method: "GET", path: "/gw/api/questions/42/variants", status: 200,
			answer: `[` + variantJSON + `]`, want: list,
			call: func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.ListVariants(ctx, "42") }},
		{name: "List with status, null", method: "GET", path: "/gw/api/questions/42/variants", status: 200,
			answer: `{"status":"OK","variants":null}`, want: []padapi.QuestionVariant{},
			call: func(ctx context.Context, c *padapi.Client) (any, error) { return c.Questions.ListVariants(ctx, "42") }},
		{name: "Get escapes IDs", method: "GET", path: "/gw/api/questions/42/variants/..%2F1", status: 200,
			answer: variantJSON, want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.GetVariant(ctx, "42", "../1")
			}},
		{name: "Create with a language", method: "POST", path: "/gw/api/questions/42/variants", status: 201,
			contentType: js, body: `{"language":"ruby"}`, answer: `{"status":"OK",` + variantJSON[1:], want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.CreateVariant(ctx, "42", &padapi.QuestionVariantParams{Language: padapi.Ptr("ruby")})
			}},
		{name: "Create a template variant with files", method: "POST", path: "/gw/api/questions/42/variants", status: 200,
			contentType: js, answer: variantJSON, want: variantWant(),
			body: `{"project_template_id":3,"file_contents":[{"path":"a.rb","contents":"","hidden":true},{"path":"b.rb","deleted":true}],"solution":""}`,
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.CreateVariant(ctx, "42", &padapi.QuestionVariantParams{ProjectTemplateID: padapi.Ptr[padapi.ID]("3"),
					Files:    []padapi.VariantFile{{Path: "a.rb", Hidden: true}, {Path: "b.rb", Contents: "gone", Deleted: true}},
					Solution: padapi.Ptr("")})
			}},
		{name: "Update to the default starter sends null", method: "PUT", path: "/gw/api/questions/42/variants/7", status: 200,
			contentType: js, body: `{"contents":null}`, answer: variantJSON, want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.UpdateVariant(ctx, "42", "7", &padapi.QuestionVariantParams{DefaultContents: true})
			}},
		{name: "Update to a blank starter sends empty", method: "PUT", path: "/gw/api/questions/42/variants/7", status: 200,
			contentType: js, body: `{"language":"go","contents":""}`, answer: variantJSON, want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.UpdateVariant(ctx, "42", "7", &padapi.QuestionVariantParams{Language: padapi.Ptr("go"), Contents: padapi.Ptr("")})
			}},
		{name: "Update with empty files sends []", method: "PUT", path: "/gw/api/questions/42/variants/7", status: 200,
			contentType: js, body: `{"file_contents":[]}`, answer: variantJSON, want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.UpdateVariant(ctx, "42", "7", &padapi.QuestionVariantParams{Files: []padapi.VariantFile{}})
			}},
		{name: "Update with nil params sends {}", method: "PUT", path: "/gw/api/questions/42/variants/7", status: 200,
			contentType: js, body: `{}`, answer: variantJSON, want: variantWant(),
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return c.Questions.UpdateVariant(ctx, "42", "7", nil)
			}},
		{name: "Delete answered 204", method: "DELETE", path: "/gw/api/questions/42/variants/7", status: 204,
			want: nil,
			call: func(ctx context.Context, c *padapi.Client) (any, error) {
				return nil, c.Questions.DeleteVariant(ctx, "42", "7")
			}},
	})
}

// Params that cannot go together, a create without a language or
// template, and bad IDs are refused before anything is sent.
func TestVariantsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	c, _ := setup(t) // any request fails the test
	ctx := context.Background()
	none := []padapi.VariantFile{}
	for name, call := range map[string]func() error{
		"nil create": func() error { _, err := c.Questions.CreateVariant(ctx, "1", nil); return err },
		"create without language": func() error {
			_, err := c.Questions.CreateVariant(ctx, "1", &padapi.QuestionVariantParams{Solution: padapi.Ptr("s")})
			return err
		},
		"contents and default": func() error {
			_, err := c.Questions.UpdateVariant(ctx, "1", "2", &padapi.QuestionVariantParams{Contents: padapi.Ptr(""), DefaultContents: true})
			return err
		},
		"empty files and contents": func() error {
			_, err := c.Questions.UpdateVariant(ctx, "1", "2", &padapi.QuestionVariantParams{Contents: padapi.Ptr("x"), Files: none})
			return err
		},
		"empty files and default": func() error {
			_, err := c.Questions.CreateVariant(ctx, "1", &padapi.QuestionVariantParams{Language: padapi.Ptr("go"), DefaultContents: true, Files: none})
			return err
		},
		"file without path": func() error {
			_, err := c.Questions.UpdateVariant(ctx, "1", "2", &padapi.QuestionVariantParams{Files: []padapi.VariantFile{{}}})
			return err
		},
		"empty language": func() error {
			_, err := c.Questions.CreateVariant(ctx, "1", &padapi.QuestionVariantParams{Language: padapi.Ptr("")})
			return err
		},
		"invalid UTF-8": func() error {
			_, err := c.Questions.CreateVariant(ctx, "1", &padapi.QuestionVariantParams{Language: padapi.Ptr("\xff")})
			return err
		},
		"dot question":       func() error { _, err := c.Questions.ListVariants(ctx, ".."); return err },
		"empty variant":      func() error { _, err := c.Questions.GetVariant(ctx, "1", ""); return err },
		"delete dot variant": func() error { return c.Questions.DeleteVariant(ctx, "1", ".") },
	} {
		if err := call(); !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("%s: err = %v, want ErrInvalidArgument", name, err)
		}
	}
}

// An answer with a status other than OK, without the variant, or with
// nothing is an error; a 404 is ErrNotFound on every variant route, a
// delete of a deleted variant too.
func TestVariantsAnswers(t *testing.T) {
	t.Parallel()
	c := memoryClient(t)
	for _, tt := range []struct {
		status int
		body   string
		want   error
	}{
		{200, `{"status":"ERROR","message":"nope"}`, nil},
		{200, `{"status":"OK"}`, nil},
		{200, `{}`, nil},
		{200, ``, nil},
		{200, `{"id":7,"question_id":1.5}`, nil},
		{404, `{"status":"ERROR","message":"Not found"}`, padapi.ErrNotFound},
	} {
		ctx := answering(tt.status, []byte(tt.body))
		_, err := c.Questions.GetVariant(ctx, "1", "7")
		var ae *padapi.APIError
		if !errors.As(err, &ae) || (tt.want != nil && !errors.Is(err, tt.want)) {
			t.Errorf("GetVariant answered %d %s: err = %v, want an *APIError (%v)", tt.status, tt.body, err, tt.want)
		}
	}
	nf := answering(404, []byte(`{"status":"ERROR","message":"Not found"}`))
	if _, err := c.Questions.UpdateVariant(nf, "1", "7", nil); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("UpdateVariant 404: %v", err)
	}
	if err := c.Questions.DeleteVariant(nf, "1", "7"); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("DeleteVariant 404: %v", err)
	}
	if _, err := c.Questions.ListVariants(nf, "1"); !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("ListVariants 404: %v", err)
	}
	// An update answered with a status alone fetches the variant.
	if _, err := c.Questions.UpdateVariant(answering(200, []byte(`{"status":"OK"}`)), "1", "7", nil); err == nil {
		t.Error("UpdateVariant: the fetch after a status-only answer got a status-only answer, and no error")
	}
}

// An update answered without the variant returns it as fetched after.
func TestUpdateVariantFetchesAfter(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	handle(mux, "PUT /gw/api/questions/42/variants/7", http.StatusNoContent, nil)
	gets := handle(mux, "GET /gw/api/questions/42/variants/7", http.StatusOK, []byte(variantJSON))
	v, err := c.Questions.UpdateVariant(context.Background(), "42", "7", &padapi.QuestionVariantParams{Solution: padapi.Ptr("y")})
	if err != nil || gets.Load() != 1 || !cmp.Equal(v, variantWant()) {
		t.Errorf("UpdateVariant = %+v, %v after %d GETs", v, err, gets.Load())
	}
}

// A create is never sent twice: a 500, a dropped connection or an answer
// without the variant is ErrOutcomeUnknown after one request.
func TestCreateVariantNeverTwice(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]func(http.ResponseWriter){
		"500":  func(w http.ResponseWriter) { respond(w, 500, []byte(`{"status":"ERROR"}`)) },
		"drop": func(w http.ResponseWriter) { panic(http.ErrAbortHandler) },
		"{}":   func(w http.ResponseWriter) { respond(w, 200, []byte(`{}`)) },
	} {
		c, mux := setup(t, fastRetry)
		var n atomic.Int32
		mux.HandleFunc("POST /gw/api/questions/1/variants", func(w http.ResponseWriter, _ *http.Request) {
			n.Add(1)
			answer(w)
		})
		_, err := c.Questions.CreateVariant(context.Background(), "1", &padapi.QuestionVariantParams{Language: padapi.Ptr("go")})
		if !errors.Is(err, padapi.ErrOutcomeUnknown) || n.Load() != 1 {
			t.Errorf("%s: err = %v after %d requests, want ErrOutcomeUnknown after 1", name, err, n.Load())
		}
	}
}

// ListVariants past WithListLimit is ErrListLimit, never a list cut short.
func TestListVariantsLimit(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, padapi.WithListLimit(2))
	handle(mux, "GET /gw/api/questions/1/variants", 200, []byte(`[`+variantJSON+`,`+variantJSON+`,`+variantJSON+`]`))
	vs, err := c.Questions.ListVariants(context.Background(), "1")
	if !errors.Is(err, padapi.ErrListLimit) || vs != nil {
		t.Errorf("ListVariants = %d variants, %v; want ErrListLimit", len(vs), err)
	}
}

// WithDryRun shows the JSON body and sends nothing; WithResponse holds the
// service's bytes; the size cap holds; the key is in no error; a context
// done stops the call.
func TestVariantsPromises(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, padapi.WithMaxResponseBytes(int64(len(variantJSON))+10), noRetry)
	handle(mux, "GET /gw/api/questions/1/variants/7", 200, []byte(variantJSON))
	handle(mux, "GET /gw/api/questions/1/variants/8", 200, []byte(`{"id":7,"pad":"`+strings.Repeat("x", len(variantJSON))+`"}`))
	handle(mux, "GET /gw/api/questions/1/variants/9", 200, []byte(`{"id":7,"contents":`+testKey+`}`))

	var req padapi.Request
	_, err := c.Questions.UpdateVariant(padapi.WithDryRun(context.Background(), &req), "1", "2", &padapi.QuestionVariantParams{DefaultContents: true})
	if !errors.Is(err, padapi.ErrDryRun) || req.Method != "PUT" || req.Path != "/api/questions/1/variants/2" ||
		req.ContentType != "application/json" || string(req.Body) != `{"contents":null}` {
		t.Errorf("dry run: %v, %+v", err, req)
	}
	var resp padapi.Response
	if _, err := c.Questions.GetVariant(padapi.WithResponse(context.Background(), &resp), "1", "7"); err != nil || string(resp.Body) != variantJSON {
		t.Errorf("WithResponse: %v, %q", err, resp.Body)
	}
	if _, err := c.Questions.GetVariant(context.Background(), "1", "8"); !errors.Is(err, padapi.ErrResponseTooLarge) {
		t.Errorf("over the cap: %v", err)
	}
	_, err = c.Questions.GetVariant(context.Background(), "1", "9")
	if err == nil || strings.Contains(err.Error(), testKey) || strings.Contains(string(err.(*padapi.APIError).Body), testKey) {
		t.Errorf("a body with the key: %v", err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	if _, err := c.Questions.ListVariants(ctx, "1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a past deadline: %v", err)
	}
	// A service that never answers: the caller's context ends the call.
	started := make(chan struct{})
	mux.HandleFunc("POST /gw/api/questions/1/variants", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // so that the server sees the hang-up
		close(started)
		waitHangUp(t, r)
	})
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	if _, err := c.Questions.CreateVariant(ctx, "1", &padapi.QuestionVariantParams{Language: padapi.Ptr("go")}); !errors.Is(err, context.Canceled) || !errors.Is(err, padapi.ErrOutcomeUnknown) {
		t.Errorf("a create cancelled while the service holds it: %v, want context.Canceled and ErrOutcomeUnknown", err)
	}
}
