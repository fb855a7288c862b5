// Package hostconfig decides how the KiCI orchestrator's container scaler
// creates an agent container: the limits that apply to one spawn, the Docker
// HostConfig the container is created with, and what a container from the
// pool's own image gets that one from a job's image does not.
//
// A spawn takes three steps:
//
//	limits, err := hostconfig.ResolveSpawnLimits(effective, labelSet.Resources)
//	env, in := hostconfig.SpawnAdditions(hostconfig.PoolImage).Apply(env, hostconfig.Input{Limits: limits, Binds: binds})
//	hc := hostconfig.Build(in)
//
// [Build] returns the Docker Engine API's own
// [github.com/moby/moby/api/types/container.HostConfig], ready for the
// Docker Go client, and shares no memory with its input. Every function is
// pure: it reads no file, no environment and no clock.
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
// The units are binary (k is 1024 bytes, m 1024², g 1024³), and the result
// is the floor of the number times the unit, computed exactly; it must fit
// an int64. Nothing may come before the number or after the unit. space is
// JavaScript's \s, the orchestrator's language: it includes U+FEFF and
// leaves out U+0085, unlike Go's [unicode.IsSpace]. It is the regular
// expression of the orchestrator's parseMemoryString (config.ts in
// kici-dev/kici-public, commit 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d),
// which also reads a resource cap's maxMemory: package scalerconfig reads
// that one by the same grammar, but in the orchestrator's float64
// arithmetic and without an upper bound.
//
// # The single-job rule
//
// The agent image has a group kici-sudo, gid [SudoGroupGID], whose members
// may use sudo without a password. A container from the pool's own image
// gets that group together with [SingleJobEnv], which makes its agent run
// one job and exit, so the root a job can take dies with that job's
// container. A container from a job's image gets neither. [Additions] hands
// out both halves in one call, never one alone.
//
// The agent container keeps Docker's default capabilities (Build sets no
// CapAdd or CapDrop): it starts the job containers, with their
// capabilities dropped, and sudo needs CAP_SETGID. It is bounded by
// [PidsLimit], its cpu and memory limits and, from a pool's own image, its
// one-job life.
package hostconfig
