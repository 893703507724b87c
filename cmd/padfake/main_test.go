package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// syncBuffer is a bytes.Buffer that run may write while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// serve runs padfake with args until the test ends, and returns the two
// variables it printed and a client for them. It fails the test unless
// padfake stops with exit code 0 when interrupted, no longer listening.
func serve(t *testing.T, args ...string) (map[string]string, *padapi.Client) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	stderr := &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, args, w, stderr)
		w.Close()
	}()
	lines := bufio.NewScanner(out)
	env := map[string]string{}
	for range 2 {
		if !lines.Scan() {
			cancel()
			t.Fatalf("padfake %v printed fewer than two lines; stderr: %s", args, stderr.String())
		}
		name, value, ok := strings.Cut(lines.Text(), "=")
		if !ok {
			t.Fatalf("line %q is not NAME=value", lines.Text())
		}
		env[name] = value
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	t.Cleanup(func() {
		cancel()
		select {
		case got := <-code:
			if got != 0 {
				t.Errorf("padfake %v: exit code %d after the signal, want 0", args, got)
			}
		case <-time.After(30 * time.Second): // generous: a busy machine is slow, a hang is for ever
			t.Fatalf("padfake %v did not stop when its context ended", args)
		}
		if _, err := net.DialTimeout("tcp", strings.TrimPrefix(env["PAD_BASE_URL"], "http://"), time.Second); err == nil {
			t.Errorf("padfake %v: the fake still listens after padfake stopped", args)
		}
	})
	c, err := padapi.NewClient(env["PAD_BASE_URL"], env["PAD_API_KEY"])
	if err != nil {
		t.Fatalf("padfake %v printed %v, which the client refuses: %v", args, env, err)
	}
	return env, c
}

func TestRun(t *testing.T) {
	env, c := serve(t, "-addr", "127.0.0.1:0", "-key", "demo-key", "-seed", "3")
	if env["PAD_API_KEY"] != "demo-key" || !strings.HasPrefix(env["PAD_BASE_URL"], "http://127.0.0.1:") {
		t.Fatalf("printed %v", env)
	}
	ctx := context.Background()
	page, err := c.Pads.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 3 {
		t.Errorf("-seed 3: %d pads, want 3", page.Total)
	}
	questions, err := c.Questions.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if questions.Total != 3 {
		t.Errorf("-seed 3: %d questions, want 3", questions.Total)
	}
	// Seeded pads have the post-interview data, on the printed host.
	tr, err := c.Pads.Transcript(ctx, page.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) < 3 || len(tr.Environments) != 1 {
		t.Errorf("a seeded pad's transcript: %d events, %d environments", len(tr.Events), len(tr.Environments))
	}
	h, err := c.Pads.History(ctx, tr.Environments[0].Files[0].History)
	if err != nil {
		t.Fatal(err)
	}
	if text, err := h.Replay(); err != nil || text != tr.Pad.Contents {
		t.Errorf("a seeded pad's history replays to %q, %v; want its contents %q", text, err, tr.Pad.Contents)
	}
}

// TestRunOnAllAddresses: on all addresses padfake prints a loopback URL,
// which the client accepts (http://[::]:PORT, printed before, it refuses).
func TestRunOnAllAddresses(t *testing.T) {
	for _, addr := range []string{":0", "0.0.0.0:0"} {
		env, c := serve(t, "-addr", addr)
		if !strings.HasPrefix(env["PAD_BASE_URL"], "http://127.0.0.1:") {
			t.Errorf("-addr %s printed %q, want a loopback URL", addr, env["PAD_BASE_URL"])
		}
		if _, err := c.Quota.Get(context.Background()); err != nil {
			t.Errorf("-addr %s: %v", addr, err)
		}
	}
}

