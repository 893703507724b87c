// example_test.go: runnable examples of the client against the fake service.

package padapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/padinterview/padapi"
	"github.com/padinterview/padapi/padapitest"
)

// fakeService stands in for https://app.coderpad.io in the examples: a
// loopback server answering each endpoint with fixed JSON.
func fakeService() *httptest.Server {
	mux := http.NewServeMux()
	for pattern, body := range map[string]string{
		"GET /api/quota": `{"status":"OK","pads_used":33,"pads_remaining":87,"monthly_pad_limit":120,
			"unlimited":false,"quota_reset_at":"2018-01-25T14:51:37.084-08:00"}`,
		"POST /api/pads": `{"status":"OK","id":"NEWPAD01","title":"Backend screen: Jane Doe","language":"go",
			"private":true,"url":"https://app.coderpad.io/NEWPAD01","created_at":"2024-03-05T10:15:30Z"}`,
		"POST /api/questions": `{"status":"OK","id":1234,"title":"FizzBuzz","language":"python3",
			"created_at":"2024-03-05T10:15:30Z"}`,
		"GET /api/questions": `{"status":"OK","total":2,"questions":[
			{"id":1234,"title":"FizzBuzz","used":17},
			{"id":1235,"title":"SQL: top customers","used":0}]}`,
	} {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		})
	}
	// Two pages of pads; the first links to the second as the service does.
	mux.HandleFunc("GET /api/pads", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("page") == "2" {
			_, _ = io.WriteString(w, `{"status":"OK","total":3,"pads":[
				{"id":"AB12CD34","title":"Take-home review"}],
				"prev_page":"https://app.coderpad.io/api/pads?page=1&sort=created_at,asc"}`)
			return
		}
		_, _ = io.WriteString(w, `{"status":"OK","total":3,"pads":[
			{"id":"DM32JWG2","title":"Frontend interview: Jane Doe"},
			{"id":"K3P9ZR2A","title":"Backend screen"}],
			"next_page":"https://app.coderpad.io/api/pads?page=2&sort=created_at,asc"}`)
	})
	return httptest.NewServer(mux)
}

func ExampleNewClient() {
	// Behind a gateway, the base URL keeps its path prefix: Quota.Get sends
	// GET https://gateway.example.com/pad/api/quota.
	c, err := padapi.NewClient("https://gateway.example.com/pad", "my-api-key",
		padapi.WithRetry(5, 200*time.Millisecond, 5*time.Second),
		padapi.WithUserAgent("interview-scheduler/1.4"),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Pads != nil)

	// Plain http to a remote host would send the key in clear text.
	_, err = padapi.NewClient("http://pads.example.com", "my-api-key")
	fmt.Println(err)
	// Output:
	// true
	// padapi: base URL "http://pads.example.com": plain http would send the API key in clear text; use https, a loopback host, or WithInsecureHTTP
}

