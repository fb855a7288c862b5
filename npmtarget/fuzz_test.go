package npmtarget

import (
	"errors"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
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
			if len(asked) != 0 {
				t.Fatalf("NoEntry after asking Exists %q", asked)
			}
			if found {
				if _, ok := FirstGlobalPackage(entry); ok {
					t.Fatalf("NoEntry, but %q is an entry with a package", entry)
				}
			}
		case NotGlobal:
			if len(asked) != 0 {
				t.Fatalf("NotGlobal after asking Exists %q", asked)
			}
			if _, ok := entryPattern(component); ok && r.Entry != entry {
				t.Fatalf("NotGlobal entry %q, the first match is %q", r.Entry, entry)
			}
			if _, ok := FirstGlobalPackage(r.Entry); !ok {
				t.Fatalf("NotGlobal without a package: %q", r.Entry)
			}
			if _, ok := GlobalPrefix(r.Entry, windows); ok {
				t.Fatalf("NotGlobal but %q has a global prefix", r.Entry)
			}
		case Resolved:
			checkResolved(t, r.Target, spec, component, entry, found, windows, exists, asked)
		case Unsafe:
			checkUnsafe(t, r, spec, windows, exists, asked)
		default:
			t.Fatalf("Resolve returned %T", got)
		}
	})
}

