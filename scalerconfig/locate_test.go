package scalerconfig

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEnvValue compares envValue with the orchestrator's readEnvValue on
// the env files of testdata/env.json (testdata/gen/gen.mjs).
func TestEnvValue(t *testing.T) {
	t.Parallel()
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
			t.Parallel()
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
	t.Parallel()
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
			t.Parallel()
			got, ok := Options{Windows: tc.windows}.Locate([]byte(tc.env), tc.workingDir)
			if !tc.windows {
				plain, plainOK := Locate([]byte(tc.env), tc.workingDir)
				assert.Equal(t, got, plain, "Locate is the zero Options' Locate")
				assert.Equal(t, ok, plainOK)
			}
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLocationFS(t *testing.T) {
	t.Parallel()
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
		// Path and Dir in one file system: both relative, or both absolute.
		{name: "a relative path, an absolute dir", loc: Location{Path: "s.yaml", Dir: "/etc/kici/s.d"}, err: true},
		{name: "an absolute path, a relative dir", loc: Location{Path: "/etc/kici/s.yaml", Dir: "s.d"}, err: true},
		{name: "both relative", loc: Location{Path: "s.yaml", Dir: "s.d"}, file: "s.yaml", dir: "s.d"},
		{name: "windows: a rooted path, a drive-relative dir", loc: Location{Path: `C:\s.yaml`, Dir: `C:s.d`, Windows: true}, err: true},
		{name: "windows: a relative path, a rooted dir", loc: Location{Path: `s.yaml`, Dir: `\kici\s.d`, Windows: true}, err: true},
		{name: "windows: both drive-relative", loc: Location{Path: `C:s.yaml`, Dir: `c:s.d`, Windows: true}, volume: "C:", file: "s.yaml", dir: "s.d"},
		{name: "windows: both on a share", loc: Location{Path: `\\srv\share\s.yaml`, Dir: `\\srv\share\s.d`, Windows: true}, volume: `\\srv\share`, file: "s.yaml", dir: "s.d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			volume, file, dir, err := tc.loc.FS()
			if tc.err {
				assert.ErrorIs(t, err, ErrNotFSPath)
				var fe *FileError
				require.ErrorAs(t, err, &fe)
				assert.Equal(t, ErrNotFSPath, fe.Reason)
				assert.True(t, strings.HasPrefix(err.Error(), "scalerconfig.Location.FS("), err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{tc.volume, tc.file, tc.dir}, []string{volume, file, dir})
		})
	}
}

// TestLocationLoadNames checks that Location.Load and Location.Scan name
// the files as the Location does, in positions, problems and errors, and
// that OSPath names them so too.
func TestLocationLoadNames(t *testing.T) {
	t.Parallel()
	const main = "version: 1\nscalers:\n  - name: a\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [x]\n        image: kici-agent:1\n"
	const bad = "scalers:\n  - name: b\n    type: container\n    maxAgents: 0\n    labelSets:\n      - labels: [y]\n        image: kici-agent:1\n"
	const good = "scalers:\n  - name: c\n    type: container\n    maxAgents: 1\n    labelSets:\n      - labels: [z]\n        image: kici-agent:1\n"
	for _, tc := range []struct {
		name       string
		loc        Location
		fsys       fstest.MapFS
		main, drop string // the names the positions give the main file and the drop-in
	}{
		{
			name: "posix",
			loc:  Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"},
			fsys: fstest.MapFS{"etc/kici/scalers.yaml": {Data: []byte(main)}, "etc/kici/scalers.d/10.yaml": {Data: []byte(good)}},
			main: "/etc/kici/scalers.yaml", drop: "/etc/kici/scalers.d/10.yaml",
		},
		{
			name: "posix, a dir ending in a slash, unclean paths",
			loc:  Location{Path: "/etc//kici/./scalers.yaml", Dir: "/etc/kici/scalers.d/"},
			fsys: fstest.MapFS{"etc/kici/scalers.yaml": {Data: []byte(main)}, "etc/kici/scalers.d/10.yaml": {Data: []byte(good)}},
			main: "/etc//kici/./scalers.yaml", drop: "/etc/kici/scalers.d/10.yaml",
		},
		{
			name: "windows",
			loc:  Location{Path: `C:\kici\scalers.yaml`, Dir: `C:\kici\scalers.d`, Windows: true},
			fsys: fstest.MapFS{"kici/scalers.yaml": {Data: []byte(main)}, "kici/scalers.d/10.yaml": {Data: []byte(good)}},
			main: `C:\kici\scalers.yaml`, drop: `C:\kici\scalers.d\10.yaml`,
		},
		{
			name: "relative",
			loc:  Location{Path: "conf/scalers.yaml", Dir: "conf/d"},
			fsys: fstest.MapFS{"conf/scalers.yaml": {Data: []byte(main)}, "conf/d/10.yaml": {Data: []byte(good)}},
			main: "conf/scalers.yaml", drop: "conf/d/10.yaml",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := tc.loc.Load(tc.fsys)
			require.NoError(t, err)
			require.Len(t, cfg.Scalers, 2)
			assert.Equal(t, tc.main, cfg.Pos.File)
			assert.Equal(t, tc.main, cfg.Scalers[0].LabelSets[0].ImagePos.File)
			assert.Equal(t, tc.drop, cfg.Scalers[1].Pos.File)
			assert.Equal(t, tc.drop, cfg.Scalers[1].LabelSets[0].ImageEnd.File)

			var scanned []string
			_, err = tc.loc.Scan(tc.fsys, ScanOptions{}, func(_ int, s *Scaler) { scanned = append(scanned, s.Pos.File) })
			require.NoError(t, err)
			assert.Equal(t, []string{tc.main, tc.drop}, scanned)

			// OSPath names the fs paths of a plain Load the same way.
			_, file, dir, err := tc.loc.FS()
			require.NoError(t, err)
			plain, err := Load(tc.fsys, file, dir)
			require.NoError(t, err)
			assert.Equal(t, tc.main, tc.loc.OSPath(plain.Pos.File))
			assert.Equal(t, tc.drop, tc.loc.OSPath(plain.Scalers[1].Pos.File))

			// A problem in the drop-in names it.
			broken := maps.Clone(tc.fsys)
			broken[dir+"/10.yaml"] = &fstest.MapFile{Data: []byte(bad)}
			_, err = tc.loc.Load(broken)
			var cerr *Error
			require.ErrorAs(t, err, &cerr)
			assert.Equal(t, tc.drop, cerr.Problems[0].File)
			assert.Contains(t, err.Error(), "\n"+tc.drop+":4:16: scalers[1].maxAgents: ")

			// So does an error reading the main file, and its *fs.PathError.
			missing := maps.Clone(tc.fsys)
			delete(missing, file)
			_, err = tc.loc.Load(missing)
			var pe *fs.PathError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, tc.main, pe.Path)
			assert.ErrorIs(t, err, fs.ErrNotExist)
			assert.Equal(t, "scalerconfig.Load("+strconv.Quote(tc.main)+"): open "+tc.main+": file does not exist", err.Error())
		})
	}
}

func TestLocationOSPath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		loc  Location
		p    string
		want string
	}{
		{Location{Path: "/etc/kici/s.yaml"}, "etc/kici/s.yaml", "/etc/kici/s.yaml"},
		{Location{Path: "/etc/kici/s.yaml"}, "etc/other.yaml", "/etc/other.yaml"},
		{Location{Path: "s.yaml"}, "other.yaml", "other.yaml"},
		{Location{Path: `\\srv\share\kici\s.yaml`, Windows: true}, "kici/other/x.yaml", `\\srv\share\kici\other\x.yaml`},
		{Location{Path: `C:\kici\s.yaml`, Dir: `C:/kici/d`, Windows: true}, "kici/d/a.yml", `C:/kici/d/a.yml`},
		{Location{Path: "../s.yaml"}, "x.yaml", "x.yaml"},
		{Location{Path: "conf/s.yaml", Windows: true}, "conf/s.yaml", "conf/s.yaml"},
		{Location{Path: "conf/s.yaml", Dir: "conf/d", Windows: true}, "conf/d/10.yaml", "conf/d/10.yaml"},
		{Location{Path: "conf/s.yaml", Dir: `conf\d`, Windows: true}, "conf/d/10.yaml", `conf\d\10.yaml`},
		{Location{Path: "conf/s.yaml", Dir: `conf/x\d`, Windows: true}, "conf/x/d/10.yaml", `conf/x\d\10.yaml`},
		{Location{Path: "conf/s.yaml", Dir: "d", Windows: true}, "d/10.yaml", `d\10.yaml`},
		{Location{Path: `conf\s.yaml`, Windows: true}, "conf/other.yaml", `conf\other.yaml`},
		{Location{Path: `\kici\s.yaml`, Windows: true}, "kici/other.yaml", `\kici\other.yaml`},
		{Location{Path: `C:s.yaml`, Windows: true}, "x.yaml", `C:x.yaml`},
	} {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.loc.OSPath(tc.p), "%+v.OSPath(%q)", tc.loc, tc.p)
		})
	}
}
