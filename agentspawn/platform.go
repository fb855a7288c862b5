package agentspawn

import (
	"github.com/kicikit/kicikit/internal/jsstr"
	"github.com/kicikit/kicikit/scalerconfig"
)

// PlatformTaints returns the plain platform tokens that taint a scaler's
// agents: windows, macos, arm64. The scaler manager's platformTaintsFor
// derives them from the scaler's declared platform. A bare-metal scaler
// that declares none takes host, the orchestrator's own OS and
// architecture. This is manager.ts's resolveScalerPlatform, at 0b46a9a and
// 84ac3cd. A container or firecracker scaler without a declared platform
// has none, and so has a nil scaler. The result is what
// [Request].PlatformTaints takes, and part of the gate [Route] applies.
//
// host is in the config's words (linux, macos, windows; x64, arm64). Node's
// darwin and win32 are read as macos and windows.
func PlatformTaints(s *scalerconfig.Scaler, host scalerconfig.Platform) []string {
	if s == nil {
		return nil
	}
	p, ok := resolvedPlatform(s, host)
	if !ok {
		return nil
	}
	return p.Taints(nil)
}

// resolvedPlatform is the scaler's platform as the manager resolves it:
// the declared one, else a bare-metal scaler's host when the host is one
// the config's platform can name.
func resolvedPlatform(s *scalerconfig.Scaler, host scalerconfig.Platform) (scalerconfig.Platform, bool) {
	if s.Platform != nil {
		return *s.Platform, true
	}
	if s.Type != scalerconfig.TypeBareMetal {
		return scalerconfig.Platform{}, false
	}
	os, arch := configOS(host.OS), host.Arch
	if os == "" || (arch != "x64" && arch != "arm64") {
		return scalerconfig.Platform{}, false
	}
	return scalerconfig.Platform{OS: os, Arch: arch}, true
}

// configOS is a host OS in the config's words: linux, macos or windows, or
// "" for another.
func configOS(os string) string {
	switch os {
	case "linux":
		return "linux"
	case "macos", "darwin":
		return "macos"
	case "windows", "win32":
		return "windows"
	}
	return ""
}

// osLabels appends the kici:os: labels of an OS in Node's or the config's
// words, as deriveOsArchLabels makes them; "" adds none.
func osLabels(os string, dst []string) []string {
	switch os {
	case "":
	case "linux":
		dst = append(dst, "kici:os:linux")
	case "macos", "darwin":
		dst = append(dst, "kici:os:macos", "kici:os:darwin")
	case "windows", "win32":
		dst = append(dst, "kici:os:windows", "kici:os:win32")
	default:
		dst = append(dst, "kici:os:"+os)
	}
	return dst
}

// archLabels appends the kici:arch: labels of an architecture, as
// deriveOsArchLabels makes them; "" adds none.
func archLabels(arch string, dst []string) []string {
	switch arch {
	case "":
	case "x64":
		dst = append(dst, "kici:arch:x64", "kici:arch:amd64")
	case "arm64":
		dst = append(dst, "kici:arch:arm64")
	default:
		dst = append(dst, "kici:arch:"+arch)
	}
	return dst
}

// hasPlatformLabel reports whether any of labels, lower-cased, names a
// platform: a taint of its label set by the rules before 0.16.0.
func hasPlatformLabel(labels []string) bool {
	for _, l := range labels {
		if scalerconfig.IsPlatformLabel(jsstr.ToLower(l)) {
			return true
		}
	}
	return false
}
