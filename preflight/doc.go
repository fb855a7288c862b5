// Package preflight runs the checks that the KiCI orchestrator's upgrade
// (`kici-admin orchestrator upgrade`) makes on its scaler config before it
// restarts the service. It runs them as the orchestrator 0.20.0 does, and
// adds those a careful operator wants beyond them.
//
// # The checks
//
// [Check] runs every check and returns the findings in one order. The
// config's defaults come first. Then comes each label set in config order:
// its image findings, then its resource findings. Each finding is one of
// the types of the sealed interface [Finding], and [Kinds] describes each:
//
//	code            type             severity
//	moving-tag      [MovingTag]      warning
//	older-pin       [OlderPin]       warning
//	never-pull      [NeverPull]      warning
//	floating-tag    [FloatingTag]    warning
//	invalid-image   [InvalidImage]   error
//	invalid-memory  [InvalidMemory]  error
//	invalid-limit   [InvalidLimit]   error
//
// The check reads the config as package scalerconfig models it: what
// [scalerconfig.Load] returns, or a literal. Every finding gives its label
// set, with its positions in the file that declares it ([Finding.LabelSet],
// [Site]). [Finding.Position] is where the file writes the value it is
// about: the image, or a resource's value. [Fix] turns a finding
// into the edit that pins its image, for [scalerconfig.EditImages].
//
// [Scan] is Check for a config too large to hold, read one scaler at a time
// by [scalerconfig.Location.Scan]. It also counts the images it checked and those it
// skipped as not KiCI agent images ([ImageCounts]). No finding means a
// clean config only when agent images were checked.
//
// # The agent image check
//
// A container scaler spawns each agent from the image its label set names,
// not from the upgraded orchestrator. moving-tag and older-pin are the
// orchestrator's own findings, with its message text (without its
// "Warning: " prefix). They report each label set whose agent image an
// upgrade would leave unchanged. The other image findings are what the
// orchestrator misses. [CheckAgentImages] runs the image checks alone, as
// the orchestrator's checkContainerAgentImages does.
//
// # What fails at spawn time
//
// The orchestrator loads a resources memory it cannot read: memory: 4GB
// passes its schema, as a string. It then fails every spawn that reads it,
// in its parseMemoryString. invalid-memory finds that before the upgrade,
// for a scaler of any type. The orchestrator's scaler manager parses the
// resources of every spawn before its backend starts it (manager.ts,
// kici-dev/kici-public at 0b46a9a).
//
// invalid-limit finds the limits a container scaler would not apply. Its
// backend makes the limits the container's (container-backend.ts, and the
// 0.20.0 seed's resolveSpawnLimits). Each finding is at its value, in a
// label set's resources or in the config's defaults.resources.
//
// # The service
//
// [CheckService] is the whole of the upgrade's step, from the service's env
// file. It locates, loads and checks the config. It tells a config the
// orchestrator refuses ([Invalid], with every problem) from one it cannot
// read ([Unreadable]). The orchestrator's upgrade stays silent on both.
//
// CheckService reads the env file and the config within node's bounds
// ([scalerconfig.Options.LocateFile], [scalerconfig.Location.Load]). So no
// path makes it hang or grow without end. A path that is not a regular
// file, symbolic links followed, is [Unreadable] before it is opened for
// reading: a named pipe, /dev/zero, a socket, a directory. So is a file
// longer than the node call that reads it takes, as node 20 fails on it.
// The env file is read as kici-admin reads it, fs.readFileSync(path,
// "utf-8"), which fails at 2^29 − 24 bytes. Each config file is read as the
// orchestrator's loadScalerConfig reads it.
// The FS should implement fs.StatFS, as os.DirFS does. Without it, a Stat
// opens the file.
//
// # Which orchestrator
//
// [CheckService] reads the config as the release it upgrades to does:
// by scalerconfig.RulesFor of the target, so by 0.16.0's rules (config.ts
// at 84ac3cd, which 0.20.0 keeps) for a target of 0.16.0 or later, or
// none. Those refuse a flat resources block and a plain platform label in
// a scaler without platform, which older releases load
// ([InvalidConfigKind] says which release refuses what).
//
// The orchestrator's two findings and their texts are those of its 0.20.0
// release (the seed's checkContainerAgentImages). It defaults
// imagePullPolicy to IfNotPresent, as the public source does at 0b46a9a
// (0.12.0) and 221047e (0.15.0), in kici-dev/kici-public. The public
// repository's older v0.1.x line defaults it to Always, under which no
// moving-tag warning is due. Read against that line, every moving-tag
// finding looks like a false positive. It is not one for 0.12.0 and later.
//
// The package is pure: it reads no files but through the fs.FS a caller
// gives [CheckService], no environment and no clock.
package preflight
