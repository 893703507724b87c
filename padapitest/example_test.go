// example_test.go: the package's examples, each run by go test and checked against its output.

package padapitest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"testing"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// A test of your own code needs three lines: start the fake, get a client,
// run the code. Then the fake's state says what the code did. Here t
// stands for the test's *testing.T.
func ExampleNewServer() {
	t := &exampleT{}
	defer t.cleanup() // go test does this when the test ends

	srv := padapitest.NewServer(t)
	c := srv.Client()
	if _, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview")}); err != nil {
		t.Fatal(err)
	}

	pads := srv.Pads()
	if len(pads) != 1 || pads[0].Title != "Interview" {
		t.Fatalf("the fake holds %+v, want one pad titled Interview", pads)
	}
	fmt.Printf("the fake holds %d pad, titled %q\n", len(pads), pads[0].Title)
	// Output:
	// the fake holds 1 pad, titled "Interview"
}

// A program, such as a command's demo mode, starts a fake with Start and
// closes it itself.
func ExampleStart() {
	srv := padapitest.Start()
	defer srv.Close()
	srv.SetQuota(120, 33)

	ctx := context.Background()
	c := srv.Client()
	q, err := c.Quota.Get(ctx)
	if err != nil {
		log.Fatal(err)
	}
	remaining, _ := q.Remaining()
	fmt.Printf("%d of %d pads used, %d left\n", q.PadsUsed, *q.MonthlyPadLimit, remaining)

	if _, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("Interview")}); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("the fake holds %d pad; %d pads used\n", len(srv.Pads()), srv.Quota().PadsUsed)
	// Output:
	// 33 of 120 pads used, 87 left
	// the fake holds 1 pad; 34 pads used
}

// DropNext loses the answer to a create that happened: the client reports
// ErrOutcomeUnknown, and the pad exists.
func ExampleServer_DropNext() {
	srv := padapitest.Start()
	defer srv.Close()
	srv.DropNext("POST /api/pads", 1)

	_, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview")})
	fmt.Println(errors.Is(err, padapi.ErrOutcomeUnknown))
	fmt.Println(len(srv.Pads()), "pad:", srv.Pads()[0].Title)
	// Output:
	// true
	// 1 pad: Interview
}

// FailNext answers the next requests to a route with an error; the client
// retries a GET through two 503s.
func ExampleServer_FailNext() {
	srv := padapitest.Start()
	defer srv.Close()
	srv.FailNext("GET /api/quota", 2, http.StatusServiceUnavailable, `{"status":"ERROR","message":"Maintenance"}`)

	_, err := srv.Client().Quota.Get(context.Background())
	fmt.Println(err)
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path)
	}
	// Output:
	// <nil>
	// GET /api/quota
	// GET /api/quota
	// GET /api/quota
}

// SetFaults draws a fault for each request, here from what it carries:
// every create of a pad titled "flaky" gets a 500 before the fake acts, so
// the client cannot know whether it happened, and nothing is created.
func ExampleServer_SetFaults() {
	srv := padapitest.Start()
	defer srv.Close()
	srv.SetFaults(func(route string, r padapitest.Request) padapitest.Fault {
		if route == "POST /api/pads" && r.Form.Get("title") == "flaky" {
			return padapitest.Fault{Status: http.StatusInternalServerError}
		}
		return padapitest.Fault{}
	})

	c := srv.Client()
	ctx := context.Background()
	_, err := c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("flaky")})
	fmt.Println(errors.Is(err, padapi.ErrOutcomeUnknown), len(srv.Pads()))
	_, err = c.Pads.Create(ctx, &padapi.PadCreateParams{Title: padapi.Ptr("steady")})
	fmt.Println(err, len(srv.Pads()))
	// Output:
	// true 0
	// <nil> 1
}

// Requests shows what the code under test sent, with the API key redacted.
func ExampleServer_Requests() {
	srv := padapitest.Start()
	defer srv.Close()

	_, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview"), Private: padapi.Ptr(true)})
	if err != nil {
		log.Fatal(err)
	}
	r := srv.Requests()[0]
	fmt.Println(r.Method, r.Path, r.Form.Encode())
	fmt.Println(r.Header.Get("Authorization"))
	// Output:
	// POST /api/pads private=true&title=Interview
	// [REDACTED]
}

// Every pad the fake holds has what an interview leaves behind: an event
// log, environments with their files, and an edit history for each file
// that replays to its contents. AddEnvironment and AddEvent add more.
func ExampleServer_AddEnvironment() {
	srv := padapitest.Start()
	defer srv.Close()
	pad := srv.AddPad(padapi.Pad{Title: "Backend", OwnerEmail: "owner@example.com", Language: "go", Contents: "package main\n"})
	srv.AddEnvironment(pad.ID, padapi.PadEnvironment{Language: "python", Files: []padapi.FileContent{{Path: "main.py", Contents: "print('hi')\n"}}})
	srv.AddEvent(pad.ID, padapi.PadEvent{Message: "Ada joined the pad", Kind: "joined", UserName: "Ada"})

	ctx := context.Background()
	c := srv.Client()
	tr, err := c.Pads.Transcript(ctx, pad.ID)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range tr.Events { // oldest first
		fmt.Println(e.Kind, "-", e.Message)
	}
	for _, env := range tr.Environments {
		h, err := c.Pads.History(ctx, env.Files[0].History)
		if err != nil {
			log.Fatal(err)
		}
		text, err := h.Replay()
		fmt.Printf("%s %s: %q (replayed: %v)\n", env.ID, env.Files[0].Path, env.Files[0].Contents, err == nil && text == env.Files[0].Contents)
	}
	// Output:
	// created - Olivia Owner created the pad
	// joined - Ada joined the pad
	// 1001 main.go: "package main\n" (replayed: true)
	// 1002 main.py: "print('hi')\n" (replayed: true)
}

// WithShape(DocumentedShape) answers as the service's documentation shows:
// a pad carries its events as a list, where live answers link to them.
func ExampleWithShape() {
	for _, shape := range []padapitest.Shape{padapitest.LiveShape, padapitest.DocumentedShape} {
		srv := padapitest.Start(padapitest.WithShape(shape))
		p, err := srv.Client().Pads.Create(context.Background(), &padapi.PadCreateParams{Title: padapi.Ptr("Interview")})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d events listed, events link given: %v, state %q\n", shape, len(p.Events), p.EventsURL != "", p.State)
		srv.Close()
	}
	// Output:
	// live: 0 events listed, events link given: true, state "started"
	// documented: 1 events listed, events link given: false, state ""
}

// exampleT stands for a test's *testing.T in ExampleNewServer, which runs
// outside a test: it keeps the cleanups to run at the end, and panics,
// failing the example, where a test would fail.
type exampleT struct {
	testing.TB // the methods the example does not call
	cleanups   []func()
}

func (t *exampleT) Helper()                           {}
func (t *exampleT) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Fatal(args ...any)                 { panic(fmt.Sprint(args...)) }
func (t *exampleT) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// cleanup runs the cleanups, last added first, as a test's end does.
func (t *exampleT) cleanup() {
	for i := len(t.cleanups) - 1; i >= 0; i-- {
		t.cleanups[i]()
	}
}
