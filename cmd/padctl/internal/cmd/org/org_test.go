package org_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
)

func TestOrg(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/organization": cmdtest.Reply(200, `{"status":"OK","id":5,"organization_name":"Acme",
		"user_count":2,"users":[{"email":"a@acme.test","name":"Ada"}],"default_language":"python",
		"single_sign_on_supported":true,"single_sign_in_url":"https://sso.acme.test"}`)})
	r := cmdtest.Padctl(t, s.Env(), "org")
	cmdtest.Ok(t, r)
	if want := "Acme\t2\tpython\ttrue\t5\n"; r.Stdout != want {
		t.Errorf("piped: %q, want %q", r.Stdout, want)
	}
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: s.Env(), TTY: true}, "org")
	cmdtest.Ok(t, r)
	if !strings.Contains(r.Stdout, "Single sign-on:    yes\n") || !strings.Contains(r.Stdout, "Sign-in URL:       https://sso.acme.test\n") {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}
}

func TestOrgUsers(t *testing.T) {
	s := cmdtest.NewStub(t, map[string]http.HandlerFunc{"GET /api/organization/users": func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("email") == "ada@acme.test" {
			cmdtest.Reply(200, `{"status":"OK","users":[{"email":"ada@acme.test","name":"Ada","teams":["Backend","Hiring"]}]}`)(w, r)
			return
		}
		cmdtest.Reply(200, `{"status":"OK","users":[{"email":"ada@acme.test","name":"Ada","teams":["Backend","Hiring"]},{"email":"alan@acme.test","name":"Alan"}]}`)(w, r)
	}})
	r := cmdtest.Padctl(t, s.Env(), "org", "users")
	cmdtest.Ok(t, r)
	if want := "ada@acme.test\tAda\tBackend, Hiring\nalan@acme.test\tAlan\t\n"; r.Stdout != want {
		t.Errorf("all: %q, want %q", r.Stdout, want)
	}
	r = cmdtest.Padctl(t, s.Env(), "org", "users", "--email", "ada@acme.test")
	cmdtest.Ok(t, r)
	if r.Stdout != "ada@acme.test\tAda\tBackend, Hiring\n" {
		t.Errorf("--email: %q", r.Stdout)
	}
	if reqs := s.Requests(); reqs[0].Query["email"] != nil || reqs[1].Query["email"][0] != "ada@acme.test" {
		t.Errorf("queries %v, %v", reqs[0].Query, reqs[1].Query)
	}
}

func TestOrgStats(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	at := time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC)
	srv.AddPad(padapi.Pad{OwnerEmail: "owner@example.com", CreatedAt: at})
	srv.AddPad(padapi.Pad{OwnerEmail: "owner@example.com", CreatedAt: at.Add(time.Hour)})

	r := cmdtest.Padctl(t, env, "org", "stats", "--start", "2026-05-01", "--end", "2026-05-08T00:00:00Z")
	cmdtest.Ok(t, r)
	f := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\t")
	if len(cmdtest.Lines(r.Stdout)) != 1 || len(f) != 3 || f[0] != "owner@example.com" || f[2] != "2" {
		t.Errorf("piped: %q", r.Stdout)
	}
	reqs := srv.Requests()
	if q := reqs[len(reqs)-1].Query; q.Get("start_time") != "2026-05-01T00:00:00Z" || q.Get("end_time") != "2026-05-08T00:00:00Z" {
		t.Errorf("query %v", q)
	}

	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "org", "stats", "--start", "2026-05-01", "--end", "2026-05-08")
	cmdtest.Ok(t, r)
	if l := cmdtest.Lines(r.Stdout); len(l) != 4 || l[0] != "2 pads created from 2026-05-01 00:00 UTC to 2026-05-08 00:00 UTC" || !strings.HasPrefix(l[2], "EMAIL") {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}

	r = cmdtest.Padctl(t, env, "org", "stats", "--json", "--start", "2026-05-01", "--end", "2026-05-08")
	cmdtest.Ok(t, r)
	var st padapi.OrganizationStats
	if err := json.Unmarshal([]byte(r.Stdout), &st); err != nil || st.PadsCreated != 2 || len(st.Users) != 1 {
		t.Errorf("--json: %v %+v", err, st)
	}
}
