// race_test.go holds raceDetector for a build with -race (norace_test.go
// for one without): tests that only the plain run needs to run check it.

//go:build race

package archive

// raceDetector reports whether the tests run under the race detector.
const raceDetector = true
