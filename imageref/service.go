package imageref

import (
	"io/fs"
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// ServiceInput is the orchestrator service whose scaler config
// [CheckService] checks, as its unit describes it.
type ServiceInput struct {
	// FS is the service's file system, rooted at the root of the env
	// file's volume: os.DirFS("/"), or os.DirFS(`C:\`) on Windows. The
	// config it names is read from it too; a config on another Windows
	// volume is Unchecked, with scalerconfig.ErrNotFSPath. A relative
	// EnvFile is relative to FS's root.
	FS fs.FS
	// EnvFile is the service's env file, as the operating system names it:
	// /etc/kici/orchestrator.env.
	EnvFile string
	// WorkingDir is the unit's working directory, against which the
	// orchestrator resolves a relative config path.
	WorkingDir string
	// TargetVersion is the release the upgrade installs, as
	// [CheckInput.TargetVersion] takes it.
	TargetVersion string
	// Windows reads the paths with Windows rules
	// ([scalerconfig.LocateWindows]).
	Windows bool
}

// ServiceCheck is the outcome of [CheckService]: [Checked], [NoScalerConfig]
// or [Unchecked].
//
//sumtype:decl
type ServiceCheck interface{ serviceCheck() }

// Checked is a scaler config located, loaded and checked.
type Checked struct {
	Location scalerconfig.Location // where the env file puts the config
	Config   *scalerconfig.Config  // the config, as Load returned it
	Findings []Finding             // never nil; empty when there is nothing to report
}

// NoScalerConfig reports that the env file names no scaler config (no
// KICI_SCALER_CONFIG_PATH, or an empty one): there is nothing to check.
type NoScalerConfig struct{}

// Unchecked reports that the env file or the config it names could not be
// read or loaded: the orchestrator's upgrade then warns about nothing, and
// Err is a reason to log.
type Unchecked struct {
	// Location is where the env file puts the config; the zero Location
	// when the env file itself could not be read.
	Location scalerconfig.Location
	// Err is why: the fs error of an unreadable file (with its path), a
	// *scalerconfig.LocationError for a path outside FS, or the
	// *scalerconfig.Error that lists what the orchestrator would refuse.
	Err error
}

func (Checked) serviceCheck()        {}
func (NoScalerConfig) serviceCheck() {}
func (Unchecked) serviceCheck()      {}

// CheckService runs the orchestrator's agent image check of an upgrade from
// the service's env file, as `kici-admin orchestrator upgrade` does before
// it restarts the service: it locates the scaler config
// ([scalerconfig.Locate]), loads it ([scalerconfig.Location.Load]) and
// checks it ([CheckAgentImages], the findings naming the config as the env
// file does). Like the orchestrator, it has nothing to report when the env
// file or the config cannot be read or loaded: it then returns [Unchecked]
// with the reason, which the orchestrator does not print but a caller may
// log.
func CheckService(in ServiceInput) ServiceCheck {
	volume, envPath, _, err := scalerconfig.Location{Path: in.EnvFile, Windows: in.Windows}.FS()
	if err != nil {
		return Unchecked{Err: err}
	}
	env, err := fs.ReadFile(in.FS, envPath)
	if err != nil {
		return Unchecked{Err: err}
	}
	locate := scalerconfig.Locate
	if in.Windows {
		locate = scalerconfig.LocateWindows
	}
	loc, ok := locate(env, in.WorkingDir)
	if !ok {
		return NoScalerConfig{}
	}
	if v, _, _, err := loc.FS(); err == nil && !strings.EqualFold(v, volume) {
		// FS is the env file's volume: the config's is another file system.
		return Unchecked{Location: loc, Err: &scalerconfig.LocationError{Path: loc.Path, Err: scalerconfig.ErrNotFSPath}}
	}
	cfg, err := loc.Load(in.FS)
	if err != nil {
		return Unchecked{Location: loc, Err: err}
	}
	findings := CheckAgentImages(CheckInput{
		Config:           *cfg,
		TargetVersion:    in.TargetVersion,
		ScalerConfigPath: loc.Path,
		ScalerConfigDir:  loc.Dir,
	})
	return Checked{Location: loc, Config: cfg, Findings: findings}
}
