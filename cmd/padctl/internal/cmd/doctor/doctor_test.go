package doctor_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/doctor"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/internal/lib/shapes"
	"github.com/padinterview/padapi/padapitest"
)

// recorded are the recorded live answers (testdata/recorded) by call, and
// the path the scripted server serves each at.
var recorded = []struct{ label, path, file string }{
	{"GET /api/quota", "/api/quota", "quota.json"},
	{"GET /api/pads", "/api/pads", "pads.json"},
	{"GET /api/pads/:id", "/api/pads/K3P9ZR2A", "pad.json"},
	{"GET /api/pads/:id/events", "/api/pads/K3P9ZR2A/events", "events.json"},
	{"GET /api/pad_environments/:id", "/api/pad_environments/98767", "environment.json"},
	{"GET /api/organization", "/api/organization", "organization.json"},
	{"GET /api/organization/stats", "/api/organization/stats", "stats.json"},
	{"GET /api/organization/users", "/api/organization/users", "users.json"},
	{"GET /api/questions", "/api/questions", "questions.json"},
	{"GET /api/questions/:id", "/api/questions/1235", "question.json"},
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scripted serves the recorded answers, one per path, with edit applied to
// the body of each (nil: as recorded). Each request must carry the key.
func scripted(t *testing.T, edit func(path string, body map[string]any)) *cmdtest.Stub {
	routes := map[string]http.HandlerFunc{}
	for _, r := range recorded {
		b := readTestdata(t, "recorded/"+r.file)
		if edit != nil {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			edit(r.path, m)
			b, _ = json.Marshal(m)
		}
		routes["GET "+r.path] = func(w http.ResponseWriter, req *http.Request) {
			if req.Header.Get("Authorization") != `Token token="`+cmdtest.TestKey+`"` {
				cmdtest.Reply(401, `{"status":"ERROR","message":"Invalid API key"}`)(w, req)
				return
			}
			cmdtest.Reply(200, string(b))(w, req)
		}
	}
	return cmdtest.NewStub(t, routes)
}

func TestDoctorRecordedShapes(t *testing.T) {
	srv := scripted(t, nil)
	r := cmdtest.Padctl(t, srv.Env(), "doctor", "--shapes")
	if r.Code != 0 || r.Stdout != "" {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
	}
	for _, want := range []string{"ok   auth", "ok   clock", "warn https", "ok   shapes    0 differences"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	// GETs only, every one below the base URL, none to a link's host.
	// The first is the auth check's, then the v5 checks' (the user, a
	// question's variants: not on this recorded service).
	reqs := srv.Requests()
	v5 := []string{"/api/user", "/api/questions", "/api/questions/1235/variants"}
	if len(reqs) != 1+len(v5)+len(recorded) || reqs[0].Path != "/api/quota" {
		t.Fatalf("%d requests, want %d", len(reqs), 1+len(v5)+len(recorded))
	}
	for i, p := range v5 {
		if reqs[1+i].Path != p {
			t.Errorf("request %d: %s, want %s", 1+i, reqs[1+i].Path, p)
		}
	}
	for _, want := range []string{"skip user      GET /api/user: not on this service (404)", "skip variants  question variants: not on this service (404)"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.Stderr)
		}
	}
	for i, req := range reqs[1+len(v5):] {
		if req.Method != "GET" || req.Path != recorded[i].path {
			t.Errorf("request %d: %s %s, want GET %s", i, req.Method, req.Path, recorded[i].path)
		}
	}
	r = cmdtest.Padctl(t, srv.Env(), "doctor", "--shapes", "--json")
	var out struct {
		Checks      []doctor.Check      `json:"checks"`
		Differences []doctor.Difference `json:"differences"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); r.Code != 0 || err != nil || out.Differences == nil || len(out.Differences) != 0 || len(out.Checks) < 6 {
		t.Errorf("--json: exit %d, %v, %+v\n%s", r.Code, err, out, r.Stdout)
	}
}

// TestDoctorDifferences: a service that differs in known ways gets exactly
// those lines, and no value of its answers shows anywhere.
func TestDoctorDifferences(t *testing.T) {
	srv := scripted(t, func(path string, m map[string]any) {
		switch path {
		case "/api/pads/K3P9ZR2A":
			m["team"].(map[string]any)["id"] = 42 // a number where the fake sends strings
			delete(m, "notes")                    // a field the fake always sends
			m["billing_cycle_pad_limit"] = 120    // a field it never sends
			m["Secret-Field K3P9ZR2A"] = "hush"   // a key made of data
		case "/api/pads/K3P9ZR2A/events":
			m["events"].([]any)[1].(map[string]any)["user_name"] = false
		case "/api/organization/users":
			m["users"].([]any)[0].(map[string]any)["teams"] = []any{map[string]any{"id": "x", "name": "Platform"}}
		}
	})
	r := cmdtest.Padctl(t, srv.Env(), "doctor", "--shapes")
	want := []string{
		"GET /api/pads/:id  *  live: string  fake: absent",
		"GET /api/pads/:id  billing_cycle_pad_limit  live: number  fake: absent",
		"GET /api/pads/:id  notes  live: absent  fake: string|null",
		"GET /api/pads/:id  team.id  live: number  fake: string",
		"GET /api/pads/:id/events  events[].user_name  live: string|boolean|null  fake: string|null",
		"GET /api/organization/users  users[].teams[]  live: object  fake: string",
	}
	if r.Code != 1 || !slices.Equal(cmdtest.Lines(r.Stdout), want) {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", r.Code, r.Stdout, strings.Join(want, "\n"), r.Stderr)
	}
	// No value: every string and long number of every answer is absent
	// from stdout and stderr. The stub's own address is left out first:
	// its port is random, and "901" of a recorded answer once matched it.
	host := strings.TrimPrefix(srv.URL, "http://")
	out := strings.ReplaceAll(r.Stdout+r.Stderr, host, "")
	for _, rec := range recorded {
		for _, v := range values(t, readTestdata(t, "recorded/"+rec.file)) {
			if strings.Contains(out, v) {
				t.Errorf("the output shows %q from %s", v, rec.file)
			}
		}
	}
	for _, v := range []string{"hush", "K3P9ZR2A", "Secret", "Platform", "42"} {
		if strings.Contains(r.Stdout, v) {
			t.Errorf("the output shows %q", v)
		}
	}
}

// A quota answer of 20 000 field names (issue 28 #15: one of a million
// gave a million lines in 15 s) prints at most MaxDiffLines differences
// and one line saying how many more there were, in text and --json. 20 000
// is twice shapes.MaxPaths, so both bounds are crossed; more only costs
// CPU.
func TestDoctorOutputIsBounded(t *testing.T) {
	const n = 2 * shapes.MaxPaths
	srv := scripted(t, func(path string, m map[string]any) {
		if path == "/api/quota" {
			for i := range n {
				m[fmt.Sprintf("field_%d", i)] = i
			}
		}
	})
	// The work is bounded by what is counted, not timed (a timing bound
	// flips on a loaded machine): the warning below says shapes stopped
	// recording at MaxPaths, and internal/lib/shapes' TestAddBoundsThePaths
	// counts what it left out.
	r := cmdtest.Padctl(t, srv.Env(), "doctor", "--shapes")
	lines := cmdtest.Lines(r.Stdout)
	if r.Code != 1 || len(lines) != doctor.MaxDiffLines+1 {
		t.Fatalf("exit %d, %d lines, want %d + 1\nstderr:\n%s", r.Code, len(lines), doctor.MaxDiffLines, r.Stderr)
	}
	last := regexp.MustCompile(`^\.\.\. and (\d+) more differences, left out \(doctor prints at most 1000\)$`).FindStringSubmatch(lines[len(lines)-1])
	if last == nil {
		t.Fatalf("the last line: %q", lines[len(lines)-1])
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "GET /api/quota  field_") {
			t.Fatalf("a difference line: %q", l)
		}
	}
	if !strings.Contains(r.Stderr, "warn shapes    GET /api/quota: more than 10000 field paths") {
		t.Errorf("stderr does not say paths were left out:\n%s", r.Stderr)
	}
	r = cmdtest.Padctl(t, srv.Env(), "doctor", "--shapes", "--json")
	var out struct {
		Differences []doctor.Difference `json:"differences"`
		Omitted     int                 `json:"omitted"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || len(out.Differences) != doctor.MaxDiffLines || fmt.Sprint(out.Omitted) != last[1] {
		t.Errorf("--json: %v, %d differences, %d omitted (text said %s)", err, len(out.Differences), out.Omitted, last[1])
	}
}

// values returns the strings of a JSON document that a leak would show:
// every string value of 4 bytes or more, every number of 3 digits or more.
func values(t *testing.T, doc []byte) []string {
	t.Helper()
	var out []string
	keys := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if len(x) >= 4 && x != "live" && !keys[x] {
				out = append(out, x)
			}
		case float64:
			if x >= 100 {
				out = append(out, strings.TrimSuffix(strings.TrimRight(json.Number(formatNumber(x)).String(), "0"), "."))
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				keys[k] = true
				walk(e)
			}
		}
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	walk(v)
	walk(v) // again, knowing every key: a value that is also a field name shows as one
	return slices.DeleteFunc(out, func(s string) bool { return keys[s] })
}

