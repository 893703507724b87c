// e2e_test.go: the built binary end to end (main.go): signals, exit codes, one create over HTTP/2.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// The built binary, run as a user runs it.
func TestBinary(t *testing.T) {
	t.Parallel() // a process of its own against a server of its own
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	srv, env := fake(t)
	srv.SetQuota(50, 12)
	padctl := func(env map[string]string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		return cmd, &stdout, &stderr
	}
	for _, tc := range []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stdout string // a prefix
		stderr string // a prefix
	}{
		{"help", nil, nil, 0, "padctl is a command-line client", ""},
		{"version", nil, []string{"--version"}, 0, "padctl " + padapi.Version + " go", ""},
		{"quota", env, []string{"quota"}, 0, "12\t50\t38\tfalse\t", ""},
		{"usage", env, []string{"pads", "lsit"}, 2, "", `padctl: unknown command "lsit" for "padctl pads"; did you mean list?`},
		{"refused", env, []string{"pads", "get", ".."}, 2, "", "padctl: invalid argument"},
		{"debug", env, []string{"--debug", "pads", "list"}, 0, "", "time="},
		{"fake", nil, []string{"--fake", "pads", "list", "--json"}, 0, "[\n  {", ""},
	} {
		cmd, stdout, stderr := padctl(tc.env, tc.args...)
		_ = cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.HasPrefix(stdout.String(), tc.stdout) || !strings.HasPrefix(stderr.String(), tc.stderr) {
			t.Errorf("%s: exit %d, stdout:\n%s\nstderr:\n%s", tc.name, code, stdout, stderr)
		}
		if strings.Contains(stdout.String()+stderr.String(), srv.APIKey) {
			t.Errorf("%s: printed the API key", tc.name)
		}
	}

	// Over quota: exit 3, nothing created.
	srv.SetQuota(1, 1)
	cmd, _, stderr := padctl(env, "pads", "create", "--title", "x")
	_ = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != exitOverQuota || len(srv.Pads()) != 0 {
		t.Errorf("over quota: exit %d, %d pads, stderr:\n%s", code, len(srv.Pads()), stderr)
	}

	// --fake seeds pads with sample data.
	cmd, stdout, _ := padctl(nil, "--fake", "pads", "list", "--json")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	var pads []padapi.Pad
	if err := json.Unmarshal(stdout.Bytes(), &pads); err != nil || len(pads) == 0 {
		t.Errorf("--fake: %v, %d pads", err, len(pads))
	}

	// Ctrl-C ends a request that hangs: exit 130.
	arrived := make(chan struct{}, 2)
	s := newStub(t, map[string]http.HandlerFunc{"GET /api/quota": func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		hang(w, r)
	}})
	// waitRequest waits for the request padctl sends, with a deadline.
	waitRequest := func() {
		t.Helper()
		select {
		case <-arrived:
		case <-time.After(10 * time.Second):
			t.Fatal("padctl sent no request")
		}
	}
	cmd, _, stderr = padctl(s.env(), "quota")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequest()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || stderr.String() != "padctl: interrupted\n" {
		t.Errorf("interrupted: exit %d, stderr %q", code, stderr)
	}

	// SIGTERM, as a service manager or timeout(1) sends it, does the same:
	// exit 143.
	cmd, _, stderr = padctl(s.env(), "quota")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequest()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-waited
		t.Fatal("SIGTERM did not end padctl")
	}
	if code := cmd.ProcessState.ExitCode(); code != exitTerminated || stderr.String() != "padctl: terminated\n" {
		t.Errorf("terminated: exit %d, stderr %q", code, stderr)
	}
}

// Over HTTP/2, a stream reset after the server has read a create is an
// unknown outcome: padctl sends the POST once and exits 4. The built binary
// runs with its own transport (no test hook), trusting the test server's
// certificate through SSL_CERT_FILE.
func TestBinaryCreateOverHTTP2Reset(t *testing.T) {
	t.Parallel() // a process of its own against a server of its own
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		posts int
		proto string
	)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			reply(http.StatusNotFound, `{"status":"ERROR","message":"Not found"}`)(w, r)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		mu.Lock()
		posts++
		proto = r.Proto
		mu.Unlock()
		// The server has acted; the answer never comes: the stream is
		// reset.
		panic(http.ErrAbortHandler)
	}))
	srv.EnableHTTP2 = true
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	certFile := filepath.Join(t.TempDir(), "cert.pem")
	pemCert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(certFile, pemCert, 0o644); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "pads", "create", "--title", "x", "--timeout", "10s")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "SSL_CERT_FILE=" + certFile, "PAD_BASE_URL=" + srv.URL, "PAD_API_KEY=" + testKey}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	mu.Lock()
	defer mu.Unlock()
	if code := cmd.ProcessState.ExitCode(); code != exitUnknown || posts != 1 || proto != "HTTP/2.0" {
		t.Errorf("exit %d, %d POSTs over %s, want exit 4 and one POST over HTTP/2.0; stdout %q, stderr:\n%s",
			code, posts, proto, stdout.String(), stderr.String())
	}
}