// checkUnsafe checks that an Unsafe result names the field of the target
// that fails a refusal beyond the orchestrator, worked out independently.
func checkUnsafe(t *testing.T, r Unsafe, spec LaunchSpec, windows, exists bool, asked []string) {
	t.Helper()
	var fe *FieldError
	if !errors.As(r.Err, &fe) || fe.Func != "Resolve" || len(asked) > 1 {
		t.Fatalf("Unsafe %#v after asking Exists %q", r, asked)
	}
	pkg, ok := FirstGlobalPackage(r.Entry)
	if !ok {
		t.Fatalf("Unsafe without a package: %q", r.Entry)
	}
	prefix, ok := GlobalPrefix(r.Entry, windows)
	if !ok {
		t.Fatalf("Unsafe without a global prefix: %q", r.Entry)
	}
	npm, cli := npmPaths(spec.ExecPath, windows)
	tg := Target{NodeExecPath: spec.ExecPath, NpmPath: npm, OwningPackage: pkg, GlobalPrefix: prefix, Invocation: Invocation{Cmd: npm}, Windows: windows}
	if exists {
		tg.Invocation = Invocation{Cmd: spec.ExecPath, PreArgs: []string{cli}}
	}
	if field, value, reason := refusedBeyond(tg); fe.Reason != reason || fe.Value != value || fe.Field != field {
		t.Fatalf("refused %#v, want %v of %s %q", fe, reason, field, value)
	}
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
	if len(asked) != 1 {
		t.Fatalf("Resolved after asking Exists %d times: %q", len(asked), asked)
	}
	if _, ok := entryPattern(component); ok {
		if !found {
			t.Fatalf("Resolved %+v, but no argument matches the pattern", tg)
		}
		if pkg, _ := FirstGlobalPackage(entry); pkg != tg.OwningPackage {
			t.Fatalf("package %q, want %q of %q", tg.OwningPackage, pkg, entry)
		}
		if prefix, _ := GlobalPrefix(entry, windows); prefix != tg.GlobalPrefix {
			t.Fatalf("prefix %q, want %q of %q", tg.GlobalPrefix, prefix, entry)
		}
	}
	if tg.NodeExecPath != spec.ExecPath || tg.Windows != windows || tg.OwningPackage == "" || tg.GlobalPrefix == "" {
		t.Fatalf("bad target %+v", tg)
	}
	if _, _, reason := refusedBeyond(tg); reason != 0 {
		t.Fatalf("Resolved %+v, which fails %v", tg, reason)
	}
	npm, cli := "npm", "lib/node_modules/npm/bin/npm-cli.js"
	if windows {
		npm, cli = `npm.cmd`, `node_modules\npm\bin\npm-cli.js`
	}
	if !endsInFile(tg.NpmPath, npm, windows) {
		t.Fatalf("npm path %q", tg.NpmPath)
	}
	if !endsInFile(asked[0], cli, windows) {
		t.Fatalf("probed %q", asked[0])
	}
	wantInv := Invocation{Cmd: tg.NpmPath}
	if exists {
		wantInv = Invocation{Cmd: spec.ExecPath, PreArgs: []string{asked[0]}}
	}
	if !slices.Equal(wantInv.PreArgs, tg.Invocation.PreArgs) || wantInv.Cmd != tg.Invocation.Cmd {
		t.Fatalf("invocation %+v, want %+v", tg.Invocation, wantInv)
	}

	// The prefix travels in the environment exactly on the npm.cmd fallback,
	// and then never as an argument.
	viaEnv := tg.PrefixViaEnv()
	if viaEnv != (windows && !exists) {
		t.Fatalf("PrefixViaEnv %v for windows=%v exists=%v", viaEnv, windows, exists)
	}
	args := tg.Args("install", "-g", "p@1")
	hasPrefixArg := args[len(args)-1] == "--prefix="+tg.GlobalPrefix
	if hasPrefixArg == viaEnv {
		t.Fatalf("Args %q with PrefixViaEnv %v", args, viaEnv)
	}
	env := tg.Env([]string{"PATH=/x", "npm_config_prefix=/y", "NPM_PREFIX_NPM_CLI_JS=/z"})
	if slices.Contains(env, "npm_config_prefix="+tg.GlobalPrefix) != viaEnv || slices.Contains(env, "npm_config_prefix=/y") == viaEnv {
		t.Fatalf("Env %q with PrefixViaEnv %v", env, viaEnv)
	}
	if slices.Contains(env, "NoDefaultCurrentDirectoryInExePath=1") != viaEnv || slices.Contains(env, "NPM_PREFIX_NPM_CLI_JS=/z") == viaEnv {
		t.Fatalf("Env %q on the cmd.exe route %v", env, viaEnv)
	}
	if !strings.HasPrefix(env[0], "PATH="+dirname(windows, spec.ExecPath)+listSeparator(windows)) {
		t.Fatalf("Env %q does not put the node folder first", env)
	}

	// Command refuses with a typed error or describes a process whose
	// cmd.exe line, if any, is exactly the documented one.
	c, err := tg.Command("install", "-g", "p@1")
	var argErr *UnsafeArgError
	var cmdErr *UnsafeCommandError
	switch {
	case errors.As(err, &cmdErr):
		if cmdErr.Cmd != tg.Invocation.Cmd {
			t.Fatalf("the error names %q, not the program %q", cmdErr.Cmd, tg.Invocation.Cmd)
		}
	case errors.As(err, &argErr):
		if !slices.Contains(args, argErr.Arg) {
			t.Fatalf("the error names %q, not one of %q", argErr.Arg, args)
		}
	case err != nil:
		t.Fatalf("untyped error %v", err)
	case viaEnv:
		if c.CmdLine != `cmd.exe /d /s /c ""`+tg.Invocation.Cmd+`" install -g p@1"` || c.Path != CmdExe {
			t.Fatalf("cmd.exe command %+v", c)
		}
	default:
		if c.CmdLine != "" || c.Path != tg.Invocation.Cmd || !slices.Equal(c.Args[1:], args) {
			t.Fatalf("command %+v for args %q", c, args)
		}
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
			if prefix != "" {
				t.Fatalf("refusal with prefix %q", prefix)
			}
			emptyWin := windows && i >= 1 && strings.Join(segs[:i], "") == "" && i == 1
			badPosix := !windows && (i < 2 || segs[i-1] != "lib")
			if i >= 1 && !emptyWin && !badPosix {
				t.Fatalf("no prefix for %q (windows=%v)", entry, windows)
			}
			return
		}
		sep := "/"
		if windows {
			sep = `\`
		}
		// The prefix is a leading part of the entry, separators read alike,
		// and what follows it is the layout of a global install.
		norm := strings.NewReplacer("/", sep, `\`, sep).Replace(entry)
		if !strings.HasPrefix(norm, prefix) {
			t.Fatalf("prefix %q does not lead %q", prefix, entry)
		}
		// A separator follows, except where the prefix is a root that ends
		// in one: the posix "/" written for an empty prefix
		// ("/lib/node_modules"), a Windows drive's "C:\\".
		rest, cut := strings.CutPrefix(norm[len(prefix):], sep)
		root := strings.HasSuffix(prefix, sep) && (prefix == "/" && !windows || windows && len(prefix) == 3 && hasDrive(prefix))
		if !cut && root {
			rest, cut = norm[len(prefix):], true
		}
		if !cut {
			t.Fatalf("prefix %q of %q ends inside a segment", prefix, entry)
		}
		if windows && hasDrive(prefix) && len(prefix) == 2 {
			t.Fatalf("prefix %q of %q is a drive's current folder", prefix, entry)
		}
		layout := "node_modules"
		if !windows {
			layout = "lib" + sep + "node_modules"
		}
		if rest != layout && !strings.HasPrefix(rest, layout+sep) {
			t.Fatalf("after prefix %q of %q comes %q", prefix, entry, rest)
		}
		if slices.Contains(segmentsOf(prefix), "node_modules") {
			t.Fatalf("prefix %q holds node_modules: not the first one", prefix)
		}
		if strings.Contains(prefix, map[bool]string{true: "/", false: `\`}[windows]) {
			t.Fatalf("prefix %q holds the other separator", prefix)
		}
		// Separator-blind, and the prefix gives itself back.
		for _, again := range []string{strings.ReplaceAll(entry, `\`, "/"), strings.ReplaceAll(entry, "/", `\`), prefix + sep + layout + sep + "p"} {
			if p, ok := GlobalPrefix(again, windows); !ok || p != prefix {
				t.Fatalf("GlobalPrefix(%q) = %q, %v; want %q", again, p, ok, prefix)
			}
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
			if pkg != "" {
				t.Fatalf("refusal with package %q", pkg)
			}
			if i >= 0 && at(1) != "" && (!strings.HasPrefix(at(1), "@") || at(2) != "") {
				t.Fatalf("no package in %q", entry)
			}
			return
		}
		want := at(1)
		if strings.HasPrefix(want, "@") {
			want += "/" + at(2)
		}
		if i < 0 || pkg != want {
			t.Fatalf("package %q of %q, want %q", pkg, entry, want)
		}
		name, scoped := strings.CutPrefix(pkg, "@")
		parts := strings.Split(name, "/")
		if strings.Contains(pkg, `\`) || (scoped && (len(parts) != 2 || parts[1] == "")) || (!scoped && len(parts) != 1) || pkg == "" {
			t.Fatalf("malformed package %q", pkg)
		}
		// The package gives itself back from any global layout.
		for _, again := range []string{"/usr/lib/node_modules/" + pkg + "/dist/x.js", `C:\npm\node_modules\` + pkg} {
			if p, ok := FirstGlobalPackage(again); !ok || p != pkg {
				t.Fatalf("FirstGlobalPackage(%q) = %q, %v", again, p, ok)
			}
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
			if badCmd || badArg(a) || badArg(b) {
				t.Fatalf("accepted %q %q %q", cmd, a, b)
			}
			quoted := `"` + cmd + `"`
			rest, ok := strings.CutPrefix(line, quoted)
			if !ok || rest != " "+a+" "+b {
				t.Fatalf("line %q", line)
			}
			// Outside the quoted command, only allow-listed bytes and spaces.
			for i := 0; i < len(rest); i++ {
				if c := rest[i]; c != ' ' && !strings.ContainsRune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@/._+-", rune(c)) {
					t.Fatalf("byte %q outside the allow-list in %q", c, line)
				}
			}
			// The same line is what Command hands cmd.exe for a batch file.
			target := Target{Windows: true, NodeExecPath: `C:\n\node.exe`, GlobalPrefix: `C:\p`, Invocation: Invocation{Cmd: `C:\n\npm.cmd`}}
			if cmdOK := !badCmd && isAbsolute(cmd, true) && isBatch(cmd, true) && !misreadByNpmCmd(dirname(true, cmd)); cmdOK {
				target.Invocation.Cmd = cmd
			}
			c, err := target.Command(a, b)
			if err != nil || c.CmdLine != `cmd.exe /d /s /c ""`+target.Invocation.Cmd+`" `+a+" "+b+`"` {
				t.Fatalf("Command(%q, %q) = %+v, %v", a, b, c, err)
			}
		case errors.As(err, &cmdErr):
			if !badCmd || cmdErr.Cmd != cmd || cmdErr.Reason != ErrCmdSyntax || line != "" {
				t.Fatalf("cmd refusal %v for %q", err, cmd)
			}
		case errors.As(err, &argErr):
			first := b
			if badArg(a) {
				first = a
			}
			if badCmd || !badArg(first) || argErr.Arg != first || line != "" {
				t.Fatalf("arg refusal %v for %q %q", err, a, b)
			}
			if strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "\r") {
				t.Fatalf("multi-line error %q", err)
			}
		default:
			t.Fatalf("untyped error %v", err)
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
		if len(paths) != 1 {
			t.Fatalf("PATH entries %q in %q", paths, got)
		}
		_, value, _ := strings.Cut(paths[0][1:], "=")
		dir := dirname(windows, node)
		if value != dir && !strings.HasPrefix(value, dir+listSeparator(windows)) {
			t.Fatalf("PATH %q does not start with %q", paths[0], dir)
		}
		if !slices.Equal(others, wantOthers) {
			t.Fatalf("other entries %q, want %q", others, wantOthers)
		}
		if !slices.Equal(added, got[len(got)-len(added):]) {
			t.Fatalf("fallback %v, cmd.exe %v, environment %q", viaEnv, viaCmd, got)
		}
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
			if !reflect.DeepEqual(c, Command{}) {
				t.Fatalf("a refusal with a command %+v", c)
			}
			return
		}
		if field, value, reason := refusedBeyond(tg); reason != 0 {
			t.Fatalf("made %+v of a target whose %s %q fails %v", c, field, value, reason)
		}
		if c.CmdLine == "" && c.Path != cmd || c.CmdLine != "" && !strings.HasPrefix(c.CmdLine, `cmd.exe /d /s /c ""`+cmd+`" `) {
			t.Fatalf("command %+v for program %q", c, cmd)
		}
	})
}
