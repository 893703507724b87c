package doctor_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

// Against the fake, doctor finds whose key it is and the question
// variants; with the variant routes made to 404 by a fault it says they
// are not on this service, and still passes; with no question it cannot
// ask, and says so.
func TestDoctorV5Endpoints(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	r := cmdtest.Padctl(t, env, "doctor")
	if r.Code != 0 || !strings.Contains(r.Stderr, "skip variants  no question to ask for its variants") ||
		!strings.Contains(r.Stderr, "ok   user      GET /api/user: name, allow_pad_creation, analytics_id") {
		t.Errorf("no question: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	srv.AddQuestion(padapi.Question{Title: "q", Language: "go"})
	r = cmdtest.Padctl(t, env, "doctor")
	if r.Code != 0 || !strings.Contains(r.Stderr, "ok   variants  question variants: on this service") {
		t.Errorf("with variants: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	srv.FailNext("GET /api/questions/{id}/variants", 1, http.StatusNotFound, "")
	r = cmdtest.Padctl(t, env, "doctor")
	if r.Code != 0 || !strings.Contains(r.Stderr, "skip variants  question variants: not on this service (404)") {
		t.Errorf("variants 404: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	srv.FailNext("GET /api/questions/{id}/variants", 1, http.StatusInternalServerError, "")
	srv.FailNext("GET /api/user", 1, http.StatusNotFound, "")
	r = cmdtest.Padctl(t, env, "doctor", "--json")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"name": "user"`) || !strings.Contains(r.Stdout, "GET /api/user: not on this service (404)") {
		t.Errorf("user 404, --json: exit %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// An answer of /api/user of another shape fails doctor with the fields
// and kinds that differ, and no value of the answer anywhere.
func TestDoctorUserShape(t *testing.T) {
	for body, want := range map[string]string{
		`{"name":7,"allow_pad_creation":"Secret-Value"}`:                                         "name is number, want string|null; allow_pad_creation is string, want boolean; analytics_id is absent, want string",
		`{"status":"ERROR","name":null,"allow_pad_creation":true,"analytics_id":"Secret-Value"}`: "GET /api/user: answered 200",
		`["Secret-Value"]`: "GET /api/user: answered 200",
	} {
		s := cmdtest.NewStub(t, map[string]http.HandlerFunc{
			"GET /api/quota": cmdtest.Reply(200, `{"status":"OK","pads_used":1,"quota_reset_at":"2026-01-01T00:00:00Z","unlimited":true}`),
			"GET /api/user":  cmdtest.Reply(200, body),
		})
		r := cmdtest.Padctl(t, s.Env(), "doctor")
		if r.Code != 1 || !strings.Contains(r.Stderr, "fail user") || !strings.Contains(r.Stderr, want) || strings.Contains(r.Stderr+r.Stdout, "Secret-Value") {
			t.Errorf("%s: exit %d, stderr:\n%s", body, r.Code, r.Stderr)
		}
	}
}
