package agentspawn

import (
	"slices"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/api/types/registry"
)

// Spawn is the container backend's decision for one spawn: the label set
// that matched, the request the Docker Engine API takes to create the
// agent container, and the pull to make first. Its JSON ([Spawn.MarshalJSON])
// is the body of POST /containers/create.
type Spawn struct {
	// ScalerIndex and LabelSetIndex name the label set that matched:
	// Config.Scalers[ScalerIndex].LabelSets[LabelSetIndex].
	ScalerIndex, LabelSetIndex int
	// Config holds Image, Env, Labels and, for a job's image, Cmd; its
	// other fields are zero.
	Config container.Config
	// HostConfig is hostconfig.Build's, for the spawn's limits, binds,
	// extra hosts and groups.
	HostConfig container.HostConfig
	// Networking holds the isolated network's endpoint ([IsolatedNetwork],
	// with empty settings) under network isolation, the default; nil
	// without it.
	Networking *network.NetworkingConfig
	// Pull is what to do about Config.Image before creating the container.
	Pull Pull
}

// Plan returns the container the orchestrator's container backend creates
// for r (ContainerScalerBackend.spawn of the orchestrator 0.20.0), or an
// [*Error] when the backend refuses the spawn. It reads nothing but r and
// never panics; the Spawn shares no slice or map with r.
//
// It finds the scaler named r.Scaler (the first of that name), which must
// be a container scaler, and the first of its label sets whose
// [NormalizeLabelSet] is r.LabelSet's: the keys are compared, as the
// backend compares them, so ["a,b"] serves [a, b], and a label set whose
// key is "" ([""], or none) serves an empty r.LabelSet. It refuses, in
// this order: a nil Config, an unknown scaler, one of another type, a
// label set it does not serve, a scaler with r.Active >= maxAgents,
// a label set without an image, an empty job image, an empty AgentID or
// OrchestratorURL, and limits hostconfig.ResolveSpawnLimits refuses.
//
// The container:
//
//   - Image is the job's image (r.Job), else the label set's.
//   - Env is, in this order: KICI_ORCHESTRATOR_URL, KICI_AGENT_ID,
//     KICI_LABELS ([AgentLabels] of r.LabelSet as given, joined with ","),
//     KICI_SCALER_MANAGED=1, KICI_EXECUTION_MODE=bare-metal,
//     KICI_RUNTIME_IMAGE (the label set's image, even for a job's image),
//     KICI_AGENT_TOKEN when r.Token is set, KICI_BACKPRESSURE_MODE when
//     the label set sets backpressureMode; then each KICI_AGENT_ENV_<NAME>=v
//     of r.Environ with a non-empty NAME, as NAME=v, in r.Environ's order
//     (an entry without "=" is skipped); then the label set's env, in the
//     config's order; last KICI_JOB_IMAGE_AGENT=1 for a job's image, or
//     [hostconfig.SingleJobEnv] for the label set's own. Nothing is
//     de-duplicated: a later entry wins at the runtime, as with the
//     orchestrator, so the label set's env overrides a forwarded one.
//   - Labels are kici-managed "true", kici-scaler-name, kici-agent-id,
//     kici-labels ([NormalizeLabelSet] of r.LabelSet), and
//     kici-bound-job-id and kici-run-id when r sets them.
//   - Cmd, for a job's image only: Job.Init, then [AgentNode] and
//     [AgentScript]. The label set's image keeps its own command.
//   - HostConfig is [hostconfig.Build] of: the limits
//     [hostconfig.ResolveSpawnLimits] gives for r.Effective and the label
//     set's resources, else the config's defaults.resources (the whole
//     block, as the backend falls back); binds, the label set's volumes,
//     then "<socket>:<socket>" when the label set sets containerSocket and
//     r.SocketPath is not "", then for a job's image the runtime volume
//     ([RuntimeVolumeName] of Job.AgentImageID) read-only at
//     [RuntimeMount]; the scaler's extraHosts; and, for the label set's own
//     image, the group [hostconfig.SudoGroupGID], by
//     [hostconfig.SpawnAdditions].
//   - Networking is the [IsolatedNetwork] endpoint unless the scaler sets
//     networkIsolation: false.
//   - Pull is, for a job's image, [PullIfMissing] with Job.Auth; for the
//     label set's image, by its imagePullPolicy: Never [NoPull],
//     IfNotPresent (the default) [PullIfMissing], Always [PullAlways], and
//     any other value PullAlways, as the orchestrator's pull pulls for a
//     policy it does not know.
func Plan(r Request) (Spawn, error) {
	si, s, err := containerScaler(r)
	if err != nil {
		return Spawn{}, err
	}
	key := NormalizeLabelSet(r.LabelSet)
	li := matchLabelSet(s, key)
	fail := func(reason Reason, cause error) (Spawn, error) {
		return Spawn{}, &Error{Reason: reason, Scaler: r.Scaler, LabelSet: r.LabelSet, LabelSetIndex: li,
			Type: s.Type, MaxAgents: s.MaxAgents, Err: cause}
	}
	if li < 0 {
		return fail(ErrLabelSetNotSupported, nil)
	}
	if int64(r.Active) >= s.MaxAgents {
		return fail(ErrAtCapacity, nil)
	}
	if reason := missing(r, &s.LabelSets[li]); reason != 0 {
		return fail(reason, nil)
	}
	ls := &s.LabelSets[li]
	limits, err := hostconfig.ResolveSpawnLimits(r.Effective, r.Config.SpawnResources(*ls))
	if err != nil {
		return fail(ErrLimits, err)
	}
	sp := Spawn{ScalerIndex: si, LabelSetIndex: li}
	sp.build(&r, s, ls, limits, key)
	return sp, nil
}

