// Generates seed.json: what the KiCI orchestrator 0.20.0 answers, and what
// node's path.posix and path.win32 answer, for the inputs listed here: where
// the npm that upgrades a global install lives, which package and global
// prefix it must target, the argv and environment it runs with, and the
// cmd.exe line it may be given. The Go tests in seed_test.go compare
// Resolve, GlobalPrefix, FirstGlobalPackage, Target.Args, Target.Env,
// Target.PrefixViaEnv, WindowsShellCommand and the path port against it.
//
// The functions below are an independent transcription of that release's
// behaviour, written for kicikit; they are not the orchestrator's code. Its
// path rules are node's own path.posix and path.win32, called here as it
// calls them; the one error text is a fact the library reproduces.
//
// Regenerate from this folder with: node seed.mjs > seed.json
// (seed.json was made with node v20.20.2; path.win32 changed in node's
// security releases, so another node may answer some rows differently.)

import path from "node:path";

// Both platforms split a path on either slash.
const segmentsOf = (p) => p.split(/[/\\]/);

// launches reports whether arg is the component's published entry point:
// a path ending in @kici-dev/<component>/dist/server.js or standalone.js,
// with a separator before the scope. The component is compared as text.
function launches(arg, component) {
	const tail = segmentsOf(arg).slice(-5);
	const [, scope, name, dist, file] = tail;
	return tail.length === 5 && scope === "@kici-dev" && name === component && dist === "dist" &&
		(file === "server.js" || file === "standalone.js");
}

// owningPackage is the package under the first node_modules segment, the
// one `npm install -g` must name; a scope keeps the name after it. null
// when there is no node_modules, or no name (for a scope: no name after it).
function owningPackage(entry) {
	const segs = segmentsOf(entry);
	const root = segs.indexOf("node_modules");
	if (root === -1) return null;
	const [name, scoped] = [segs[root + 1], segs[root + 2]];
	if (!name) return null;
	if (name[0] !== "@") return name;
	return scoped ? `${name}/${scoped}` : null;
}

// npmPrefix is the npm prefix whose global tree holds entry, read at the
// first node_modules segment. A Windows global tree is
// <prefix>\node_modules, so the prefix is what comes before it (null when
// that is empty). A posix one is <prefix>/lib/node_modules: the segment
// before must be "lib", else it is a local tree, and an empty prefix is "/".
function npmPrefix(entry, windows) {
	const segs = segmentsOf(entry);
	const root = segs.indexOf("node_modules");
	if (root <= 0) return null;
	if (windows) return segs.slice(0, root).join("\\") || null;
	const lib = root - 1;
	if (lib === 0 || segs[lib] !== "lib") return null;
	return segs.slice(0, lib).join("/") || "/";
}

// resolveTarget finds, among the unit's node and its arguments, the
// component's entry point, and answers the npm that updates it in place:
// the pinned node running the npm-cli.js installed with it when exists says
// there is one, else the npm (npm.cmd) wrapper in the node's folder.
function resolveTarget(spec, component, windows, exists) {
	const entry = [spec.execPath, ...spec.args].find((arg) => launches(arg, component));
	const pkg = entry === undefined ? null : owningPackage(entry);
	if (pkg === null) return { ok: false, reason: "no-entry" };
	const prefix = npmPrefix(entry, windows);
	if (prefix === null) return { ok: false, reason: "not-global", entry };

	const p = windows ? path.win32 : path.posix;
	const nodeDir = p.dirname(spec.execPath);
	const wrapper = p.join(nodeDir, windows ? "npm.cmd" : "npm");
	// Windows installs npm beside node.exe; posix under <prefix>/lib, one up from bin.
	const besideNode = windows ? [] : ["..", "lib"];
	const cli = p.join(nodeDir, ...besideNode, "node_modules", "npm", "bin", "npm-cli.js");
	const invocation = exists(cli) ? { cmd: spec.execPath, preArgs: [cli] } : { cmd: wrapper, preArgs: [] };
	return {
		ok: true,
		target: { nodeExecPath: spec.execPath, npmPath: wrapper, owningPackage: pkg, globalPrefix: prefix, npmInvocation: invocation },
	};
}

