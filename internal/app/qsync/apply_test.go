package qsync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/internal/app/qsync/qfolder"
)

// pendingFolder writes a folder whose create was sent at since and had no
// answer (and made nothing).
func (e *env) pendingFolder(name string, since time.Time) {
	e.t.Helper()
	q := qfolder.Question{Title: "P " + name, Language: "go"}
	files, err := qfolder.Render(q, &qfolder.Pending{Since: since, Fingerprint: q.Fingerprint()}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	for file, text := range files {
		e.write(map[string]string{name + "/" + file: text})
	}
}

// A pending create from the future, or with no time, is an error: taking
// it as a create still settling made apply a silent no-op.
func TestPendingCreateImpossible(t *testing.T) {
	for _, tt := range []struct {
		name  string
		since func(now time.Time) time.Time
	}{
		{"year 9999", func(time.Time) time.Time { return time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC) }},
		{"an hour ahead", func(now time.Time) time.Time { return now.Add(time.Hour) }},
		{"just past the slack", func(now time.Time) time.Time { return now.Add(clockSlack + time.Second) }},
		{"no time", func(time.Time) time.Time { return time.Time{} }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			synctest.Test(t, func(t *testing.T) {
				e.t = t
				e.pendingFolder("p", tt.since(time.Now()))
				for _, mode := range []Mode{Push, Pull} {
					_, err := e.run(mode, Options{Settle: time.Minute})
					var bad *BadFolderError
					if !errors.As(err, &bad) || !strings.Contains(err.Error(), "p/question.json: pending_create.since") {
						t.Errorf("mode %d: %v", mode, err)
					}
				}
				if n := len(e.srv.Questions()); n != 0 {
					t.Errorf("%d questions created", n)
				}
			})
		})
	}
}

// A pending create a little ahead (within the clocks' slack) is taken as
// sent now: waited for a whole settle time, or created at once with none.
func TestPendingCreateWithinSlack(t *testing.T) {
	e := newEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		e.pendingFolder("p", time.Now().Add(clockSlack))
		p := e.plan(Push, Options{Settle: time.Minute})
		if st := step(t, p, "p", ""); st.Kind != Create || st.Reason != ReasonPendingSettling || st.Wait != time.Minute {
			t.Errorf("settle 1m: %+v", st)
		}
		p = e.plan(Push, Options{Settle: 0})
		if st := step(t, p, "p", ""); st.Kind != Create || st.Reason != ReasonPendingSettled || st.Wait != 0 {
			t.Errorf("settle 0: %+v", st)
		}
		if n := actions(e.must(Push, Options{Settle: -time.Second})); n[Create] != 1 {
			t.Errorf("apply: %v", n)
		}
	})
}

// A create with no answer is waited for until it is --settle old, in fake
// time, then made again when the list does not show it.
func TestSettleWaitsThenCreates(t *testing.T) {
	e := newEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		e.pendingFolder("p", time.Now().Add(-20*time.Second))
		p := e.plan(Push, Options{Settle: time.Minute})
		if st := step(t, p, "p", ""); st.Wait != 40*time.Second || !p.Changes() {
			t.Errorf("plan: %+v", st)
		}
		start := time.Now()
		evs := e.must(Push, Options{Settle: time.Minute})
		if took := time.Since(start); took != 40*time.Second {
			t.Errorf("apply took %v, want the 40s left of the settle time", took)
		}
		if len(evs) != 2 || evs[0].Kind != Waiting || evs[0].Wait != 40*time.Second || evs[1].Action != Create {
			t.Errorf("events %+v", evs)
		}
		if n := len(e.srv.Questions()); n != 1 {
			t.Errorf("%d questions", n)
		}
	})
}

// The wait is bounded by the context.
func TestSettleStopsWithTheContext(t *testing.T) {
	e := newEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		e.pendingFolder("p", time.Now())
		s := e.syncer(Options{Settle: time.Hour})
		ctx, cancel := context.WithTimeout(e.ctx(), time.Minute)
		defer cancel()
		if _, err := runWith(ctx, s, Push); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("apply past its deadline: %v", err)
		}
	})
}

// Apply waits for a lagging list at most maxSettleRounds times.
func TestSettleRounds(t *testing.T) {
	for _, lagFor := range []int{maxSettleRounds - 1, maxSettleRounds, maxSettleRounds + 1} {
		t.Run(fmt.Sprint(lagFor), func(t *testing.T) {
			e := newEnv(t)
			e.pendingFolder("p", time.Now())
			s := e.syncer(Options{Settle: time.Hour})
			sleeps := 0
			// A clock that does not move: the plan waits again, as with a
			// list that keeps lagging, until lagFor sleeps have passed.
			s.sleep = func(context.Context, time.Duration) error {
				sleeps++
				if sleeps >= lagFor {
					s.o.Settle = 0
				}
				if sleeps > 10 {
					return errors.New("too many sleeps")
				}
				return nil
			}
			evs, err := runWith(e.ctx(), s, Push)
			waits := 0
			for _, ev := range evs {
				if ev.Kind == Waiting {
					waits++
				}
			}
			if lagFor > maxSettleRounds {
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("after %d waits", maxSettleRounds)) || sleeps != maxSettleRounds {
					t.Errorf("apply: %v after %d sleeps", err, sleeps)
				}
				return
			}
			if err != nil || sleeps != lagFor || waits != lagFor || actions(evs)[Create] != 1 {
				t.Errorf("apply: %v after %d sleeps, %d waits", err, sleeps, waits)
			}
		})
	}
}

