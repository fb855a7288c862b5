// Package agentspawn makes the KiCI orchestrator's decision for one agent
// spawn: which scaler and label set serve a job ([Route]), and the container
// the container backend creates for it ([Plan]): its image, environment,
// Docker labels, command, HostConfig and network, the pull to make first,
// and the refusals, message texts included. The behaviour is the
// orchestrator 0.20.0's.
//
// Everything the orchestrator learns by I/O is an argument (the runtime
// socket it found, the token it minted, the agent image it inspected, how
// many agents it runs, its own environment), so that a tool can plan a
// spawn without a container runtime, and test one without a machine.
// Nothing here reads a file, the environment or the clock.
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
// then make sp.Pull and create the container from sp.Config, sp.HostConfig
// and sp.Networking, the Docker Engine API's own types from
// github.com/moby/moby/api, or send json.Marshal(sp), the body of
// POST /containers/create with exactly the keys the orchestrator sends.
//
// # Where each rule comes from
//
// The seed (the orchestrator's compiled code, 0.18.0 to 0.20.0) shows the
// 0.20.0 changes to ContainerScalerBackend.spawn: the limits through
// resolveSpawnLimits, the single-job rule (KICI_SCALER_SINGLE_JOB=1 and
// the group 1990 for a container from the pool's own image, through
// [github.com/kicikit/kicikit/hostconfig.SpawnAdditions]), GroupAdd in
// buildAgentContainerHostConfig, and a job image's init command before the
// injected agent's. The rest follows the newest public source, repository
// kici-dev/kici-public, at the commits named here (0b46a9a is the newest
// the index holds; a file not stored there is read at the newest commit
// that holds it):
//
//   - packages/orchestrator/src/scaler/container-backend.ts and its test,
//     at 0b46a9a5: spawn's match, refusals, environment, binds, labels,
//     pull, command and network, and the isolated network's name, subnet
//     and gateway;
//   - container-hostconfig.ts, at db60c390 (its one stored version), with
//     the seed's GroupAdd: through hostconfig.Build;
//   - packages/shared/src/container-runtime.ts, at 0b46a9a5: the pull
//     policies, the runtime volume's name, its bind at /opt/kici and the
//     injected agent's command;
//   - packages/engine/src/labels.ts and labels.test.ts, at 0b46a9a5:
//     scalerAgentLabels, resolveRoleLabels, deriveOsArchLabels, the
//     platform taints and the agent-feature label;
//   - packages/orchestrator/src/scaler/label-matcher.ts and its test, at
//     db60c390 (not stored at 0b46a9a5): normalizeLabelSet and
//     findBackendForLabels with the per-label-set gate;
//   - packages/orchestrator/src/scaler/manager.ts, at 0b46a9a5: the labels
//     the manager adds to each label set (getEnrichedScalerEntries, with
//     AGENT_FEATURE_LABELS), resolveScalerPlatform, platformTaintsFor and
//     labelSetMandatoryLabels;
//   - host-access.ts at db60c390 and host-access.test.ts at 0b46a9a5:
//     [HostAccess].
//
// Where 0.20.0's behaviour shows neither in the seed nor in that source,
// this package follows the newest public source and says so where it does;
// CHANGELOG.md lists each place.
//
// # Beyond the orchestrator
//
// Plan refuses what the orchestrator would start a broken container from,
// each with its own [Reason]: a label set without an image, an empty job
// image, agent id or orchestrator URL, and a resources.limits that
// hostconfig.ResolveSpawnLimits refuses (a memory string it cannot read, a
// limit that rounds to zero), where the orchestrator would fail at the
// runtime or start the container unbounded.
package agentspawn
