// race_test.go holds raceDetector for a build with -race (norace_test.go
// for one without).

//go:build race

package main

// raceDetector reports whether the tests, and so the padctl they run (the
// test binary itself), are built with the race detector.
const raceDetector = true
