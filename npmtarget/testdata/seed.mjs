// Generates seed.json: what the KiCI orchestrator 0.20.0's own functions
// (copied verbatim below from its dist/cli.js) and node's path.posix and
// path.win32 answer for the inputs listed here. The Go tests in
// seed_test.go compare Resolve, GlobalPrefix, Target.Args, Target.Env,
// Target.PrefixViaEnv, WindowsShellCommand and the path port against it.
//
// Regenerate from this folder with: node seed.mjs > seed.json
// (seed.json was made with node v20.20.2; path.win32 changed in node's
// security releases, so another node may answer some rows differently.)

import fs from "node:fs";
import path from "node:path";

// ---- verbatim from @kici-dev/orchestrator 0.20.0, dist/cli.js ----
function resolveNpmInstallTarget(spec, component, opts) {
	const entryRe = new RegExp(`[/\\\\]@kici-dev[/\\\\]${component}[/\\\\]dist[/\\\\](?:server|standalone)\\.js$`);
	const entry = [spec.execPath, ...spec.args].find((a) => entryRe.test(a));
	if (!entry) return {
		ok: false,
		reason: "no-entry"
	};
	const owningPackage = firstGlobalPackage(entry);
	if (!owningPackage) return {
		ok: false,
		reason: "no-entry"
	};
	const p = opts.windows ? path.win32 : path.posix;
	const globalPrefix = globalPrefixOf(entry, opts.windows);
	if (!globalPrefix) return {
		ok: false,
		reason: "not-global",
		entry
	};
	const nodeDir = p.dirname(spec.execPath);
	const npmPath = p.join(nodeDir, opts.windows ? "npm.cmd" : "npm");
	const npmCliJs = opts.windows ? p.join(nodeDir, "node_modules", "npm", "bin", "npm-cli.js") : p.join(nodeDir, "..", "lib", "node_modules", "npm", "bin", "npm-cli.js");
	const npmInvocation = (opts.exists ?? fs.existsSync)(npmCliJs) ? {
		cmd: spec.execPath,
		preArgs: [npmCliJs]
	} : {
		cmd: npmPath,
		preArgs: []
	};
	return {
		ok: true,
		target: {
			nodeExecPath: spec.execPath,
			npmPath,
			owningPackage,
			globalPrefix,
			npmInvocation
		}
	};
}
function globalPrefixOf(entry, windows) {
	const p = windows ? path.win32 : path.posix;
	const segments = entry.split(/[/\\]/);
	const idx = segments.indexOf("node_modules");
	if (idx < 1) return null;
	if (windows) return segments.slice(0, idx).join(p.sep) || null;
	if (idx < 2 || segments[idx - 1] !== "lib") return null;
	return segments.slice(0, idx - 1).join(p.sep) || p.sep;
}
function windowsShellCommand(cmd, args) {
	for (const arg of args) if (!/^[A-Za-z0-9@/._+-]+$/.test(arg)) throw new Error(`cannot pass "${arg}" to npm: it holds a character cmd.exe reads as syntax`);
	return [`"${cmd}"`, ...args].join(" ");
}
function npmEnv(target) {
	const pinnedBinDir = path.dirname(target.nodeExecPath);
	const env = {
		...process.env,
		PATH: `${pinnedBinDir}${path.delimiter}${process.env.PATH ?? ""}`
	};
	if (prefixViaEnv(target)) {
		for (const key of Object.keys(env)) if (/^npm_config_(global_)?prefix$/i.test(key)) delete env[key];
		env.npm_config_prefix = target.globalPrefix;
	}
	return env;
}
function prefixViaEnv(target) {
	return target.npmInvocation.preArgs.length === 0 && /\.cmd$/i.test(target.npmInvocation.cmd);
}
function npmArgs(target, args) {
	const prefix = prefixViaEnv(target) ? [] : [`--prefix=${target.globalPrefix}`];
	return [
		...target.npmInvocation.preArgs,
		...args,
		...prefix
	];
}
// ---- end of the verbatim copy ----

// firstGlobalPackage is not in the diff; this is API.md's description of it.
function firstGlobalPackage(entry) {
	const segments = entry.split(/[/\\]/);
	const idx = segments.indexOf("node_modules");
	if (idx < 0) return null;
	const name = segments[idx + 1];
	if (!name) return null;
	if (!name.startsWith("@")) return name;
	const next = segments[idx + 2];
	return next ? `${name}/${next}` : null;
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
for (const windows of [false, true]) for (const entry of entries) globalPrefix.push({ windows, entry, out: globalPrefixOf(entry, windows) });
const firstPackage = entries.map((entry) => ({ entry, out: firstGlobalPackage(entry) }));

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
const resolve = [];
for (const spec of specs) for (const windows of [false, true]) for (const exists of [false, true]) for (const component of ["orchestrator", "agent"]) {
	const asked = [];
	const r = resolveNpmInstallTarget(spec, component, { windows, exists: (p) => { asked.push(p); return exists; } });
	const row = { spec, component, windows, exists, asked, result: r };
	if (r.ok) {
		row.args = npmArgs(r.target, ["install", "-g", `${r.target.owningPackage}@0.20.0`]);
		row.prefixViaEnv = prefixViaEnv(r.target);
		if (!windows) {
			const saved = process.env;
			process.env = { HOME: "/home/k", PATH: "/usr/bin:/bin", NPM_CONFIG_PREFIX: "/elsewhere", npm_config_registry: "https://r.example" };
			row.env = npmEnv(r.target);
			process.env = saved;
		}
	}
	resolve.push(row);
}

const shell = [];
const shellArgs = [
	[], ["install"], ["install", "-g", "@kici-dev/orchestrator@0.20.0"], ["view", "@kici-dev/shared@0.20.0", "exports", "--json"],
	["--prefix=C:\\x"], ["a b"], [""], ["&whoami"], ["\"&calc.exe"], ["%PATH%"], ["%%cd:~,%"], ["!TMP!"], ["hello^\"world"],
	["a|calc"], ["(calc)"], ["key=value"], ["x,y"], ["x;y"], ["C:\\x\\"], ["a\nb"], ["a\rb"], ["é"], ["ok", "b<d", "c>d"], ["a\u0000b"],
];
for (const args of shellArgs) {
	try {
		shell.push({ cmd: "C:\\Program Files\\nodejs\\npm.cmd", args, line: windowsShellCommand("C:\\Program Files\\nodejs\\npm.cmd", args) });
	} catch (err) {
		shell.push({ cmd: "C:\\Program Files\\nodejs\\npm.cmd", args, error: err.message });
	}
}

// One row a line, so that a regenerated file diffs row by row.
const out = { node: process.version, dirname, join, globalPrefix, firstPackage, resolve, shell };
const lines = Object.entries(out).map(([k, v]) => Array.isArray(v)
	? `${JSON.stringify(k)}: [\n${v.map((row) => JSON.stringify(row)).join(",\n")}\n]`
	: `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
process.stdout.write(`{\n${lines.join(",\n")}\n}\n`);
