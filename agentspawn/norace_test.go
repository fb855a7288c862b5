//go:build !race

package agentspawn

// raceAllocs is what the race detector adds to a Plan's allocations.
const raceAllocs = 0