// stat describes a file of the folder: safefile replaces a file it
// writes, so a write makes another file (os.SameFile is false).
func (e *env) stat(name string) os.FileInfo {
	e.t.Helper()
	fi, err := os.Stat(filepath.Join(e.dir, name))
	if err != nil {
		e.t.Fatal(err)
	}
	return fi
}

// A sync that changes nothing writes nothing, not even the state file.
func TestNothingChangedNothingWritten(t *testing.T) {
	e := newEnv(t)
	e.write(sample)
	e.must(Push, Options{})
	before := e.stat(qfolder.StateFile)
	e.must(Push, Options{})
	if !os.SameFile(e.stat(qfolder.StateFile), before) {
		t.Errorf("an apply that changed nothing rewrote the state file")
	}
	// A pull records a single-file question's files as unknown ("") where
	// apply recorded them as none: the same to Compare.
	e.must(Pull, Options{})
	before = e.stat(qfolder.StateFile)
	e.must(Pull, Options{})
	if !os.SameFile(e.stat(qfolder.StateFile), before) {
		t.Errorf("a pull that changed nothing rewrote the state file")
	}
}

// planThenApply plans with the lock, runs between, and applies.
func (e *env) planThenApply(mode Mode, between func()) error {
	e.t.Helper()
	s := e.syncer(Options{})
	if err := s.Lock(e.ctx(), false); err != nil {
		e.t.Fatal(err)
	}
	defer s.Unlock()
	p, err := s.Plan(e.ctx(), mode)
	if err != nil {
		e.t.Fatal(err)
	}
	between()
	return s.Apply(e.ctx(), p, nil)
}

// A state file that cannot be written fails the run.
func TestApplyReportsAFailedSave(t *testing.T) {
	e := newEnv(t)
	e.write(sample)
	e.must(Push, Options{})
	if err := os.Remove(filepath.Join(e.dir, qfolder.StateFile)); err != nil {
		t.Fatal(err)
	}
	err := e.planThenApply(Push, func() {
		if err := os.Mkdir(filepath.Join(e.dir, qfolder.StateFile), 0o755); err != nil {
			t.Fatal(err)
		}
	})
	if err == nil || !strings.Contains(err.Error(), qfolder.StateFile) {
		t.Errorf("apply with an unwritable state file: %v", err)
	}
}

// A folder that cannot be written fails the pull.
func TestPullReportsAFailedWrite(t *testing.T) {
	e := newEnv(t)
	e.srv.AddQuestion(padapi.Question{Title: "Two Sum", Language: "go"})
	err := e.planThenApply(Pull, func() { e.write(map[string]string{"two-sum": "a file where the folder goes"}) })
	if err == nil || !strings.Contains(err.Error(), "two-sum") {
		t.Errorf("pull into a file: %v", err)
	}
}

// seeOther is a gateway that forwards a create to the service, which makes
// it, and answers the client 303 See Other (issue 37 #9).
type seeOther struct {
	base   http.RoundTripper
	status int
}

func (g seeOther) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := g.base.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost {
		return resp, err
	}
	resp.Body.Close()
	return &http.Response{StatusCode: g.status, Status: fmt.Sprint(g.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Location": {"/api/questions"}}, Body: http.NoBody, Request: r}, nil
}

// Issue 37 #9: a create answered by a 3xx may have been made: the pending
// record stays, and the next apply adopts the question: 1 folder, 1
// question, after a 303 and two applies.
func TestCreateAnsweredByARedirectStaysPending(t *testing.T) {
	for _, status := range []int{http.StatusSeeOther, http.StatusFound, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			e := newEnv(t)
			e.write(map[string]string{"a/question.json": `{"title": "A", "language": "go"}`})
			c := e.srv.Client(padapi.WithHTTPClient(&http.Client{Transport: seeOther{base: &http.Transport{DisableKeepAlives: true}, status: status}}))
			_, err := runWith(e.ctx(), New(c, e.dir, Options{}), Push)
			var pe *PendingError
			if !errors.As(err, &pe) || !errors.Is(err, padapi.ErrOutcomeUnknown) {
				t.Fatalf("apply answered by a redirect: %v", err)
			}
			if f := e.lib().Folders[0]; f.Pending == nil {
				t.Fatalf("the pending record is gone after a redirect")
			}
			evs := e.must(Push, Options{})
			if n := len(e.srv.Questions()); n != 1 || actions(evs)[Adopt] != 1 || actions(evs)[Create] != 0 {
				t.Errorf("after a redirect and two applies: %d questions, %v", n, actions(evs))
			}
		})
	}
}
