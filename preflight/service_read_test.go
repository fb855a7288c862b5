package preflight

import (
	"io/fs"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/internal/noderead"
	"github.com/kicikit/kicikit/scalerconfig"
)

// TestCheckServiceNotRegular finds an env file, a config, a drop-in and a
// drop-in folder that are not what they should be: Unreadable, each with
// a FileError naming it as the service's system does, none opened.
func TestCheckServiceNotRegular(t *testing.T) {
	t.Parallel()
	const env = "KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d\n"
	envFile := &fstest.MapFile{Data: []byte(env)}
	config := &fstest.MapFile{Data: []byte(serviceConfig)}
	tests := []struct {
		name   string
		fsys   fstest.MapFS
		loc    scalerconfig.Location
		path   string
		reason scalerconfig.Reason
	}{
		{name: "env file", fsys: fstest.MapFS{"etc/kici/orchestrator.env": {Mode: fs.ModeNamedPipe}},
			path: "etc/kici/orchestrator.env", reason: scalerconfig.ErrNotRegular},
		{name: "config", fsys: fstest.MapFS{"etc/kici/orchestrator.env": envFile, "etc/kici/scalers.yaml": {Mode: fs.ModeDevice | fs.ModeCharDevice}},
			loc:  scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"},
			path: "/etc/kici/scalers.yaml", reason: scalerconfig.ErrNotRegular},
		{name: "drop-in", fsys: fstest.MapFS{"etc/kici/orchestrator.env": envFile, "etc/kici/scalers.yaml": config, "etc/kici/scalers.d/x.yaml": {Mode: fs.ModeSocket}},
			loc:  scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"},
			path: "/etc/kici/scalers.d/x.yaml", reason: scalerconfig.ErrNotRegular},
		{name: "drop-in folder", fsys: fstest.MapFS{"etc/kici/orchestrator.env": envFile, "etc/kici/scalers.yaml": config, "etc/kici/scalers.d": {Mode: fs.ModeNamedPipe}},
			loc:  scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"},
			path: "/etc/kici/scalers.d", reason: scalerconfig.ErrNotDir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := CheckService(ServiceInput{FS: tt.fsys, EnvFile: "/etc/kici/orchestrator.env"})
			u, ok := got.(Unreadable)
			require.True(t, ok, "%#v", got)
			assert.Equal(t, tt.loc, u.Location)
			var fe *scalerconfig.FileError
			require.ErrorAs(t, u.Err, &fe)
			assert.ErrorIs(t, u.Err, tt.reason)
			assert.Equal(t, tt.path, fe.Path)
		})
	}
}

// bigEnv is a file system of one env file whose Stat says it is of size
// bytes; reading it yields nothing.
type bigEnv struct{ size int64 }

func (b bigEnv) Open(name string) (fs.File, error) {
	if name != "etc/kici/orchestrator.env" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return bigFile(b), nil
}

type bigFile struct{ size int64 }

func (f bigFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f bigFile) Read([]byte) (int, error)   { return 0, fs.ErrInvalid }
func (f bigFile) Close() error               { return nil }
func (f bigFile) Name() string               { return "orchestrator.env" }
func (f bigFile) Size() int64                { return f.size }
func (f bigFile) Mode() fs.FileMode          { return 0o644 }
func (f bigFile) ModTime() time.Time         { return time.Time{} }
func (f bigFile) IsDir() bool                { return false }
func (f bigFile) Sys() any                   { return nil }

// TestCheckServiceEnvTooLong refuses an env file that kici-admin's
// readFileSync cannot make a string of, by its size, without reading it.
func TestCheckServiceEnvTooLong(t *testing.T) {
	t.Parallel()
	got := CheckService(ServiceInput{FS: bigEnv{size: noderead.MaxTextUnits}, EnvFile: "/etc/kici/orchestrator.env"})
	u, ok := got.(Unreadable)
	require.True(t, ok, "%#v", got)
	var fe *scalerconfig.FileError
	require.ErrorAs(t, u.Err, &fe)
	assert.Equal(t, scalerconfig.ErrTooLong, fe.Reason)
	assert.Equal(t, "Error: Cannot create a string longer than 0x1fffffe8 characters", fe.NodeError)
	assert.Equal(t, `scalerconfig.LocateFile("etc/kici/orchestrator.env"): "etc/kici/orchestrator.env": 536870888 bytes, as many as JavaScript's longest string `+
		`has UTF-16 code units (536870888) or more: node fails with Error: Cannot create a string longer than 0x1fffffe8 characters`, u.Err.Error())
}
