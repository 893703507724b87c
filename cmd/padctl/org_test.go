package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

func TestOrg(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/organization": reply(200, `{"status":"OK","id":5,"organization_name":"Acme",
		"user_count":2,"users":[{"email":"a@acme.test","name":"Ada"}],"default_language":"python",
		"single_sign_on_supported":true,"single_sign_in_url":"https://sso.acme.test"}`)})
	r := padctl(t, s.env(), "org")
	ok(t, r)
	if want := "Acme\t2\tpython\ttrue\t5\n"; r.stdout != want {
		t.Errorf("piped: %q, want %q", r.stdout, want)
	}
	r = invoke(t, opts{env: s.env(), tty: true}, "org")
	ok(t, r)
	if !strings.Contains(r.stdout, "Single sign-on:    yes\n") || !strings.Contains(r.stdout, "Sign-in URL:       https://sso.acme.test\n") {
		t.Errorf("on a terminal:\n%s", r.stdout)
	}
}

func TestOrgUsers(t *testing.T) {
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/organization/users": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("email") == "ada@acme.test" {
			reply(200, `{"status":"OK","users":[{"email":"ada@acme.test","name":"Ada","teams":["Backend","Hiring"]}]}`)(w, r)
			return
		}
		reply(200, `{"status":"OK","users":[{"email":"ada@acme.test","name":"Ada","teams":["Backend","Hiring"]},{"email":"alan@acme.test","name":"Alan"}]}`)(w, r)
	}})
	r := padctl(t, s.env(), "org", "users")
	ok(t, r)
	if want := "ada@acme.test\tAda\tBackend, Hiring\nalan@acme.test\tAlan\t\n"; r.stdout != want {
		t.Errorf("all: %q, want %q", r.stdout, want)
	}
	r = padctl(t, s.env(), "org", "users", "--email", "ada@acme.test")
	ok(t, r)
	if r.stdout != "ada@acme.test\tAda\tBackend, Hiring\n" {
		t.Errorf("--email: %q", r.stdout)
	}
	if reqs := s.requests(); reqs[0].query["email"] != nil || reqs[1].query["email"][0] != "ada@acme.test" {
		t.Errorf("queries %v, %v", reqs[0].query, reqs[1].query)
	}
}

func TestOrgStats(t *testing.T) {
	srv, env := fake(t)
	at := time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC)
	srv.AddPad(padapi.Pad{OwnerEmail: "owner@example.com", CreatedAt: at})
	srv.AddPad(padapi.Pad{OwnerEmail: "owner@example.com", CreatedAt: at.Add(time.Hour)})

	r := padctl(t, env, "org", "stats", "--start", "2026-05-01", "--end", "2026-05-08T00:00:00Z")
	ok(t, r)
	f := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\t")
	if len(lines(r.stdout)) != 1 || len(f) != 3 || f[0] != "owner@example.com" || f[2] != "2" {
		t.Errorf("piped: %q", r.stdout)
	}
	reqs := srv.Requests()
	if q := reqs[len(reqs)-1].Query; q.Get("start_time") != "2026-05-01T00:00:00Z" || q.Get("end_time") != "2026-05-08T00:00:00Z" {
		t.Errorf("query %v", q)
	}

	r = invoke(t, opts{env: env, tty: true}, "org", "stats", "--start", "2026-05-01", "--end", "2026-05-08")
	ok(t, r)
	if l := lines(r.stdout); len(l) != 4 || l[0] != "2 pads created from 2026-05-01 00:00 UTC to 2026-05-08 00:00 UTC" || !strings.HasPrefix(l[2], "EMAIL") {
		t.Errorf("on a terminal:\n%s", r.stdout)
	}

	r = padctl(t, env, "org", "stats", "--json", "--start", "2026-05-01", "--end", "2026-05-08")
	ok(t, r)
	var st padapi.OrganizationStats
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st.PadsCreated != 2 || len(st.Users) != 1 {
		t.Errorf("--json: %v %+v", err, st)
	}
}
