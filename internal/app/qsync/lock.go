package qsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// lockPoll is how often Lock looks again at a lock another run holds.
const lockPoll time.Duration = 50e6 // 50ms

// ErrLocked is the error (matched with errors.Is) of a Lock that found
// another run holding the folder's lock.
var ErrLocked = errors.New("another padctl questions apply or pull is running on this folder")

// LockedError is a folder whose lock another run holds.
type LockedError struct {
	// Dir is the folder.
	Dir string
	// Err, when set, is why Lock stopped waiting (the context's error).
	Err error
}

// Error names the folder and says what to do.
func (e *LockedError) Error() string {
	msg := fmt.Sprintf("%s: %v: wait for it to end (its lock ends with it) and run again", e.Dir, ErrLocked)
	if e.Err != nil {
		msg += fmt.Sprintf(" (stopped waiting: %v)", e.Err)
	}
	return msg
}

// Is reports ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// Lock takes the folder's lock, which a run that changes the folder or the
// service holds from its plan to its end: a second run on the same folder,
// in this process or another, then cannot plan a create the first is
// making. The lock ends with the process that holds it. When another run
// holds it, Lock returns a *LockedError at once, or, when wait is set,
// waits until the lock is free or ctx ends. Lock makes the folder if it
// does not exist.
func (s *Syncer) Lock(ctx context.Context, wait bool) error {
	if s.lock != nil {
		return errors.New("qsync: the folder is already locked by this Syncer")
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return err
	}
	for {
		l, err := tryLock(s.dir)
		if err == nil {
			s.lock = l
			return nil
		}
		if !errors.Is(err, ErrLocked) {
			return err
		}
		if !wait {
			return &LockedError{Dir: s.dir}
		}
		if err := sleepOrDone(ctx, lockPoll); err != nil {
			return &LockedError{Dir: s.dir, Err: ctx.Err()}
		}
	}
}

// Unlock releases the folder's lock, if the Syncer holds it.
func (s *Syncer) Unlock() error {
	if s.lock == nil {
		return nil
	}
	err := s.lock.release()
	s.lock = nil
	return err
}
