package preflight

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kicikit/kicikit/scalerconfig"
)

const serviceConfig = `version: 1
scalers:
  - name: docker
    type: container
    maxAgents: 2
    labelSets:
      - labels: [Linux]
        image: quay.io/kici-dev/kici-agent:latest
`

const dropIn = `scalers:
  - name: mirror
    type: container
    maxAgents: 2
    labelSets:
      - labels: [m]
        image: reg/kici-agent:0.19.0
`

func TestCheckService(t *testing.T) {
	t.Parallel()
	files := func(env string, more ...string) fstest.MapFS {
		m := fstest.MapFS{"etc/kici/orchestrator.env": {Data: []byte(env)}}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i]] = &fstest.MapFile{Data: []byte(more[i+1])}
		}
		return m
	}
	const env = "KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\n"
	tests := []struct {
		name    string
		in      ServiceInput
		want    ServiceCheck // Checked: Config and Findings are compared by their codes below
		codes   []string
		where   string // the findings' Where
		wantErr error  // Unreadable: errors.Is
	}{
		{
			name:  "checked",
			in:    ServiceInput{FS: files(env, "etc/kici/scalers.yaml", serviceConfig), EnvFile: "/etc/kici/orchestrator.env", TargetVersion: "0.20.0"},
			want:  Checked{Location: scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}},
			codes: []string{CodeMovingTag}, where: "/etc/kici/scalers.yaml",
		},
		{
			name: "relative paths against the working directory, with drop-ins",
			in: ServiceInput{FS: files("KICI_SCALER_CONFIG_PATH=scalers.yaml\nKICI_SCALER_CONFIG_DIR='scalers.d'\n",
				"var/lib/kici/scalers.yaml", serviceConfig, "var/lib/kici/scalers.d/10.yaml", dropIn),
				EnvFile: "/etc/kici/orchestrator.env", WorkingDir: "/var/lib/kici", TargetVersion: "0.20.0"},
			want:  Checked{Location: scalerconfig.Location{Path: "/var/lib/kici/scalers.yaml", Dir: "/var/lib/kici/scalers.d"}},
			codes: []string{CodeMovingTag, CodeOlderPin},
			where: "/var/lib/kici/scalers.yaml (or the file under /var/lib/kici/scalers.d that declares it)",
		},
		{
			name:  "no target",
			in:    ServiceInput{FS: files(env, "etc/kici/scalers.yaml", serviceConfig), EnvFile: "/etc/kici/orchestrator.env"},
			want:  Checked{Location: scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}},
			codes: []string{CodeMovingTag}, where: "/etc/kici/scalers.yaml",
		},
		{
			name: "windows",
			in: ServiceInput{FS: fstest.MapFS{"kici/orchestrator.env": {Data: []byte(`KICI_SCALER_CONFIG_PATH=conf\scalers.yaml`)}, "kici/conf/scalers.yaml": {Data: []byte(serviceConfig)}},
				EnvFile: `C:\kici\orchestrator.env`, WorkingDir: `C:\kici`, TargetVersion: "0.20.0", Windows: true},
			want:  Checked{Location: scalerconfig.Location{Path: `C:\kici\conf\scalers.yaml`, Windows: true}},
			codes: []string{CodeMovingTag}, where: `C:\kici\conf\scalers.yaml`,
		},
		{name: "no env file", in: ServiceInput{FS: fstest.MapFS{}, EnvFile: "/etc/kici/orchestrator.env"}, want: Unreadable{}, wantErr: fs.ErrNotExist},
		{name: "no env file path", in: ServiceInput{FS: fstest.MapFS{}}, want: Unreadable{}, wantErr: scalerconfig.ErrNotFSPath},
		{name: "the env file names no config", in: ServiceInput{FS: files("KICI_SCALER_CONFIG_PATH=\n"), EnvFile: "/etc/kici/orchestrator.env"}, want: NoScalerConfig{}},
		{
			name:    "no config file",
			in:      ServiceInput{FS: files(env), EnvFile: "/etc/kici/orchestrator.env", TargetVersion: "0.20.0"},
			want:    Unreadable{Location: scalerconfig.Location{Path: "/etc/kici/scalers.yaml"}},
			wantErr: fs.ErrNotExist,
		},
		{
			name: "a config on another volume",
			in: ServiceInput{FS: fstest.MapFS{"kici/orchestrator.env": {Data: []byte(`KICI_SCALER_CONFIG_PATH=D:\scalers.yaml`)}, "scalers.yaml": {Data: []byte(serviceConfig)}},
				EnvFile: `C:\kici\orchestrator.env`, Windows: true},
			want:    Unreadable{Location: scalerconfig.Location{Path: `D:\scalers.yaml`, Windows: true}},
			wantErr: scalerconfig.ErrNotFSPath,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := CheckService(tt.in)
			switch got := got.(type) {
			case Checked:
				want := tt.want.(Checked)
				assert.Equal(t, want.Location, got.Location)
				require.NotNil(t, got.Config)
				var codes []string
				for _, f := range got.Findings {
					codes = append(codes, f.Code())
					assert.Equal(t, tt.where, f.LabelSet().Where)
				}
				assert.Equal(t, tt.codes, codes)
			case Unreadable:
				assert.Equal(t, tt.want.(Unreadable).Location, got.Location)
				assert.ErrorIs(t, got.Err, tt.wantErr)
			case NoScalerConfig:
				assert.Equal(t, tt.want, got)
			case Invalid:
				require.FailNow(t, "Invalid", "%v", got.Err)
			default:
				require.FailNow(t, "unexpected outcome", "%T", got)
			}
			assert.IsType(t, tt.want, got)
		})
	}
}

