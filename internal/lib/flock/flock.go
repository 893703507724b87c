//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

// Package flock is the one place that takes and releases flock(2) locks:
// the questions folder's lock (internal/app/qsync) and the archive's
// (internal/app/archive) both use it. The kernel drops such a lock when
// the process ends, however it ends.
package flock

import (
	"errors"
	"os"
	"syscall"
)

// ErrHeld is TryLock's answer when another open file holds the lock.
var ErrHeld = errors.New("the lock is held")

// TryLock takes an exclusive flock on f without waiting. It tries again
// when a signal interrupts the call, and returns ErrHeld when another open
// file (of this process or another) holds the lock.
func TryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrHeld
		}
		return err
	}
}

// Release unlocks f, then closes it. A child this process is forking holds
// a copy of the descriptor from the fork until its exec closes it, and the
// kernel wakes the forking parent before that close: a close alone left
// the lock held by the copy for that while, and a run started at once
// found it held. An flock belongs to the open file, which the copy shares,
// so unlocking through any copy frees it for all.
func Release(f *os.File) error {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return f.Close()
}
