package agentspawn

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestReasonError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reason Reason
		want   string
	}{
		{ErrNoConfig, "no scaler config"},
		{ErrUnknownScaler, "unknown scaler"},
		{ErrNotContainer, "not a container scaler"},
		{ErrLabelSetNotSupported, "label set not supported"},
		{ErrAtCapacity, "scaler at capacity"},
		{ErrNoImage, "label set has no image"},
		{ErrEmptyJobImage, "empty job image"},
		{ErrNoAgentID, "no agent id"},
		{ErrNoOrchestratorURL, "no orchestrator URL"},
		{ErrLimits, "resource limits refused"},
		{0, "spawn refused"},
		{ErrLimits + 1, "spawn refused"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, tt.reason.Error())
		})
	}
}

// TestErrorOtherReason: an Error built by hand with a Reason Plan never
// gives, or ErrLimits without a cause, still reads as a sentence.
func TestErrorOtherReason(t *testing.T) {
	t.Parallel()
	e := &Error{Reason: 0, Scaler: "s"}
	assert.Equal(t, `Container backend "s" refused the spawn: spawn refused`, e.Error())
	assert.Nil(t, e.Unwrap())
	e = &Error{Reason: ErrLimits, Scaler: "s", LabelSet: []string{"a"}}
	assert.Equal(t, `Container backend "s" cannot apply the limits of label set [a]: <nil>`, e.Error())
	assert.True(t, errors.Is(e, ErrLimits))
	assert.False(t, errors.Is(e, errors.New("resource limits refused")))
}
