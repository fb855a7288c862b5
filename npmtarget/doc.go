// Package npmtarget finds, from a service's launch command, where an
// npm-source upgrade of KiCI must install the new release and how to run npm
// there safely, as the KiCI orchestrator 0.20.0 does when it upgrades itself
// ("kici-admin orchestrator upgrade").
//
// A service runs its entry script with its own node, for example
//
//	/home/kici/.nvm/versions/node/v20.11.1/bin/node \
//	    /home/kici/.nvm/versions/node/v20.11.1/lib/node_modules/@kici-dev/orchestrator/dist/server.js
//
// [Resolve] finds the entry script in that command, the package that owns it
// ([FirstGlobalPackage]: "@kici-dev/orchestrator") and the npm global prefix
// holding it ([GlobalPrefix]: "/home/kici/.nvm/versions/node/v20.11.1"), and
// decides how to run npm with the service's node. [Target.Args],
// [Target.Env] and [Target.Command] then describe the npm process, and
// [PlanUpgrade] makes the orchestrator's decision to self-install or refuse.
// Every function is pure: facts about the service's machine come in as
// arguments ([Options.Exists], the caller's environment), and the only
// file-system access is the documented default of a nil Options.Exists.
//
// # Path rules
//
// Paths follow the service's platform, chosen by [Options.Windows] and kept
// in [Target.Windows], never the platform the code runs on. The rules are
// node's path.posix and path.win32 dirname and join, which the orchestrator
// calls, reproduced byte for byte (node 20) and checked against node's own test
// vectors:
//
//	posix     separator "/"; "." and ".." folded; a trailing separator kept
//	          by join; dirname("/a/b/") is "/a"; PATH list separator ":"
//	Windows   separators "\" and "/" both read, "\" written; roots "C:",
//	          "C:\", UNC "\\server\share\" and devices "\\.\", "\\?\";
//	          "." and ".." folded but never above a root; PATH list
//	          separator ";"; environment names compare without regard to case
//
// The entry script and the package are found by splitting on "/" and "\" on
// both platforms. On posix a global install is <prefix>/lib/node_modules/...,
// which tells it from a project's local node_modules; on Windows it is
// <prefix>\node_modules\..., and a local node_modules looks the same.
//
// # cmd.exe rules
//
// On Windows, when npm-cli.js is missing beside the service's node, npm runs
// through npm.cmd, a batch file, and Windows runs every batch file through
// cmd.exe. cmd.exe has its own command-line syntax: it expands %VAR% and,
// with delayed expansion, !VAR! even inside double quotes, ends the line at
// CR, LF or NUL, treats & | < > ( ) ^ outside quotes as operators, and a
// batch file splits its arguments at spaces, ",", ";" and "=". No quoting
// makes every argument safe (the BatBadBut class: Rust's CVE-2024-24576 and
// CVE-2024-43402, Go's golang/go#27199; os/exec applies the C runtime's
// rules, not cmd.exe's). So this package, like the orchestrator, builds the
// line only from values it can pass unquoted:
//
//	line      = "cmd.exe /d /s /c " DQUOTE inner DQUOTE
//	inner     = DQUOTE batchfile DQUOTE *( " " arg )
//	batchfile = any UTF-8 text without  "  %  !  or a byte below 0x20
//	arg       = 1*( ALPHA / DIGIT / "@" / "/" / "." / "_" / "+" / "-" )
//
// Everything else is refused with an error naming it ([UnsafeArgError],
// [UnsafeCommandError]), never escaped. The prefix, whose "C:\" cannot pass,
// travels in npm_config_prefix instead ([Target.PrefixViaEnv]). A file counts
// as a batch file when its name ends in ".cmd" or ".bat" in any case once
// the trailing dots and spaces Windows ignores are dropped ("npm.cmd.",
// "npm.CMD "). Any other Windows program must end in ".exe" or ".com", and
// every program path must be absolute.
//
// # Which orchestrator
//
// The rules are those of the orchestrator 0.20.0's npm-source upgrade
// (kici-admin's resolveNpmInstallTarget, globalPrefixOf, npmArgs, npmEnv,
// prefixViaEnv, windowsShellCommand and planNpmSourceUpgrade), as the
// seed (its compiled code, 0.18.0 to 0.20.0) shows them, changed or as
// context. No public source of them exists to follow: no file of the
// repository kici-dev/kici-public at any commit the index stores
// (0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d, of the 0.12.0 line, is the
// newest; the older v0.1.x line included) defines them, so the seed is
// the only authority, and its messages are kept word for word.
//
// # Beyond the orchestrator
//
// The results are the orchestrator's, with these differences:
//
//   - the component name is matched literally (the orchestrator puts it into
//     a regular expression unescaped);
//   - a Windows drive root as the global prefix is "C:\", not "C:", which
//     names the drive's current folder ([GlobalPrefix]);
//   - Windows environment names compare without regard to case, where the
//     orchestrator's copy of process.env can end up with both "Path" and
//     "PATH"; PATH gets the target platform's list separator, and no empty
//     element when the caller has no PATH ([Target.Env]);
//   - the batch-file test counts ".bat" and trailing dots and spaces on
//     Windows ([Target.PrefixViaEnv]);
//   - [WindowsShellCommand] also refuses a batch-file path that cmd.exe would
//     read as syntax;
//   - [Target.Command] and [Command.ExecCmd] describe and start the process
//     without a shell parsing anything but the checked cmd.exe line;
//   - [Resolve] refuses, as [Unsafe], and [Target.Command] with an error, a
//     node path that is not absolute, a node folder holding the PATH list
//     separator and, on the npm.cmd route, a global prefix or node folder
//     that npm.cmd would hand cmd.exe to misread, and an owning package
//     that is not a valid npm package name; [PlanUpgrade] refuses them too
//     ([ErrUnsafeTarget]);
//   - [PlanUpgrade] refuses a version npm would read as anything but a
//     version or a dist-tag ([ErrVersion]): an alias, a URL, a git
//     repository, a folder or a tarball, whose install scripts would run as
//     the upgrader, or a range;
//   - on the cmd.exe route, [Target.Env] drops an inherited
//     NPM_PREFIX_NPM_CLI_JS and sets NoDefaultCurrentDirectoryInExePath=1.
package npmtarget
