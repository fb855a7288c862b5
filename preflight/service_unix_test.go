//go:build unix

package preflight

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

// TestCheckServiceFIFO checks a service whose env file, or config, is a
// named pipe, or /dev/zero through a link: Unreadable at once, where a
// read would wait for a writer, or never end.
func TestCheckServiceFIFO(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "fifo"), filepath.Join(dir, "zero.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	require.NoError(t, os.Symlink("/dev/zero", zero))
	env := filepath.Join(dir, "orchestrator.env")
	require.NoError(t, os.WriteFile(env, []byte("KICI_SCALER_CONFIG_PATH="+zero+"\n"), 0o644))
	for _, envFile := range []string{fifo, env} {
		t.Run(filepath.Base(envFile), func(t *testing.T) {
			t.Parallel()
			done := make(chan ServiceCheck, 1)
			go func() { done <- CheckService(ServiceInput{FS: os.DirFS("/"), EnvFile: envFile}) }()
			select {
			case got := <-done:
				u, ok := got.(Unreadable)
				require.True(t, ok, "%#v", got)
				assert.ErrorIs(t, u.Err, scalerconfig.ErrNotRegular)
			case <-time.After(5 * time.Second):
				require.FailNow(t, "still reading after 5s")
			}
		})
	}
}
