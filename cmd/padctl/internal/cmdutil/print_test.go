package cmdutil_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
)

func TestFormat(t *testing.T) {
	when := time.Date(2026, 5, 1, 9, 30, 15, 0, time.FixedZone("", 2*3600))
	var nilInt *int
	var nilTime *time.Time
	for _, tc := range []struct {
		v           any
		piped, term string
	}{
		{"plain", "plain", "plain"},
		{"tab\there\nnewline\r\x1b[31mred", "tab here newline  [31mred", "tab here newline  [31mred"},
		{padapi.ID("DM32"), "DM32", "DM32"},
		{padapi.Ptr(padapi.ID("7")), "7", "7"},
		{(*padapi.ID)(nil), "", ""},
		{[]padapi.ID{"1", "2"}, "1,2", "1,2"},
		{[]string{"Ada", "Alan"}, "Ada, Alan", "Ada, Alan"},
		{42, "42", "42"},
		{padapi.Ptr(0), "0", "0"},
		{nilInt, "", ""},
		{true, "true", "yes"},
		{false, "false", "no"},
		{padapi.Ptr(false), "false", "no"},
		{(*bool)(nil), "", ""},
		{when, "2026-05-01T07:30:15Z", "2026-05-01 07:30 UTC"},
		{&when, "2026-05-01T07:30:15Z", "2026-05-01 07:30 UTC"},
		{time.Time{}, "", ""},
		{nilTime, "", ""},
	} {
		if got := cmdutil.Format(tc.v, false); got != tc.piped {
			t.Errorf("Format(%#v) piped = %q, want %q", tc.v, got, tc.piped)
		}
		if got := cmdutil.Format(tc.v, true); got != tc.term {
			t.Errorf("Format(%#v) on a terminal = %q, want %q", tc.v, got, tc.term)
		}
	}
}

// A list prints as tab-separated rows without a header when piped, a table
// with one on a terminal, and a JSON array with --json; an awkward value
// cannot break a row.
func TestListOutput(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	created := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	for i := range 3 {
		srv.AddPad(padapi.Pad{
			ID: padapi.ID(fmt.Sprintf("PAD%d", i)), Title: fmt.Sprintf("Interview\t%d\nwith \x1b[2Jescape", i), Language: "go",
			OwnerEmail: "a@example.com", CreatedAt: created.Add(time.Duration(i) * time.Hour), UpdatedAt: created.Add(time.Duration(i) * time.Hour),
		})
	}

	// The state is the fake's when it sends one (live responses do).
	state := cmp.Or(srv.Pads()[0].State, "open")

	r := cmdtest.Padctl(t, env, "pads", "list")
	cmdtest.Ok(t, r)
	want := "PAD2\tInterview 2 with  [2Jescape\tgo\ta@example.com\t" + state + "\t2026-05-01T11:00:00Z\n" +
		"PAD1\tInterview 1 with  [2Jescape\tgo\ta@example.com\t" + state + "\t2026-05-01T10:00:00Z\n" +
		"PAD0\tInterview 0 with  [2Jescape\tgo\ta@example.com\t" + state + "\t2026-05-01T09:00:00Z\n"
	if r.Stdout != want {
		t.Errorf("piped:\n%q\nwant\n%q", r.Stdout, want)
	}

	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "pads", "list")
	cmdtest.Ok(t, r)
	l := cmdtest.Lines(r.Stdout)
	if len(l) != 4 || !strings.HasPrefix(l[0], "ID    TITLE") || !regexp.MustCompile(`STATE +UPDATED$`).MatchString(l[0]) ||
		!strings.HasPrefix(l[1], "PAD2  Interview 2 with  [2Jescape") || !regexp.MustCompile(" "+state+` +2026-05-01 11:00 UTC$`).MatchString(l[1]) {
		t.Errorf("on a terminal:\n%s", r.Stdout)
	}

	r = cmdtest.Padctl(t, env, "pads", "list", "--json")
	cmdtest.Ok(t, r)
	var pads []padapi.Pad
	if err := json.Unmarshal([]byte(r.Stdout), &pads); err != nil || len(pads) != 3 || pads[0].ID != "PAD2" || pads[0].Title != "Interview\t2\nwith \x1b[2Jescape" {
		t.Errorf("--json: %v %+v\n%s", err, pads, r.Stdout)
	}
}

func TestEmptyList(t *testing.T) {
	_, env := cmdtest.Fake(t)
	if r := cmdtest.Padctl(t, env, "questions", "list"); r.Code != 0 || r.Stdout != "" || r.Stderr != "" {
		t.Errorf("piped: %+v", r)
	}
	if r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "questions", "list"); r.Code != 0 || r.Stdout != "" || r.Stderr != "no questions\n" {
		t.Errorf("on a terminal: %+v", r)
	}
	if r := cmdtest.Padctl(t, env, "questions", "list", "--json"); r.Code != 0 || r.Stdout != "[]\n" {
		t.Errorf("--json: %+v", r)
	}
}