func formatNumber(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

func TestDoctorChecks(t *testing.T) {
	// No key: a failure that says what to set; the rest is not tried.
	srv := scripted(t, nil)
	r := cmdtest.Padctl(t, map[string]string{"PAD_BASE_URL": srv.URL}, "doctor")
	if r.Code != 1 || !strings.Contains(r.Stderr, "fail API key") || !strings.Contains(r.Stderr, "PAD_API_KEY") || len(srv.Requests()) != 0 {
		t.Errorf("no key: exit %d\n%s", r.Code, r.Stderr)
	}
	// A wrong key: auth fails, with a hint.
	env := srv.Env()
	env["PAD_API_KEY"] = "padctl-wrong-Qz7Xw9Kp3Lm"
	if r := cmdtest.Padctl(t, env, "doctor"); r.Code != 1 || !strings.Contains(r.Stderr, "fail auth") || !strings.Contains(r.Stderr, "check PAD_API_KEY") {
		t.Errorf("wrong key: exit %d\n%s", r.Code, r.Stderr)
	}
	// Nothing listening: connect fails, with a hint.
	closed := scripted(t, nil)
	closed.Close()
	r = cmdtest.Padctl(t, closed.Env(), "doctor")
	if r.Code != 1 || !regexp.MustCompile(`fail connect .*\n\s+check the port`).MatchString(r.Stderr) {
		t.Errorf("nothing listening: exit %d\n%s", r.Code, r.Stderr)
	}
	// An odd key warns without failing.
	env = srv.Env()
	env["PAD_API_KEY"] = "Token " + cmdtest.TestKey
	if r := cmdtest.Padctl(t, env, "doctor"); !strings.Contains(r.Stderr, "warn API key") {
		t.Errorf("a key with Token: exit %d\n%s", r.Code, r.Stderr)
	}
}

// A service that never answers: doctor keeps to --timeout, which covers the
// whole command. The time is fake (synctest), so the 2 s take none and the
// bound is exact: the auth check gives up when the 2 s run out, not at the
// 30 s of padctl's default timeout. The connect check dials a real
// listener (outside the bubble: the kernel accepts into its backlog), and
// the request goes through a transport that, like a service that never
// answers, waits for the request's context to end: a goroutine reading a
// real socket would not let the bubble's clock move.
func TestDoctorKeepsToTimeout(t *testing.T) {
	srv := cmdtest.NewStub(t, nil)
	hang := cmdtest.RoundTrip(func(r *http.Request) (*http.Response, error) {
		<-r.Context().Done()
		return nil, r.Context().Err()
	})
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		r := cmdtest.Invoke(t, cmdtest.Opts{Env: srv.Env(), Transport: hang}, "doctor", "--timeout", "2s")
		if took := time.Since(start); r.Code != 1 || took != 2*time.Second ||
			!regexp.MustCompile(`ok   connect .*\n(.*\n)*fail auth`).MatchString(r.Stderr) {
			t.Errorf("a hanging service: exit %d after %s, want 1 after 2s\n%s", r.Code, took, r.Stderr)
		}
	})
}

