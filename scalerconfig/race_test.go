//go:build race

package scalerconfig

// raceDetector tells the tests that run long that the race detector slows
// them: they read smaller inputs.
const raceDetector = true
