// Package preflight runs the checks that the KiCI orchestrator's upgrade
// (`kici-admin orchestrator upgrade`) makes on its scaler config before it
// restarts the service, as the orchestrator 0.20.0 makes them, and those a
// careful operator wants beyond them.
//
// # The agent image check
//
// A container scaler spawns each agent from the image its label set names,
// not from the upgraded orchestrator. [CheckAgentImages] reports each label
// set whose agent image an upgrade would leave unchanged, with the message
// text the orchestrator prints (without its "Warning: " prefix), and adds
// findings the orchestrator misses. Each finding is one of the types of the
// sealed interface [Finding]:
//
//	code           type           the orchestrator's   the image
//	moving-tag     [MovingTag]    yes                  no tag or latest, no digest, IfNotPresent
//	older-pin      [OlderPin]     yes                  a release older than the target
//	never-pull     [NeverPull]    no                   imagePullPolicy Never, not the target
//	floating-tag   [FloatingTag]  no                   a tag that is no release, IfNotPresent
//	invalid-image  [InvalidImage] no                   a reference Docker refuses
//
// The check reads the scaler config as package scalerconfig models it (what
// [scalerconfig.Load] returns, or a literal), and every finding gives its
// label set, with the label set's and its image's positions in the file
// that declares them ([Finding.LabelSet], [Site]). A [Checker] runs the
// same check one scaler at a time, as [scalerconfig.Location.Scan] hands them over,
// for a config too large to hold, and counts the images it checked and
// those it skipped as not KiCI agent images ([Checker.Counts]): no finding
// means a clean config only when agent images were checked. [Fix] turns a finding into the edit that
// pins its image, for [scalerconfig.EditImages] and
// [scalerconfig.PlanImages].
//
// # What fails at spawn time
//
// The orchestrator loads a resources memory it cannot read (memory: 4GB
// passes its schema, a string) and fails every spawn that reads it later,
// in its parseMemoryString. [CheckResources] finds that before the
// upgrade, and the limits a container scaler would not apply (a [Checker]
// does the same one scaler at a time, [Checker.CheckResources], and for
// the defaults, [Checker.CheckDefaults]):
//
//	code            type             the value
//	invalid-memory  [InvalidMemory]  a memory string the orchestrator's parser refuses, requests or limits, of any scaler type
//	invalid-limit   [InvalidLimit]   a container limit hostconfig.ResolveSpawnLimits refuses: zero, or beyond an int64
//
// Each is at its value's line and column ([scalerconfig.LabelSet.PosOf]),
// in a label set's resources or the config's defaults.resources. The
// memory check covers every scaler type because the orchestrator's scaler
// manager parses the resources of every spawn before its backend starts
// it (manager.ts, kici-dev/kici-public at 0b46a9a); the limit check covers
// container scalers, whose backend makes the limits the container's
// (container-backend.ts, and the 0.20.0 seed's resolveSpawnLimits).
//
// [CheckService] is the whole of the upgrade's step, from the service's env
// file: it locates, loads and checks the config, and tells a config the
// orchestrator refuses ([Invalid], with every problem) from one it cannot
// read ([Unreadable]); the orchestrator's upgrade stays silent on both.
//
// # Bounded reads
//
// CheckService reads the env file and the config through
// [scalerconfig.ReadFile]'s bounds, so that no path makes it hang or grow
// without end: a path that is not a regular file, symbolic links followed
// (a named pipe, /dev/zero or /dev/urandom, a socket, a directory), is
// [Unreadable] with a *[scalerconfig.FileError] before it is opened for
// reading; so is a file longer than the node call that reads it takes, as
// node 20 fails on it. The env file is read as kici-admin reads it,
// fs.readFileSync(path, "utf-8"), which fails at 2^29 − 24 bytes
// ([scalerconfig.EnvFileLimit]); each config file as the orchestrator's
// loadScalerConfig reads it ([scalerconfig.ConfigLimit]). The FS should
// implement fs.StatFS (os.DirFS does): without it, a Stat opens the file.
//
// # Which orchestrator
//
// The two findings of the orchestrator and their texts are those of its
// 0.20.0 release (the seed's checkContainerAgentImages), which defaults
// imagePullPolicy to IfNotPresent, as the public source's 0.12.0 line does
// (kici-dev/kici-public at 0b46a9a). The public repository's older v0.1.x
// line defaults it to Always, under which no moving-tag warning would be
// due: read against that line, every moving-tag finding looks like a false
// positive. It is not one for 0.12.0 and later.
//
// The package is pure: it reads no files but through the fs.FS a caller
// gives [CheckService], no environment and no clock.
package preflight
