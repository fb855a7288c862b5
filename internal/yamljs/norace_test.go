//go:build !race

package yamljs

// raceDetector is whether the tests run with the race detector (see
// race_test.go).
const raceDetector = false
