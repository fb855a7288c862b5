// Package scalerconfig reads the KiCI orchestrator's scaler config: the file
// that names each scaler, its label sets and the images their agents run.
// It reads it exactly as the orchestrator 0.12.0 and later do
// (loadScalerConfig and its zod schema), from the service's env file to
// canonical labels, and says where each value and each problem is.
//
// # Which orchestrator
//
// The rules are those of the public KiCI source, repository
// kici-dev/kici-public, at commit 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d
// (the 0.12.0 line): packages/orchestrator/src/scaler/config.ts for the
// file and its schema, types.ts, container-backend.ts and manager.ts for
// what the orchestrator does with each field (each field's doc says).
// The release 0.20.0, whose upgrade check kicikit reproduces, also takes
// imagePullPolicy to default to IfNotPresent.
//
// The repository also holds an older line, v0.1.x (config.ts at commit
// 6e56c73f836e8277c63656b29cab99e968bd20c2), which differs where it
// matters to a reader of both:
//
//   - imagePullPolicy defaults to Always there, and to IfNotPresent here.
//     Under Always every spawn pulls, so a label set on a moving tag always
//     runs the tag's newest image; read against that line, the upgrade
//     check's moving-tag warnings look like false positives. Under
//     IfNotPresent a host keeps whatever image the tag named when it first
//     pulled it, which is what those warnings are about.
//   - Labels are kept as written there; here they are trimmed and
//     lower-cased.
//   - A scaler there has no maxConcurrentSpawns, platform,
//     provisioningTargets, claimTtlSeconds or agentTokenTtlSeconds, and a
//     scaler refuses unknown keys: a file that sets one loads here and is
//     refused there. A network policy's hostAccess and the firecracker
//     network's autoProvisionHost are unknown there too, and dropped
//     without a word.
//   - A bare-metal label set there needs a binaryPath (an image alone is
//     refused), firecracker extraHosts entries are not checked, and the
//     gate rule asks only that every mandatory label appear in every label
//     set, with a message of its own.
//
// # Locate, then Load
//
// [Locate] reads the service's env file as the orchestrator does and
// returns the config file and drop-in folder it names; [Location.Load]
// loads them through an [io/fs.FS] rooted at the file system's root:
//
//	env, err := os.ReadFile("/etc/kici/orchestrator.env")
//	loc, ok := scalerconfig.Locate(env, "/var/lib/kici") // the unit's WorkingDirectory
//	if !ok { /* the service has no scaler config */ }
//	cfg, err := loc.Load(os.DirFS("/"))
//
// The positions, problems and errors of [Location.Load] (and
// [Location.Scan]) name each file as the operating system does
// (/etc/kici/scalers.yaml:3:7); [Load] takes fs.FS paths directly, and
// names the files by them: Load(fstest.MapFS{...}, "scalers.yaml",
// "scalers.d") in a test. For a Windows service, [Options.Locate] with
// Options{Windows: true} applies Windows path rules, and [Location.FS]
// names the volume whose root the file system must be (os.DirFS(`C:\`)).
//
// # What Load reads
//
// The main file, then each entry of the drop-in folder whose name ends in
// .yaml or .yml (case-sensitive, a folder so named is an error, as for the
// orchestrator), sorted as JavaScript sorts strings (by UTF-16 code units:
// 10.yaml before 9.yaml). Each drop-in that has a scalers list appends its
// entries to the main file's; its other keys are ignored, and a drop-in
// that is empty or has no scalers list adds nothing. Appending to a main
// file that is empty or a scalar, or whose scalers is a number, a boolean,
// a mapping or a date, fails as it does in the orchestrator (a Problem with
// Code "TypeError"); a scalers string is spread into its characters, a set
// into its members.
//
// Each file is YAML as the npm package yaml 2.9.1 reads it with its
// defaults (YAML 1.2, core schema): one document only, no duplicate keys,
// no tabs as indentation; "<<" is an ordinary key; yes, no, on and off are
// strings; 017 is 17, 0o17 15 and 0x10 16; .inf and .nan are numbers that
// no number field accepts.
//
// # What Load checks
//
// Every rule of the orchestrator's schema, with zod 4's own messages and in
// zod's order: types without coercion (maxAgents: "3" is refused, an env
// value must be a string); integers within the safe range and the ranges of
// each number (maxAgents above 0, cpus above 0 and at most 256); enums
// (type, imagePullPolicy, runtime, backpressureMode, platform's os and
// arch, roles); version: 1; non-empty labels and labelSets; strict
// objects (a scaler, a label set, a resource spec, a resource cap, a
// machine pool, a platform) that refuse unknown keys while the others drop
// them; and the orchestrator's own rules: container label sets need an
// image, bare-metal ones a binaryPath or an image, event scalers their
// provisioningTargets, firecracker scalers their paths, uid, gid, rootfsPath
// and well-formed extraHosts; labels starting with "kici:" once lower-cased
// (before trimming) are reserved; every label of a label set's gate
// (mandatoryLabels, the platform's taints, the taints its own labels carry)
// must be one a job can request there; hostAccess entries must be
// addresses, ranges or ports; machinePool references must resolve and pool
// names be unique.
//
// zod decides which problems a config gets, and Load follows it: a value's
// checks stop at a wrong type but not at a range problem, so maxAgents: 0
// still lets the image rule run while maxAgents: "2" does not; an unknown
// key never stops a rule; a resources block that fits neither form is
// "Invalid input" (Problem.Reasons says why each form failed), unless one
// form fails only on unknown keys, whose problem is then reported instead.
//
// A config the orchestrator would refuse returns an *[Error] with every
// problem at once, each with its file, line and column (a missing key at the
// mapping that lacks it, an unknown key at the key), the orchestrator's path
// (scalers[0].labelSets[1].image) and message, and for a misspelt key the
// key it was likely meant to be ([Problem.Suggestions]): maxAgnets: 2 gets
// an unknown key with `did you mean "maxAgents"?` and the missing key
// maxAgents that names maxAgnets. Its Error text is bounded:
// the first 20 problems, each part of a line escaped and cut when long,
// and "and N more" ([Error.Error]). A file or folder that cannot be read
// returns the fs error, wrapped with its path; one it refuses to read
// (below) a *[FileError].
//
// # Bounded reads
//
// No file makes a load hang or grow without end. Every read of a file
// goes through node 20's checks:
//
//   - a path that is not a regular file, symbolic links followed, is
//     refused with [ErrNotRegular] before it is opened for reading: a
//     named pipe, a device such as /dev/zero, a socket, a directory. A
//     drop-in folder that is not a directory is refused with [ErrNotDir].
//     The orchestrator would wait on a named pipe, read /dev/zero until
//     its string limit, and fail on the others;
//   - a file longer than node reads is refused as the orchestrator fails
//     on it, with [ErrTooLong]: over 2 GiB, or a text of more than
//     2^29 − 24 UTF-16 code units, JavaScript's longest string.
//     FileError.NodeError says what node throws. The text is counted as
//     node decodes UTF-8, without keeping a file too long;
//   - no read goes past the size the open file's Stat reports, where node
//     stops too: a file that grows while it is read cannot pass the limit;
//   - a file of more list and mapping entries than node's yaml parses in
//     node's default heap (8,000,000, or 6,000,000 in flow collections) is
//     refused with [ErrHeapLimit] before it is parsed.
//
// Nothing can be opened without waiting through an [io/fs.FS]: a named
// pipe put in a file's place between the checking Stat and the open makes
// the open wait for a writer. fsys should implement fs.StatFS (os.DirFS
// and fstest.MapFS do): without it, fs.Stat opens the file to stat it.
// [Options.LocateFile] reads the service's env file within the limit of
// kici-admin's read of it, which
// [github.com/kicikit/kicikit/preflight.CheckService] uses.
//
// # What Load returns
//
// The values the orchestrator holds after loading: defaults applied
// (imagePullPolicy IfNotPresent, maxConcurrentSpawns 8, globalMaxAgents 50,
// networkIsolation true, runtime auto, ...); labels and mandatoryLabels
// canonical, JavaScript's trim() then toLowerCase() (full Unicode case
// mapping: "İ" becomes "i̇", a final Σ "ς"; U+0085 is not trimmed, U+FEFF
// is), in order, duplicates kept; the flat resources form {cpus, memory}
// read as both requests and limits; roles with "all" read as every role
// (nil); a resource cap's maxMemory as bytes. Every scaler, label set and
// machine pool carries the position that declares it, and a label set its
// image value's start and end, so that src[ImagePos.Offset:ImageEnd.Offset]
// is the image's source text. Every other value the file writes has its
// position too, which PosOf finds by the orchestrator's path of it
// ([LabelSet.PosOf] "resources.limits.memory", "env.HOME", "volumes[1]";
// [Scaler.PosOf], [Config.PosOf], [MachinePool.PosOf]): a few bytes a
// value, in one array a scaler. json.Marshal of a Config writes the
// orchestrator's own JSON of it.
//
// A Config built as a literal may leave a defaulted field empty; its JSON
// and [Config.WithDefaults] read it as Load would have read the file.
// [Config.SpawnResources] gives the resources of one spawn, as
// [github.com/kicikit/kicikit/hostconfig.ResolveSpawnLimits] takes them.
//
// # Large configs
//
// A config in the plain form most are written in (no anchors, aliases,
// tags or directives; each file's scalers a block list) is read a group of
// scalers at a time, with the whole files' results and problems (any other
// config, and any that does not load, is read whole): Load then holds
// little more than the Config it returns. [Location.Scan] hands the
// scalers over one at a time instead of keeping them, for a caller that
// needs no more.
//
// # JSON Schema, for editors
//
// cmd/kici-preflight/scaler-config.schema.json is the JSON Schema (draft
// 2020-12) of the main file, and scaler-config-dropin.schema.json that of
// a drop-in; yaml-language-server (VS Code's YAML extension) validates,
// completes and explains a file bound to them, and kici-preflight -schema
// prints the first. This package's tests make both from the schema Load
// validates with: every key with its Go field's doc as its description,
// its default and its allowed values; the rules of each scaler type (a
// container label set's image, ...) as if/then, the reserved "kici:"
// prefix and a cap's memory string as patterns. go test
// ./cmd/kici-preflight ./scalerconfig -update rewrites them (with the
// command's golden files), and the test fails when they are stale.
//
// Whatever Load accepts, the schemas accept (TestJSONSchemaHoldsToLoad,
// on every load case and generated config). They refuse what Load refuses
// of a file, but for what JSON Schema cannot say of one file:
//
//   - the drop-in merge: a main file may leave scalers out, or null, when
//     its drop-ins add them, and a drop-in that adds to a main file that
//     cannot take them fails only merged;
//   - gate labels' reachability: a label set's gate (mandatoryLabels, the
//     platform's taints, the taints of its labels) against its lower-cased
//     labels;
//   - machine pool references (a scaler's machinePool names a pool of the
//     top level) and duplicate pool names;
//   - hostAccess entries and a firecracker scaler's extraHosts entries,
//     beyond being strings;
//   - YAML itself: its syntax (an editor's YAML parser reports it), and the
//     values JSON has no form for (timestamps, binary, sets, .inf, .nan).
//
// Nor can they say what the orchestrator finds only when it spawns an
// agent, such as a resources memory it cannot read (memory: 4GB loads):
// [github.com/kicikit/kicikit/preflight.Check] reports that.
//
// # Editing images
//
// [EditImages] sets label sets' images in a file's bytes and changes
// nothing else, and says what it changed ([Replacement]). An edit made by
// [LabelSet.ImageEdit] from a loaded config is planned without reading the
// file again.
package scalerconfig
