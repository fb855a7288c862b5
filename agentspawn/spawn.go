package agentspawn

import (
	"slices"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/api/types/registry"
)

// Spawn is the container backend's decision for one spawn. It holds the
// label set that matched, and the request the Docker Engine API takes to
// create the agent container. It holds the pull to make first, too. Its
// JSON ([Spawn.MarshalJSON]) is the body of POST /containers/create.
type Spawn struct {
	// ScalerIndex and LabelSetIndex name the label set that matched:
	// Config.Scalers[ScalerIndex].LabelSets[LabelSetIndex].
	ScalerIndex, LabelSetIndex int
	// Config holds Image, Env, Labels and, for a job's image, Cmd. Its other
	// fields are zero.
	Config container.Config
	// HostConfig is hostconfig.Build's, for the spawn's limits, binds,
	// extra hosts and groups.
	HostConfig container.HostConfig
	// Networking holds the isolated network's endpoint ([IsolatedNetwork], with
	// empty settings) under network isolation, the default. It is nil without
	// it.
	Networking *network.NetworkingConfig
	// Pull is what to do about Config.Image before creating the container.
	Pull Pull
}

// Plan returns the container the orchestrator's container backend creates
// for r: ContainerScalerBackend.spawn of the orchestrator 0.20.0. It
// returns an [*Error] when the backend refuses the spawn. It reads nothing
// but r and never panics. The Spawn shares no slice or map with r.
//
// It finds the scaler named r.Scaler (the first of that name), which must be
// a container scaler. Then it finds the first of its label sets whose
// [NormalizeLabelSet] is r.LabelSet's. The keys are compared, as the backend
// compares them. So ["a,b"] serves [a, b], and a label set whose key is ""
// ([""], or none) serves an empty r.LabelSet.
//
// It refuses, in this order: a nil Config, an unknown scaler, one of another
// type, and a label set it does not serve. Then come a scaler with r.Active
// >= maxAgents, a label set without an image, and an empty job image,
// AgentID or OrchestratorURL. Last come limits that
// hostconfig.ResolveSpawnLimits refuses.
//
// The package documentation lists the container field by field: its Env in
// order, Labels, Cmd, HostConfig, Networking and Pull.
func Plan(r Request) (Spawn, error) {
	a, err := admit(r)
	if err != nil {
		return Spawn{}, err
	}
	var l Learned
	l.Token = r.Token
	if r.Job != nil {
		l.AgentImageID, l.Init = r.Job.AgentImageID, r.Job.Init
	}
	return a.Spawn(l), nil
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
