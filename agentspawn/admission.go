package agentspawn

import (
	"errors"
	"net/netip"
	"slices"

	"github.com/kicikit/kicikit/hostconfig"
	"github.com/kicikit/kicikit/scalerconfig"
)

// Admission is a spawn decided before any I/O: the label set that serves
// it, the pull, the runtime a job's image needs, the create request but
// for what only I/O learns, and under network isolation the rules but for
// the container's address. A backend admits a spawn once, then acts on
// the admission: [Admission.Spawn] and [Admission.Isolation] only fill in
// what it learned, and refuse nothing but an address that is not IPv4.
type Admission struct {
	// ScalerIndex and LabelSetIndex name the label set that serves the
	// spawn: Config.Scalers[ScalerIndex].LabelSets[LabelSetIndex].
	ScalerIndex, LabelSetIndex int
	// Pull is what to do about the image before creating the container.
	Pull Pull
	// AgentLabels are the agent's labels ([AgentLabels]): what its token
	// is minted for.
	AgentLabels []string
	// RuntimeImage is the label set's agent image when a job's image runs:
	// the image the runtime volume is filled from, to be pulled when
	// missing and inspected for [Learned]. It is "" for the label set's
	// own image.
	RuntimeImage string
	// Isolated says that the scaler runs its agents under network
	// isolation, its default.
	Isolated bool

	req    Request
	scaler *scalerconfig.Scaler
	set    *scalerconfig.LabelSet
	limits hostconfig.Limits
	key    string
	policy isolationPolicy
}

// Learned is what a backend learns by I/O between admitting a spawn and
// creating its container.
type Learned struct {
	// Token is the agent's token, minted for [Admission].AgentLabels; ""
	// when the backend has no token store.
	Token string
	// AgentImageID is the inspected Id of the agent image
	// ([Admission].RuntimeImage), for a job's image; "" names the runtime
	// volume from the image's reference, as [JobImage].AgentImageID says.
	AgentImageID string
	// Init is the init command the agent image's labels call for
	// ([RuntimeInit]), for a job's image; nil: none.
	Init []string
}

// Admit decides a spawn as [Plan] does, with its refusals in its order,
// and one more: under network isolation, a network policy that no rule
// can match, an [*IsolationError]. The host access the rules allow is
// [HostAccess] of the label set's policy, r.OrchestratorURL,
// [IsolatedNetworkGateway] and r.HostServices. r.Token and the learned
// fields of r.Job are not read: [Admission.Spawn] takes them. The
// Admission shares no slice or map with r.
func Admit(r Request) (Admission, error) {
	a, err := admit(r)
	if err != nil || !a.Isolated {
		return a, err
	}
	a.policy, err = compilePolicy(a.set.NetworkPolicy, HostAccess(HostAccessInput{
		Policy: a.set.NetworkPolicy, OrchestratorURL: r.OrchestratorURL,
		Gateway: IsolatedNetworkGateway, HostServices: r.HostServices,
	}))
	if err != nil {
		return Admission{}, err
	}
	return a, nil
}

// admit is Admit without the network policy: Plan's decision.
func admit(r Request) (Admission, error) {
	si, s, err := containerScaler(r)
	if err != nil {
		return Admission{}, err
	}
	key := NormalizeLabelSet(r.LabelSet)
	li := matchLabelSet(s, key)
	fail := func(reason Reason, cause error) (Admission, error) {
		return Admission{}, &Error{Reason: reason, Scaler: r.Scaler, LabelSet: r.LabelSet, LabelSetIndex: li,
			Type: s.Type, MaxAgents: s.MaxAgents, Err: cause}
	}
	if li < 0 {
		return fail(ErrLabelSetNotSupported, nil)
	}
	if int64(r.Active) >= s.MaxAgents {
		return fail(ErrAtCapacity, nil)
	}
	ls := &s.LabelSets[li]
	if reason := missing(r, ls); reason != 0 {
		return fail(reason, nil)
	}
	limits, err := hostconfig.ResolveSpawnLimits(r.Effective, r.Config.SpawnResources(*ls))
	if err != nil {
		return fail(ErrLimits, err)
	}
	a := Admission{
		ScalerIndex: si, LabelSetIndex: li,
		Pull:        pullFor(r.Job, ls),
		AgentLabels: AgentLabels(r.LabelSet, scalerconfig.TypeContainer, s.Name, s.Roles, r.PlatformTaints),
		Isolated:    s.NetworkIsolation == nil || *s.NetworkIsolation,
		req:         cloneRequest(r), scaler: s, set: ls, limits: limits, key: key,
	}
	if r.Job != nil {
		a.RuntimeImage = ls.Image
	}
	return a, nil
}

// cloneRequest is r with its own copies of the slices a spawn keeps.
func cloneRequest(r Request) Request {
	r.LabelSet = slices.Clone(r.LabelSet)
	r.Environ = slices.Clone(r.Environ)
	r.PlatformTaints = slices.Clone(r.PlatformTaints)
	r.HostServices = slices.Clone(r.HostServices)
	if r.Job != nil {
		job := JobImage{Image: r.Job.Image, Auth: cloneAuth(r.Job.Auth)}
		r.Job = &job
	}
	return r
}

// Spawn returns the container to create, with what the backend learned
// since it admitted the spawn. It is [Plan]'s Spawn for the admitted
// request with l's token and, for a job's image, l's runtime.
func (a Admission) Spawn(l Learned) Spawn {
	r := a.req
	r.Token = l.Token
	if r.Job != nil {
		job := *r.Job
		job.AgentImageID, job.Init = l.AgentImageID, slices.Clone(l.Init)
		r.Job = &job
	}
	sp := Spawn{ScalerIndex: a.ScalerIndex, LabelSetIndex: a.LabelSetIndex}
	sp.build(&r, a.scaler, a.set, a.limits, a.key)
	return sp
}

// Isolation returns the rules of the container's address, as
// [PlanIsolation] does for the admitted policy. It returns an
// [*IsolationError] for an address that is not IPv4, and for a scaler
// without network isolation, which has no rules.
func (a Admission) Isolation(addr netip.Addr) (Isolation, error) {
	if !a.Isolated {
		return Isolation{}, &IsolationError{Field: "networkIsolation", Entry: "false",
			Err: errors.New("the scaler runs its agents without network isolation")}
	}
	return a.policy.at(addr)
}