func TestQuotaAndShapeFlags(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		args  []string
		check func(q *padapi.Quota) bool
	}{
		{nil, func(q *padapi.Quota) bool {
			return *q.MonthlyPadLimit == 120 && *q.PadsRemaining == 120 && !*q.OveragesEnabled
		}},
		{[]string{"-limit", "10", "-used", "4"}, func(q *padapi.Quota) bool {
			return *q.MonthlyPadLimit == 10 && *q.PadsRemaining == 6 && q.PadsUsed == 4
		}},
		{[]string{"-limit", "10", "-used", "10", "-overages"}, func(q *padapi.Quota) bool {
			return *q.PadsRemaining == 0 && *q.OveragesEnabled && q.CanCreate(1)
		}},
		{[]string{"-unlimited", "-used", "7"}, func(q *padapi.Quota) bool {
			return q.Unlimited && q.PadsUsed == 7 && q.PadsRemaining == nil
		}},
		{[]string{"-omit-quota-counts"}, func(q *padapi.Quota) bool {
			return !q.Unlimited && q.PadsRemaining == nil && q.MonthlyPadLimit == nil
		}},
		{[]string{"-shape", "documented"}, func(q *padapi.Quota) bool {
			return q.OveragesEnabled == nil && *q.MonthlyPadLimit == 120 && q.TrialExpiresAt != nil
		}},
		{[]string{"-unlimited"}, func(q *padapi.Quota) bool {
			return q.TrialExpiresAt != nil && q.TrialExpiresAt.Before(q.QuotaResetAt)
		}},
		{[]string{"-trial-expires-at", "2026-12-31T10:00:00Z"}, func(q *padapi.Quota) bool {
			return q.TrialExpiresAt != nil && q.TrialExpiresAt.Equal(time.Date(2026, 12, 31, 10, 0, 0, 0, time.UTC))
		}},
		{[]string{"-trial-expires-at", "none"}, func(q *padapi.Quota) bool {
			return q.TrialExpiresAt == nil
		}},
	} {
		_, c := serve(t, append([]string{"-addr", "127.0.0.1:0"}, tc.args...)...)
		q, err := c.Quota.Get(ctx)
		if err != nil || !tc.check(q) {
			t.Errorf("padfake %v: quota %+v, %v", tc.args, q, err)
		}
	}
	_, c := serve(t, "-addr", "127.0.0.1:0", "-shape", "documented", "-seed", "1")
	page, err := c.Pads.List(ctx, nil)
	if err != nil || page.Items[0].EventsURL != "" || len(page.Items[0].Events) == 0 || page.Items[0].State != "" {
		t.Errorf("-shape documented: %+v, %v; want pads with their events listed and no live fields", page, err)
	}
	if _, err := c.Pads.Create(ctx, nil); err != nil {
		t.Errorf("-shape documented: a create: %v", err)
	}
}

// TestNotOwner: with -not-owner the organization endpoints answer 403,
// which the client reports as padapi.ErrForbidden; the caller's own
// endpoints answer.
func TestNotOwner(t *testing.T) {
	ctx := context.Background()
	_, c := serve(t, "-addr", "127.0.0.1:0", "-not-owner", "-seed", "1")
	if _, err := c.Organization.Get(ctx); !errors.Is(err, padapi.ErrForbidden) {
		t.Errorf("-not-owner: the organization: %v, want ErrForbidden", err)
	}
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Errorf("-not-owner: the quota: %v", err)
	}
	_, c = serve(t, "-addr", "127.0.0.1:0")
	if _, err := c.Organization.Get(ctx); err != nil {
		t.Errorf("an owner by default: %v", err)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help", "--help"} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{arg}, &stdout, &stderr); code != 0 || stderr.Len() != 0 {
			t.Errorf("padfake %s: exit %d, stderr %q; want 0 and nothing", arg, code, stderr.String())
		}
		for _, want := range []string{"usage: padfake", "-addr", "-key", "-seed", "-limit", "-used", "-unlimited", "-overages", "-omit-quota-counts", "-shape", "-trial-expires-at", "-not-owner"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("padfake %s: help without %q:\n%s", arg, want, stdout.String())
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-nope"}, 2, "flag provided but not defined"},
		{[]string{"extra"}, 2, `unexpected argument "extra"`},
		{[]string{"-seed", "-1"}, 2, "0 or more"},
		{[]string{"-limit", "-5"}, 2, "0 or more"},
		{[]string{"-used", "x"}, 2, "invalid value"},
		{[]string{"-shape", "json"}, 2, `want "live" or "documented"`},
		{[]string{"-trial-expires-at", "tomorrow"}, 2, "RFC 3339"},
		{[]string{"-addr", taken.Addr().String()}, 1, "address already in use"},
		{[]string{"-addr", "127.0.0.1:0", "-key", `a"b`}, 1, "not allowed"},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(context.Background(), tc.args, &stdout, &stderr); got != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("padfake %v: exit %d, stderr %q; want exit %d and %q", tc.args, got, stderr.String(), tc.code, tc.want)
		}
		if tc.code == 2 && !strings.Contains(stderr.String(), "usage: padfake") {
			t.Errorf("padfake %v: no usage on stderr: %q", tc.args, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Errorf("padfake %v printed %q on stdout", tc.args, stdout.String())
		}
	}
}

