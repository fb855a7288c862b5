package scalerconfig_test

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
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

// A command that reads the config from standard input reads it with the
// limit the orchestrator's loader has, then loads it from memory.
func ExampleReadAll() {
	stdin := strings.NewReader("version: 1\nscalers: []\n")
	src, err := scalerconfig.ReadAll(stdin, "<stdin>", scalerconfig.ConfigLimit)
	if err != nil {
		fmt.Println(err) // a *FileError with ErrTooLong past 2^29 − 24 UTF-16 code units
		return
	}
	cfg, err := scalerconfig.Load(fstest.MapFS{"<stdin>": {Data: src}}, "<stdin>", "")
	fmt.Println(cfg.Version, len(cfg.Scalers), err)
	// Output:
	// 1 0 <nil>
}
