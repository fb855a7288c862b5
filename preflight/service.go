package preflight

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/kicikit/kicikit/scalerconfig"
)

// ServiceInput is the orchestrator service whose scaler config
// [CheckService] checks, as its unit describes it.
type ServiceInput struct {
	// FS is the service's file system, rooted at the root of the env file's
	// volume: os.DirFS("/"), or os.DirFS(`C:\`) on Windows. The config it names
	// is read from it too. A config on another Windows volume is [Unreadable],
	// with scalerconfig.ErrNotFSPath. A relative EnvFile is relative to FS's
	// root.
	FS fs.FS
	// EnvFile is the service's env file, as the operating system names it:
	// /etc/kici/orchestrator.env.
	EnvFile string
	// WorkingDir is the unit's working directory, against which the
	// orchestrator resolves a relative config path.
	WorkingDir string
	// TargetVersion is the release the upgrade installs, as
	// [Input.TargetVersion] takes it. The config is read by its rules
	// (scalerconfig.RulesFor), the newest when it names no release.
	TargetVersion string
	// Windows reads the paths with Windows rules, as
	// scalerconfig.Options{Windows: true} does, and the config as an
	// orchestrator on Windows reads it (scalerconfig.ScanOptions.Host).
	Windows bool
}

// ServiceCheck is the outcome of [CheckService]: [Checked],
// [NoScalerConfig], [Invalid] or [Unreadable].
//
//sumtype:decl
type ServiceCheck interface{ serviceCheck() }

// Checked is a scaler config located, loaded and checked.
type Checked struct {
	Location scalerconfig.Location // where the env file puts the config
	Config   *scalerconfig.Config  // the config, as Location.Load returned it
	// Findings are Check's, in its order. They are never nil, and empty when
	// there is nothing to report.
	Findings []Finding
}

// NoScalerConfig reports that the env file names no scaler config: no
// KICI_SCALER_CONFIG_PATH, or an empty one. There is nothing to check.
type NoScalerConfig struct{}

// Invalid reports a config that the orchestrator refuses to load. The
// upgrade's check then warns about nothing, and the restarted orchestrator
// fails to start its scalers. Err lists every problem, each naming its file
// as Location does.
type Invalid struct {
	Location scalerconfig.Location // where the env file puts the config
	Err      *scalerconfig.Error   // every problem, never nil
}

// Unreadable reports an env file or a config that cannot be read. The
// orchestrator's upgrade then warns about nothing. Err is a reason to log.
type Unreadable struct {
	// Location is where the env file puts the config. It is the zero Location
	// when the env file itself could not be read.
	Location scalerconfig.Location
	// Err is why. It is one of these:
	//
	//   - the fs error of an unreadable file or folder, with its path as
	//     Location names it;
	//   - a *scalerconfig.FileError for a file that is not a regular file (a
	//     named pipe, a device, a directory, a socket: never opened for
	//     reading), a drop-in folder that is not a directory, or a file longer
	//     than node reads. The env file is read as kici-admin's readFileSync
	//     reads it. Each config file is read as the orchestrator's readFile
	//     does.
	//   - a *scalerconfig.FileError of scalerconfig.ErrNotFSPath for a path
	//     outside FS.
	Err error
}

func (Checked) serviceCheck()        {}
func (NoScalerConfig) serviceCheck() {}
func (Invalid) serviceCheck()        {}
func (Unreadable) serviceCheck()     {}

// CheckService runs the upgrade's check from the service's env file, as
// `kici-admin orchestrator upgrade` does before it restarts the service. It
// locates the config ([scalerconfig.Locate]), loads it
// ([scalerconfig.Location.Scan]) as the target release reads it, and
// checks it ([Check]). The findings name the config as the env file does.
// Their positions name each file by its path on the service's system.
//
// The release the upgrade installs reads the config: by 0.16.0's rules
// for a target of 0.16.0 or later, or none, so a config that only an
// older release loads (a flat resources block, a plain platform label) is
// [Invalid] for them. The orchestrator's own upgrade check is silent on it,
// and the upgraded service fails to start.
//
// When the env file or the config cannot be read or loaded, the
// orchestrator has nothing to report. CheckService says why: [Invalid] with
// every problem of a config the orchestrator refuses, or [Unreadable] with
// the error of a file it cannot read.
//
// Every file is read within bounds ([scalerconfig.Options.LocateFile]). A
// path that is not a regular file is refused before it is opened: a named
// pipe would wait for a writer, /dev/zero never ends. A file longer than the node call
// that reads it takes is refused, as node fails on it. That is an env file
// of 2^29 − 24 bytes or more (fs.readFileSync's limit). It is also a config
// file whose text passes 2^29 − 24 UTF-16 code units (the orchestrator's
// readFile). The upgrade itself catches those failures and says nothing.
func CheckService(in ServiceInput) ServiceCheck {
	volume, envPath, _, err := scalerconfig.Location{Path: in.EnvFile, Windows: in.Windows}.FS()
	if err != nil {
		return Unreadable{Err: err}
	}
	loc, ok, err := scalerconfig.Options{Windows: in.Windows}.LocateFile(in.FS, envPath, in.WorkingDir)
	switch {
	case err != nil:
		return Unreadable{Err: err}
	case !ok:
		return NoScalerConfig{}
	}
	if v, _, _, err := loc.FS(); err == nil && !strings.EqualFold(v, volume) {
		// FS is the env file's volume: the config's is another file system.
		return Unreadable{Location: loc, Err: &scalerconfig.FileError{Path: loc.Path, Reason: scalerconfig.ErrNotFSPath}}
	}
	opts := scalerconfig.ScanOptions{}
	opts.Rules, _ = scalerconfig.RulesFor(in.TargetVersion)
	if in.Windows {
		opts.Host.OS = "windows"
	}
	cfg, err := loc.Scan(in.FS, opts, nil)
	var invalid *scalerconfig.Error
	switch {
	case errors.As(err, &invalid):
		return Invalid{Location: loc, Err: invalid}
	case err != nil:
		return Unreadable{Location: loc, Err: err}
	}
	findings := Check(Input{Config: cfg, Location: loc, TargetVersion: in.TargetVersion})
	return Checked{Location: loc, Config: cfg, Findings: findings}
}
