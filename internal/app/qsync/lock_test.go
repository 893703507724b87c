package qsync

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestLockRefusesOrWaits(t *testing.T) {
	e := newEnv(t)
	synctest.Test(t, func(t *testing.T) {
		e.t = t
		a, b := e.syncer(Options{}), e.syncer(Options{})
		if err := a.Lock(e.ctx(), false); err != nil {
			t.Fatal(err)
		}
		err := b.Lock(e.ctx(), false)
		var le *LockedError
		if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || le.Dir != e.dir || le.Err != nil || !strings.Contains(err.Error(), e.dir) {
			t.Fatalf("a second lock: %v", err)
		}
		// Waiting is bounded by the context.
		ctx, cancel := context.WithTimeout(e.ctx(), time.Minute)
		start := time.Now()
		err = b.Lock(ctx, true)
		cancel()
		if !errors.Is(err, ErrLocked) || !errors.As(err, &le) || !errors.Is(le.Err, context.DeadlineExceeded) ||
			!strings.Contains(err.Error(), "stopped waiting") || time.Since(start) != time.Minute {
			t.Fatalf("waiting for the lock: %v after %v", err, time.Since(start))
		}
		waitForUnlock(t, a, b, e.ctx())
	})
}

// waitForUnlock checks, in a bubble, that b, waiting for the lock a holds,
// takes it when a releases it.
func waitForUnlock(t *testing.T, a, b *Syncer, ctx context.Context) {
	done := make(chan error)
	go func() { done <- b.Lock(ctx, true) }()
	synctest.Wait()
	select {
	case err := <-done:
		t.Fatalf("b took the lock a holds: %v", err)
	default:
	}
	if err := a.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("b after a's unlock: %v", err)
	}
	if err := b.Unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockRefusesASymlink(t *testing.T) {
	e := newEnv(t)
	if err := os.Symlink(t.TempDir(), e.dir); err != nil {
		t.Fatal(err)
	}
	if err := e.syncer(Options{}).Lock(e.ctx(), false); err == nil || errors.Is(err, ErrLocked) {
		t.Errorf("lock through a symlink: %v", err)
	}
}
