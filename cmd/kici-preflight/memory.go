package main

import (
	"math"
	"runtime/debug"
)

// The memory the program promises to stay within: memoryBase plus
// memoryPerByte times the bytes of the files it reads (the config, its
// drop-ins, the env file, standard input).
const (
	memoryBase    = 1 << 30
	memoryPerByte = 20
	// memoryStep is how many bytes are read between two settings of the
	// limit: setting it takes the runtime's heap lock and recomputes the
	// collector's goal (100,000 drop-ins took four times as long with a
	// setting a read), and a limit up to 20 MiB below the bound is on the
	// safe side of it.
	memoryStep = 1 << 20
)

// memoryBound keeps the program within that promise where it can: as it
// reads the files, it sets the runtime's soft memory limit
// (debug.SetMemoryLimit) to the bound of what it has read so far, so that
// the garbage collector collects more often as the heap nears the bound
// rather than letting it grow to twice what is live. A file is counted as
// its bytes are read, before it is parsed, so that the limit is in place
// for its parse, less at most memoryStep of its bytes: it errs low. Memory
// that is live beyond the limit is not refused: the runtime then collects
// at a bounded cost and goes on, and the program finishes later, not with
// an error.
//
// The zero memoryBound has read nothing and set no limit yet. A nil
// *memoryBound sets nothing: run's, and a process whose environment sets
// GOMEMLIMIT, which the program then leaves to the user.
type memoryBound struct {
	read int64 // the bytes read so far
	next int64 // the bytes read at which the limit is set again
}

// memoryBoundFor is the program's memoryBound, nil when the environment
// (getenv) sets GOMEMLIMIT.
func memoryBoundFor(getenv func(string) string) *memoryBound {
	if getenv("GOMEMLIMIT") != "" {
		return nil
	}
	return &memoryBound{}
}

// add counts n more bytes read and sets the limit to their bound: on the
// first read, and then each time memoryStep more bytes are read.
func (m *memoryBound) add(n int) {
	if m == nil || n <= 0 {
		return
	}
	m.read += int64(n)
	if m.read < m.next {
		return
	}
	m.next = m.read + memoryStep
	debug.SetMemoryLimit(boundOf(m.read))
}

// boundOf is the bound of read bytes, saturating at the largest limit the
// runtime takes.
func boundOf(read int64) int64 {
	if read > (math.MaxInt64-memoryBase)/memoryPerByte {
		return math.MaxInt64
	}
	return memoryBase + memoryPerByte*read
}
