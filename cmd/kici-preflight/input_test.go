package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kicikit/kicikit/scalerconfig"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenNames: relative paths are read from the working folder, and the
// positions name the files as they were given; on Windows too, where a
// folder written with slashes names its drop-ins with a slash. Every file
// the positions name has its bytes recorded under that name.
func TestOpenNames(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf", "scalers.d"), 0o755))
	copyFile(t, "sample/scalers.yaml", filepath.Join(dir, "conf", "scalers.yaml"))
	copyFile(t, "sample/scalers.d/10-mirror.yaml", filepath.Join(dir, "conf", "scalers.d", "10-mirror.yaml"))
	t.Chdir(dir)
	tests := []struct {
		name  string
		loc   scalerconfig.Location
		files []string // the files the label sets' positions name, in order
	}{
		{"posix", scalerconfig.Location{Path: "conf/scalers.yaml", Dir: "conf/scalers.d"}, []string{"conf/scalers.yaml", "conf/scalers.d/10-mirror.yaml"}},
		{"posix, ./ and a slash at the end", scalerconfig.Location{Path: "./conf/scalers.yaml", Dir: "conf/scalers.d/"}, []string{"./conf/scalers.yaml", "conf/scalers.d/10-mirror.yaml"}},
		{"windows, slashes", scalerconfig.Location{Path: "conf/scalers.yaml", Dir: "conf/scalers.d", Windows: true}, []string{"conf/scalers.yaml", "conf/scalers.d/10-mirror.yaml"}},
		{"windows, backslashes", scalerconfig.Location{Path: `conf\scalers.yaml`, Dir: `conf\scalers.d`, Windows: true}, []string{`conf\scalers.yaml`, `conf\scalers.d\10-mirror.yaml`}},
		{"windows, no folder", scalerconfig.Location{Path: "conf/scalers.yaml", Windows: true}, []string{"conf/scalers.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &input{shown: tt.loc}
			require.NoError(t, in.open(nil))
			var files []string
			_, err := in.scan(func(_ int, s *scalerconfig.Scaler) {
				for _, ls := range s.LabelSets {
					if ls.ImagePos.IsValid() && (len(files) == 0 || files[len(files)-1] != ls.ImagePos.File) {
						files = append(files, ls.ImagePos.File)
					}
				}
			})
			require.NoError(t, err)
			assert.Equal(t, tt.files, files)
			for _, f := range files {
				assert.NotEmpty(t, in.fsys.files[f], "the bytes of %s", f)
			}
			assert.Equal(t, tt.loc, in.shown, "the messages name the config as given")
		})
	}
}
