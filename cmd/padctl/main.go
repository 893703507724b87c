// Command padctl is a command-line client for the Pad Interview Service,
// built on package padapi and on cobra.
//
// Usage:
//
//	padctl <command> [flags] [args]
//
// Run "padctl" or "padctl help" for the commands. The API key comes from
// PAD_API_KEY (or --api-key), the service from PAD_BASE_URL (or --base-url,
// default https://app.coderpad.io), the time limit of the whole command,
// retries and every page included, from PAD_TIMEOUT (or --timeout, default
// 30s, 0 for none). --fake runs the command against an in-process fake
// service, so the tool can be tried without an account. Global flags go
// before or after the command. SIGINT and SIGTERM cancel the command, which
// cleans up and exits 130 or 143; a second signal ends padctl at once.
//
// Output is a table on a terminal, tab-separated rows without a header when
// piped, and the service's JSON with --json. Hints and notes go to stderr.
//
// Exit codes: 0 success, 1 API or network error, 2 usage error or an
// argument the library refused, 3 over quota, 4 outcome unknown (a create
// may or may not have happened), 5 rate limited, 6 the folder is locked by
// another run (questions apply or pull, archive), 130 interrupted (SIGINT),
// 143 terminated (SIGTERM).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/padinterview/padapi/cmd/padctl/internal/cmd/root"
	"github.com/padinterview/padapi/cmd/padctl/internal/cmdutil"
	"github.com/padinterview/padapi/cmd/padctl/internal/iostreams"
)

func main() {
	ctx, stop := signalContext()
	code := root.Run(ctx, os.Args[1:], &cmdutil.Factory{IOStreams: iostreams.System(), Getenv: os.Getenv})
	stop()
	os.Exit(code)
}

// signalContext returns a context that SIGINT or SIGTERM cancels, with a
// *cmdutil.SignalError as its cause (exit 130 or 143), which cancels the
// request in flight and lets the command clean up. After the first signal
// padctl no longer catches them: a second one ends it at once. stop stops
// catching them and ends the goroutine that waits for one.
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			signal.Stop(sigs)
			if sig == syscall.SIGTERM {
				cancel(&cmdutil.SignalError{Code: cmdutil.ExitTerminated, What: "terminated"})
			} else {
				cancel(&cmdutil.SignalError{Code: cmdutil.ExitInterrupted, What: "interrupted"})
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
	}
}
