package containerscaler

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorTexts(t *testing.T) {
	t.Parallel()
	cause := errors.New("runtime copy exited 1: cp: can't stat '/opt/kici/.': No such file or directory")
	tests := []struct {
		err  *Error
		want string
	}{
		{&Error{Reason: ErrNoRuntime}, "No container runtime found. Install Docker or Podman, or configure host."},
		{&Error{Reason: ErrNetworkRace}, "Failed to find isolated network kici-agent-net after 409 conflict"},
		{&Error{Reason: ErrAgentExists, Scaler: "linux", Agent: "a1"}, `Agent a1 is already provisioned by container backend "linux"`},
		{&Error{Reason: ErrTornDown, Agent: "scaler-container-1"}, "Agent scaler-container-1 was torn down while its container was being provisioned"},
		{&Error{Reason: ErrTimeout, Timeout: 300000}, "scaler spawn timed out after 300000ms"},
		{&Error{Reason: ErrNoAddress, Container: "0123456789abcdef0123"}, "Agent container 0123456789ab has no address on kici-agent-net, so its network isolation rules cannot be applied"},
		{&Error{Reason: ErrNoAddress, Container: "short"}, "Agent container short has no address on kici-agent-net, so its network isolation rules cannot be applied"},
		{&Error{Reason: ErrRuntimeVolume, Image: "reg/kici-agent:0.20.0", Err: cause}, "Failed to materialize the KiCI runtime from reg/kici-agent:0.20.0: runtime copy exited 1: cp: can't stat '/opt/kici/.': No such file or directory. The image must carry /opt/kici/node and /opt/kici/app."},
		{&Error{Reason: ErrNft}, "nftables validation failed: <nil>"},
		{&Error{Reason: 0, Scaler: "linux"}, `Container backend "linux" failed: container backend failure`},
	}
	for _, tt := range tests {
		t.Run(tt.err.Reason.Error(), func(t *testing.T) {
			assert.EqualError(t, tt.err, tt.want)
			assert.ErrorIs(t, tt.err, tt.err.Reason)
		})
	}
}

func TestErrorIs(t *testing.T) {
	t.Parallel()
	timeout := &Error{Reason: ErrTimeout}
	assert.ErrorIs(t, timeout, context.DeadlineExceeded)
	assert.ErrorIs(t, timeout, ErrTimeout)
	assert.NotErrorIs(t, timeout, ErrTornDown)
	assert.NotErrorIs(t, &Error{Reason: ErrTornDown}, context.DeadlineExceeded)
	cause := errors.New("x")
	assert.ErrorIs(t, &Error{Reason: ErrRuntimeVolume, Err: cause}, cause)
	for r := ErrNoRuntime; r <= ErrRuntimeVolume; r++ {
		assert.NotEqual(t, "container backend failure", r.Error(), "reason %d has words of its own", r)
	}
}
