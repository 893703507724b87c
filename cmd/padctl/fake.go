// fake.go: startFake, the in-process fake service behind --fake.

package main

import "github.com/padinterview/padapi/padapitest"

// startFake starts the in-process fake service behind --fake, seeded so
// that every command has something to show: 12 of 50 pads used, and six
// sample pads and questions. Nothing it holds outlives the command.
func startFake() (baseURL, apiKey string, stop func()) {
	srv := padapitest.Start()
	srv.SetQuota(50, 12)
	srv.Seed(6)
	return srv.URL, srv.APIKey, srv.Close
}
