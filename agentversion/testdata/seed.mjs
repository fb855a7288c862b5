// Generates seed.json: what the KiCI orchestrator 0.20.0's own
// parseVersionBase and compareReleases (copied verbatim below from its
// dist/cli.js) answer for the inputs listed here, and how it reads an
// upgrade's target version. The Go tests compare Parse, Compare and
// ParseTarget against it.
//
// Regenerate from this folder with: node seed.mjs > seed.json

// ---- verbatim from @kici-dev/orchestrator 0.20.0, dist/cli.js ----
function parseVersionBase(version) {
	const parts = version.trim().split("-")[0].split(".");
	if (parts.length !== 3) return null;
	const nums = parts.map((part) => /^\d+$/.test(part) ? Number(part) : NaN);
	if (nums.some((n) => Number.isNaN(n))) return null;
	return [
		nums[0],
		nums[1],
		nums[2]
	];
}
function compareReleases(a, b) {
	const left = parseVersionBase(a.replace(/^v/, ""));
	const right = parseVersionBase(b.replace(/^v/, ""));
	if (!left || !right) return null;
	for (let i = 0; i < 3; i++) if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
	return 0;
}
// ---- end of the verbatim copy ----

// How checkContainerAgentImages reads its targetVersion argument: trimmed,
// one leading "v" dropped, kept when parseVersionBase accepts it, and used
// as the text of its messages. null: no usable target.
function readTarget(s) {
	const text = s.trim().replace(/^v/, "");
	const version = text ? parseVersionBase(text) : null;
	return version ? { text, version } : null;
}

// Every part stays below 2^53, where JavaScript's numbers are exact: beyond
// uint64 Go deliberately differs (see the package documentation).
const parse = [
	"", " ", "\t\n", "0.0.0", "1.2.3", "0.5.0-9159", "0.20.0", "10.20.30",
	"01.02.03", "000.000.001", "9007199254740991.0.1",
	" 1.2.3", "1.2.3 ", "\t1.2.3\n", "\u00a01.2.3\u3000", "\ufeff1.2.3\ufeff",
	"\u20281.2.3\u2029", "\u2000\u200a1.2.3\u202f\u205f\u1680", "\v\f\r1.2.3",
	"\u00851.2.3", "1.2.3\u0085", "\u180e1.2.3", "\u200b1.2.3",
	"1.2", "1.2.3.4", "1", "1.", ".1.2", "1..3", "1.2.", "..", ".", "-",
	"v1.2.3", "V1.2.3", "1.2.3+b", "1.2.3+b-1", "1.2.3-rc.1", "1.2.3-rc+1",
	"1.2.3-", "1.2.3--", "-1.2.3", "1.2-3.4", "1.2.3-4.5.6", "1.2.3 -x",
	"1.2 .3", "1. 2.3", "+1.2.3", "1.2.3x", "1.2.0x1", "1.2.1e3", "1.2.3.",
	"١.٢.٣", "１.２.３", "1.2.3\u0000", "1,2,3", "a.b.c", "1.2.-3",
	"1.2.3-\u00a0", "  -  ", "1.2.3-\n",
];

const side = [
	"1.2.3", "v1.2.3", "vv1.2.3", "V1.2.3", " v1.2.3", "v 1.2.3", "v\t1.2.3 ",
	"1.2.4", "1.3.0", "2.0.0", "0.20.0", "0.19.9", "0.20.0-5", "v0.20.0-rc.1",
	"0.5.0-9159", "0.5.0", "1.2", "v1.2", "latest", "", "v", "1.2.3+b",
	"01.2.3", "1.10.0", "1.9.0", "v9007199254740991.0.0", "9007199254740990.0.0",
];
const compare = [];
for (const a of side) for (const b of side) compare.push({ a, b, want: compareReleases(a, b) });

const target = [
	"0.20.0", " 0.20.0 ", "v0.20.0", " v0.20.0", "v0.20.0\n", "\tv0.20.0-rc.1\u3000",
	"\ufeffv0.20.0\ufeff", "v 0.20.0", "v\u00a00.20.0", "vv0.20.0", "V0.20.0",
	"\u00850.20.0", "\u0085v0.20.0", "v\u00850.20.0", "0.20.0\u0085", "",
	"  ", "v", " v ", "latest", "v0.20", "0.20.0-9159", "v0.5.0-", "1.2.3+b",
	"v9007199254740991.0.0",
];

const lines = (rows) => rows.map((r) => "\t\t" + JSON.stringify(r)).join(",\n");
console.log(`{
	"parse": [
${lines(parse.map((s) => ({ in: s, want: parseVersionBase(s) })))}
	],
	"compare": [
${lines(compare)}
	],
	"target": [
${lines(target.map((s) => ({ in: s, want: readTarget(s) })))}
	]
}`);
