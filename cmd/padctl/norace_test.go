// norace_test.go holds raceDetector for a build without -race (see
// race_test.go).

//go:build !race

package main

// raceDetector reports whether the tests, and so the padctl they run (the
// test binary itself), are built with the race detector.
const raceDetector = false
