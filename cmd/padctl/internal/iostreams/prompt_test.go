// prompt_test.go: the confirmation prompt (iostreams.go's Prompt).

package iostreams_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
	"github.com/padinterview/padapi/internal/lib/redact"
)

// readSpy is a stdin that records what stderr showed when the first read
// came.
type readSpy struct {
	errOut *bytes.Buffer
	seen   string
	in     io.Reader
}

func (r *readSpy) Read(p []byte) (int, error) {
	if r.seen == "" {
		r.seen = r.errOut.String()
	}
	return r.in.Read(p)
}

// Prompt shows its question before it waits for the answer, though the
// redactor keeps back an unfinished line, and reads the one line only.
func TestPromptShowsQuestionFirst(t *testing.T) {
	errOut := &bytes.Buffer{}
	spy := &readSpy{errOut: errOut, in: strings.NewReader(" ABC \nnext line\n")}
	s := &iostreams.IOStreams{In: spy, Out: io.Discard, ErrOut: errOut}
	s.Redact(redact.New("padctl-secret-Qz7Xw9Kp3Lm"))
	got, err := s.Prompt(context.Background(), "Type the ID: ABC")
	if err != nil || got != "ABC" || spy.seen != "Type the ID: ABC" {
		t.Errorf("answer %q, %v; stderr before the read %q", got, err, spy.seen)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	pr, _ := io.Pipe() // never written: only the context can end the wait
	s.In = pr
	if _, err := s.Prompt(ctx, "?"); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
