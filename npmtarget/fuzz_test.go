package npmtarget

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// segmentsOf splits like JavaScript's split(/[/\\]/), written independently
// of the package's own splitSegments.
func segmentsOf(s string) []string {
	return strings.Split(strings.ReplaceAll(s, `\`, "/"), "/")
}

// entryPattern is the orchestrator's entry pattern with the component
// escaped, as an independent oracle for Resolve's literal match. ok is false
// when Go's regexp cannot stand in for a byte-wise literal match: an invalid
// UTF-8 component, or one holding U+FFFD, which regexp also reads an invalid
// byte of the input as.
func entryPattern(component string) (*regexp.Regexp, bool) {
	if !utf8.ValidString(component) || strings.ContainsRune(component, utf8.RuneError) {
		return nil, false
	}
	return regexp.MustCompile(`[/\\]@kici-dev[/\\]` + regexp.QuoteMeta(component) + `[/\\]dist[/\\](?:server|standalone)\.js$`), true
}

func FuzzResolve(f *testing.F) {
	f.Add("/usr/bin/node", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", "", "orchestrator", false, true)
	f.Add("/usr/bin/node", "/srv/app/node_modules/@kici-dev/orchestrator/dist/server.js", "", "orchestrator", false, false)
	f.Add("/usr/bin/node", "/opt/kici/@kici-dev/orchestrator/dist/server.js", "x", "orchestrator", false, false)
	f.Add(`C:\Program Files\nodejs\node.exe`, `C:\Users\k\AppData\Roaming\npm\node_modules\@kici-dev\orchestrator\dist\server.js`, "", "orchestrator", true, false)
	f.Add(`C:\Program Files\nodejs\node.exe`, `C:\Users\k\AppData\Roaming\npm\node_modules\@kici-dev\orchestrator\dist\server.js`, "", "orchestrator", true, true)
	f.Add(`\\srv\share\node.exe`, `\\srv\share\node_modules\@kici-dev\agent\dist\standalone.js`, "", "agent", true, false)
	f.Add("node", "lib/node_modules/@kici-dev/a.b/dist/server.js", "/x/lib/node_modules/@kici-dev/a.b/dist/server.js", "a.b", false, false)
	f.Add(`C:\%x%\node.exe`, `C:\a&b\node_modules\@kici-dev\o\dist\server.js`, "", "o", true, false)
	f.Add("/bin/node", "/lib/node_modules/@s/x/node_modules/@kici-dev/o/dist/server.js", "", "o", false, true)
	f.Fuzz(func(t *testing.T, execPath, arg1, arg2, component string, windows, exists bool) {
		spec := LaunchSpec{ExecPath: execPath, Args: []string{arg1, arg2}}
		var asked []string
		got := Resolve(spec, component, Options{Windows: windows, Exists: func(p string) bool { asked = append(asked, p); return exists }})

		entry, found := "", false
		if re, ok := entryPattern(component); ok {
			for _, c := range []string{execPath, arg1, arg2} {
				if re.MatchString(c) {
					entry, found = c, true
					break
				}
			}
		}
		switch r := got.(type) {
		case NoEntry:
			require.Empty(t, asked, "NoEntry after asking Exists")
			if found {
				_, ok := FirstGlobalPackage(entry)
				require.False(t, ok, "NoEntry, but %q is an entry with a package", entry)
			}
		case NotGlobal:
			require.Empty(t, asked, "NotGlobal after asking Exists")
			if _, ok := entryPattern(component); ok {
				require.Equal(t, entry, r.Entry, "NotGlobal's entry against the first match")
			}
			_, ok := FirstGlobalPackage(r.Entry)
			require.True(t, ok, "NotGlobal without a package: %q", r.Entry)
			_, ok = GlobalPrefix(r.Entry, windows)
			require.False(t, ok, "NotGlobal but %q has a global prefix", r.Entry)
		case Resolved:
			checkResolved(t, r.Target, spec, component, entry, found, windows, exists, asked)
		case Unsafe:
			checkUnsafe(t, r, spec, windows, exists, asked)
		default:
			require.FailNow(t, "Resolve returned another type", "%T", got)
		}
	})
}

// checkUnsafe checks that an Unsafe result names the field of the target
// that fails a refusal beyond the orchestrator, worked out independently.
func checkUnsafe(t *testing.T, r Unsafe, spec LaunchSpec, windows, exists bool, asked []string) {
	t.Helper()
	var fe *FieldError
	require.ErrorAs(t, r.Err, &fe, "Unsafe %#v", r)
	require.Equal(t, "Resolve", fe.Func, "Unsafe %#v", r)
	require.LessOrEqual(t, len(asked), 1, "Unsafe after asking Exists %q", asked)
	pkg, ok := FirstGlobalPackage(r.Entry)
	require.True(t, ok, "Unsafe without a package: %q", r.Entry)
	prefix, ok := GlobalPrefix(r.Entry, windows)
	require.True(t, ok, "Unsafe without a global prefix: %q", r.Entry)
	npm, cli := npmPaths(spec.ExecPath, windows)
	tg := Target{NodeExecPath: spec.ExecPath, NpmPath: npm, OwningPackage: pkg, GlobalPrefix: prefix, Invocation: Invocation{Cmd: npm}, Windows: windows}
	if exists {
		tg.Invocation = Invocation{Cmd: spec.ExecPath, PreArgs: []string{cli}}
	}
	field, value, reason := refusedBeyond(tg)
	require.Equal(t, &FieldError{Func: "Resolve", Field: field, Value: value, Reason: reason}, fe)
}

// endsInFile reports whether p names the file name (a relative path) in some
// folder: p is name, or ends in name after a separator or, on Windows, after
// a drive ("A:npm.cmd" is npm.cmd in the current folder of drive A, as
// path.win32.join("A:.", "npm.cmd") gives it).
func endsInFile(p, name string, windows bool) bool {
	dir, ok := strings.CutSuffix(p, name)
	switch {
	case !ok:
		return false
	case dir == "":
		return true
	case windows:
		return isWin32Sep(dir[len(dir)-1]) || len(dir) == 2 && isDriveLetter(dir[0]) && dir[1] == ':'
	}
	return dir[len(dir)-1] == '/'
}

func checkResolved(t *testing.T, tg Target, spec LaunchSpec, component, entry string, found, windows, exists bool, asked []string) {
	t.Helper()
	require.Len(t, asked, 1, "Resolved after asking Exists")
	if _, ok := entryPattern(component); ok {
		require.True(t, found, "Resolved %+v, but no argument matches the pattern", tg)
		pkg, _ := FirstGlobalPackage(entry)
		require.Equal(t, pkg, tg.OwningPackage, "the package of %q", entry)
		prefix, _ := GlobalPrefix(entry, windows)
		require.Equal(t, prefix, tg.GlobalPrefix, "the prefix of %q", entry)
	}
	require.Equal(t, spec.ExecPath, tg.NodeExecPath, "bad target %+v", tg)
	require.Equal(t, windows, tg.Windows, "bad target %+v", tg)
	require.NotEmpty(t, tg.OwningPackage, "bad target %+v", tg)
	require.NotEmpty(t, tg.GlobalPrefix, "bad target %+v", tg)
	_, _, reason := refusedBeyond(tg)
	require.Zero(t, reason, "Resolved %+v, which fails %v", tg, reason)
	npm, cli := "npm", "lib/node_modules/npm/bin/npm-cli.js"
	if windows {
		npm, cli = `npm.cmd`, `node_modules\npm\bin\npm-cli.js`
	}
	require.True(t, endsInFile(tg.NpmPath, npm, windows), "npm path %q", tg.NpmPath)
	require.True(t, endsInFile(asked[0], cli, windows), "probed %q", asked[0])
	wantInv := Invocation{Cmd: tg.NpmPath}
	if exists {
		wantInv = Invocation{Cmd: spec.ExecPath, PreArgs: []string{asked[0]}}
	}
	require.Equal(t, wantInv.Cmd, tg.Invocation.Cmd, "the invocation's program")
	require.True(t, slices.Equal(wantInv.PreArgs, tg.Invocation.PreArgs), "invocation %+v, want %+v", tg.Invocation, wantInv)

	// The prefix travels in the environment exactly on the npm.cmd fallback,
	// and then never as an argument.
	viaEnv := tg.PrefixViaEnv()
	require.Equal(t, windows && !exists, viaEnv, "PrefixViaEnv for windows=%v exists=%v", windows, exists)
	args := tg.Args("install", "-g", "p@1")
	hasPrefixArg := args[len(args)-1] == "--prefix="+tg.GlobalPrefix
	require.NotEqual(t, viaEnv, hasPrefixArg, "Args %q with PrefixViaEnv %v", args, viaEnv)
	env := tg.Env([]string{"PATH=/x", "npm_config_prefix=/y", "NPM_PREFIX_NPM_CLI_JS=/z"})
	require.Equal(t, viaEnv, slices.Contains(env, "npm_config_prefix="+tg.GlobalPrefix), "Env %q with PrefixViaEnv %v", env, viaEnv)
	require.NotEqual(t, viaEnv, slices.Contains(env, "npm_config_prefix=/y"), "Env %q with PrefixViaEnv %v", env, viaEnv)
	require.Equal(t, viaEnv, slices.Contains(env, "NoDefaultCurrentDirectoryInExePath=1"), "Env %q on the cmd.exe route %v", env, viaEnv)
	require.NotEqual(t, viaEnv, slices.Contains(env, "NPM_PREFIX_NPM_CLI_JS=/z"), "Env %q on the cmd.exe route %v", env, viaEnv)
	require.True(t, strings.HasPrefix(env[0], "PATH="+dirname(windows, spec.ExecPath)+listSeparator(windows)), "Env %q does not put the node folder first", env)

	// Command refuses with a typed error or describes a process whose
	// cmd.exe line, if any, is exactly the documented one.
	c, err := tg.Command("install", "-g", "p@1")
	var argErr *UnsafeArgError
	var cmdErr *UnsafeCommandError
	switch {
	case errors.As(err, &cmdErr):
		require.Equal(t, tg.Invocation.Cmd, cmdErr.Cmd, "the program the error names")
	case errors.As(err, &argErr):
		require.Contains(t, args, argErr.Arg, "the argument the error names")
	case err != nil:
		require.FailNow(t, "untyped error", "%v", err)
	case viaEnv:
		require.Equal(t, `cmd.exe /d /s /c ""`+tg.Invocation.Cmd+`" install -g p@1"`, c.CmdLine, "cmd.exe command %+v", c)
		require.Equal(t, CmdExe, c.Path, "cmd.exe command %+v", c)
	default:
		require.Equal(t, "", c.CmdLine, "command %+v", c)
		require.Equal(t, tg.Invocation.Cmd, c.Path, "command %+v", c)
		require.Equal(t, args, c.Args[1:], "command %+v", c)
	}
}

func FuzzGlobalPrefix(f *testing.F) {
	for _, s := range []string{
		"/usr/lib/node_modules/x", "/lib/node_modules/x", "lib/node_modules/x", "/srv/node_modules/x", `\node_modules\x`,
		`C:\node_modules\x`, `\\srv\share\node_modules\x`, "/usr//lib/node_modules/x", "node_modules", "", "/a/node_modules/b/lib/node_modules/c",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, entry string, windows bool) {
		prefix, ok := GlobalPrefix(entry, windows)
		segs := segmentsOf(entry)
		i := slices.Index(segs, "node_modules")
		if !ok {
			require.Equal(t, "", prefix, "a refusal's prefix")
			emptyWin := windows && i >= 1 && strings.Join(segs[:i], "") == "" && i == 1
			badPosix := !windows && (i < 2 || segs[i-1] != "lib")
			require.False(t, i >= 1 && !emptyWin && !badPosix, "no prefix for %q (windows=%v)", entry, windows)
			return
		}
		sep := "/"
		if windows {
			sep = `\`
		}
		// The prefix is a leading part of the entry, separators read alike,
		// and what follows it is the layout of a global install.
		norm := strings.NewReplacer("/", sep, `\`, sep).Replace(entry)
		require.True(t, strings.HasPrefix(norm, prefix), "prefix %q does not lead %q", prefix, entry)
		// A separator follows, except where the prefix is a root that ends
		// in one: the posix "/" written for an empty prefix
		// ("/lib/node_modules"), a Windows drive's "C:\\".
		rest, cut := strings.CutPrefix(norm[len(prefix):], sep)
		root := strings.HasSuffix(prefix, sep) && (prefix == "/" && !windows || windows && len(prefix) == 3 && hasDrive(prefix))
		if !cut && root {
			rest, cut = norm[len(prefix):], true
		}
		require.True(t, cut, "prefix %q of %q ends inside a segment", prefix, entry)
		require.False(t, windows && hasDrive(prefix) && len(prefix) == 2, "prefix %q of %q is a drive's current folder", prefix, entry)
		layout := "node_modules"
		if !windows {
			layout = "lib" + sep + "node_modules"
		}
		require.True(t, rest == layout || strings.HasPrefix(rest, layout+sep), "after prefix %q of %q comes %q", prefix, entry, rest)
		require.NotContains(t, segmentsOf(prefix), "node_modules", "prefix %q holds node_modules: not the first one", prefix)
		require.NotContains(t, prefix, map[bool]string{true: "/", false: `\`}[windows], "prefix %q holds the other separator", prefix)
		// Separator-blind, and the prefix gives itself back.
		for _, again := range []string{strings.ReplaceAll(entry, `\`, "/"), strings.ReplaceAll(entry, "/", `\`), prefix + sep + layout + sep + "p"} {
			p, ok := GlobalPrefix(again, windows)
			require.True(t, ok, "GlobalPrefix(%q)", again)
			require.Equal(t, prefix, p, "GlobalPrefix(%q)", again)
		}
	})
}

func FuzzFirstGlobalPackage(f *testing.F) {
	for _, s := range []string{
		"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", `C:\npm\node_modules\kici\x`, "node_modules/@s", "node_modules/@s/",
		"/a/node_modules/b/node_modules/@c/d", "node_modules//x", "", "node_modules/@/x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, entry string) {
		pkg, ok := FirstGlobalPackage(entry)
		segs := segmentsOf(entry)
		i := slices.Index(segs, "node_modules")
		at := func(k int) string {
			if i+k < len(segs) {
				return segs[i+k]
			}
			return ""
		}
		if !ok {
			require.Equal(t, "", pkg, "a refusal's package")
			require.False(t, i >= 0 && at(1) != "" && (!strings.HasPrefix(at(1), "@") || at(2) != ""), "no package in %q", entry)
			return
		}
		want := at(1)
		if strings.HasPrefix(want, "@") {
			want += "/" + at(2)
		}
		require.GreaterOrEqual(t, i, 0, "a package %q of %q without node_modules", pkg, entry)
		require.Equal(t, want, pkg, "the package of %q", entry)
		name, scoped := strings.CutPrefix(pkg, "@")
		parts := strings.Split(name, "/")
		malformed := strings.Contains(pkg, `\`) || (scoped && (len(parts) != 2 || parts[1] == "")) || (!scoped && len(parts) != 1) || pkg == ""
		require.False(t, malformed, "malformed package %q", pkg)
		// The package gives itself back from any global layout.
		for _, again := range []string{"/usr/lib/node_modules/" + pkg + "/dist/x.js", `C:\npm\node_modules\` + pkg} {
			p, ok := FirstGlobalPackage(again)
			require.True(t, ok, "FirstGlobalPackage(%q)", again)
			require.Equal(t, pkg, p, "FirstGlobalPackage(%q)", again)
		}
	})
}

func FuzzWindowsShellCommand(f *testing.F) {
	f.Add(`C:\Program Files\nodejs\npm.cmd`, "install", "@kici-dev/orchestrator@0.20.0")
	for _, bad := range batBadBut {
		f.Add(`C:\n\npm.cmd`, "install", bad)
		f.Add(`C:\n\`+bad+`\npm.cmd`, "install", "-g")
	}
	f.Fuzz(func(t *testing.T, cmd, a, b string) {
		line, err := WindowsShellCommand(cmd, []string{a, b})
		badCmd := !utf8.ValidString(cmd) || strings.ContainsAny(cmd, `"%!`) || strings.IndexFunc(cmd, func(r rune) bool { return r < 0x20 }) >= 0
		badArg := func(s string) bool {
			return s == "" || strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@/._+-") != ""
		}
		var cmdErr *UnsafeCommandError
		var argErr *UnsafeArgError
		switch {
		case err == nil:
			require.False(t, badCmd || badArg(a) || badArg(b), "accepted %q %q %q", cmd, a, b)
			require.Equal(t, `"`+cmd+`" `+a+" "+b, line)
			rest := line[len(cmd)+2:]
			// Outside the quoted command, only allow-listed bytes and spaces.
			for i := 0; i < len(rest); i++ {
				c := rest[i]
				require.True(t, c == ' ' || strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@/._+-", rune(c)), "byte %q outside the allow-list in %q", c, line)
			}
			// The same line is what Command hands cmd.exe for a batch file.
			target := Target{Windows: true, NodeExecPath: `C:\n\node.exe`, GlobalPrefix: `C:\p`, Invocation: Invocation{Cmd: `C:\n\npm.cmd`}}
			if cmdOK := !badCmd && isAbsolute(cmd, true) && isBatch(cmd, true) && !misreadByNpmCmd(dirname(true, cmd)); cmdOK {
				target.Invocation.Cmd = cmd
			}
			c, err := target.Command(a, b)
			require.NoError(t, err, "Command(%q, %q)", a, b)
			require.Equal(t, `cmd.exe /d /s /c ""`+target.Invocation.Cmd+`" `+a+" "+b+`"`, c.CmdLine, "Command(%q, %q)", a, b)
		case errors.As(err, &cmdErr):
			require.True(t, badCmd, "cmd refusal %v for %q", err, cmd)
			require.Equal(t, &UnsafeCommandError{Func: "WindowsShellCommand", Cmd: cmd, Reason: ErrCmdSyntax}, cmdErr)
			require.Equal(t, "", line, "the line with a cmd refusal")
		case errors.As(err, &argErr):
			first := b
			if badArg(a) {
				first = a
			}
			require.False(t, badCmd, "arg refusal %v for the bad program %q", err, cmd)
			require.True(t, badArg(first), "arg refusal %v for %q %q", err, a, b)
			require.Equal(t, first, argErr.Arg, "the argument the refusal names")
			require.Equal(t, "", line, "the line with an arg refusal")
			require.NotContains(t, err.Error(), "\n", "multi-line error")
			require.NotContains(t, err.Error(), "\r", "multi-line error")
		default:
			require.FailNow(t, "untyped error", "%v", err)
		}
	})
}

// FuzzEnv checks Env's environment: one PATH entry, the node folder first,
// the prefix variables replaced only on the fallback, the cmd.exe route's
// variables only there, every other entry kept in order.
func FuzzEnv(f *testing.F) {
	f.Add("/usr/bin/node", "HOME=/h\x00PATH=/bin\x00npm_config_prefix=/x", false, false)
	f.Add(`C:\n\node.exe`, "Path=C:\\w\x00PATH=C:\\v\x00NPM_CONFIG_GLOBAL_PREFIX=C:\\y\x00=C:=C:\\\x00junk", true, true)
	f.Add(`C:\n\node.exe`, "npm_prefix_npm_cli_js=C:\\evil\x00nodefaultcurrentdirectoryinexepath=\x00A=1", true, true)
	f.Fuzz(func(t *testing.T, node, blob string, windows, fallback bool) {
		environ := strings.Split(blob, "\x00")
		tg := Target{NodeExecPath: node, GlobalPrefix: "/p", Windows: windows, Invocation: Invocation{Cmd: `C:\n\npm.exe`}}
		if fallback {
			tg.Invocation.Cmd = `C:\n\npm.cmd`
		}
		viaEnv, viaCmd := tg.PrefixViaEnv(), windows && fallback
		got := tg.Env(environ)
		nameOf := func(kv string) (string, bool) {
			if strings.HasPrefix(kv, "=") {
				n, _, ok := strings.Cut(kv[1:], "=")
				return "=" + n, ok
			}
			name, _, ok := strings.Cut(kv, "=")
			return name, ok
		}
		isPath := func(kv string) bool {
			name, ok := nameOf(kv)
			return ok && (name == "PATH" || windows && strings.EqualFold(name, "PATH"))
		}
		dropped := func(kv string) bool {
			name, ok := nameOf(kv)
			prefixVar := strings.EqualFold(name, "npm_config_prefix") || strings.EqualFold(name, "npm_config_global_prefix")
			cmdVar := strings.EqualFold(name, "NPM_PREFIX_NPM_CLI_JS") || strings.EqualFold(name, "NoDefaultCurrentDirectoryInExePath")
			return ok && (viaEnv && prefixVar || viaCmd && cmdVar)
		}
		var added []string
		if viaEnv {
			added = append(added, "npm_config_prefix=/p")
		}
		if viaCmd {
			added = append(added, "NoDefaultCurrentDirectoryInExePath=1")
		}
		var paths, others, wantOthers []string
		for _, kv := range got[:len(got)-len(added)] {
			if isPath(kv) {
				paths = append(paths, kv)
			} else {
				others = append(others, kv)
			}
		}
		for _, kv := range environ {
			if !isPath(kv) && !dropped(kv) {
				wantOthers = append(wantOthers, kv)
			}
		}
		require.Len(t, paths, 1, "the PATH entries in %q", got)
		_, value, _ := strings.Cut(paths[0][1:], "=")
		dir := dirname(windows, node)
		require.True(t, value == dir || strings.HasPrefix(value, dir+listSeparator(windows)), "PATH %q does not start with %q", paths[0], dir)
		require.True(t, slices.Equal(others, wantOthers), "other entries %q, want %q", others, wantOthers)
		require.True(t, slices.Equal(added, got[len(got)-len(added):]), "fallback %v, cmd.exe %v, environment %q", viaEnv, viaCmd, got)
	})
}

// FuzzTargetCommand checks that Command makes a command only for a target
// that passes every refusal beyond the orchestrator, worked out
// independently, and that such a command runs the target's program.
func FuzzTargetCommand(f *testing.F) {
	f.Add(`C:\Program Files\nodejs\node.exe`, `C:\Users\k\AppData\Roaming\npm`, `C:\Program Files\nodejs\npm.cmd`, true, false)
	f.Add(`C:\Program Files\nodejs\node.exe`, `C:\Windows" calc & REM "`, `C:\Program Files\nodejs\npm.cmd`, true, false)
	f.Add(`C:node.exe`, `C:\`, `C:\npm.cmd`, true, false)
	f.Add(`C:\a^b\node.exe`, `C:\p`, `C:\a^b\node.exe`, true, true)
	f.Add("/opt/x:/node", "/usr", "/opt/x:/node", false, true)
	f.Add("/usr/bin/node", "/usr", "/usr/bin/npm", false, false)
	f.Fuzz(func(t *testing.T, node, prefix, cmd string, windows, cli bool) {
		tg := Target{NodeExecPath: node, OwningPackage: "@kici-dev/orchestrator", GlobalPrefix: prefix, Invocation: Invocation{Cmd: cmd}, Windows: windows}
		if cli {
			tg.Invocation.PreArgs = []string{"/npm-cli.js"}
		}
		c, err := tg.Command("install", "-g", "@kici-dev/orchestrator@0.20.0")
		if err != nil {
			require.Equal(t, Command{}, c, "a refusal with a command")
			return
		}
		field, value, reason := refusedBeyond(tg)
		require.Zero(t, reason, "made %+v of a target whose %s %q fails %v", c, field, value, reason)
		if c.CmdLine == "" {
			require.Equal(t, cmd, c.Path, "command %+v", c)
		} else {
			require.True(t, strings.HasPrefix(c.CmdLine, `cmd.exe /d /s /c ""`+cmd+`" `), "command %+v for program %q", c, cmd)
		}
	})
}
