// Package npmtarget finds where an npm-source upgrade of KiCI must install
// the new release, and how to run npm there safely. It reads the service's
// launch command, as the KiCI orchestrator 0.20.0 does when it upgrades
// itself ("kici-admin orchestrator upgrade").
//
// A service runs its entry script with its own node, for example
//
//	/home/kici/.nvm/versions/node/v20.11.1/bin/node \
//	    /home/kici/.nvm/versions/node/v20.11.1/lib/node_modules/@kici-dev/orchestrator/dist/server.js
//
// [Resolve] finds three things in that command:
//
//	the entry script
//	the package that owns it      FirstGlobalPackage   "@kici-dev/orchestrator"
//	the npm global prefix         GlobalPrefix         "/home/kici/.nvm/versions/node/v20.11.1"
//
// It then decides how to run npm with the service's node. [Target.Args],
// [Target.Env] and [Target.Command] describe the npm process. [PlanUpgrade]
// makes the orchestrator's decision to self-install or refuse.
//
// Every function is pure. Facts about the service's machine come in as
// arguments: [Options.Exists] and the caller's environment. The only
// file-system access is the documented default of a nil Options.Exists.
//
// # Path rules
//
// Paths follow the service's platform, never the platform the code runs
// on. [Options.Windows] chooses it, and [Target.Windows] keeps it. The
// rules are node's path.posix and path.win32 dirname and join, which the
// orchestrator calls. They are reproduced byte for byte (node 20), and
// checked against node's own test vectors:
//
//	posix     separator "/"; "." and ".." folded; a trailing separator kept
//	          by join; dirname("/a/b/") is "/a"; PATH list separator ":"
//	Windows   separators "\" and "/" both read, "\" written; roots "C:",
//	          "C:\", UNC "\\server\share\" and devices "\\.\", "\\?\";
//	          "." and ".." folded but never above a root; PATH list
//	          separator ";"; environment names compare without regard to case
//
// The entry script and the package are found by splitting on "/" and "\"
// on both platforms. On posix a global install is
// <prefix>/lib/node_modules/..., which tells it from a project's local
// node_modules. On Windows it is <prefix>\node_modules\..., and a local
// node_modules looks the same.
//
// # cmd.exe rules
//
// On Windows, when npm-cli.js is missing beside the service's node, npm
// runs through npm.cmd, a batch file. Windows runs every batch file through
// cmd.exe, which has its own command-line syntax:
//
//   - it expands %VAR%, and with delayed expansion !VAR!, even inside
//     double quotes;
//   - it ends the line at CR, LF or NUL;
//   - it treats & | < > ( ) ^ outside quotes as operators;
//   - a batch file splits its arguments at spaces, ",", ";" and "=".
//
// No quoting makes every argument safe. This is the BatBadBut class: Rust's
// CVE-2024-24576 and CVE-2024-43402, Go's golang/go#27199. (os/exec applies
// the C runtime's rules, not cmd.exe's.) So this package, like the
// orchestrator, builds the line only from values it can pass unquoted:
//
//	line      = "cmd.exe /d /s /c " DQUOTE inner DQUOTE
//	inner     = DQUOTE batchfile DQUOTE *( " " arg )
//	batchfile = any UTF-8 text without  "  %  !  or a byte below 0x20
//	arg       = 1*( ALPHA / DIGIT / "@" / "/" / "." / "_" / "+" / "-" )
//
// Everything else is refused with an error naming it ([UnsafeArgError],
// [UnsafeCommandError]), never escaped. The prefix, whose "C:\" cannot
// pass, travels in npm_config_prefix instead ([Target.PrefixViaEnv]). A file
// is a batch file when its name ends in ".cmd" or ".bat", in any case. The
// trailing dots and spaces Windows ignores are dropped first ("npm.cmd.",
// "npm.CMD "). Any other Windows program must end in ".exe" or ".com".
// Every program path must be absolute.
//
// # Refusals
//
// Each [Reason] guards against one way npm or cmd.exe would go wrong:
//
//   - [ErrRelativeNode]: the node's folder goes first on PATH. A relative
//     node puts the working directory there. A drive-relative one
//     ("C:node.exe") makes npm.cmd's path C:\npm.cmd.
//   - [ErrListSeparator]: put first on PATH, the folder would split into
//     other folders, or into an empty element that stands for the working
//     directory.
//   - [ErrBatchPath]: npm.cmd expands the global prefix and the node
//     folder into its own command lines. A double quote ends the quotes
//     around the prefix in IF EXIST "%NPM_PREFIX_NPM_CLI_JS%", and what
//     follows runs as a command. "%" and "!" are expanded again. npm.cmd's
//     CALL doubles "^"; npm.cmd then finds no node and falls back to an
//     inherited npm-cli.js. Windows forbids < > | ? * and a ":" that is not
//     a drive's in a file name, so no real folder holds them. No real
//     Windows path holds a double quote, and the other bytes are rare
//     enough that refusing them costs little.
//   - [ErrPackageName]: followed by "@<version>", "C:" names a folder to
//     npm, "x.tgz" a tarball, and "-x" reads as an option.
//   - [ErrVersion]: npm reads "npm:left-pad@1.3.0" as an alias that
//     installs another package under the name. It reads "/opt/evil" and
//     "../x" as folders, and runs their install scripts as the upgrader.
//     It reads "^1.2.3" as a range.
//   - [ErrCmdSyntax]: no Windows file name holds a control byte. Windows
//     names are UTF-16, so a path that is not valid UTF-8 names no file.
//   - [ErrRelativePath]: cmd.exe looks in the working directory first.
//   - [ErrNotExecutable]: os/exec would try every extension in PATHEXT,
//     .bat and .cmd among them. It would then run a batch file without
//     cmd.exe's quoting rules.
//
// The orchestrator hands each such target to npm. The install would land
// where the service does not look, or cmd.exe would run something else.
//
// # Out of scope
//
// [PlanUpgrade] leaves out what the orchestrator does around its decision:
// reading the unit's launch command, --restart-only, and checking that the
// release reads the env file (npm view). It also leaves out confirming with
// the operator, running npm and restarting the service.
//
// # Which orchestrator
//
// The rules are those of the orchestrator 0.20.0's npm-source upgrade:
// kici-admin's resolveNpmInstallTarget, globalPrefixOf, npmArgs, npmEnv,
// prefixViaEnv, windowsShellCommand and planNpmSourceUpgrade. The seed
// (its compiled code, 0.18.0 to 0.20.0) shows them, changed or as context.
// The seed is the authority, and its messages are kept word for word.
//
// The public repository kici-dev/kici-public holds an older form of some
// of them at commit 0b46a9a5a27836be8b5af7a5e0c806592d3b5d6d (the 0.12.0
// line). resolveNpmInstallTarget is in
// packages/orchestrator/src/cli/service/instance/manifest.ts. npmEnv,
// windowsShellCommand and planNpmSourceUpgrade are in
// packages/orchestrator/src/cli/commands/shared/versioned-upgrade.ts.
// globalPrefixOf, npmArgs and prefixViaEnv are in neither. The index
// stores neither file at the newer commits, b83305d (0.13.0) to 84ac3cd
// (0.16.0).
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
