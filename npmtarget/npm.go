package npmtarget

import "strings"

// PrefixViaEnv reports whether the global prefix travels in the environment
// (npm_config_prefix, set by [Target.Env]) rather than as a --prefix argument
// ([Target.Args]): true on the npm.cmd fallback, an Invocation with no
// PreArgs whose Cmd is a batch file. cmd.exe cannot be handed the "\", ":"
// and "=" of a "--prefix=C:\…" argument ([WindowsShellCommand] refuses them).
//
// The orchestrator tests Cmd against /\.cmd$/i, and so does PrefixViaEnv for
// a posix target. For a Windows target it also counts ".bat", and first drops
// the trailing dots and spaces Windows drops from a file name, so "npm.cmd.",
// "npm.cmd " and "npm.BAT" are batch files too: each is run through cmd.exe
// ([Target.Command]), which must not receive the prefix as an argument.
func (t Target) PrefixViaEnv() bool {
	return len(t.Invocation.PreArgs) == 0 && isBatch(t.Invocation.Cmd, t.Windows)
}

// isBatch reports whether cmd names a batch file: on Windows, a name ending
// in ".cmd" or ".bat" in any case once Windows has dropped its trailing dots
// and spaces (the check Rust adopted for CVE-2024-43402); on posix, the
// orchestrator's /\.cmd$/i.
func isBatch(cmd string, windows bool) bool {
	if !windows {
		return hasSuffixFold(cmd, ".cmd")
	}
	cmd = strings.TrimRight(cmd, ". ")
	return hasSuffixFold(cmd, ".cmd") || hasSuffixFold(cmd, ".bat")
}

// hasSuffixFold reports whether s ends in the ASCII suffix, ignoring ASCII
// case.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// Args returns the arguments for one npm call, after t.Invocation.Cmd: the
// Invocation's PreArgs (npm-cli.js when the service's node runs it), then
// npmArgs, then "--prefix=<GlobalPrefix>" unless [Target.PrefixViaEnv]. npm
// ranks a command-line --prefix above the environment, so the install lands
// in the service's prefix whatever npm_config_prefix the caller carries.
// Args returns a new slice; it never shares PreArgs or npmArgs.
func (t Target) Args(npmArgs ...string) []string {
	args := make([]string, 0, len(t.Invocation.PreArgs)+len(npmArgs)+1)
	args = append(args, t.Invocation.PreArgs...)
	args = append(args, npmArgs...)
	if !t.PrefixViaEnv() {
		args = append(args, "--prefix="+t.GlobalPrefix)
	}
	return args
}

// Env returns the environment npm runs in, given the caller's environment
// as [os.Environ] gives it ("NAME=value" entries). It is environ with:
//
//   - PATH starting with the service's node folder (dirname of
//     NodeExecPath), then the target's list separator (";" on Windows, ":"
//     on posix), then the caller's PATH, so that a launcher fallback (an
//     "env node" shebang, npm.cmd) finds the service's node. The new entry
//     takes the place, and the spelling, of the caller's PATH; of several,
//     the last, which os/exec also keeps. When the caller has no PATH, or an
//     empty one, PATH is the node folder alone: the orchestrator writes
//     "<folder><separator>" there, whose empty element a posix shell reads
//     as the working directory.
//   - On the npm.cmd fallback ([Target.PrefixViaEnv]), every
//     npm_config_prefix and npm_config_global_prefix entry, in any case,
//     removed, and npm_config_prefix=<GlobalPrefix> appended.
//
// Every other entry stays as it is and where it is, so an operator's
// npm_config_registry or proxy still applies. Names compare as the target
// platform compares them: on Windows without regard to case (an environment
// holding "Path" gets that entry replaced, never a second "PATH" beside it),
// on posix exactly. A name is the text before the first "=" after the first
// byte (Windows keeps per-drive entries such as "=C:=C:\work"); an entry
// without one is kept as it is. Env returns a new slice and never changes
// environ.
func (t Target) Env(environ []string) []string {
	const pathName = "PATH"
	sameName := func(a, b string) bool { return a == b }
	if t.Windows {
		sameName = strings.EqualFold
	}
	lastPath := -1
	for i, kv := range environ {
		if name, _, ok := cutEnv(kv); ok && sameName(name, pathName) {
			lastPath = i
		}
	}
	name, value := pathName, ""
	if lastPath >= 0 {
		name, value, _ = cutEnv(environ[lastPath])
	}
	pathEntry := name + "=" + dirname(t.Windows, t.NodeExecPath)
	if value != "" {
		pathEntry += listSeparator(t.Windows) + value
	}
	viaEnv := t.PrefixViaEnv()
	env := make([]string, 0, len(environ)+2)
	for i, kv := range environ {
		name, _, ok := cutEnv(kv)
		switch {
		case !ok:
		case sameName(name, pathName):
			if i == lastPath {
				env = append(env, pathEntry)
			}
			continue
		case viaEnv && (strings.EqualFold(name, "npm_config_prefix") || strings.EqualFold(name, "npm_config_global_prefix")):
			continue
		}
		env = append(env, kv)
	}
	if lastPath < 0 {
		env = append(env, pathEntry)
	}
	if viaEnv {
		env = append(env, "npm_config_prefix="+t.GlobalPrefix)
	}
	return env
}

// cutEnv splits an environment entry at the first "=" after its first byte.
func cutEnv(kv string) (name, value string, ok bool) {
	if kv == "" {
		return "", "", false
	}
	i := strings.IndexByte(kv[1:], '=')
	if i < 0 {
		return "", "", false
	}
	return kv[:i+1], kv[i+2:], true
}
