//go:build unix

package main

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kicikit/kicikit/internal/noderead"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadWholeRefuses: the env file and standard input are read with the
// bounds of the node calls that read them in KiCI: a named pipe or a
// device as the env file is refused at once, without waiting for a writer
// or reading forever (noderead's tests hold ReadAll, which reads standard
// input, to its limit).
func TestReadWholeRefuses(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "orchestrator.env")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	for _, name := range []string{fifo, "/dev/zero"} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := readWhole(name, nil)
			var ne *noderead.Error
			require.ErrorAs(t, err, &ne)
			assert.Equal(t, noderead.NotRegular, ne.Kind)
			assert.Less(t, time.Since(start), 2*time.Second)
			assert.True(t, strings.HasPrefix(err.Error(), `"`+name+`": `), err.Error())
		})
	}
	_, err := readWhole(stdinName, failing{})
	assert.ErrorIs(t, err, errRead)
	assert.Equal(t, "reading standard input: broken", err.Error())
}

var errRead = errors.New("broken")

// failing is a reader that fails.
type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errRead }