// viaEnv reports whether the prefix must travel in the environment: only
// when the npm.cmd wrapper runs, whose cmd.exe line cannot carry the "\",
// ":" and "=" of a --prefix=C:\... argument. The suffix compares without
// regard to case, as Windows file names do.
function viaEnv(target) {
	const { cmd, preArgs } = target.npmInvocation;
	return preArgs.length === 0 && cmd.toLowerCase().endsWith(".cmd");
}

// argv is one npm call's arguments: npm-cli.js first when node runs it,
// then the caller's, then --prefix unless the environment carries it.
function argv(target, args) {
	const out = [...target.npmInvocation.preArgs, ...args];
	if (!viaEnv(target)) out.push(`--prefix=${target.globalPrefix}`);
	return out;
}

// environ is base with the pinned node's folder first on PATH (joined with
// the host's list separator: the orchestrator builds it on the machine it
// runs on, as this generator does on a posix one). When the prefix travels
// in the environment, every npm_config_prefix or npm_config_global_prefix,
// in any case, gives way to one npm_config_prefix, added last.
function environ(target, base) {
	const env = { ...base, PATH: [path.dirname(target.nodeExecPath), base.PATH ?? ""].join(path.delimiter) };
	if (!viaEnv(target)) return env;
	const prefixKeys = ["npm_config_prefix", "npm_config_global_prefix"];
	for (const key of Object.keys(env).filter((k) => prefixKeys.includes(k.toLowerCase()))) delete env[key];
	env.npm_config_prefix = target.globalPrefix;
	return env;
}

// cmdLine is the line cmd.exe runs for the npm.cmd wrapper: the command
// quoted, then each argument as is. An argument holding anything but ASCII
// letters, digits and @ / . _ + - (or an empty one) is refused, the first
// such one named.
function cmdLine(cmd, args) {
	const bad = args.find((arg) => !/^[\w@/.+-]+$/.test(arg));
	if (bad !== undefined) throw new Error(`cannot pass "${bad}" to npm: it holds a character cmd.exe reads as syntax`);
	return `"${cmd}"` + args.map((arg) => ` ${arg}`).join("");
}

// ---- inputs ----

