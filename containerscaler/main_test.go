package containerscaler

import (
	"os"
	"testing"

	"github.com/kicikit/kicikit/internal/enginetest"
)

// TestMain says, after the tests, how many engine tests skipped and why.
func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }
