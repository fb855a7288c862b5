//go:build race

package yamljs

// raceDetector is whether the tests run with the race detector, which
// makes reading the random corpus several times slower: TestRandomCorpus
// then reads a quarter of it (the CI's coverage run, without the race
// detector, reads all of it).
const raceDetector = true