// TestCheckServiceInvalid: a config the orchestrator refuses is Invalid,
// with every problem, each naming its file as the service's system does.
func TestCheckServiceInvalid(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"etc/kici/orchestrator.env":  {Data: []byte("KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d")},
		"etc/kici/scalers.yaml":      {Data: []byte("scalers: []\n")},
		"etc/kici/scalers.d/10.yaml": {Data: []byte("scalers:\n  - name: x\n")},
	}
	got, ok := CheckService(ServiceInput{FS: fsys, EnvFile: "/etc/kici/orchestrator.env"}).(Invalid)
	require.True(t, ok)
	assert.Equal(t, scalerconfig.Location{Path: "/etc/kici/scalers.yaml", Dir: "/etc/kici/scalers.d"}, got.Location)
	require.NotNil(t, got.Err)
	var files []string
	for _, p := range got.Err.Problems {
		files = append(files, p.File)
	}
	assert.Equal(t, []string{"/etc/kici/scalers.yaml", "/etc/kici/scalers.d/10.yaml", "/etc/kici/scalers.d/10.yaml", "/etc/kici/scalers.d/10.yaml"}, files)
}

// TestCheckServicePositions: the findings' positions name each file by its
// path on the service's system.
func TestCheckServicePositions(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"etc/kici/orchestrator.env":  {Data: []byte("KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d")},
		"etc/kici/scalers.yaml":      {Data: []byte(serviceConfig)},
		"etc/kici/scalers.d/10.yaml": {Data: []byte(dropIn)},
	}
	got, ok := CheckService(ServiceInput{FS: fsys, EnvFile: "/etc/kici/orchestrator.env", TargetVersion: "0.20.0"}).(Checked)
	require.True(t, ok)
	require.Len(t, got.Findings, 2)
	assert.Equal(t, "/etc/kici/scalers.yaml:8:16", got.Findings[0].LabelSet().ImagePos.String())
	assert.Equal(t, "/etc/kici/scalers.d/10.yaml:7:16", got.Findings[1].LabelSet().ImagePos.String())
}
