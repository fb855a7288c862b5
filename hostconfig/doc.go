// Package hostconfig decides how the KiCI orchestrator's container scaler
// creates an agent container. It gives the limits that apply to one spawn,
// and the Docker HostConfig the container is created with. It also gives
// what a container from the pool's own image gets that one from a job's
// image does not.
//
// A spawn takes three steps:
//
//	limits, err := hostconfig.ResolveSpawnLimits(effective, labelSet.Resources)
//	env, in := hostconfig.SpawnAdditions(hostconfig.PoolImage).Apply(env, hostconfig.Input{Limits: limits, Binds: binds})
//	hc := hostconfig.Build(in)
//
// [Build] returns the Docker Engine API's own
// [github.com/moby/moby/api/types/container.HostConfig], ready for the
// Docker Go client. It shares no memory with its input. Every function is
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
// The units are binary: k is 1024 bytes, m 1024², g 1024³. The result is
// the floor of the number times the unit, computed exactly. It must fit an
// int64. Nothing may come before the number or after the unit.
//
// space is JavaScript's \s, the orchestrator's language. It includes
// U+FEFF and leaves out U+0085, unlike Go's [unicode.IsSpace]. The grammar
// is the regular expression of the orchestrator's parseMemoryString:
// config.ts in kici-dev/kici-public, commit
// 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d. It also reads a resource cap's
// maxMemory. Package scalerconfig reads that one by the same grammar, but
// in the orchestrator's float64 arithmetic and without an upper bound.
//
// # The single-job rule
//
// The agent image has a group kici-sudo, gid [SudoGroupGID], whose members
// may use sudo without a password. A container from the pool's own image
// gets that group together with [SingleJobEnv]. That entry makes its agent
// run one job and exit. So the root a job can take dies with that job's
// container. A container from a job's image gets neither. [Additions]
// hands out both halves in one call, never one alone.
//
// The agent container keeps Docker's default capabilities: Build sets no
// CapAdd or CapDrop. The agent starts the job containers, with their
// capabilities dropped, and sudo needs CAP_SETGID. The container is bounded
// by [PidsLimit] and its cpu and memory limits. From a pool's own image, it
// is bounded by its one-job life too.
//
// # Beyond the orchestrator
//
// [Build] caps NanoCPUs at [math.MaxInt64] for a product of 2^63 or more.
// The orchestrator sends such a number as JSON the Engine cannot read as an
// int64. It sends +Inf as null, which would mean no limit at all.
// [ResolveSpawnLimits] returns an error where the orchestrator would start
// the container without the limit its config writes: for a memory string it
// cannot read, and for a limit that comes out as zero.
package hostconfig
