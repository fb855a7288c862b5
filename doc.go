// Package kicikit makes the decisions the KiCI CI orchestrator makes when an
// operator upgrades it and when it spawns agent containers, as pure Go
// functions that other tools can import.
//
// It holds no code of its own; the work is done by four packages:
//
//   - [github.com/kicikit/kicikit/agentversion] reads MAJOR.MINOR.PATCH
//     release versions and orders them.
//   - [github.com/kicikit/kicikit/imageref] parses container image
//     references and checks a scaler config for agents an upgrade would
//     leave on an old release.
//   - [github.com/kicikit/kicikit/npmtarget] finds, from a service's launch
//     command, the npm global prefix and package an npm-source upgrade must
//     install into, and how to run npm safely there.
//   - [github.com/kicikit/kicikit/hostconfig] builds the Docker HostConfig an
//     agent container is created with.
//
// None of them reads the file system, the environment or the clock: every
// fact they need is an argument.
package kicikit
