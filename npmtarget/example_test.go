package npmtarget_test

import (
	"errors"
	"fmt"

	"github.com/kicikit/kicikit/npmtarget"
)

func ExampleResolve() {
	const node = "/home/kici/.nvm/versions/node/v20.11.1/bin/node"
	spec := npmtarget.LaunchSpec{
		ExecPath: node,
		Args:     []string{"/home/kici/.nvm/versions/node/v20.11.1/lib/node_modules/@kici-dev/orchestrator/dist/server.js"},
	}
	// The service's machine has npm-cli.js beside its node.
	exists := func(path string) bool {
		return path == "/home/kici/.nvm/versions/node/v20.11.1/lib/node_modules/npm/bin/npm-cli.js"
	}
	switch r := npmtarget.Resolve(spec, "orchestrator", npmtarget.Options{Exists: exists}).(type) {
	case npmtarget.Resolved:
		fmt.Println("package:", r.Target.OwningPackage)
		fmt.Println("prefix: ", r.Target.GlobalPrefix)
		cmd, err := r.Target.Command("install", "-g", r.Target.OwningPackage+"@0.20.0")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("command:", cmd)
		fmt.Println("env:    ", cmd.Env([]string{"PATH=/usr/bin:/bin"}))
	case npmtarget.NotGlobal:
		fmt.Println("not a global install:", r.Entry)
	case npmtarget.NoEntry:
		fmt.Println("no entry script")
	}
	// Output:
	// package: @kici-dev/orchestrator
	// prefix:  /home/kici/.nvm/versions/node/v20.11.1
	// command: /home/kici/.nvm/versions/node/v20.11.1/bin/node /home/kici/.nvm/versions/node/v20.11.1/lib/node_modules/npm/bin/npm-cli.js install -g @kici-dev/orchestrator@0.20.0 --prefix=/home/kici/.nvm/versions/node/v20.11.1
	// env:     [PATH=/home/kici/.nvm/versions/node/v20.11.1/bin:/usr/bin:/bin]
}

func ExampleResolve_windows() {
	spec := npmtarget.LaunchSpec{
		ExecPath: `C:\Program Files\nodejs\node.exe`,
		Args:     []string{`C:\Users\kici\AppData\Roaming\npm\node_modules\@kici-dev\orchestrator\dist\server.js`},
	}
	// npm-cli.js is missing, so npm runs through npm.cmd and cmd.exe.
	opts := npmtarget.Options{Windows: true, Exists: func(string) bool { return false }}
	switch r := npmtarget.Resolve(spec, "orchestrator", opts).(type) {
	case npmtarget.Resolved:
		fmt.Println("package:", r.Target.OwningPackage)
		fmt.Println("prefix: ", r.Target.GlobalPrefix)
		fmt.Println("npm:    ", r.Target.Invocation.Cmd)
		cmd, err := r.Target.Command("install", "-g", r.Target.OwningPackage+"@0.20.0")
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("program:", cmd.Path)
		fmt.Println("line:   ", cmd.CmdLine)
		for _, kv := range cmd.Env([]string{`Path=C:\Windows\system32`, `NPM_CONFIG_PREFIX=C:\elsewhere`}) {
			fmt.Println("env:    ", kv)
		}
	case npmtarget.NotGlobal:
		fmt.Println("not a global install:", r.Entry)
	case npmtarget.NoEntry:
		fmt.Println("no entry script")
	}
	// Output:
	// package: @kici-dev/orchestrator
	// prefix:  C:\Users\kici\AppData\Roaming\npm
	// npm:     C:\Program Files\nodejs\npm.cmd
	// program: %SystemRoot%\System32\cmd.exe
	// line:    cmd.exe /d /s /c ""C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0"
	// env:     Path=C:\Program Files\nodejs;C:\Windows\system32
	// env:     npm_config_prefix=C:\Users\kici\AppData\Roaming\npm
	// env:     NoDefaultCurrentDirectoryInExePath=1
}

func ExampleGlobalPrefix() {
	for _, tc := range []struct {
		entry   string
		windows bool
	}{
		{"/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", false},
		{"/srv/app/node_modules/@kici-dev/orchestrator/dist/server.js", false},
		{"C:/Users/kici/AppData/Roaming/npm/node_modules/@kici-dev/orchestrator/dist/server.js", true},
	} {
		prefix, ok := npmtarget.GlobalPrefix(tc.entry, tc.windows)
		fmt.Printf("%q %v\n", prefix, ok)
	}
	// Output:
	// "/usr" true
	// "" false
	// "C:\\Users\\kici\\AppData\\Roaming\\npm" true
}

func ExampleTarget_Args() {
	t := npmtarget.Target{
		GlobalPrefix: "/usr/local",
		Invocation:   npmtarget.Invocation{Cmd: "/usr/local/bin/node", PreArgs: []string{"/usr/local/lib/node_modules/npm/bin/npm-cli.js"}},
	}
	fmt.Println(t.Args("view", "@kici-dev/shared@0.20.0", "exports", "--json"))
	// Output:
	// [/usr/local/lib/node_modules/npm/bin/npm-cli.js view @kici-dev/shared@0.20.0 exports --json --prefix=/usr/local]
}

func ExampleTarget_Env() {
	t := npmtarget.Target{NodeExecPath: `C:\nvm4w\nodejs\node.exe`, Windows: true}
	fmt.Println(t.Env([]string{`Path=C:\Windows`, "TEMP=C:\\Temp"}))
	// Output:
	// [Path=C:\nvm4w\nodejs;C:\Windows TEMP=C:\Temp]
}

func ExampleWindowsShellCommand() {
	line, err := npmtarget.WindowsShellCommand(`C:\Program Files\nodejs\npm.cmd`, []string{"install", "-g", "@kici-dev/orchestrator@0.20.0"})
	fmt.Println(line, err)

	_, err = npmtarget.WindowsShellCommand(`C:\Program Files\nodejs\npm.cmd`, []string{"install", "-g", "x@1&calc"})
	var unsafe *npmtarget.UnsafeArgError
	if errors.As(err, &unsafe) {
		fmt.Printf("refused %q: %v\n", unsafe.Arg, err)
	}
	// Output:
	// "C:\Program Files\nodejs\npm.cmd" install -g @kici-dev/orchestrator@0.20.0 <nil>
	// refused "x@1&calc": npmtarget.WindowsShellCommand: cannot pass "x@1&calc" to npm: it holds a character cmd.exe reads as syntax
}

func ExamplePlanUpgrade() {
	spec := &npmtarget.LaunchSpec{
		ExecPath: "/usr/bin/node",
		Args:     []string{"/srv/kici/node_modules/@kici-dev/orchestrator/dist/server.js"},
	}
	plan := npmtarget.PlanUpgrade(npmtarget.PlanUpgradeInput{
		Spec: spec, Component: "orchestrator", Version: "0.20.0", RunningExecPath: "/usr/local/bin/node",
	})
	switch p := plan.(type) {
	case npmtarget.SelfInstall:
		fmt.Println("install", p.Target.OwningPackage+"@"+p.Version)
	case npmtarget.Refusal:
		fmt.Println(p.Reason)
		fmt.Println(p.Message)
	}
	// Output:
	// the launch target is not inside a global npm install
	// npm-source upgrade cannot self-install: the unit's launch target /srv/kici/node_modules/@kici-dev/orchestrator/dist/server.js is not inside a global npm install, so the unit's npm has no global prefix that holds it. The unit runs /usr/bin/node; this kici-admin runs /usr/local/bin/node. Use an archive upgrade (--from <archive> / --url <url> + --version), or pre-install the package and re-run with --restart-only.
}
