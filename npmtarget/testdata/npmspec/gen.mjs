// Generates npmspec.json: how npm reads the package specs npmtarget builds,
// "<package>@<version>", for the versions and package names listed here.
// npm-package-arg decides what npm install does with a spec (a registry
// version, a range, a dist-tag, an alias, a URL, a git repository, a
// folder, a tarball); validate-npm-package-name decides which names npm
// takes. The Go tests in npmspec_test.go compare npmtarget's rules with
// these answers, so that `go test` never needs node.
//
// Regenerate from this folder with:
//
//	npm ci && node gen.mjs > npmspec.json
//
// The versions are pinned in package.json (npm-package-arg 14.0.0,
// validate-npm-package-name 8.0.0, and the lock file's semver). npm-package-arg
// reads paths by the platform it runs on, so each spec is read twice: as on
// posix and as on Windows.

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

// load returns a fresh npm-package-arg that believes it runs on platform.
function load(platform) {
	const saved = Object.getOwnPropertyDescriptor(process, "platform");
	for (const k of Object.keys(require.cache)) if (k.includes("npm-package-arg")) delete require.cache[k];
	Object.defineProperty(process, "platform", { value: platform });
	try {
		return require("npm-package-arg");
	} finally {
		Object.defineProperty(process, "platform", saved);
	}
}
const npaPosix = load("linux");
const npaWin = load("win32");
const validate = require("validate-npm-package-name");
const pkgVersions = {
	"npm-package-arg": require("npm-package-arg/package.json").version,
	"validate-npm-package-name": require("validate-npm-package-name/package.json").version,
	semver: require("semver/package.json").version,
};

// read is what npm makes of arg: its type, or the code of the error it
// throws, and the name it reads.
function read(npa, arg) {
	try {
		const r = npa(arg, "/w");
		return { type: r.type, name: r.name ?? null };
	} catch (e) {
		return { type: "error:" + (e.code ?? e.name), name: null };
	}
}

// ---- versions ----

const curated = [
	"0.20.0", "1.2.3", "0.0.0", "10.20.30", "1.2.3-rc.1", "1.2.3-0", "1.2.3-alpha.beta.1", "1.2.3+build.5", "1.2.3-rc.1+b.2",
	"1.0.0-x-y-z.--", "1.2.3----RC-SNAPSHOT.12.9.1--.12+788", "v1.2.3", "v0.20.0-beta.1", "=1.2.3", "v=1.2.3", " 1.2.3", "1.2.3 ",
	"01.2.3", "1.02.3", "1.2.03", "1.2.3-01", "1.2.3beta", "1.2.3-beta..1", "1.2.3-", "1.2.3+", "1.2.3.4", "1.2", "1", "1.x", "1.2.x",
	"x", "X", "*", "x.x.x", "v1", "vv1", "V1", "^1.2.3", "~1.2.3", ">=1.2.3", "<2", "1.2.3 - 1.2.4", "1 || 2", ">1 <2", "1.2.3||2",
	"latest", "next", "beta", "canary", "rc", "lts", "v1-lts", "release-2024", "Latest", "NEXT", "a", "ab", "x1", "xx", "vx", "v",
	"next.1", "a.b", "a-b_c", "_tag", "-tag", ".tag", "tag.", "tag!", "tag~", "tag*", "tag'", "tag(1)", "tag%20", "tag+1", "tag=1",
	"next.tgz", "next.tar", "next.tar.gz", "next.TGZ", "x.tar.GZ", "1.2.3.tgz", "latest.tgz.x",
	"npm:left-pad@1.3.0", "NPM:left-pad", "npm:x", "file:../x", "FILE:x", "file:x.tgz", "./x", "../x", "/opt/evil", "~/x", "~x",
	"C:\\x", "C:x", "c:", "\\\\srv\\x", "x/y", "user/repo", "user/repo#v1", "github:user/repo", "git+ssh://git@github.com/u/r.git",
	"git://x/y", "https://example.com/x.tgz", "http://x", "git@github.com:u/r.git", "x:y", "a@b", "@x", "@", "#x", "x#y",
	"", " ", "\t", "latest\n", "\u00a0latest", "\ufeff1.2.3", "é", "1.2.3-é", "%", "%2e", "9007199254740991.0.0", "9007199254740992.0.0",
	"1.9007199254740992.0", "99999999999999999999.0.0", "99999999999999999999", "1.2.3-99999999999999999999",
	"v" + "1".repeat(250) + ".0.0", "1.2.3-" + "a".repeat(250), "1.2.3-" + "a".repeat(251), "t".repeat(300),
];
const alphabet = ["0", "1", "9", ".", "-", "+", "_", "x", "X", "v", "V", "a", "z", "=", "~", "^", "*", "/", "\\", ":", "@", " ", "%", "!", "'", "(", "<", "#"];
const short = new Set(curated);
for (const a of alphabet) {
	short.add(a);
	for (const b of alphabet) short.add(a + b);
}
const small = ["0", "1", ".", "-", "x", "v", "a", "+", "_"];
for (const a of small) for (const b of small) for (const c of small) short.add(a + b + c);
for (const head of ["1.2.3", "v1.2.3", "x", "1.2", "latest", "a"]) for (const tail of small) for (const tail2 of small) short.add(head + tail + tail2);

const versions = [];
for (const spec of short) {
	const arg = "@kici-dev/orchestrator@" + spec;
	const posix = read(npaPosix, arg);
	const win = read(npaWin, arg);
	versions.push({ spec, posix: posix.type, windows: win.type, name: posix.name === win.name ? posix.name : "differs" });
}

// ---- package names ----

const names = [
	"@kici-dev/orchestrator", "kici-bundle", "left-pad", "a", "a.b", "a_b", "a-b", "a~b", "a!b", "a*b", "a'b", "a(b)", "A", "JSONStream",
	"http", "fs", "node_modules", "NODE_MODULES", "favicon.ico", "Favicon.ICO", ".x", "-x", "_x", "x.", "x-", "x_", " x", "x ", "a b",
	"C:", "c:", "a:b", "a/b", "a\\b", "a%b", "a@b", "a#b", "a?b", "a+b", "a=b", "a,b", "a;b", "a&b", "é", "a\u00a0b", "",
	"@s/x", "@S/X", "@s/.x", "@s/-x", "@s/_x", "@/x", "@s/", "@s", "@@s/x", "@s/x/y", "@s//x", "@s/x@y", "@s:/x", "@.s/x", "@-s/x", "@s t/x",
	"@kici-dev/a(b", "@kici-dev/a.b", "@kici-dev/x.tgz", "x.tgz", "x.tar", "x.tar.gz", "x.TGZ", "x.tgz.y", "x.tar.gz.", "tgz", ".tgz",
	"x".repeat(214), "x".repeat(215), "@s/" + "x".repeat(300), "npm", "node", "con", "x..y", "..", ".",
];
const nameRows = names.map((name) => {
	const v = validate(name);
	const arg = name + "@0.20.0";
	const posix = read(npaPosix, arg);
	const win = read(npaWin, arg);
	return {
		name,
		validForOldPackages: v.validForOldPackages,
		validForNewPackages: v.validForNewPackages,
		posix: posix.type,
		windows: win.type,
		read: posix.name === win.name ? posix.name : "differs",
	};
});

process.stdout.write(JSON.stringify({ packages: pkgVersions, node: process.version, versions, names: nameRows }, null, "\t") + "\n");