// TestDoctorAgainstFakes: pointed at padapitest, whatever it holds, doctor
// finds no difference.
func TestDoctorAgainstFakes(t *testing.T) {
	for name, setup := range map[string]func(*padapitest.Server){
		"empty":     func(*padapitest.Server) {},
		"seeded":    func(s *padapitest.Server) { s.Seed(60); s.SetOmitQuotaCounts(true) },
		"unlimited": func(s *padapitest.Server) { s.Seed(2); s.SetUnlimited(); s.SetOveragesEnabled(true) },
	} {
		t.Run(name, func(t *testing.T) {
			srv, env := cmdtest.Fake(t)
			setup(srv)
			r := cmdtest.Padctl(t, env, "doctor", "--shapes")
			if r.Code != 0 || r.Stdout != "" {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.Code, r.Stdout, r.Stderr)
			}
		})
	}
}

// A hostile service echoes the key as a JSON field name: doctor --shapes
// prints field names, so a key that looks like one (a lower-case hex key
// starting with a letter) is printed.
func TestDoctorKeyAsFieldName(t *testing.T) {
	const key = "a3f9c2e17b4d4e0f9a1c2b3d4e5f6a7b"
	routes := map[string]http.HandlerFunc{}
	for _, r := range recorded {
		b := readTestdata(t, "recorded/"+r.file)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		m[key] = true
		b, _ = json.Marshal(m)
		routes["GET "+r.path] = cmdtest.Reply(200, string(b))
	}
	srv := cmdtest.NewStub(t, routes)
	r := cmdtest.Padctl(t, map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": key}, "doctor", "--shapes")
	if strings.Contains(r.Stdout+r.Stderr, key) {
		t.Errorf("exit %d: doctor printed the key:\n%s", r.Code, r.Stdout)
	}
}

// A certificate the client does not trust: doctor says why, as padctl
// quota does, in text and in --json.
func TestDoctorTLSReason(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	defer srv.Close()
	env := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": cmdtest.TestKey}
	const reason = "x509: certificate signed by unknown authority"
	r := cmdtest.Padctl(t, env, "doctor")
	if r.Code != 1 || !regexp.MustCompile(`(?m)^fail TLS +handshake failed: .*`+reason).MatchString(r.Stderr) ||
		!strings.HasSuffix(r.Stderr, "padctl: doctor: a check failed\n") {
		t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	r = cmdtest.Padctl(t, env, "doctor", "--json")
	var out struct{ Checks []doctor.Check }
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil {
		t.Fatalf("%v\n%s", err, r.Stdout)
	}
	i := slices.IndexFunc(out.Checks, func(c doctor.Check) bool { return c.Name == "TLS" })
	if i < 0 || out.Checks[i].Status != "fail" || !strings.Contains(out.Checks[i].Detail, reason) {
		t.Errorf("--json checks: %+v", out.Checks)
	}
}

// doctor --fake checks padctl's own in-process fake: its plain http is no
// warning. A failure without --shapes says a check failed, not that a
// shape differs.
func TestDoctorFake(t *testing.T) {
	r := cmdtest.Padctl(t, nil, "doctor", "--fake")
	if r.Code != 0 || strings.Contains(r.Stderr, "warn") || !strings.Contains(r.Stderr, "skip https") {
		t.Errorf("exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
	closed := scripted(t, nil)
	closed.Close()
	r = cmdtest.Padctl(t, closed.Env(), "doctor")
	if r.Code != 1 || strings.Contains(r.Stderr, "shape") {
		t.Errorf("a failure without --shapes: exit %d, stderr:\n%s", r.Code, r.Stderr)
	}
}
