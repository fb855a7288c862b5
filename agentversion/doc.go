// Package agentversion reads KiCI release versions and orders them. The
// KiCI orchestrator does the same when it checks whether an upgrade leaves
// agents behind.
//
// A release version is MAJOR.MINOR.PATCH. [Parse] accepts
//
//	input   := ws* release [ "-" suffix ] ws*
//	release := part "." part "." part
//	part    := digit+         ; ASCII 0-9 only, leading zeros allowed,
//	                          ; value at most 18446744073709551615
//	suffix  := any text       ; ignored
//	ws      := a white-space character that JavaScript's String.prototype.trim
//	           removes: U+0009-U+000D, U+0020, U+00A0, U+1680, U+2000-U+200A,
//	           U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF
//
// The other entry points add a leading "v":
//
//	Compare      [ "v" ] input        "v 1.2.3" is a version, " v1.2.3" is not
//	ParseTarget  ws* [ "v" ] input    " v1.2.3" is a target: it trims first
//
// The suffix after the first "-" is dropped, not ordered. KiCI uses it as a
// build counter, so 0.5.0-9159 and 0.5.0 are the same release. Strict
// semantic versioning would order the prerelease below 0.5.0. It would then
// read every prerelease agent as too old for a feature it carries. So
// "1.2.3-rc.1" is 1.2.3. "1.2.3+build", "1.2", "1.2.3.4", "1..3" and
// "v1.2.3" (for Parse) are not versions at all.
//
// # Which orchestrator
//
// The rules are those of the orchestrator's parseVersionBase and
// compareReleases, and of its reading of an upgrade's target version. The
// seed (the orchestrator's compiled code, 0.18.0 to 0.20.0) shows them in
// kici-admin's upgrade check. The public source reads versions the same
// way: packages/orchestrator/src/agent/agent-version.ts in the repository
// kici-dev/kici-public. Its newest stored version is at commit
// 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d (the 0.12.0 line); the older
// one, at 26dbdca (orchestrator 0.5.0), reads versions alike. There,
// parseVersionBase trims, drops what follows the first "-", and reads three
// parts of ASCII digits. agentVersionAtLeast orders them part by part.
//
// There is one deliberate difference. JavaScript reads every part as a
// float64: it accepts any number of digits, and orders parts beyond 2^53
// approximately. Here a part beyond the range of uint64 is not a version
// ([ErrRange]), and every part compares exactly.
package agentversion
