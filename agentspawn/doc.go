// Package agentspawn makes the KiCI orchestrator's decision for one agent
// spawn. [Route] finds which scaler and label set serve a job. [Plan] gives
// the container the container backend creates for it: its image,
// environment, Docker labels, command, HostConfig and network, and the pull
// to make first. It also gives the refusals, message texts included. The
// behaviour is the orchestrator 0.20.0's.
//
// Everything the orchestrator learns by I/O is an argument: the runtime
// socket it found, the token it minted, the agent image it inspected, how
// many agents it runs, its own environment. So a tool can plan a spawn
// without a container runtime, and test one without a machine. Nothing here
// reads a file, the environment or the clock.
//
// # A spawn
//
//	m, ok := agentspawn.Route(agentspawn.RouteInput{Config: cfg, RunsOn: []string{"linux", "docker"}})
//	if !ok { /* no label set serves the job */ }
//	s := &cfg.Scalers[m.ScalerIndex]
//	sp, err := agentspawn.Plan(agentspawn.Request{
//		Config:          cfg,
//		Scaler:          s.Name,
//		LabelSet:        s.LabelSets[m.LabelSetIndex].Labels,
//		AgentID:         "scaler-container-1",
//		OrchestratorURL: "ws://10.0.0.2:4000/ws",
//		SocketPath:      "/var/run/docker.sock",
//		Environ:         os.Environ(),
//		PlatformTaints:  agentspawn.PlatformTaints(s, host),
//		Active:          running,
//	})
//
// Then make sp.Pull, and create the container from sp.Config,
// sp.HostConfig and sp.Networking. These are the Docker Engine API's own
// types from github.com/moby/moby/api. Or send json.Marshal(sp): the body
// of POST /containers/create, with exactly the keys the orchestrator
// sends.
//
// # A backend's spawn
//
// A backend that carries the spawn out decides it once, before any I/O,
// with [Admit]: Plan's decision, and under network isolation the rules its
// policy gives, but for the container's address. Then it acts on the
// [Admission]: it mints the token for Admission.AgentLabels, makes
// Admission.Pull, fills the runtime volume from Admission.RuntimeImage
// for a job's image, creates the container from [Admission.Spawn] with
// what it learned ([Learned]), and writes [Admission.Isolation] of the
// address the container got. Plan is Admit and Spawn in one call, with
// what the Request already holds.
//
// # The container Plan makes
//
// [Plan] fills the create request field by field. Its Env holds, in this
// order:
//
//	KICI_ORCHESTRATOR_URL
//	KICI_AGENT_ID
//	KICI_LABELS               AgentLabels of Request.LabelSet as given, joined with ","
//	KICI_SCALER_MANAGED=1
//	KICI_EXECUTION_MODE=bare-metal
//	KICI_RUNTIME_IMAGE        the label set's image, even for a job's image
//	KICI_AGENT_TOKEN          when Request.Token is set
//	KICI_BACKPRESSURE_MODE    when the label set sets backpressureMode
//	NAME=v                    each KICI_AGENT_ENV_<NAME>=v of Request.Environ, in its order
//	                          (NAME not empty; an entry without "=" is skipped)
//	the label set's env       in the config's order
//	KICI_JOB_IMAGE_AGENT=1    last, for a job's image
//	hostconfig.SingleJobEnv   last, for the label set's own image
//
// Nothing is de-duplicated. A later entry wins at the runtime, as with the
// orchestrator. So the label set's env overrides a forwarded one. The
// other fields:
//
//   - Image is the job's image (Request.Job), else the label set's.
//   - Labels are kici-managed "true", kici-scaler-name, kici-agent-id and
//     kici-labels ([NormalizeLabelSet] of Request.LabelSet).
//     kici-bound-job-id and kici-run-id follow when the Request sets them.
//   - Cmd is set for a job's image only: JobImage.Init, then [AgentNode]
//     and [AgentScript]. The label set's image keeps its own command.
//   - HostConfig is [hostconfig.Build] of four things. The limits are
//     those [hostconfig.ResolveSpawnLimits] gives for Request.Effective
//     and the label set's resources block. A label set without one falls
//     back to the config's defaults.resources, the whole block, as the
//     backend does. The binds are the label set's volumes, then
//     "<socket>:<socket>" when the label set sets containerSocket and
//     Request.SocketPath is not "". For a job's image the runtime volume
//     ([RuntimeVolumeName] of JobImage.AgentImageID) follows, read-only at
//     [RuntimeMount]. Then come the scaler's extraHosts. For the label
//     set's own image, [hostconfig.SpawnAdditions] adds the group
//     [hostconfig.SudoGroupGID].
//   - Networking is the [IsolatedNetwork] endpoint, unless the scaler sets
//     networkIsolation: false.
//   - Pull is [PullIfMissing] with JobImage.Auth for a job's image. For
//     the label set's image it follows imagePullPolicy: Never is [NoPull],
//     IfNotPresent (the default) [PullIfMissing], and Always [PullAlways].
//     Any other value is PullAlways too, as the orchestrator pulls for a
//     policy it does not know.
//
// # Reading the orchestrator's URL
//
// [HostAccess] reads the port of the orchestrator's URL as the WHATWG URL
// parser reads it:
//
//   - A scheme comes first. For http, https, ws, wss and ftp, any slashes
//     or backslashes follow it; for other schemes, "//". Then comes the
//     host.
//   - A port is digits only, at most 65535. Leading zeros are dropped. The
//     scheme's default port reads as none.
//   - Some URLs have no port: one with an empty host, or a forbidden
//     character in its host (white space, "<", ">", "^", "|", a lone
//     "%"...). So has an IPv6 address in brackets that net/netip refuses,
//     or that has a zone. So has a special URL's host that ends in a
//     number but is no IPv4 address (10.0.0.256, foo.1), and a bad port.
//   - Internationalised host names are not checked.
//
// testdata/urlport.json holds node 20's answers for 153 URLs, which this
// reading matches.
//
// # Where each rule comes from
//
// The seed is the orchestrator's compiled code, 0.18.0 to 0.20.0. It shows
// the 0.20.0 changes to ContainerScalerBackend.spawn:
//
//   - the limits, through resolveSpawnLimits;
//   - the single-job rule: KICI_SCALER_SINGLE_JOB=1 and the group 1990 for
//     a container from the pool's own image, through
//     [github.com/kicikit/kicikit/hostconfig.SpawnAdditions];
//   - GroupAdd in buildAgentContainerHostConfig;
//   - a job image's init command before the injected agent's.
//
// The rest follows the public source, repository kici-dev/kici-public.
// The index holds its commits up to 84ac3cd (0.16.0). Those named here are
// db60c39 (0.8.1), 0b46a9a (0.12.0), 221047e (0.15.0) and 84ac3cd. Each
// file is read at its newest stored version, except where a newer version
// changes a rule; the list says where:
//
//   - packages/orchestrator/src/scaler/container-backend.ts, at 221047e
//     (its newest): spawn's match, refusals, environment, binds, labels,
//     pull, command and network, and the isolated network's name, subnet
//     and gateway. Apart from the job image's init, these read as at
//     0b46a9a. Its test is read at 0b46a9a.
//   - container-hostconfig.ts, at db60c39 (its one stored version), with
//     the seed's GroupAdd: through hostconfig.Build.
//   - packages/shared/src/container-runtime.ts, at 221047e (its newest):
//     the pull policies, the runtime volume's name, its bind at /opt/kici,
//     the injected agent's command and its init.
//   - packages/shared/src/net/nftables.ts, at 221047e: [PlanIsolation].
//   - packages/engine/src/labels.ts and labels.test.ts, at 84ac3cd
//     (0.16.0): scalerAgentLabels, resolveRoleLabels, deriveOsArchLabels,
//     the platform taints and the agent-feature label, as at 0b46a9a. The
//     plain-label platform taints of 0b46a9a (PLATFORM_TAINT_LABELS,
//     derivePlatformTaints), which 84ac3cd drops, [Route] applies to a
//     label set's own labels only by the older rules (below).
//   - packages/orchestrator/src/scaler/label-matcher.ts and its test, at
//     db60c39 (their newest): normalizeLabelSet, and findBackendForLabels
//     with the per-label-set gate.
//   - packages/orchestrator/src/scaler/manager.ts, at 84ac3cd (0.16.0):
//     the labels the manager adds to each label set
//     (getEnrichedScalerEntries, with AGENT_FEATURE_LABELS),
//     resolveScalerPlatform, platformTaintsFor, and mandatoryGate: the
//     gate of the scaler's mandatoryLabels and platform taints, the same
//     for each of its label sets. [Route] applies it to a config read by
//     scalerconfig.Rules016, the default. For a config read by the older
//     rules (Config.Rules, which scalerconfig's switch sets) it applies
//     0b46a9a's labelSetMandatoryLabels instead, which adds the platform
//     labels among a label set's own (scalerconfig.IsPlatformLabel).
//   - host-access.ts at db60c39 (its one stored version), and
//     host-access.test.ts at 0b46a9a (its newest): [HostAccess].
//
// Where 0.20.0's behaviour shows neither in the seed nor in that source,
// this package follows the newest public source, and says so where it
// does. CHANGELOG.md lists each place.
//
// # Beyond the orchestrator
//
// Plan refuses what the orchestrator would start a broken container from,
// each with its own [Reason]. These are a label set without an image, and
// an empty job image, agent id or orchestrator URL. So is a
// resources.limits that hostconfig.ResolveSpawnLimits refuses: a memory
// string it cannot read, or a limit that rounds to zero. The orchestrator
// would fail at the runtime there, or start the container unbounded.
//
// [PlanIsolation] writes every address in canonical form. nft reads an
// octet with a leading zero as octal, so the orchestrator's "010.0.0.1"
// would open 8.0.0.1; here it is 10.0.0.1, as the orchestrator's own check
// reads it. The orchestrator also hands an allowlist entry to nft as
// written, and nft resolves a host name once, when the rule is made. Here
// a host name is refused.
package agentspawn
