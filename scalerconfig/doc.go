// Package scalerconfig reads the KiCI orchestrator's scaler config. That
// file names each scaler, its label sets and the images their agents run.
// The package reads it as the orchestrator does (loadScalerConfig and its
// zod schema), from the service's env file to canonical labels. It says
// where each value and each problem is.
//
// # Which orchestrator
//
// The rules are those of the public KiCI source, repository
// kici-dev/kici-public. Its packages/orchestrator/src/scaler/config.ts
// holds the file's loader and schema. types.ts, container-backend.ts and
// manager.ts say what the orchestrator does with each field, and so does
// each field's doc here. By default a read follows the newest public
// rules: config.ts at commit 84ac3cd1ea5b3223661224932f3fdbbc318cb79a
// (0.16.0). 0.17.0 (411538fe) changes none of the config's files, and the
// seed of 0.20.0, whose upgrade check kicikit reproduces, none of their
// code: 0.16.0 to 0.20.0 read a config alike.
//
// One switch, [Rules], selects older rules for an older orchestrator.
// [ScanOptions].Rules sets it for a read, [RulesFor] gives it for a
// release, and the Config a read returns records it ([Config].Rules):
//
//	rules, _ := scalerconfig.RulesFor("0.15.0") // Rules014
//	cfg, err := scalerconfig.ScanOptions{Rules: rules}.Load(fsys, "scalers.yaml", "scalers.d")
//
// The rules, each at the commit it follows:
//
//	Rules016  84ac3cd (0.16.0 and later; the zero Rules)
//	Rules014  b9d436e (0.14.0) and 221047e (0.15.0)
//	Rules012  0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d (0.12.0, 0.13.x)
//
// Rules016 refuse what the older rules load:
//
//   - A resources block, of a label set or of the defaults, that is a
//     mapping with a cpus or memory key, even beside requests or limits:
//     "resources takes { requests, limits }: nest cpus and memory under
//     limits (a limit alone also sets the request)", at the block. The
//     older rules read the flat form {cpus, memory} as both requests and
//     limits.
//   - In a scaler without platform, each label of a label set whose
//     canonical form is windows, win32, macos, darwin, arm64, aarch64 or
//     arm ([IsPlatformLabel]): `Scaler "<name>" labelSets[<j>]: label
//     "<label>" names a platform; declare platform: { os, arch } instead`,
//     at the label. The older rules load it, and it taints its label set.
//
// From Rules014 on, on a Windows host ([ScanOptions].Host), a bare-metal
// binaryPath that is a batch file (.cmd, .bat) cmd.exe would read as
// syntax is refused, after the label set's binaryPath rule. The other
// rules are the same in all three, and so is their order.
//
// The repository also holds an older line, v0.1.x (config.ts at commit
// 6e56c73f836e8277c63656b29cab99e968bd20c2). It differs where it matters
// to a reader of both:
//
//   - imagePullPolicy defaults to Always there, and to IfNotPresent here.
//     Under Always every spawn pulls, so a moving tag always runs its
//     newest image. Read against that line, the upgrade check's moving-tag
//     warnings look like false positives. Under IfNotPresent a host keeps
//     the image a tag named at its first pull. That is what those warnings
//     are about.
//   - Labels are kept as written there. Here they are trimmed and
//     lower-cased.
//   - A scaler there has no maxConcurrentSpawns, platform,
//     provisioningTargets, claimTtlSeconds or agentTokenTtlSeconds. It
//     refuses unknown keys, so a file that sets one loads here and is
//     refused there. A network policy's hostAccess and the firecracker
//     network's autoProvisionHost are unknown there too, and dropped
//     silently.
//   - A bare-metal label set there needs a binaryPath: an image alone is
//     refused. Firecracker extraHosts entries are not checked. The gate
//     rule asks only that every mandatory label appear in every label set,
//     with a message of its own.
//
// # Locate, then Load
//
// [Locate] reads the service's env file as the orchestrator does. It
// returns the config file and drop-in folder the file names.
// [Location.Load] loads them through an [io/fs.FS] rooted at the file
// system's root:
//
//	env, err := os.ReadFile("/etc/kici/orchestrator.env")
//	loc, ok := scalerconfig.Locate(env, "/var/lib/kici") // the unit's WorkingDirectory
//	if !ok { /* the service has no scaler config */ }
//	cfg, err := loc.Load(os.DirFS("/"))
//
// [Location.Load] and [Location.Scan] name each file as the operating
// system does, in positions, problems and errors:
// /etc/kici/scalers.yaml:3:7. [Load] takes fs.FS paths and names the
// files by them, as in a test: Load(fstest.MapFS{...}, "scalers.yaml",
// "scalers.d"). For a Windows service, [Options.Locate] with
// Options{Windows: true} applies Windows path rules. [Location.FS] names
// the volume whose root the file system must be: os.DirFS(`C:\`).
//
// # The env file
//
// Locate reads KICI_SCALER_CONFIG_PATH and KICI_SCALER_CONFIG_DIR as the
// orchestrator's readEnvValue reads a key:
//
//   - The file is split on "\n". Each line is trimmed of JavaScript's
//     white space.
//   - Blank lines and lines starting with # are skipped.
//   - A line is the key's when the text before its first = is exactly the
//     key. "KEY = v" and "export KEY=v" are not.
//   - The value is the rest, trimmed. One leading and one trailing quote
//     character (" or ') are stripped, each on its own.
//   - The last such line wins.
//
// # What Load reads
//
// Load reads the main file, then each drop-in. A drop-in is an entry of
// the drop-in folder whose name ends in .yaml or .yml. The suffix is
// case-sensitive. A folder so named is an error, as for the orchestrator.
// Drop-ins are sorted as JavaScript sorts strings, by UTF-16 code units:
// 10.yaml before 9.yaml.
//
// Each drop-in's scalers list is appended to the main file's. Its other
// keys are ignored. A drop-in that is empty or has no scalers list adds
// nothing. Some main files cannot take the drop-ins' scalers, and fail as
// in the orchestrator, with a Problem of Code "TypeError". Such a main
// file is empty or a scalar, or its scalers is a number, a boolean, a
// mapping or a date. A scalers string is spread into its characters, a
// set into its members.
//
// Each file is YAML as the npm package yaml 2.9.1 reads it by default
// (YAML 1.2, core schema):
//
//   - One document only, no duplicate keys, no tabs as indentation.
//   - "<<" is an ordinary key.
//   - yes, no, on and off are strings.
//   - 017 is 17, 0o17 is 15 and 0x10 is 16.
//   - .inf and .nan are numbers, which no number field accepts.
//
// # What Load checks
//
// Load checks every rule of the orchestrator's schema. It keeps zod's
// order and zod 4's own messages:
//
//   - Types, without coercion: maxAgents: "3" is refused, and an env value
//     must be a string.
//   - Integers within the safe range, and each number's range: maxAgents
//     above 0, cpus above 0 and at most 256.
//   - Enums: type, imagePullPolicy, runtime, backpressureMode, platform's
//     os and arch, roles.
//   - version: 1, and non-empty labels and labelSets.
//   - Strict objects refuse unknown keys: a scaler, a label set, a
//     resource spec, a resource cap, a machine pool, a platform. The other
//     objects drop them.
//
// It checks the orchestrator's own rules too:
//
//   - A container label set needs an image. A bare-metal one needs a
//     binaryPath or an image.
//   - An event scaler needs its provisioningTargets.
//   - A firecracker scaler needs its paths, uid, gid and well-formed
//     extraHosts. Its label sets need a rootfsPath.
//   - Labels starting with "kici:" once lower-cased, before trimming, are
//     reserved.
//   - A job must be able to request every label of a label set's gate on
//     that set. The gate is mandatoryLabels and the platform's taints (by
//     Rules012 and Rules014 also the taints of the set's own labels).
//   - The refusals of the newer rules above: a flat resources block, a
//     plain platform label without platform, and on a Windows host a
//     batch-file binaryPath cmd.exe cannot run.
//   - hostAccess entries must be addresses, ranges or ports.
//   - machinePool references must resolve, and pool names be unique.
//
// zod decides which problems a config gets, and Load follows it. A
// value's checks stop at a wrong type, but not at a range problem. So
// maxAgents: 0 still lets the image rule run, while maxAgents: "2" does
// not. An unknown key never stops a rule. A flat resources block's
// refusal stops its scaler's rules, as a transform's issue does in zod. By
// the older rules a resources block that fits neither form is "Invalid
// input", and Problem.Reasons says why each form failed. But when one form
// fails only on unknown keys, its problem is reported instead.
//
// # Problems and errors
//
// A config the orchestrator would refuse returns an *[Error] with every
// problem at once. Each [Problem] has its file, line and column: a
// missing key is at the mapping that lacks it, an unknown key at the key.
// Each has the orchestrator's path (scalers[0].labelSets[1].image) and
// message. A misspelt key gets the key it was likely meant to be
// ([Problem.Suggestions]). So maxAgnets: 2 gets an unknown key with `did
// you mean "maxAgents"?`, and a missing key maxAgents that names
// maxAgnets.
//
// The Error text is bounded ([Error.Error]). It shows the first 20
// problems, each part of a line escaped and cut when long, then "and N
// more". A file or folder that cannot be read returns the fs error,
// wrapped with its path. One that Load refuses to read returns a
// *[FileError].
//
// # Bounded reads
//
// No file makes a load hang or grow without end. Every read of a file
// goes through node 20's checks:
//
//   - A path that is not a regular file, symbolic links followed, is
//     refused with [ErrNotRegular] before it is opened: a named pipe, a
//     device such as /dev/zero, a socket, a directory. The orchestrator
//     would wait on a named pipe, read /dev/zero until its string limit,
//     and fail on the others. A drop-in folder that is not a directory is
//     refused with [ErrNotDir].
//   - A file longer than node reads is refused with [ErrTooLong], as the
//     orchestrator fails on it. That is over 2 GiB, or over 2^29 − 24
//     UTF-16 code units, JavaScript's longest string.
//     FileError.NodeError says what node throws. The text is counted as
//     node decodes UTF-8, without keeping a file that is too long.
//   - No read goes past the size the open file's Stat reports, where node
//     stops too. A file that grows while it is read cannot pass the limit.
//   - A file is refused with [ErrHeapLimit] before it is parsed when it
//     has more list and mapping entries than node's yaml parses in node's
//     default heap. The limit is 8,000,000 entries, or 6,000,000 in flow
//     collections.
//
// Through an [io/fs.FS], no open can refuse to wait. A named pipe put in
// a file's place between the check and the open makes the open wait for
// a writer. fsys should implement fs.StatFS, as os.DirFS and fstest.MapFS
// do. Without it, fs.Stat opens the file to stat it.
//
// [Options.LocateFile] reads the service's env file within the limit of
// kici-admin's read of it.
// [github.com/kicikit/kicikit/preflight.CheckService] uses it.
//
// # What Load returns
//
// Load returns the values the orchestrator holds after loading:
//
//   - The defaults applied (imagePullPolicy IfNotPresent,
//     maxConcurrentSpawns 8, globalMaxAgents 50, networkIsolation true,
//     runtime auto, ...).
//   - Labels and mandatoryLabels canonical: JavaScript's trim(), then
//     toLowerCase(), with full Unicode case mapping. "İ" becomes "i̇", and
//     a final Σ "ς". U+0085 is not trimmed, U+FEFF is. Order and
//     duplicates are kept.
//   - By Rules012 and Rules014, the flat resources form {cpus, memory}
//     read as both requests and limits.
//   - roles listing "all" read as every role (nil).
//   - A resource cap's maxMemory in bytes.
//
// Every scaler, label set and machine pool carries the position that
// declares it. A label set also carries its image value's start and end:
// src[ImagePos.Offset:ImageEnd.Offset] is the image's source text. Every
// other value the file writes has its position too, at a few bytes a
// value. PosOf finds it by the orchestrator's path of the value:
// [LabelSet.PosOf] takes "resources.limits.memory", "env.HOME" or
// "volumes[1]". [Scaler.PosOf], [Config.PosOf] and [MachinePool.PosOf]
// do the same. json.Marshal of a Config writes the orchestrator's own
// JSON of it.
//
// A Config built as a literal may leave a defaulted field empty. Its JSON
// and [Config.WithDefaults] read it as Load would have read the file.
// [Config.SpawnResources] gives the resources of one spawn, as
// [github.com/kicikit/kicikit/hostconfig.ResolveSpawnLimits] takes them.
//
// # Large configs
//
// Most configs are in the plain form: no anchors, aliases, tags or
// directives, and each file's scalers a block list. Such a config is read
// a group of scalers at a time, with the results and problems of a whole
// read. Load then holds little more than the Config it returns. Any other
// config, and any that does not load, is read whole. [Location.Scan]
// hands the scalers over one at a time instead of keeping them.
// [EditImages] parses a plain file a group of scalers at a time too.
//
// # JSON Schema, for editors
//
// cmd/kici-preflight/scaler-config.schema.json is the JSON Schema (draft
// 2020-12) of the main file. scaler-config-dropin.schema.json is that of
// a drop-in. yaml-language-server (VS Code's YAML extension) validates,
// completes and explains a file bound to them. kici-preflight -schema
// prints the first.
//
// This package's tests make both from the schema Load validates with.
// They state the newest rules (Rules016). Each key gets its Go field's
// doc as its description, its default and its allowed values. Each scaler
// type's rules become if/then, such as a container label set's image, and
// so does the refusal of a plain platform label in a scaler without
// platform. The reserved "kici:" prefix, a platform label and a cap's
// memory string become patterns. go test ./cmd/kici-preflight
// ./scalerconfig -update rewrites them, with the command's golden files.
// The tests fail when they are stale.
//
// Whatever Load accepts, the schemas accept: a test holds them to every
// load case and generated config. They refuse what Load refuses of a
// file, except what JSON Schema cannot say of one file:
//
//   - The drop-in merge. A main file may leave scalers out, or null, when
//     its drop-ins add them. A drop-in that adds to a main file that
//     cannot take them fails only merged.
//   - Gate labels' reachability: a label set's gate (mandatoryLabels and
//     the platform's taints) against its lower-cased labels.
//   - The host: a Windows host's refusal of a batch-file binaryPath.
//   - Machine pool references and duplicate pool names.
//   - hostAccess entries and a firecracker scaler's extraHosts entries,
//     beyond being strings.
//   - YAML itself: its syntax, which an editor's YAML parser reports, and
//     values JSON has no form for (timestamps, binary, sets, .inf, .nan).
//
// Nor can they say what the orchestrator finds only when it spawns an
// agent. A resources memory it cannot read is one (memory: 4GB loads).
// [github.com/kicikit/kicikit/preflight.Check] reports that.
//
// # Fixing a config for 0.16.0
//
// A Problem of Rules016's refusals has a Hint: a flat block's nested form,
// the platform a scaler is to declare, or why its label sets need a scaler
// each. Where the config leaves no choice it also has a [Fix], which
// [ApplyFixes] makes in the file's bytes, changing nothing else:
//
//   - a flat block of cpus and memory alone is nested under limits (a
//     limit alone also sets the request, so the agents get what the older
//     releases gave them); a block with cpus or memory beside requests or
//     limits is left to the operator;
//   - a scaler whose label sets each hold the same plain platform labels,
//     all of them platform taints (windows, macos, arm64), and whose
//     labels name its os and arch (linux, x64 or amd64, or linux for a
//     container or firecracker scaler), gets platform: {os, arch}. Its
//     label sets keep their labels, and each gate stays what it was.
//
// A flat block in a label set stops its scaler's rules, so its platform
// labels show once the block is nested: fix, load, and fix again.
//
// # Editing images
//
// [EditImages] sets label sets' images in a file's bytes and changes
// nothing else. It says what it changed ([Replacement]). An edit made by
// [LabelSet.ImageEdit] from a loaded config is planned without parsing
// the file again. That needs the bytes Load read, which EditImages
// checks, and a file without an anchor, alias, tag or directive. In a
// file with one of those, EditImages reads the edited bytes back to check
// that only the images changed. Without them, a value written in its own
// style reads as its new image, and nothing else changes.
package scalerconfig
