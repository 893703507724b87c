package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

func TestRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, w := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"-addr", "127.0.0.1:0", "-key", "demo-key", "-seed", "3"}, w, &stderr)
		w.Close()
	}()

	lines := bufio.NewScanner(out)
	env := map[string]string{}
	for range 2 {
		if !lines.Scan() {
			t.Fatalf("padfake printed fewer than two lines; stderr: %s", stderr.String())
		}
		name, value, ok := strings.Cut(lines.Text(), "=")
		if !ok {
			t.Fatalf("line %q is not NAME=value", lines.Text())
		}
		env[name] = value
	}
	if env["PAD_API_KEY"] != "demo-key" || !strings.HasPrefix(env["PAD_BASE_URL"], "http://127.0.0.1:") {
		t.Fatalf("printed %v", env)
	}

	c, err := padapi.NewClient(env["PAD_BASE_URL"], env["PAD_API_KEY"])
	if err != nil {
		t.Fatal(err)
	}
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

	cancel()
	select {
	case got := <-code:
		if got != 0 {
			t.Errorf("exit code %d after the signal, want 0", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("padfake did not stop when its context ended")
	}
	if _, err := net.DialTimeout("tcp", strings.TrimPrefix(env["PAD_BASE_URL"], "http://"), time.Second); err == nil {
		t.Error("the fake still listens after padfake stopped")
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
		{[]string{"extra"}, 2, "usage: padfake"},
		{[]string{"-seed", "-1"}, 2, "usage: padfake"},
		{[]string{"-addr", taken.Addr().String()}, 1, "address already in use"},
		{[]string{"-addr", "127.0.0.1:0", "-key", `a"b`}, 1, "not allowed"},
	} {
		var stdout, stderr bytes.Buffer
		if got := run(context.Background(), tc.args, &stdout, &stderr); got != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("padfake %v: exit %d, stderr %q; want exit %d and %q", tc.args, got, stderr.String(), tc.code, tc.want)
		}
		if stdout.Len() != 0 {
			t.Errorf("padfake %v printed %q on stdout", tc.args, stdout.String())
		}
	}
}
