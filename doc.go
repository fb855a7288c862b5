// Package kicikit makes the decisions the KiCI CI orchestrator makes when an
// operator upgrades it and when it spawns agent containers. It makes them as
// pure Go functions that other tools can import. The behaviour is the
// orchestrator 0.20.0's, message texts included. The scaler config schema
// is 0.16.0's (kici-dev/kici-public at 84ac3cd, the newest public one,
// which 0.20.0 keeps); one switch, scalerconfig.Rules, reads a config by
// 0.14.0's (b9d436e) or 0.12.0's (0b46a9a) rules for an older
// orchestrator. Where kicikit goes further, each package says so, and
// CHANGELOG.md lists every such difference.
//
// This package holds no code. The work is done by the packages below, from
// the ground up (a package imports only those above it):
//
//   - [github.com/kicikit/kicikit/agentversion] reads MAJOR.MINOR.PATCH and
//     orders releases, treating a build counter such as 0.5.0-9159 as that
//     release, not an older one.
//   - [github.com/kicikit/kicikit/imageref] parses container image
//     references with the grammar Docker uses
//     (github.com/distribution/reference), and splits them as the
//     orchestrator does. It builds nothing else: no YAML reader, no Docker
//     API types.
//   - [github.com/kicikit/kicikit/npmtarget] finds, from an npm-source
//     service's launch command, the npm global prefix and package an upgrade
//     installs into and the exact npm command to run there, with posix or
//     Windows path rules and nothing cmd.exe could read as syntax.
//   - [github.com/kicikit/kicikit/hostconfig] builds the Docker HostConfig
//     of an agent container: cpu and memory limits, binds, extra hosts, the
//     process limit and, for a single-job container, the agent image's sudo
//     group and environment together.
//   - [github.com/kicikit/kicikit/scalerconfig] finds the service's scaler
//     config from its env file, and loads and validates it as the
//     orchestrator does: canonical labels, defaults, every problem with its
//     file, line and column, a position for every value. The packages below
//     decide from what it returns.
//   - [github.com/kicikit/kicikit/preflight] runs the checks an upgrade runs
//     on that config before it restarts anything: every container label set
//     whose agent image the upgrade would leave on an old release (a moving
//     tag pulled IfNotPresent, a pin older than the target), what else would
//     keep agents behind, each finding with its position and the pin that
//     fixes it.
//   - [github.com/kicikit/kicikit/agentspawn] makes the rest of a spawn:
//     which scaler and label set serve a job (Route), and the whole create
//     request of the agent container (Plan: image, environment, labels,
//     command, HostConfig, network, the pull to make first), ready for the
//     Docker Engine API's Go client or as the JSON body the orchestrator
//     sends.
//   - [github.com/kicikit/kicikit/containerscaler] runs agents in containers
//     on a Docker Engine, as the orchestrator's container backend does. It
//     carries out agentspawn's decisions, and is the one package that does
//     I/O: the Engine's, and nft's.
//
// The packages before containerscaler do no I/O of their own. None reads
// the environment or the clock, or a file it was not handed. Every fact they need is an argument; scalerconfig reads through
// an io/fs.FS the caller passes. So a tool can plan a Windows service's
// upgrade from Linux, and test every decision without a machine to run it
// on. The one exception is documented where it is: npmtarget asks the local
// file system whether npm-cli.js exists when the caller gives it no Exists
// function.
//
// Results that can fail are (T, error), with a typed error whose text reads
// package.Func("input"): reason. Results with several outcomes are sealed
// interfaces, taken apart with a type switch and each marked for
// go-check-sumtype: npmtarget.Resolution, npmtarget.Plan,
// preflight.Finding, preflight.ServiceCheck and agentspawn.Pull.
//
// The operator's command is cmd/kici-preflight, a pre-upgrade linter for a
// scaler config. It writes text, JSON, SARIF and GitHub annotations, and it
// can pin the images itself. The repository also ships it as a GitHub
// Action (action.yml) and a pre-commit hook. The programs under examples/
// use only this public API. examples/npmplan prints the npm command an
// upgrade would run. examples/spawnconfig prints the agent container the
// orchestrator would create for a job.
package kicikit
