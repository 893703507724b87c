// norace_test.go holds raceDetector for a build without -race (see
// race_test.go).

//go:build !race

package archive

// raceDetector reports whether the tests run under the race detector.
const raceDetector = false
