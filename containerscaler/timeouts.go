package containerscaler

import "time"

// How long the backend waits for each thing, in one place.
const (
	// defaultSpawnTimeout is a spawn's deadline when Options.SpawnTimeout
	// is 0: the scaler manager's default.
	defaultSpawnTimeout = 300 * time.Second
	// createTimeout bounds a request that creates something on the Engine:
	// it runs to its answer past a spawn's cancellation, so that what it
	// made is known and removed.
	createTimeout = time.Minute
	// cleanupTimeout bounds each removal after a failure, and each of a
	// Destroy's requests.
	cleanupTimeout = time.Minute
	// stopSeconds is the grace Destroy gives an agent's container before
	// the Engine kills it, as the orchestrator's destroy does.
	stopSeconds = 10
	// orphanStopSeconds is the grace CleanupOrphans gives an orphan, as the
	// orchestrator's cleanupOrphans does.
	orphanStopSeconds = 5
	// nftTimeout bounds one nft process, as the orchestrator's exec of nft
	// is bounded.
	nftTimeout = 10 * time.Second
	// nftWaitDelay is how long to wait for nft's pipes once the process
	// that ran it was killed: past nftTimeout, killing sudo or ip leaves
	// nft holding them.
	nftWaitDelay = time.Second
)
