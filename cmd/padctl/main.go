// Command padctl is a command-line client for the Pad Interview Service,
// built only on the public API of package padapi.
//
// Usage:
//
//	padctl [global flags] <command> [flags] [args]
//
// Run "padctl help" for the commands. The API key comes from PAD_API_KEY (or
// --api-key) and the service from PAD_BASE_URL (or --base-url, default
// https://app.coderpad.io); --fake runs the command against an in-process
// fake service, so the tool can be tried without an account.
//
// Exit codes: 0 success, 1 API error, 2 usage error, 3 over quota, 4 outcome
// unknown (a create may or may not have happened), 130 interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"

	"github.com/padinterview/padapi"
)

// Exit codes, part of the tool's interface for scripts.
const (
	exitOK          = 0
	exitAPI         = 1
	exitUsage       = 2
	exitOverQuota   = 3
	exitUnknown     = 4
	exitInterrupted = 130 // what shells report for a process ended by SIGINT
)

// defaultBaseURL is the public service, used when neither PAD_BASE_URL nor
// --base-url is given.
const defaultBaseURL = "https://app.coderpad.io"

func main() {
	// The context ends on Ctrl-C, which cancels the request in flight.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// app is what a command runs with: the parsed global flags, the output
// streams, and a client made on first use so that "help" and usage errors
// need no configuration.
type app struct {
	ctx            context.Context
	stdout, stderr io.Writer
	json           bool
	fake           bool
	baseURL        string
	apiKey         string
	globals        *flag.FlagSet // to tell a global flag given after the command

	client    *padapi.Client
	closeFake func()
}

// usageError is a mistake in the command line: exit code 2, with the usage
// of the command it is about.
type usageError struct {
	cmd *command // nil for the global flags
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd *command, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// errHelp is returned for -h: the usage was printed and nothing failed.
var errHelp = errors.New("help requested")

// run is padctl without the process around it: tests call it with captured
// streams and a fake environment. It returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{ctx: ctx, stdout: stdout, stderr: stderr}
	defer a.close()

	global := flag.NewFlagSet("padctl", flag.ContinueOnError)
	global.SetOutput(io.Discard)
	a.globals = global
	// The `URL` and `KEY` name the values in a misplaced flag's hint.
	global.StringVar(&a.baseURL, "base-url", getenv("PAD_BASE_URL"), "service base `URL` (default $PAD_BASE_URL, else "+defaultBaseURL+")")
	global.StringVar(&a.apiKey, "api-key", getenv("PAD_API_KEY"), "API `KEY` (default $PAD_API_KEY; prefer the variable, flags show in ps)")
	global.BoolVar(&a.fake, "fake", false, "run against an in-process fake service seeded with sample data")
	global.BoolVar(&a.json, "json", false, "print JSON in the service's wire shape instead of tables")
	if err := global.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(stdout)
			return exitOK
		}
		return a.fail(usagef(nil, "%v", err), "")
	}
	if global.NArg() == 0 {
		return a.fail(usagef(nil, "no command given"), "")
	}

	cmd, rest, err := findCommand(global.Args())
	if err != nil {
		return a.fail(err, "")
	}
	err = cmd.run(a, cmd, rest)
	if errors.Is(err, errHelp) {
		return exitOK
	}
	return a.fail(err, cmd.name)
}

// connect returns the client, making it on first use from the flags and
// environment, or from a fake service with --fake.
func (a *app) connect() (*padapi.Client, error) {
	if a.client != nil {
		return a.client, nil
	}
	baseURL, apiKey := a.baseURL, a.apiKey
	if a.fake {
		var stop func()
		baseURL, apiKey, stop = startFake()
		a.closeFake = stop
	}
	if apiKey == "" {
		return nil, usagef(nil, "no API key: set PAD_API_KEY or pass --api-key (or try --fake)")
	}
	if baseURL == "" {
		baseURL = defaultBaseURL
	}
	// NewClient's errors never quote the key, so they can be shown as they are.
	c, err := padapi.NewClient(baseURL, apiKey, padapi.WithUserAgent("padctl"))
	if err != nil {
		return nil, usagef(nil, "%v", err)
	}
	a.client = c
	return c, nil
}

func (a *app) close() {
	if a.closeFake != nil {
		a.closeFake()
	}
}

// fail prints err (if any) to stderr and returns its exit code. cmdName is
// the command that failed, used to say which list to check after a create
// whose outcome is unknown.
func (a *app) fail(err error, cmdName string) int {
	if err == nil {
		return exitOK
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(a.stderr, "padctl: %s\n", ue.msg)
		if ue.cmd != nil {
			fmt.Fprintf(a.stderr, "usage: %s\n", ue.cmd.usage())
		} else {
			fmt.Fprintln(a.stderr, `run "padctl help" for the commands`)
		}
		return exitUsage
	}

	resource := "pads"
	if strings.HasPrefix(cmdName, "questions") {
		resource = "questions"
	}
	noun := strings.TrimSuffix(resource, "s")
	var ae *padapi.APIError
	isAPI := errors.As(err, &ae)
	switch {
	// First, because a create interrupted by Ctrl-C is also of unknown outcome,
	// and that is what the user must hear.
	case errors.Is(err, padapi.ErrOutcomeUnknown):
		fmt.Fprintf(a.stderr, "padctl: no definite answer from the service (%v).\n", err)
		fmt.Fprintf(a.stderr, "padctl: the %s may or may not have been created. Check \"padctl %s list\" before retrying, or you may create it twice.\n", noun, resource)
		return exitUnknown
	case errors.Is(err, padapi.ErrOverQuota):
		fmt.Fprintf(a.stderr, "padctl: over quota: the monthly pad quota is spent, so nothing was created (%s).\n", apiStatus(ae))
		fmt.Fprintln(a.stderr, `padctl: "padctl quota" shows the numbers.`)
		return exitOverQuota
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(a.stderr, "padctl: interrupted")
		return exitInterrupted
	case isAPI:
		fmt.Fprintf(a.stderr, "padctl: %s %s: %s\n", ae.Method, ae.Path, apiStatus(ae))
		switch {
		case errors.Is(err, padapi.ErrUnauthorized):
			fmt.Fprintln(a.stderr, "padctl: the service rejected the API key: check PAD_API_KEY or --api-key")
		case errors.Is(err, padapi.ErrForbidden) && strings.HasPrefix(cmdName, "org"):
			fmt.Fprintln(a.stderr, "padctl: organization commands need an organization owner's key")
		}
		return exitAPI
	}
	fmt.Fprintf(a.stderr, "padctl: %v\n", err)
	return exitAPI
}

// apiStatus reads "404 Not Found: <the service's message>".
func apiStatus(ae *padapi.APIError) string {
	if ae == nil {
		return "no HTTP status"
	}
	s := fmt.Sprintf("%d %s", ae.StatusCode, http.StatusText(ae.StatusCode))
	if ae.Message != "" && ae.Message != http.StatusText(ae.StatusCode) {
		s += ": " + ae.Message
	}
	return s
}
