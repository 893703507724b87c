// form_test.go: tests of form bodies.

package padapi_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/padinterview/padapi"
)

// Form keys are escaped on the wire: a question's nested keys go as
// question%5Btitle%5D, so no server reads "[" as syntax of the body.
func TestFormKeysEscaped(t *testing.T) {
	t.Parallel()
	c, mux := setup(t, noRetry)
	mux.HandleFunc("POST /gw/api/questions", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if want := "question%5Btitle%5D=a+%26+b&question%5Blanguage%5D=go"; string(b) != want {
			t.Errorf("body %q, want %q", b, want)
		}
		respond(w, http.StatusOK, []byte(`{"status":"OK","id":1}`))
	})
	if _, err := c.Questions.Create(context.Background(), &padapi.QuestionCreateParams{Title: padapi.Ptr("a & b"), Language: padapi.Ptr("go")}); err != nil {
		t.Fatal(err)
	}
}