// Clients that send half a header and stall neither keep padfake from
// answering others nor hold their connections for ever: the header timeout
// closes them. Before, they stayed open as long as the clients liked.
//
// It needs real sockets, so its bounds are ones timing cannot flip on a
// busy machine, measured from when the last connection is open (opening
// 500 can take seconds): 8s, against the 300ms header timeout asked for,
// and yet short of the 10s default, so a flag that was ignored still fails
// it. A padfake that served one connection at a time would take 500 times
// 300ms.
func TestSlowClients(t *testing.T) {
	const slow = 500
	const bound = 8 * time.Second
	env, c := serve(t, "-addr", "127.0.0.1:0", "-read-header-timeout", "300ms", "-read-timeout", "1s", "-idle-timeout", "1s")
	addr := strings.TrimPrefix(env["PAD_BASE_URL"], "http://")
	conns := make([]net.Conn, 0, slow)
	defer func() {
		for _, conn := range conns {
			conn.Close()
		}
	}()
	start := time.Now()
	for range slow {
		conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			t.Fatalf("after %d connections: %v", len(conns), err)
		}
		conns = append(conns, conn)
		if _, err := io.WriteString(conn, "GET /api/quota HTTP/1.1\r\nHost: padfake\r\nAuthoriz"); err != nil {
			t.Fatal(err)
		}
	}
	opened := time.Now()

	// A normal request is answered.
	ctx, cancel := context.WithDeadline(context.Background(), opened.Add(bound))
	defer cancel()
	if _, err := c.Quota.Get(ctx); err != nil {
		t.Errorf("with %d stalled clients, a normal request: %v", slow, err)
	}
	answered := time.Since(opened)

	// Every stalled connection is closed by padfake: a read ends (EOF, a
	// reset, or a 408 and then EOF) rather than running into the test's
	// own deadline.
	deadline := opened.Add(bound)
	open := 0
	for _, conn := range conns {
		_ = conn.SetReadDeadline(deadline)
		_, err := io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			open++
		}
	}
	t.Logf("%d stalled connections opened in %v; a normal request answered in %v; all closed by padfake %v after the last opened",
		slow, opened.Sub(start), answered, time.Since(opened))
	if open > 0 {
		t.Errorf("%d of %d stalled connections still open %v after the last opened", open, slow, bound)
	}
}

// padfake serves the routes added in v5: whose key it is, a seeded
// question's variants, a restricted pad.
func TestV5Routes(t *testing.T) {
	ctx := context.Background()
	_, c := serve(t, "-addr", "127.0.0.1:0", "-seed", "1")
	if u, err := c.User.Get(ctx); err != nil || u.AnalyticsID == "" {
		t.Errorf("User.Get: %+v, %v", u, err)
	}
	qs, err := c.Questions.List(ctx, nil)
	if err != nil || len(qs.Items) != 1 {
		t.Fatalf("Questions.List: %+v, %v", qs, err)
	}
	v, err := c.Questions.CreateVariant(ctx, qs.Items[0].ID, &padapi.QuestionVariantParams{Language: padapi.Ptr("ruby")})
	if err != nil || v.Contents != nil {
		t.Fatalf("CreateVariant: %+v, %v", v, err)
	}
	if vs, err := c.Questions.ListVariants(ctx, qs.Items[0].ID); err != nil || len(vs) != 1 || vs[0].ID != v.ID {
		t.Errorf("ListVariants: %+v, %v", vs, err)
	}
	if err := c.Questions.DeleteVariant(ctx, qs.Items[0].ID, v.ID); err != nil {
		t.Errorf("DeleteVariant: %v", err)
	}
	p, err := c.Pads.Create(ctx, &padapi.PadCreateParams{AllowedInterviewerEmails: []string{"a@example.com"}, ExecutionEnabled: padapi.Ptr(false)})
	if err != nil || len(p.AllowedInterviewerEmails) != 1 || p.ExecutionEnabled {
		t.Errorf("a restricted pad: %+v, %v", p, err)
	}
}
