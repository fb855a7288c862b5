package scalerconfig_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kicikit/kicikit/agentversion"
	"github.com/kicikit/kicikit/scalerconfig"
)

// TestRulesForReadsAsParseTarget: RulesFor takes a release exactly when
// agentversion.ParseTarget, which reads an upgrade's target, does.
func TestRulesForReadsAsParseTarget(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0.20.0", " v0.16.0 ", "v0.15.0-rc", "0.16", "", "v", "0.16.0.0", "1.2.3+b", "-1.0.0",
		"0.99999999999999999999.0", "\u00a00.16.0\u3000", "\u00850.16.0", "\ufeff0.16.0", "V0.16.0", "0.16.0-", "0x10.0.0"} {
		_, _, err := agentversion.ParseTarget(s)
		_, ok := scalerconfig.RulesFor(s)
		assert.Equal(t, err == nil, ok, "%q", s)
	}
}