// One resource prints as one tab-separated line when piped, fields and text
// blocks on a terminal, and the object with --json.
func TestOneOutput(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	at := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	srv.AddPad(padapi.Pad{
		ID: "DM32JWG2", Title: "Two Sum", Language: "python", OwnerEmail: "a@example.com",
		Participants: []string{"Ada", "Alan"}, Notes: "Strong.\nWould hire.", Contents: "def f():\n\tpass\n",
		CreatedAt: at, UpdatedAt: at.Add(time.Hour), EndedAt: padapi.Ptr(at.Add(time.Hour)),
	})

	state := cmp.Or(srv.Pads()[0].State, "ended")

	r := cmdtest.Padctl(t, env, "pads", "get", "DM32JWG2")
	cmdtest.Ok(t, r)
	if want := "DM32JWG2\tTwo Sum\tpython\ta@example.com\t" + state + "\t2026-05-01T10:00:00Z\n"; r.Stdout != want {
		t.Errorf("piped: %q, want %q", r.Stdout, want)
	}

	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "pads", "get", "DM32JWG2")
	cmdtest.Ok(t, r)
	for _, f := range [][2]string{{"ID", "DM32JWG2"}, {"State", state}, {"Ended", "2026-05-01 10:00 UTC"}, {"Participants", "Ada, Alan"}, {"Private", "no"}} {
		if !cmdtest.HasField(r.Stdout, f[0], f[1]) {
			t.Errorf("on a terminal, no %s: %s in:\n%s", f[0], f[1], r.Stdout)
		}
	}
	for _, want := range []string{"\nNotes:\n    Strong.\n    Would hire.\n", "\nContents:\n    def f():\n    \tpass\n"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("on a terminal, no %q in:\n%s", want, r.Stdout)
		}
	}

	r = cmdtest.Padctl(t, env, "pads", "get", "DM32JWG2", "--json")
	cmdtest.Ok(t, r)
	var p padapi.Pad
	if err := json.Unmarshal([]byte(r.Stdout), &p); err != nil || p.ID != "DM32JWG2" || p.Notes != "Strong.\nWould hire." || !p.EndedAt.Equal(at.Add(time.Hour)) {
		t.Errorf("--json: %v %+v", err, p)
	}
	if !strings.Contains(r.Stdout, `"ended_at": "2026-05-01T10:00:00Z"`) {
		t.Errorf("--json is not the wire shape:\n%s", r.Stdout)
	}
}

// A page that is not all there is says so on stderr, never on stdout;
// --all, --limit and --page go further.
func TestListPaging(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := range 60 {
		srv.AddPad(padapi.Pad{Title: fmt.Sprint("pad ", i), CreatedAt: at.Add(time.Duration(i) * time.Minute)})
	}
	for _, tc := range []struct {
		args []string
		rows int
		note string
	}{
		{[]string{"pads", "list"}, 50, "showing 50 of 60 pads; --all, --limit N or --page N for more\n"},
		{[]string{"pads", "list", "--page", "2"}, 10, ""},
		{[]string{"pads", "list", "--all"}, 60, ""},
		{[]string{"pads", "list", "--limit", "55"}, 55, ""},
		{[]string{"org", "pads", "--limit", "3"}, 3, ""},
	} {
		r := cmdtest.Padctl(t, env, tc.args...)
		if r.Code != 0 || len(cmdtest.Lines(r.Stdout)) != tc.rows || r.Stderr != tc.note {
			t.Errorf("padctl %q: exit %d, %d rows, stderr %q; want %d rows, stderr %q", tc.args, r.Code, len(cmdtest.Lines(r.Stdout)), r.Stderr, tc.rows, tc.note)
		}
	}
	r := cmdtest.Padctl(t, env, "pads", "list", "--json")
	var pads []padapi.Pad
	if err := json.Unmarshal([]byte(r.Stdout), &pads); err != nil || len(pads) != 50 || !strings.HasPrefix(r.Stderr, "showing 50 of 60") {
		t.Errorf("--json: %v, %d pads, stderr %q", err, len(pads), r.Stderr)
	}
	// On a terminal, --all counts what it fetched on stderr, and blanks
	// the count before the table.
	r = cmdtest.Invoke(t, cmdtest.Opts{Env: env, TTY: true}, "pads", "list", "--all")
	if r.Code != 0 || len(cmdtest.Lines(r.Stdout)) != 61 || r.Stderr != "\rfetched 50 pads..."+"\r"+strings.Repeat(" ", 18)+"\r" {
		t.Errorf("progress: exit %d, %d lines, stderr %q", r.Code, len(cmdtest.Lines(r.Stdout)), r.Stderr)
	}
}

func TestSort(t *testing.T) {
	srv, env := cmdtest.Fake(t)
	for _, tc := range []struct{ flag, want string }{
		{"created", "created_at,desc"},
		{"updated", "updated_at,desc"},
		{"updated,asc", "updated_at,asc"},
		{"created_at,asc", "created_at,asc"},
	} {
		cmdtest.Ok(t, cmdtest.Padctl(t, env, "questions", "list", "--sort", tc.flag))
		reqs := srv.Requests()
		if got := reqs[len(reqs)-1].Query.Get("sort"); got != tc.want {
			t.Errorf("--sort %s sent sort=%q, want %q", tc.flag, got, tc.want)
		}
	}
	cmdtest.Ok(t, cmdtest.Padctl(t, env, "pads", "list"))
	reqs := srv.Requests()
	if q := reqs[len(reqs)-1].Query; q.Has("sort") || q.Has("page") {
		t.Errorf("no flags sent %v", q)
	}
}
