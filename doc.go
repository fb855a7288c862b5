// Package kicikit makes the decisions the KiCI CI orchestrator makes when an
// operator upgrades it and when it spawns agent containers, as pure Go
// functions that other tools can import. The behaviour is the orchestrator
// 0.20.0's, message texts included; where kicikit goes further, each package
// says so.
//
// This package holds no code. The work is done by four packages, which fit
// an upgrade like this:
//
//   - Before the upgrade restarts anything, [github.com/kicikit/kicikit/imageref]
//     checks the scaler config: CheckAgentImages reports every container
//     label set whose agent image the upgrade would leave on an old release
//     (a moving tag pulled IfNotPresent, a pin older than the target) and
//     what else would keep agents behind.
//   - It orders releases with [github.com/kicikit/kicikit/agentversion],
//     which reads MAJOR.MINOR.PATCH and treats a build counter such as
//     0.5.0-9159 as that release, not an older one.
//   - An npm-source upgrade installs the new release itself:
//     [github.com/kicikit/kicikit/npmtarget] finds, from the service's launch
//     command, the npm global prefix and package to install into and the
//     exact npm command to run there, with posix or Windows path rules and
//     nothing cmd.exe could read as syntax.
//   - After the upgrade, each agent container the container scaler spawns
//     is created with the HostConfig [github.com/kicikit/kicikit/hostconfig]
//     builds: cpu and memory limits, binds, extra hosts, the process limit
//     and, for a single-job container, the agent image's sudo group.
//
// None of them reads the file system, the environment or the clock: every
// fact they need is an argument, so a tool can plan a Windows service's
// upgrade from Linux and test every decision without a machine to run it on.
// The one exception is documented where it is: npmtarget asks the local file
// system whether npm-cli.js exists when the caller gives it no Exists
// function.
//
// Results that can fail are (T, error) with a typed error; results with
// several outcomes are sealed interfaces (npmtarget.Resolution,
// npmtarget.Plan, imageref.Finding) taken apart with a type switch, each
// marked for go-check-sumtype.
//
// The programs under examples/ use only this public API:
// examples/agentimagecheck is a command-line check of a scaler config,
// examples/npmplan prints the npm command an upgrade would run, and
// examples/spawnconfig prints an agent container's HostConfig.
package kicikit
