// Package hostconfig decides how the KiCI orchestrator's container scaler
// creates an agent container: the Docker HostConfig it is created with, the
// memory strings a scaler config writes its limits in, which limits apply to
// one spawn, and what a container started from the pool's own image gets that
// one started from a job's image does not.
//
// [Build] returns the Docker Engine API's own
// [github.com/moby/moby/api/types/container.HostConfig], so a caller hands it
// to the Docker Go client unchanged: memory and CPU limits, binds, extra hosts
// and supplementary groups as the orchestrator sets them, and a fixed
// [PidsLimit]. [ResolveSpawnLimits] picks the limits for one spawn, parsing a
// memory string with [ParseMemory]. [SpawnAdditions] is the container
// backend's single-job rule.
//
// Every function is pure: it reads no file, no environment and no clock, and
// every call returns new values that share nothing with its arguments or with
// an earlier result.
//
// # Memory strings
//
// [ParseMemory] accepts exactly the orchestrator's memory grammar:
//
//	memory = number *space unit
//	number = digits [ "." digits ]
//	digits = 1*( "0" / "1" / "2" / "3" / "4" / "5" / "6" / "7" / "8" / "9" )
//	space  = U+0009 / U+000A / U+000B / U+000C / U+000D / U+0020 / U+00A0
//	       / U+1680 / U+2000-U+200A / U+2028 / U+2029 / U+202F / U+205F
//	       / U+3000 / U+FEFF
//	unit   = "k" / "K" / "m" / "M" / "g" / "G"
//
// The units are binary: k is 1024 bytes, m is 1024² and g is 1024³. The
// result is the floor of the number times the unit, computed exactly, and it
// must fit an int64. Nothing may come before the number or after the unit,
// not even white space. The digits are ASCII digits only, and space is the
// set JavaScript's regular expression \s matches (the orchestrator is
// JavaScript): it includes U+FEFF, which Go's [unicode.IsSpace] does not, and
// leaves out U+0085 and U+180E, which Go or older Unicode versions count as
// space. A unit with no number, a number with no unit, a sign, an exponent,
// ".5" and "5." are all refused.
//
// # Why the agent container is built this way
//
// The agent image has a group kici-sudo with gid [SudoGroupGID], and its
// /etc/sudoers.d/kici-sudo lets that group use sudo without a password. The
// container scaler adds the group only to containers it starts from a
// pool's own image, and only together with [SingleJobEnv], which makes the
// agent run one job and exit: the root a job can get dies with the container
// of that one job, so no later job runs where an earlier one was root. A
// container started from a job's image gets neither (see [SpawnAdditions]).
//
// The agent container is not capability-dropped, although the job
// containers the agent starts are. The orchestrator gives its reasons in a
// comment of which the reference diff shows only that opening sentence, so
// they are not restated here. What the code shows: [Build] sets no CapAdd
// or CapDrop, so Docker's default capability set applies; the agent is the
// one that starts the job containers, with their capabilities dropped; and
// the passwordless sudo of [SudoGroupGID] only means something with
// capabilities kept: sudo sets group ids, which takes CAP_SETGID, and the
// root it gives holds no more capabilities than the container does. The
// agent container is bounded instead by [PidsLimit], its cpu and memory
// limits and, from a pool's own image, its one-job life.
package hostconfig
