package agentspawn

import (
	"net/netip"
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAdmitThenSpawnIsPlan: what a backend learns after admission, handed
// to Admission.Spawn, gives Plan's container for the request that carries
// it, for the pool's image and for a job's, with and without a token.
func TestAdmitThenSpawnIsPlan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		req  func() Request
	}{
		{"pool image", func() Request { return spawnReq(backendConfig(), linuxDocker, "a1") }},
		{"pool image with a token", func() Request {
			r := spawnReq(backendConfig(), linuxNode20, "a2")
			r.Token = "tok"
			return r
		}},
		{"job image with its runtime", func() Request {
			r := spawnReq(backendConfig(), linuxDocker, "a3")
			r.Token = "tok"
			r.Job = jobContainer()
			r.Job.AgentImageID = "sha256:0123456789abcdef"
			r.Job.Init = RuntimeInit(map[string]string{RuntimeInitLabel: "tini"})
			return r
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tc.req()
			want, err := Plan(r)
			require.NoError(t, err)
			a, err := Admit(r)
			require.NoError(t, err)
			l := Learned{Token: r.Token}
			if r.Job != nil {
				l.AgentImageID, l.Init = r.Job.AgentImageID, r.Job.Init
				assert.Equal(t, r.Config.Scalers[0].LabelSets[0].Image, a.RuntimeImage)
			} else {
				assert.Empty(t, a.RuntimeImage)
			}
			assert.Equal(t, want, a.Spawn(l))
			assert.Equal(t, want.Pull, a.Pull)
			assert.Equal(t, [2]int{want.ScalerIndex, want.LabelSetIndex}, [2]int{a.ScalerIndex, a.LabelSetIndex})
			assert.Equal(t, AgentLabels(r.LabelSet, scalerconfig.TypeContainer, "test-container", nil, nil), a.AgentLabels)
		})
	}
}

// TestAdmitKeepsItsOwnCopy: changing the request after admission changes
// nothing the admission gives.
func TestAdmitKeepsItsOwnCopy(t *testing.T) {
	t.Parallel()
	r := spawnReq(backendConfig(), []string{"linux", "docker"}, "a1")
	r.Environ = []string{"KICI_AGENT_ENV_A=1"}
	r.Job = jobContainer()
	a, err := Admit(r)
	require.NoError(t, err)
	want := a.Spawn(Learned{AgentImageID: "sha256:1"})
	r.LabelSet[0], r.Environ[0], r.Job.Image = "windows", "KICI_AGENT_ENV_A=2", "other:1"
	assert.Equal(t, want, a.Spawn(Learned{AgentImageID: "sha256:1"}))
}

// TestAdmitRefuses: Admit refuses what Plan refuses, and under network
// isolation a policy no rule can match, before any address is known.
func TestAdmitRefuses(t *testing.T) {
	t.Parallel()
	r := spawnReq(backendConfig(), []string{"gpu"}, "a1")
	_, err := Admit(r)
	require.ErrorIs(t, err, ErrLabelSetNotSupported)

	cfg := backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
		s.LabelSets[0].NetworkPolicy = &scalerconfig.NetworkPolicy{HostAccess: []string{"*:99999"}}
	})
	_, err = Plan(spawnReq(cfg, linuxDocker, "a1"))
	require.NoError(t, err, "Plan does not read the policy")
	_, err = Admit(spawnReq(cfg, linuxDocker, "a1"))
	var ie *IsolationError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "hostAccess", ie.Field)

	off := false
	cfg.Scalers[0].NetworkIsolation = &off
	a, err := Admit(spawnReq(cfg, linuxDocker, "a1"))
	require.NoError(t, err, "without isolation the policy is not read")
	assert.False(t, a.Isolated)
	_, err = a.Isolation(netip.MustParseAddr("172.30.0.5"))
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "networkIsolation", ie.Field)
}

// TestAdmissionIsolation: the admitted policy's rules of an address are
// PlanIsolation's, with the host access Admit folded in; an address that
// is not IPv4 is refused.
func TestAdmissionIsolation(t *testing.T) {
	t.Parallel()
	cfg := backendConfig(func(s *scalerconfig.Scaler, _ *scalerconfig.Config) {
		s.LabelSets[0].NetworkPolicy = &scalerconfig.NetworkPolicy{Allowlist: []string{"8.8.8.0/24"}, DenyAll: true}
	})
	r := spawnReq(cfg, linuxDocker, "a1")
	r.OrchestratorURL = "ws://172.30.0.1:4000/ws"
	r.HostServices = []string{"172.30.0.1:9000"}
	a, err := Admit(r)
	require.NoError(t, err)
	addr := netip.MustParseAddr("172.30.0.7")
	want, err := PlanIsolation(IsolationInput{Addr: addr, Policy: cfg.Scalers[0].LabelSets[0].NetworkPolicy,
		HostAccess: HostAccess(HostAccessInput{Policy: cfg.Scalers[0].LabelSets[0].NetworkPolicy,
			OrchestratorURL: r.OrchestratorURL, Gateway: IsolatedNetworkGateway, HostServices: r.HostServices})})
	require.NoError(t, err)
	got, err := a.Isolation(addr)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Contains(t, got.Input, "ip saddr 172.30.0.7 ip daddr 172.30.0.1 tcp dport 9000 accept")

	_, err = a.Isolation(netip.MustParseAddr("fe80::1"))
	var ie *IsolationError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "addr", ie.Field)
}
