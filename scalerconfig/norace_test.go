//go:build !race

package scalerconfig

const raceDetector = false
