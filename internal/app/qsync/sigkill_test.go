//go:build linux

package qsync

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/padinterview/padapi"
)

// killAfterCreate is a transport that kills its own process with SIGKILL
// once the service has answered a variant's create, before the answer is
// read: the moment between the create and the write-back of its id.
type killAfterCreate struct{ base http.RoundTripper }

func (k killAfterCreate) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := k.base.RoundTrip(r)
	if err == nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/variants") {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal ends the process
	}
	return resp, err
}

// The child of TestVariantCreateSIGKILLed: an apply of QSYNC_KILL_DIR
// against the fake at QSYNC_KILL_URL, killed by SIGKILL right after its
// variant create is answered.
func TestVariantSIGKILLChild(t *testing.T) {
	dir := os.Getenv("QSYNC_KILL_DIR")
	if dir == "" {
		t.Skip("run by TestVariantCreateSIGKILLed")
	}
	c, err := padapi.NewClient(os.Getenv("QSYNC_KILL_URL"), os.Getenv("QSYNC_KILL_KEY"),
		padapi.WithHTTPClient(&http.Client{Transport: killAfterCreate{&http.Transport{DisableKeepAlives: true}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runWith(t.Context(), New(c, dir, Options{}), Push)
	t.Fatalf("the apply was not killed: %v", err)
}

// Issue 36: a new variant folder is created once even when the process is
// killed (SIGKILL) between the create and the write-back of its id: the
// pending record written before the create makes the next apply adopt it.
func TestVariantCreateSIGKILLed(t *testing.T) {
	e, qid := variantsFixture(t)
	e.write(map[string]string{"two-sum/variants/kotlin/variant.json": `{"language": "kotlin"}`, "two-sum/variants/kotlin/starter.kt": "fun f() {}\n"})
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestVariantSIGKILLChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "QSYNC_KILL_DIR="+e.dir, "QSYNC_KILL_URL="+e.srv.URL, "QSYNC_KILL_KEY="+e.srv.APIKey)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child: %v, want killed by SIGKILL\n%s", err, out)
	}
	kotlin := func() int {
		n := 0
		for _, v := range e.srv.Variants(qid) {
			if v.Language == "kotlin" {
				n++
			}
		}
		return n
	}
	if kotlin() != 1 || !strings.Contains(e.read("two-sum/variants/kotlin/variant.json"), "pending_create") {
		t.Fatalf("after the kill: %d kotlin variants, variant.json:\n%s", kotlin(), e.read("two-sum/variants/kotlin/variant.json"))
	}
	evs := e.must(Push, Options{})
	if kotlin() != 1 || !strings.Contains(e.read("two-sum/variants/kotlin/variant.json"), `"id"`) {
		t.Errorf("after the re-run: %d kotlin variants (%d events), variant.json:\n%s", kotlin(), len(evs), e.read("two-sum/variants/kotlin/variant.json"))
	}
	if p := e.plan(Push, Options{}); p.Changes() {
		t.Errorf("a plan after the re-run: %+v", p.Variants)
	}
}
