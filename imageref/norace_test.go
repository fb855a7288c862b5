//go:build !race

package imageref

// raceDetector is whether the tests run under the race detector.
const raceDetector = false
