//go:build race

package imageref

// raceDetector is whether the tests run under the race detector, whose
// instrumentation slows Parse's loop far more than strings.ToLower.
const raceDetector = true
