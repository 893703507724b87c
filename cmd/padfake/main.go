// Command padfake runs padapitest's fake Pad Interview Service, for trying
// padapi, padctl or any HTTP client without an account or a network:
//
//	go run ./cmd/padfake -addr 127.0.0.1:8080 -seed 20
//
// It prints the base URL and the API key as two lines, PAD_BASE_URL=... and
// PAD_API_KEY=..., ready to export, and serves until interrupted (SIGINT or
// SIGTERM). The fake keeps its state in memory: a restart starts afresh.
//
// Flags:
//
//	-addr host:port   listen address (default 127.0.0.1:8080)
//	-key KEY          the API key to accept (default padapitest-key)
//	-seed N           add N sample questions and N sample pads
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/padinterview/padapi/padapitest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run serves the fake until ctx ends, and returns the exit code: 2 for bad
// usage, 1 when the fake cannot start.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("padfake", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen `address`")
	key := fs.String("key", padapitest.DefaultAPIKey, "the API `key` to accept")
	seed := fs.Int("seed", 0, "add `N` sample questions and N sample pads")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *seed < 0 {
		fmt.Fprintln(stderr, "usage: padfake [-addr host:port] [-key KEY] [-seed N]")
		return 2
	}

	srv, err := padapitest.Listen(padapitest.WithAddr(*addr), padapitest.WithAPIKey(*key))
	if err != nil {
		fmt.Fprintf(stderr, "padfake: %v\n", err)
		return 1
	}
	defer srv.Close()
	srv.Seed(*seed)
	fmt.Fprintf(stdout, "PAD_BASE_URL=%s\nPAD_API_KEY=%s\n", srv.URL, srv.APIKey)
	<-ctx.Done()
	return 0
}