func ExampleQuotaService_Get() {
	srv := fakeService() // in production: https://app.coderpad.io
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	q, err := c.Quota.Get(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	// The check is advisory: another process can spend the last pad before
	// this one creates it, so Create's ErrOverQuota stays the real answer.
	if !q.CanCreate(1) {
		fmt.Println("no pads left this month")
		return
	}
	// The live service often leaves the counts out of a limited plan: ok
	// is false then, as it is for an unlimited plan.
	if limit, ok := q.Limit(); ok {
		left, _ := q.Remaining()
		fmt.Printf("%d of %d pads used, %d left\n", q.PadsUsed, limit, left)
	} else {
		fmt.Printf("%d pads used, no limit known\n", q.PadsUsed)
	}
	// Output: 33 of 120 pads used, 87 left
}

func ExamplePadsService_Create() {
	srv := fakeService() // in production: https://app.coderpad.io
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	pad, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{
		Title:    padapi.Ptr("Backend screen: Jane Doe"),
		Language: padapi.Ptr("go"),
		Private:  padapi.Ptr(true),
	})
	switch {
	case errors.Is(err, padapi.ErrOverQuota):
		fmt.Println("the monthly pad quota is spent")
		return
	case errors.Is(err, padapi.ErrOutcomeUnknown):
		// No definite answer came back: the pad may exist. Look for it
		// (c.Pads.List) before creating another.
		fmt.Println("the pad may or may not exist:", err)
		return
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(pad.ID, pad.Title)
	fmt.Println(pad.URL)
	// Output:
	// NEWPAD01 Backend screen: Jane Doe
	// https://app.coderpad.io/NEWPAD01
}

func ExamplePadsService_All() {
	srv := fakeService() // in production: https://app.coderpad.io
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	// Each page is fetched when the loop reaches it; breaking out of the
	// loop fetches no more.
	for pad, err := range c.Pads.All(context.Background(), &padapi.PadListOptions{Sort: padapi.SortCreatedAsc}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(pad.ID, pad.Title)
	}
	// Output:
	// DM32JWG2 Frontend interview: Jane Doe
	// K3P9ZR2A Backend screen
	// AB12CD34 Take-home review
}

func ExampleQuestionsService_Create() {
	srv := fakeService() // in production: https://app.coderpad.io
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	q, err := c.Questions.Create(context.Background(), &padapi.QuestionCreateParams{
		Title:    padapi.Ptr("FizzBuzz"),
		Language: padapi.Ptr("python3"),
		Contents: padapi.Ptr("def fizzbuzz(n):\n    pass\n"),
	})
	if err != nil {
		// As with pads, errors.Is(err, padapi.ErrOutcomeUnknown) means the
		// question may exist.
		log.Fatal(err)
	}
	fmt.Println(q.ID, q.Title, q.Language)
	// Output: 1234 FizzBuzz python3
}

func ExampleQuestionsService_All() {
	srv := fakeService() // in production: https://app.coderpad.io
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	for q, err := range c.Questions.All(context.Background(), nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %s (used in %d pads)\n", q.ID, q.Title, q.Used)
	}
	// Output:
	// 1234 FizzBuzz (used in 17 pads)
	// 1235 SQL: top customers (used in 0 pads)
}

func ExampleHistory_Replay() {
	// An edit-history document as the service's editor records it: entry
	// "e1" typed "hi 👋", then "e2" kept 3 characters, deleted the emoji
	// (2 UTF-16 code units) and typed "there".
	doc := `{
		"e2": {"a": "ada", "t": 1700000060000, "o": [3, -2, "there"]},
		"e1": {"a": "ada", "t": 1700000000000, "o": ["hi 👋"]}
	}`
	var h padapi.History
	if err := json.Unmarshal([]byte(doc), &h); err != nil {
		log.Fatal(err)
	}
	before, err := h.ReplayUntil(time.UnixMilli(1700000000000))
	if err != nil {
		log.Fatal(err)
	}
	final, err := h.Replay()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d entries; first %q, then %q\n", len(h.Entries), before, final)
	// Output: 2 entries; first "hi 👋", then "hi there"
}

func ExamplePadsService_Transcript() {
	// A pad with one environment and a short event log, as the service
	// would answer.
	mux := http.NewServeMux()
	for pattern, body := range map[string]string{
		"GET /api/pads/DM32JWG2": `{"status":"OK","id":"DM32JWG2","title":"Backend screen","notes":"Strong on SQL.",
			"pad_environment_ids":[501],"created_at":"2024-03-05T10:00:00Z"}`,
		"GET /api/pads/DM32JWG2/events": `{"status":"OK","total":2,"events":[
			{"kind":"joined","message":"Jane joined","user_name":"Jane","created_at":"2024-03-05T10:01:00Z"},
			{"kind":"ran","message":"Jane ran the code","user_name":"Jane","created_at":"2024-03-05T10:20:00Z"}]}`,
		"GET /api/pad_environments/501": `{"status":"OK","id":501,"pad_id":7,"language":"go",
			"file_contents":[{"path":"main.go","contents":"package main\n","history":null}]}`,
	} {
		mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, body)
		})
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := padapi.NewClient(srv.URL, "my-api-key")
	if err != nil {
		log.Fatal(err)
	}

	tr, err := c.Pads.Transcript(context.Background(), "DM32JWG2")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (notes: %s)\n", tr.Pad.Title, tr.Pad.Notes)
	for _, ev := range tr.Events {
		fmt.Println(ev.CreatedAt.Format(time.TimeOnly), ev.Message)
	}
	for _, env := range tr.Environments {
		for _, f := range env.Files {
			fmt.Printf("%s, %s: %q\n", env.Language, f.Path, f.Contents)
		}
	}
	// Output:
	// Backend screen (notes: Strong on SQL.)
	// 10:01:00 Jane joined
	// 10:20:00 Jane ran the code
	// go, main.go: "package main\n"
}