// containerScaler finds the container scaler r names.
func containerScaler(r Request) (int, *scalerconfig.Scaler, error) {
	refuse := func(reason Reason, t scalerconfig.ScalerType) (int, *scalerconfig.Scaler, error) {
		return 0, nil, &Error{Reason: reason, Scaler: r.Scaler, LabelSet: r.LabelSet, LabelSetIndex: -1, Type: t}
	}
	if r.Config == nil {
		return refuse(ErrNoConfig, "")
	}
	for i := range r.Config.Scalers {
		s := &r.Config.Scalers[i]
		if r.Scaler == "" || s.Name != r.Scaler {
			continue
		}
		if s.Type != scalerconfig.TypeContainer {
			return refuse(ErrNotContainer, s.Type)
		}
		return i, s, nil
	}
	return refuse(ErrUnknownScaler, "")
}

// matchLabelSet returns the index of the first label set of s whose
// [NormalizeLabelSet] is key, or -1. The keys are compared, not the
// labels, as the backend compares its normalizeLabelSet strings:
// ["a,b"] and [a, b] are both "a,b", and [""] and [] both "".
func matchLabelSet(s *scalerconfig.Scaler, key string) int {
	for i := range s.LabelSets {
		if NormalizeLabelSet(s.LabelSets[i].Labels) == key {
			return i
		}
	}
	return -1
}

// missing returns the Reason for what r or ls lacks that the container
// needs, or 0.
func missing(r Request, ls *scalerconfig.LabelSet) Reason {
	switch {
	case ls.Image == "":
		return ErrNoImage
	case r.Job != nil && r.Job.Image == "":
		return ErrEmptyJobImage
	case r.AgentID == "":
		return ErrNoAgentID
	case r.OrchestratorURL == "":
		return ErrNoOrchestratorURL
	}
	return 0
}

// build fills sp's container from the checked request; key is the
// label set's [NormalizeLabelSet].
func (sp *Spawn) build(r *Request, s *scalerconfig.Scaler, ls *scalerconfig.LabelSet, limits hostconfig.Limits, key string) {
	origin, image := hostconfig.PoolImage, ls.Image
	env := environment(r, ls, AgentLabels(r.LabelSet, scalerconfig.TypeContainer, s.Name, s.Roles, r.PlatformTaints))
	binds := slices.Clone(ls.Volumes)
	if ls.ContainerSocket && r.SocketPath != "" {
		binds = append(binds, r.SocketPath+":"+r.SocketPath)
	}
	if r.Job != nil {
		origin, image = hostconfig.JobImage, r.Job.Image
		env = append(env, envJobImageAgent)
		binds = append(binds, RuntimeVolumeName(runtimeImageID(r.Job, ls))+":"+RuntimeMount+":ro")
	}
	env, in := hostconfig.SpawnAdditions(origin).Apply(env, hostconfig.Input{Limits: limits, Binds: binds, ExtraHosts: s.ExtraHosts})
	sp.Config = container.Config{Image: image, Env: env, Labels: dockerLabels(r, key), Cmd: command(r.Job)}
	sp.HostConfig = hostconfig.Build(in)
	if s.NetworkIsolation == nil || *s.NetworkIsolation {
		sp.Networking = &network.NetworkingConfig{
			EndpointsConfig: map[string]*network.EndpointSettings{IsolatedNetwork: {}},
		}
	}
	sp.Pull = pullFor(r.Job, ls)
}

// runtimeImageID is what names the runtime volume: the agent image's
// inspected id, else its reference, as the backend falls back.
func runtimeImageID(job *JobImage, ls *scalerconfig.LabelSet) string {
	if job.AgentImageID != "" {
		return job.AgentImageID
	}
	return ls.Image
}

// dockerLabels are the container's Docker labels, which the backend's own
// orphan reaper selects by.
func dockerLabels(r *Request, key string) map[string]string {
	labels := make(map[string]string, 6)
	labels[LabelManaged] = "true"
	labels[LabelScaler] = r.Scaler
	labels[LabelAgentID] = r.AgentID
	labels[LabelLabelSet] = key
	if r.BoundJobID != "" {
		labels[LabelBoundJobID] = r.BoundJobID
	}
	if r.RunID != "" {
		labels[LabelRunID] = r.RunID
	}
	return labels
}

// command is the Cmd of a container from a job's image: the image's own
// command would start something other than the agent.
func command(job *JobImage) []string {
	if job == nil {
		return nil
	}
	cmd := make([]string, 0, len(job.Init)+2)
	cmd = append(cmd, job.Init...)
	return append(cmd, AgentNode, AgentScript)
}

// pullFor is the pull before the container is created.
func pullFor(job *JobImage, ls *scalerconfig.LabelSet) Pull {
	if job != nil {
		return PullIfMissing{Image: job.Image, Auth: cloneAuth(job.Auth)}
	}
	switch ls.ImagePullPolicy.Effective() {
	case scalerconfig.PullNever:
		return NoPull{Image: ls.Image}
	case scalerconfig.PullIfNotPresent:
		return PullIfMissing{Image: ls.Image}
	}
	return PullAlways{Image: ls.Image}
}

func cloneAuth(a *registry.AuthConfig) *registry.AuthConfig {
	if a == nil {
		return nil
	}
	c := *a
	return &c
}
