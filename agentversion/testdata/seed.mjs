// Generates seed.json: how the KiCI orchestrator 0.20.0 reads an agent
// release (MAJOR.MINOR.PATCH), orders two releases, and reads an upgrade's
// target version, for the inputs listed here. The Go tests compare Parse,
// Compare and ParseTarget against it.
//
// The functions below are an independent transcription of that release's
// behaviour, written for kicikit; they are not the orchestrator's code. What
// they keep on purpose are the JavaScript semantics the answers hang on:
// String.prototype.trim's notion of white space, split on "-" and ".", and
// Number over ASCII digits (exact below 2^53).
//
// Regenerate from this folder with: node seed.mjs > seed.json

// release answers [major, minor, patch] for text such as " 0.5.0-9159 ", or
// null. Everything from the first "-" on is a build counter and is ignored,
// so "0.5.0-9159" is 0.5.0. Each of the three parts is one or more ASCII
// digits, nothing else: no sign, no "v", no inner white space.
function release(text) {
	const [core] = text.trim().split("-", 1);
	const parts = core.split(".");
	const isDigits = (part) => /^[0-9]+$/.test(part);
	return parts.length === 3 && parts.every(isDigits) ? parts.map(Number) : null;
}

// withoutV drops a single leading lower-case "v", as an image tag or a
// command-line version may carry one. It runs before any trimming, so
// " v1.2.3" keeps its "v" and is no release.
const withoutV = (text) => (text.startsWith("v") ? text.slice(1) : text);

// order answers -1, 0 or 1 as release a is older than, the same as or newer
// than release b, comparing major, then minor, then patch; null when either
// side is no release.
function order(a, b) {
	const left = release(withoutV(a));
	const right = release(withoutV(b));
	if (left === null || right === null) return null;
	const k = left.findIndex((n, i) => n !== right[i]);
	if (k === -1) return 0;
	return left[k] < right[k] ? -1 : 1;
}

// upgradeTarget is how the upgrade check reads its target version: trimmed
// first, then one leading "v" dropped; the result is the text its messages
// quote. null when what is left is no release.
function upgradeTarget(raw) {
	const text = withoutV(raw.trim());
	const version = release(text);
	return version === null ? null : { text, version };
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

const target = [
	"0.20.0", " 0.20.0 ", "v0.20.0", " v0.20.0", "v0.20.0\n", "\tv0.20.0-rc.1\u3000",
	"\ufeffv0.20.0\ufeff", "v 0.20.0", "v\u00a00.20.0", "vv0.20.0", "V0.20.0",
	"\u00850.20.0", "\u0085v0.20.0", "v\u00850.20.0", "0.20.0\u0085", "",
	"  ", "v", " v ", "latest", "v0.20", "0.20.0-9159", "v0.5.0-", "1.2.3+b",
	"v9007199254740991.0.0",
];

const tables = {
	parse: parse.map((s) => ({ in: s, want: release(s) })),
	compare: side.flatMap((a) => side.map((b) => ({ a, b, want: order(a, b) }))),
	target: target.map((s) => ({ in: s, want: upgradeTarget(s) })),
};

// One row a line, so that a regenerated file diffs row by row.
const section = ([name, rows]) =>
	`\t${JSON.stringify(name)}: [\n${rows.map((row) => `\t\t${JSON.stringify(row)}`).join(",\n")}\n\t]`;
process.stdout.write(`{\n${Object.entries(tables).map(section).join(",\n")}\n}\n`);