// A question keeps one variant per language: a Ruby starter beside the
// question's own, a blank Go one, and back to Go's default starter. Here
// against padapitest's fake, which serves variants as the service does.
func ExampleQuestionsService_CreateVariant() {
	srv := padapitest.Start() // in production: https://app.coderpad.io
	defer srv.Close()
	c := srv.Client()
	ctx := context.Background()
	q := srv.AddQuestion(padapi.Question{Title: "FizzBuzz", Language: "python3"})

	ruby, err := c.Questions.CreateVariant(ctx, q.ID, &padapi.QuestionVariantParams{
		Language: padapi.Ptr("ruby"),
		Contents: padapi.Ptr("def fizzbuzz(n)\nend\n"),
	})
	if err != nil {
		log.Fatal(err) // ErrOutcomeUnknown: the variant may exist; list before creating again
	}
	fmt.Printf("%s: %q\n", ruby.Display, *ruby.Contents)

	// A language change clears the starter unless one comes with it:
	// Ptr("") is a blank one, DefaultContents the language's default (nil).
	goVar, err := c.Questions.UpdateVariant(ctx, q.ID, ruby.ID, &padapi.QuestionVariantParams{Language: padapi.Ptr("go"), Contents: padapi.Ptr("")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %q\n", goVar.Display, *goVar.Contents)
	goVar, err = c.Questions.UpdateVariant(ctx, q.ID, ruby.ID, &padapi.QuestionVariantParams{DefaultContents: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(goVar.Display, "default starter:", goVar.Contents == nil)

	vs, err := c.Questions.ListVariants(ctx, q.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(vs), "variant")
	// Output:
	// Ruby: "def fizzbuzz(n)\nend\n"
	// Go: ""
	// Go default starter: true
	// 1 variant
}

// A pad only two interviewers may join: setting the access list sends the
// create as JSON, which the library does by itself.
func ExamplePadsService_Create_restricted() {
	srv := padapitest.Start() // in production: https://app.coderpad.io
	defer srv.Close()
	c := srv.Client()

	pad, err := c.Pads.Create(context.Background(), &padapi.PadCreateParams{
		Title:                     padapi.Ptr("Backend screen"),
		RestrictInterviewerAccess: padapi.Ptr(true),
		AllowedInterviewerEmails:  []string{"ian@example.com", "olivia@example.com"},
		ExecutionEnabled:          padapi.Ptr(true),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pad.Title, *pad.RestrictInterviewerAccess, pad.AllowedInterviewerEmails)

	// An empty, non-nil list clears it.
	pad, err = c.Pads.Update(context.Background(), pad.ID, &padapi.PadUpdateParams{AllowedInterviewerEmails: []string{}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(pad.AllowedInterviewerEmails), pad.AllowedInterviewerEmails != nil)
	// Output:
	// Backend screen true [ian@example.com olivia@example.com]
	// 0 true
}
