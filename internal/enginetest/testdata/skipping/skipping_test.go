// Package skipping is a package of engine tests for TestMainSaysWhy:
// without an Engine, three skip and one passes.
package skipping

import (
	"os"
	"testing"

	"github.com/kicikit/kicikit/internal/enginetest"
)

func TestMain(m *testing.M) { os.Exit(enginetest.Main(m)) }

func TestOne(t *testing.T) { enginetest.Engine(t) }

func TestTwo(t *testing.T) { enginetest.Engine(t) }

func TestThree(t *testing.T) {
	t.Run("sub", func(t *testing.T) { enginetest.Engine(t) })
}

func TestNoEngine(t *testing.T) {}
