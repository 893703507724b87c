package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// scripted serves the recorded answers, one per path, with edit applied to
// the body of each (nil: as recorded). Each request must carry the key.
func scripted(t *testing.T, edit func(path string, body map[string]any)) *stub {
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
			if req.Header.Get("Authorization") != `Token token="`+testKey+`"` {
				reply(401, `{"status":"ERROR","message":"Invalid API key"}`)(w, req)
				return
			}
			reply(200, string(b))(w, req)
		}
	}
	return newStub(t, routes)
}

func TestDoctorRecordedShapes(t *testing.T) {
	srv := scripted(t, nil)
	r := padctl(t, srv.env(), "doctor", "--shapes")
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"ok   auth", "ok   clock", "warn https", "ok   shapes    0 differences"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// GETs only, every one below the base URL, none to a link's host.
	// The first is the auth check's.
	reqs := srv.requests()
	if len(reqs) != 1+len(recorded) || reqs[0].path != "/api/quota" {
		t.Fatalf("%d requests, want %d", len(reqs), 1+len(recorded))
	}
	for i, req := range reqs[1:] {
		if req.method != "GET" || req.path != recorded[i].path {
			t.Errorf("request %d: %s %s, want GET %s", i, req.method, req.path, recorded[i].path)
		}
	}
	r = padctl(t, srv.env(), "doctor", "--shapes", "--json")
	var out struct {
		Checks      []check      `json:"checks"`
		Differences []difference `json:"differences"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); r.code != 0 || err != nil || out.Differences == nil || len(out.Differences) != 0 || len(out.Checks) < 6 {
		t.Errorf("--json: exit %d, %v, %+v\n%s", r.code, err, out, r.stdout)
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
	r := padctl(t, srv.env(), "doctor", "--shapes")
	want := []string{
		"GET /api/pads/:id  *  live: string  fake: absent",
		"GET /api/pads/:id  billing_cycle_pad_limit  live: number  fake: absent",
		"GET /api/pads/:id  notes  live: absent  fake: string|null",
		"GET /api/pads/:id  team.id  live: number  fake: string",
		"GET /api/pads/:id/events  events[].user_name  live: string|boolean|null  fake: string|null",
		"GET /api/organization/users  users[].teams[]  live: object  fake: string",
	}
	if r.code != 1 || !slices.Equal(lines(r.stdout), want) {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr:\n%s", r.code, r.stdout, strings.Join(want, "\n"), r.stderr)
	}
	// No value: every string and long number of every answer is absent
	// from stdout and stderr.
	out := r.stdout + r.stderr
	for _, rec := range recorded {
		for _, v := range values(t, readTestdata(t, "recorded/"+rec.file)) {
			if strings.Contains(out, v) {
				t.Errorf("the output shows %q from %s", v, rec.file)
			}
		}
	}
	for _, v := range []string{"hush", "K3P9ZR2A", "Secret", "Platform", "42"} {
		if strings.Contains(r.stdout, v) {
			t.Errorf("the output shows %q", v)
		}
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
	r := padctl(t, map[string]string{"PAD_BASE_URL": srv.URL}, "doctor")
	if r.code != 1 || !strings.Contains(r.stderr, "fail API key") || !strings.Contains(r.stderr, "PAD_API_KEY") || len(srv.requests()) != 0 {
		t.Errorf("no key: exit %d\n%s", r.code, r.stderr)
	}
	// A wrong key: auth fails, with a hint.
	env := srv.env()
	env["PAD_API_KEY"] = "padctl-wrong-Qz7Xw9Kp3Lm"
	if r := padctl(t, env, "doctor"); r.code != 1 || !strings.Contains(r.stderr, "fail auth") || !strings.Contains(r.stderr, "check PAD_API_KEY") {
		t.Errorf("wrong key: exit %d\n%s", r.code, r.stderr)
	}
	// Nothing listening: connect fails, with a hint.
	closed := scripted(t, nil)
	closed.Close()
	r = padctl(t, closed.env(), "doctor")
	if r.code != 1 || !regexp.MustCompile(`fail connect .*\n\s+check the port`).MatchString(r.stderr) {
		t.Errorf("nothing listening: exit %d\n%s", r.code, r.stderr)
	}
	// An odd key warns without failing.
	env = srv.env()
	env["PAD_API_KEY"] = "Token " + testKey
	if r := padctl(t, env, "doctor"); !strings.Contains(r.stderr, "warn API key") {
		t.Errorf("a key with Token: exit %d\n%s", r.code, r.stderr)
	}
	// A service that never answers: doctor keeps to --timeout.
	slow := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": hang})
	start := time.Now()
	r = padctl(t, slow.env(), "doctor", "--timeout", "200ms")
	if r.code != 1 || time.Since(start) > 5*time.Second || !strings.Contains(r.stderr, "fail auth") {
		t.Errorf("a hanging service: exit %d after %s\n%s", r.code, time.Since(start), r.stderr)
	}
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
			srv, env := fake(t)
			setup(srv)
			r := padctl(t, env, "doctor", "--shapes")
			if r.code != 0 || r.stdout != "" {
				t.Errorf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
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
		routes["GET "+r.path] = reply(200, string(b))
	}
	srv := newStub(t, routes)
	r := padctl(t, map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": key}, "doctor", "--shapes")
	if strings.Contains(r.stdout+r.stderr, key) {
		t.Errorf("exit %d: doctor printed the key:\n%s", r.code, r.stdout)
	}
}
