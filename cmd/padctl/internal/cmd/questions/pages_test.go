package questions_test

import (
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmdtest"
	"github.com/padinterview/padapi/padapitest"
)

// holdPages is a transport that holds each page of the question list from
// the third on until want of them are in flight together, which a walk one
// page after another never reaches (it then lets them go after 5 s), and
// reports the most it saw at once.
type holdPages struct {
	want     int
	mu       sync.Mutex
	inFlight int
	most     int
	release  chan struct{}
	once     sync.Once
}

func (h *holdPages) RoundTrip(r *http.Request) (*http.Response, error) {
	if page, _ := strconv.Atoi(r.URL.Query().Get("page")); strings.HasSuffix(r.URL.Path, "/questions") && page >= 3 {
		h.mu.Lock()
		h.inFlight++
		h.most = max(h.most, h.inFlight)
		if h.inFlight >= h.want {
			h.once.Do(func() { close(h.release) })
		}
		h.mu.Unlock()
		select {
		case <-h.release:
		case <-time.After(5 * time.Second): // a walk one page at a time
			h.once.Do(func() { close(h.release) })
		}
		defer func() { h.mu.Lock(); h.inFlight--; h.mu.Unlock() }()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Issue 40 #1: questions pull and diff read the service's list several
// pages at once, with the library's walker, at the defaults a user gets.
func TestQuestionsListSeveralPagesAtOnce(t *testing.T) {
	srv := padapitest.NewServer(t, padapitest.WithPageSize(2))
	srv.Seed(40)
	env := map[string]string{"PAD_BASE_URL": srv.URL, "PAD_API_KEY": srv.APIKey}
	dir := filepath.Join(t.TempDir(), "lib")
	for _, args := range [][]string{{"questions", "pull", dir}, {"questions", "diff", dir}} {
		hold := &holdPages{want: 4, release: make(chan struct{})}
		r := cmdtest.Invoke(t, cmdtest.Opts{Env: env, Transport: hold}, args...)
		if r.Code != 0 {
			t.Fatalf("padctl %v: exit %d\nstdout %s\nstderr %s", args, r.Code, r.Stdout, r.Stderr)
		}
		if hold.most < hold.want {
			t.Errorf("padctl %v: at most %d pages of the list in flight at once, want %d", args, hold.most, hold.want)
		}
	}
}
