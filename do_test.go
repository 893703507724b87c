package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/padinterview/padapi"
)

func TestDoRawKeepsTheBytes(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	body := `{"status":"OK","id":"A1","notes":null,"drawing":"","extra":[1,2]}`
	mux.HandleFunc("GET /gw/api/pads/A1", func(w http.ResponseWriter, r *http.Request) {
		if got := r.URL.Query().Get("x"); got != "1" {
			t.Errorf("query x = %q, want 1", got)
		}
		respond(w, http.StatusOK, []byte(body))
	})
	var raw json.RawMessage
	if err := c.Do(context.Background(), http.MethodGet, "/api/pads/A1", url.Values{"x": {"1"}}, &raw); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(body, string(raw)); diff != "" {
		t.Errorf("raw body (-want +got):\n%s", diff)
	}
}

func TestDoDecodesAndSendsAForm(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("PUT /gw/api/questions/7", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if got, want := string(b), "question%5Btitle%5D=T"; got != want {
			t.Errorf("body = %q, want %q", got, want)
		}
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":7}`))
	})
	var got struct {
		ID padapi.ID `json:"id"`
	}
	if err := c.Do(context.Background(), http.MethodPut, "/api/questions/7", url.Values{"question[title]": {"T"}}, &got); err != nil {
		t.Fatal(err)
	}
	if got.ID != "7" {
		t.Errorf("ID = %q, want 7", got.ID)
	}
}

func TestDoAPIErrorAndRefusals(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("GET /gw/api/nope", func(w http.ResponseWriter, r *http.Request) {
		respond(w, http.StatusNotFound, []byte(`{"status":"ERROR","message":"gone"}`))
	})
	var raw json.RawMessage
	err := c.Do(context.Background(), http.MethodGet, "/api/nope", nil, &raw)
	if !errors.Is(err, padapi.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
	for _, tc := range []struct{ method, path string }{
		{"PATCH", "/api/quota"}, {"GET", "api/quota"}, {"GET", "/api/../quota"},
		{"GET", "/api/quota?x=1"}, {"GET", "//evil.example/api"}, {"GET", "/api/a b"},
	} {
		err := c.Do(context.Background(), tc.method, tc.path, nil, nil)
		if !errors.Is(err, padapi.ErrInvalidArgument) {
			t.Errorf("Do(%s %s) = %v, want ErrInvalidArgument", tc.method, tc.path, err)
		}
	}
}

func TestDoStatusNotOK(t *testing.T) {
	t.Parallel()
	c := serveBody(t, []byte(`{"status":"ERROR","message":"no"}`), noRetry)
	err := c.Do(context.Background(), http.MethodGet, "/api/quota", nil, nil)
	var ae *padapi.APIError
	if !errors.As(err, &ae) || !strings.Contains(ae.Message, "no") {
		t.Errorf("err = %v, want an *APIError with the message", err)
	}
}
