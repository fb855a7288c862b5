package scalerconfig

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnvValue compares envValue with the orchestrator's readEnvValue on
// the env files of testdata/env.json (testdata/gen/gen.mjs).
func TestEnvValue(t *testing.T) {
	raw, err := os.ReadFile("testdata/env.json")
	require.NoError(t, err)
	var cases []struct {
		Content   string
		Path, Dir *string
	}
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(strconv.Quote(c.Content), func(t *testing.T) {
			for _, k := range []struct {
				key  string
				want *string
			}{{"KICI_SCALER_CONFIG_PATH", c.Path}, {"KICI_SCALER_CONFIG_DIR", c.Dir}} {
				got, ok := envValue([]byte(c.Content), k.key)
				assert.Equal(t, k.want != nil, ok, k.key)
				if k.want != nil {
					assert.Equal(t, *k.want, got, k.key)
				}
			}
		})
	}
}

func TestLocate(t *testing.T) {
	for _, tc := range []struct {
		name, env, workingDir string
		windows               bool
		want                  Location
		ok                    bool
	}{
		{name: "absolute", env: "KICI_SCALER_CONFIG_PATH=/etc/kici/s.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/s.d\n", workingDir: "/srv",
			want: Location{Path: "/etc/kici/s.yaml", Dir: "/etc/kici/s.d"}, ok: true},
		{name: "relative to the working directory", env: "KICI_SCALER_CONFIG_PATH=conf/s.yaml\nKICI_SCALER_CONFIG_DIR=./s.d\n", workingDir: "/srv/kici",
			want: Location{Path: "/srv/kici/conf/s.yaml", Dir: "/srv/kici/s.d"}, ok: true},
		{name: "relative without a working directory", env: "KICI_SCALER_CONFIG_PATH=s.yaml\n",
			want: Location{Path: "s.yaml"}, ok: true},
		{name: "no path", env: "KICI_SCALER_CONFIG_DIR=/etc/kici/s.d\n"},
		{name: "empty path", env: "KICI_SCALER_CONFIG_PATH=\n"},
		{name: "empty env file", env: ""},
		{name: "empty dir is none", env: "KICI_SCALER_CONFIG_PATH=/s.yaml\nKICI_SCALER_CONFIG_DIR=''\n",
			want: Location{Path: "/s.yaml"}, ok: true},
		{name: "windows drive path", env: "KICI_SCALER_CONFIG_PATH=C:\\kici\\s.yaml\r\nKICI_SCALER_CONFIG_DIR=s.d\r\n", workingDir: `C:\ProgramData\kici\`, windows: true,
			want: Location{Path: `C:\kici\s.yaml`, Dir: `C:\ProgramData\kici\s.d`, Windows: true}, ok: true},
		{name: "windows rooted path", env: "KICI_SCALER_CONFIG_PATH=\\kici\\s.yaml\n", workingDir: `D:\svc`, windows: true,
			want: Location{Path: `D:\kici\s.yaml`, Windows: true}, ok: true},
		{name: "windows unc path", env: "KICI_SCALER_CONFIG_PATH=\\\\srv\\share\\s.yaml\n", workingDir: `D:\svc`, windows: true,
			want: Location{Path: `\\srv\share\s.yaml`, Windows: true}, ok: true},
		{name: "windows rooted on a unc working directory", env: "KICI_SCALER_CONFIG_PATH=/s.yaml\n", workingDir: `\\srv\share\svc`, windows: true,
			want: Location{Path: `\\srv\share/s.yaml`, Windows: true}, ok: true},
		{name: "windows relative without a working directory", env: "KICI_SCALER_CONFIG_PATH=s.yaml\n", windows: true,
			want: Location{Path: `s.yaml`, Windows: true}, ok: true},
		{name: "windows drive without separator", env: "KICI_SCALER_CONFIG_PATH=C:s.yaml\n", workingDir: `D:\svc`, windows: true,
			want: Location{Path: `D:\svc\C:s.yaml`, Windows: true}, ok: true},
		{name: "windows drive root", env: "KICI_SCALER_CONFIG_PATH=C:\\\n", workingDir: `D:\svc`, windows: true,
			want: Location{Path: `C:\`, Windows: true}, ok: true},
		{name: "windows two separators", env: "KICI_SCALER_CONFIG_PATH=//\n", workingDir: `D:\svc`, windows: true,
			want: Location{Path: `//`, Windows: true}, ok: true},
		{name: "windows one character", env: "KICI_SCALER_CONFIG_PATH=s\n", workingDir: `D:`, windows: true,
			want: Location{Path: `D:\s`, Windows: true}, ok: true},
		{name: "a drive path is relative on posix", env: "KICI_SCALER_CONFIG_PATH=C:\\s.yaml\n", workingDir: "/srv",
			want: Location{Path: `/srv/C:\s.yaml`}, ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			locate := Locate
			if tc.windows {
				locate = LocateWindows
			}
			got, ok := locate([]byte(tc.env), tc.workingDir)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLocationFS(t *testing.T) {
	for _, tc := range []struct {
		name              string
		loc               Location
		volume, file, dir string
		err               bool
	}{
		{name: "posix", loc: Location{Path: "/etc/kici/s.yaml", Dir: "/etc/kici/s.d/"}, file: "etc/kici/s.yaml", dir: "etc/kici/s.d"},
		{name: "posix without dir", loc: Location{Path: "/etc//kici/./s.yaml"}, file: "etc/kici/s.yaml"},
		{name: "relative", loc: Location{Path: "conf/s.yaml"}, file: "conf/s.yaml"},
		{name: "climbs out", loc: Location{Path: "../s.yaml"}, err: true},
		{name: "root", loc: Location{Path: "/"}, err: true},
		{name: "dir climbs out", loc: Location{Path: "s.yaml", Dir: "../d"}, file: "s.yaml", err: true},
		{name: "windows", loc: Location{Path: `C:\kici\s.yaml`, Dir: `c:\kici\s.d`, Windows: true}, volume: "C:", file: "kici/s.yaml", dir: "kici/s.d"},
		{name: "windows unc", loc: Location{Path: `\\srv\share\kici\s.yaml`, Windows: true}, volume: `\\srv\share`, file: "kici/s.yaml"},
		{name: "windows unc without a share", loc: Location{Path: `\\srv`, Windows: true}, err: true, volume: `\\srv`},
		{name: "windows drive root", loc: Location{Path: `C:\s`, Windows: true}, volume: "C:", file: "s"},
		{name: "windows drive relative", loc: Location{Path: `C:s`, Windows: true}, volume: "C:", file: "s"},
		{name: "windows unc share root", loc: Location{Path: `\\a\b\c`, Windows: true}, volume: `\\a\b`, file: "c"},
		{name: "windows drive only", loc: Location{Path: `C:`, Windows: true}, err: true},
		{name: "windows separators only", loc: Location{Path: `\\`, Windows: true}, err: true},
		{name: "windows relative", loc: Location{Path: `kici\s.yaml`, Windows: true}, file: "kici/s.yaml"},
		{name: "windows two volumes", loc: Location{Path: `C:\s.yaml`, Dir: `D:\s.d`, Windows: true}, volume: "C:", file: "s.yaml", dir: "s.d", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			volume, file, dir, err := tc.loc.FS()
			if tc.err {
				assert.ErrorIs(t, err, ErrNotFSPath)
				var le *LocationError
				require.ErrorAs(t, err, &le)
				assert.Contains(t, le.Error(), "scalerconfig.Location.FS(")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{tc.volume, tc.file, tc.dir}, []string{volume, file, dir})
		})
	}
}