const paths = [
	"", ".", "..", "/", "//", "///", "\\", "\\\\", "\\\\\\", "a", "a/", "a//", "/a", "//a", "///a", "a/b", "a//b", "a/b/",
	"/usr/bin/node", "/usr/local/bin/node", "/usr/bin//node", "/usr/bin/./node", "/usr/bin/../bin/node", "usr/bin/node",
	"./node", "../node", "../../x/node", "node", "/node", "/a/b/../../../node", " /a", "a /b",
	"C:", "C:\\", "C:/", "c:node", "C:node.exe", "C:\\node.exe", "C:\\Program Files\\nodejs\\node.exe",
	"C:/Program Files/nodejs/node.exe", "C:\\Program Files\\nodejs\\\\node.exe", "C:\\a\\..\\..\\node.exe",
	"D:\\nvm4w\\nodejs\\node.exe", "\\\\server\\share", "\\\\server\\share\\", "\\\\server\\share\\node.exe",
	"\\\\server\\share\\tools\\nodejs\\node.exe", "//server/share/tools/nodejs/node.exe", "\\\\server", "\\\\server\\",
	"\\\\.\\C:\\nodejs\\node.exe", "\\\\?\\C:\\nodejs\\node.exe", "\\\\?\\UNC\\server\\share\\node.exe",
	"\\nodejs\\node.exe", "/nodejs/node.exe", "nodejs\\node.exe", "..\\nodejs\\node.exe",
	"CON", "CONx", "CON:", "con:x", "CON:\\x", "NUL:", "nul.txt", "COM1:", "LPT9:\\a", "COM\u00b9:", "com\u00b2:x",
	"CONé", "CON\u{1F600}", "AUXé:", "a:b", "a:b:c", "file:stream", "dir\\file:stream", "x\\y:", "x:\\y", "1:\\y",
	":", "::", "a:", "C:..\\x", "C:.", "C:..", "é/ü/node", "C:\\é\\ü\\node.exe", "\u{1F600}\\node",
];
const dirname = [];
const join = [];
for (const windows of [false, true]) {
	const p = windows ? path.win32 : path.posix;
	for (const x of paths) {
		dirname.push({ windows, in: x, out: p.dirname(x) });
		for (const args of [[x], [x, "npm"], [x, "npm.cmd"], ["x", x], [x, ".."], [x, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js"], [x, "node_modules", "npm", "bin", "npm-cli.js"]]) {
			join.push({ windows, in: args, out: p.join(...args) });
		}
		const d = p.dirname(x);
		join.push({ windows, in: [d, windows ? "npm.cmd" : "npm"], out: p.join(d, windows ? "npm.cmd" : "npm") });
	}
}

const entries = [
	"", "/", "node_modules", "/node_modules", "node_modules/x", "/node_modules/x", "lib/node_modules/x", "/lib/node_modules/x",
	"//lib/node_modules/x", "/usr/lib/node_modules/@kici-dev/orchestrator/dist/server.js", "/usr//lib/node_modules/x",
	"/usr/lib/node_modules", "/usr/lib/node_modules/", "/usr/lib/node_modules/@scope", "/usr/lib/node_modules/@scope/",
	"/usr/lib/node_modules/@/x", "/usr/lib/node_modules//x", "/srv/app/node_modules/x/y.js", "/a/lib/node_modules/b/node_modules/c",
	"/a/node_modules/b/lib/node_modules/c", "C:\\Users\\k\\AppData\\Roaming\\npm\\node_modules\\@kici-dev\\orchestrator\\dist\\server.js",
	"C:/nvm4w/nodejs/node_modules/x/y.js", "C:\\node_modules\\x", "\\node_modules\\x", "\\\\node_modules\\x", "\\\\srv\\share\\node_modules\\x",
	"C:\\a\\lib\\node_modules\\x", "a\\lib\\node_modules\\x", "/usr\\lib/node_modules\\x", "/x/Node_Modules/y", "/x/node_modules.bak/y",
	"/é/lib/node_modules/ü", "node_modules/node_modules/x",
];
const globalPrefix = [];
for (const windows of [false, true]) for (const entry of entries) globalPrefix.push({ windows, entry, out: npmPrefix(entry, windows) });
const firstPackage = entries.map((entry) => ({ entry, out: owningPackage(entry) }));

const e = (prefix, sep = "/") => ["", "@kici-dev", "orchestrator", "dist", "server.js"].join(sep).replace(/^/, prefix);
const specs = [
	{ execPath: "/usr/bin/node", args: [e("/usr/lib/node_modules")] },
	{ execPath: "/usr/local/bin/node", args: ["--enable-source-maps", e("/usr/local/lib/node_modules")] },
	{ execPath: "/home/k/.nvm/versions/node/v20.11.1/bin/node", args: [e("/home/k/.nvm/versions/node/v20.11.1/lib/node_modules")] },
	{ execPath: "/opt/homebrew/Cellar/node/22.3.0/bin/node", args: [e("/opt/homebrew/lib/node_modules")] },
	{ execPath: "/usr/bin/node", args: [e("/srv/kici/node_modules")] },
	{ execPath: "/usr/bin/node", args: [e("/opt/kici")] },
	{ execPath: "/usr/bin/node", args: ["/srv/other/index.js"] },
	{ execPath: "/usr/bin/node", args: [] },
	{ execPath: e("/usr/lib/node_modules"), args: [] },
	{ execPath: "/usr/bin/node", args: [e("/usr/lib/node_modules/kici-bundle/node_modules")] },
	{ execPath: "/usr/bin/node", args: [e("/a/lib/node_modules").replace("server.js", "standalone.js"), e("/b/lib/node_modules")] },
	{ execPath: "/usr/bin/node", args: [e("/a/lib/node_modules") + ".map", e("/b/lib/node_modules")] },
	{ execPath: "/bin/node", args: [e("/lib/node_modules")] },
	{ execPath: "node", args: [e("lib/node_modules")] },
	{ execPath: "node", args: [e("x/lib/node_modules")] },
	{ execPath: "", args: [e("/usr/lib/node_modules")] },
	{ execPath: "/usr/bin/node", args: [e("/usr\\lib\\node_modules", "\\")] },
	{ execPath: "C:\\Program Files\\nodejs\\node.exe", args: [e("C:\\Users\\k\\AppData\\Roaming\\npm\\node_modules", "\\")] },
	{ execPath: "C:/Program Files/nodejs/node.exe", args: [e("C:/Users/k/AppData/Roaming/npm/node_modules")] },
	{ execPath: "C:\\nvm4w\\nodejs\\node.exe", args: [e("C:\\nvm4w\\nodejs\\node_modules", "\\")] },
	{ execPath: "\\\\srv\\tools\\nodejs\\node.exe", args: [e("\\\\srv\\tools\\nodejs\\node_modules", "\\")] },
	{ execPath: "D:\\apps\\node.exe", args: [e("D:\\apps\\kici\\node_modules", "\\")] },
	{ execPath: "C:\\nodejs\\node.exe", args: [e("\\node_modules", "\\")] },
	{ execPath: "C:\\nodejs\\node.exe", args: [e("C:\\node_modules", "\\")] },
	{ execPath: "C:\\nodejs\\node.exe", args: [e("C:\\x\\node_modules", "\\").replace("@kici-dev", "@KICI-DEV")] },
];
// The caller's environment npm would inherit on a posix host: a prefix set
// in another case, and a registry that must stay.
const callerEnv = { HOME: "/home/k", PATH: "/usr/bin:/bin", NPM_CONFIG_PREFIX: "/elsewhere", npm_config_registry: "https://r.example" };
const resolve = [];
for (const spec of specs) for (const windows of [false, true]) for (const exists of [false, true]) for (const component of ["orchestrator", "agent"]) {
	const asked = [];
	const result = resolveTarget(spec, component, windows, (cli) => { asked.push(cli); return exists; });
	const row = { spec, component, windows, exists, asked, result };
	if (result.ok) {
		row.args = argv(result.target, ["install", "-g", `${result.target.owningPackage}@0.20.0`]);
		row.prefixViaEnv = viaEnv(result.target);
		if (!windows) row.env = environ(result.target, callerEnv);
	}
	resolve.push(row);
}

const npmCmd = "C:\\Program Files\\nodejs\\npm.cmd";
const shellArgs = [
	[], ["install"], ["install", "-g", "@kici-dev/orchestrator@0.20.0"], ["view", "@kici-dev/shared@0.20.0", "exports", "--json"],
	["--prefix=C:\\x"], ["a b"], [""], ["&whoami"], ["\"&calc.exe"], ["%PATH%"], ["%%cd:~,%"], ["!TMP!"], ["hello^\"world"],
	["a|calc"], ["(calc)"], ["key=value"], ["x,y"], ["x;y"], ["C:\\x\\"], ["a\nb"], ["a\rb"], ["é"], ["ok", "b<d", "c>d"], ["a\u0000b"],
];
const shell = shellArgs.map((args) => {
	try {
		return { cmd: npmCmd, args, line: cmdLine(npmCmd, args) };
	} catch (err) {
		return { cmd: npmCmd, args, error: err.message };
	}
});

// One row a line, so that a regenerated file diffs row by row.
const out = { node: process.version, dirname, join, globalPrefix, firstPackage, resolve, shell };
const lines = Object.entries(out).map(([k, v]) => Array.isArray(v)
	? `${JSON.stringify(k)}: [\n${v.map((row) => JSON.stringify(row)).join(",\n")}\n]`
	: `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
process.stdout.write(`{\n${lines.join(",\n")}\n}\n`);
