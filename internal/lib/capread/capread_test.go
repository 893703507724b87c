package capread

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReaderCapAndKeep(t *testing.T) {
	t.Parallel()
	var r Reader
	r.Reset(context.Background(), strings.NewReader("0123456789"), -1, 10, -1)
	if err := r.Rest(); err != nil || string(r.Kept()) != "0123456789" || r.Err() != nil {
		t.Fatalf("a body at the cap: Rest() = %v, kept %q, Err() = %v", err, r.Kept(), r.Err())
	}
	r.Reset(context.Background(), strings.NewReader("0123456789x"), -1, 10, -1)
	if err := r.Rest(); !errors.Is(err, ErrTooLarge) || !errors.Is(r.Err(), ErrTooLarge) || len(r.Kept()) != 10 {
		t.Fatalf("a body one past the cap: Rest() = %v, kept %d bytes, Err() = %v", err, len(r.Kept()), r.Err())
	}
	r.Reset(context.Background(), strings.NewReader("0123456789"), 10, 100, 4)
	if b, err := io.ReadAll(&r); err != nil || string(b) != "0123456789" || string(r.Kept()) != "0123" {
		t.Fatalf("keep 4: read %q, %v; kept %q", b, err, r.Kept())
	}
}

func TestReaderStopsAtTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var r Reader
	r.Reset(ctx, strings.NewReader(strings.Repeat("x", 1000)), -1, 1<<20, -1)
	buf := make([]byte, 10)
	if n, err := r.Read(buf); n != 10 || err != nil {
		t.Fatalf("Read = %d, %v", n, err)
	}
	cancel()
	if _, err := r.Read(buf); !errors.Is(err, context.Canceled) || !errors.Is(r.Err(), context.Canceled) {
		t.Fatalf("Read after cancel = %v, Err() = %v; want context.Canceled", err, r.Err())
	}
	if string(r.Kept()) != strings.Repeat("x", 10) {
		t.Fatalf("kept %q", r.Kept())
	}
}
