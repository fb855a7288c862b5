package scalerconfig_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/kicikit/kicikit/scalerconfig"
)

// A drop-in that is a named pipe is refused before it is opened: reading
// it would wait for a writer.
func ExampleFileError() {
	fsys := fstest.MapFS{
		"etc/kici/scalers.yaml":       {Data: []byte("version: 1\nscalers: []\n")},
		"etc/kici/scalers.d/gpu.yaml": {Mode: fs.ModeNamedPipe},
	}
	loc := scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"}
	_, err := loc.Load(fsys)
	fmt.Println(err)
	var fe *scalerconfig.FileError
	if errors.As(err, &fe) {
		fmt.Println(fe.Path, fe.Mode.Type() == fs.ModeNamedPipe, errors.Is(err, scalerconfig.ErrNotRegular))
	}
	// Output:
	// scalerconfig.Load("/etc/kici/scalers.d/gpu.yaml"): "/etc/kici/scalers.d/gpu.yaml": a named pipe (FIFO), not a regular file
	// /etc/kici/scalers.d/gpu.yaml true true
}

// LocateFile reads the service's env file within the bounds of
// kici-admin's read, then locates the config it names.
func ExampleOptions_LocateFile() {
	fsys := fstest.MapFS{
		"etc/kici/orchestrator.env": {Data: []byte("KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\n")},
		"etc/kici/scalers.yaml":     {Data: []byte("version: 1\nscalers: []\n")},
	}
	loc, ok, err := scalerconfig.Options{}.LocateFile(fsys, "etc/kici/orchestrator.env", "/var/lib/kici")
	fmt.Println(loc.Path, ok, err)
	cfg, err := loc.Load(fsys)
	fmt.Println(cfg.Version, err)
	// Output:
	// /etc/kici/scalers.yaml true <nil>
	// 1 <nil>
}
