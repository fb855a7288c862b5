// Generates seed.json: the findings the KiCI orchestrator 0.20.0's upgrade
// check reports about container-scaler agent images, for the configs and
// target versions listed here. The Go tests check that CheckAgentImages
// reports exactly these as "moving-tag" and "older-pin".
//
// The functions below are an independent transcription of that release's
// behaviour, written for kicikit; they are not the orchestrator's code. The
// message texts are facts the library must reproduce word for word, so they
// are kept as the templates below.
//
// Regenerate from this folder with: node seed.mjs > seed.json

const AGENT = "kici-agent";
const LATEST = "latest";
const DEFAULT_POLICY = "IfNotPresent";

// release answers [major, minor, patch], or null: trimmed, cut at the first
// "-", then exactly three dot-separated runs of ASCII digits.
function release(text) {
	const parts = text.trim().split("-", 1)[0].split(".");
	return parts.length === 3 && parts.every((p) => /^[0-9]+$/.test(p)) ? parts.map(Number) : null;
}

const withoutV = (text) => (text.startsWith("v") ? text.slice(1) : text);

// isOlder reports whether tag names an older release than target; false
// when either is no release.
function isOlder(tag, target) {
	const a = release(withoutV(tag));
	const b = release(withoutV(target));
	if (a === null || b === null) return false;
	const k = a.findIndex((n, i) => n !== b[i]);
	return k !== -1 && a[k] < b[k];
}

// reference splits [registry/]path/name[:tag][@digest]. The digest is
// everything after the first "@" (possibly empty); the tag follows the
// last ":" of the rest, unless a "/" comes after that ":", which makes it
// a registry port. Absent parts are null.
function reference(image) {
	const at = image.indexOf("@");
	const name = at < 0 ? image : image.slice(0, at);
	const digest = at < 0 ? null : image.slice(at + 1);
	const colon = name.lastIndexOf(":");
	const tagged = colon > name.lastIndexOf("/");
	return {
		repository: tagged ? name.slice(0, colon) : name,
		tag: tagged ? name.slice(colon + 1) : null,
		digest,
	};
}

// namesAgent reports whether the last path segment of a repository, under
// any registry or mirror, is the agent image's name.
const namesAgent = (repository) => repository.split("/").pop() === AGENT;

// targetOf reads the upgrade's target version: trimmed, one leading "v"
// dropped, kept only when it is a release. null when absent or unusable.
function targetOf(raw) {
	if (raw === undefined || raw === null) return null;
	const text = withoutV(raw.trim());
	return release(text) === null ? null : text;
}

// agentImageFindings lists, in config order, every container label set
// whose agent image an upgrade to run.targetVersion would leave unchanged.
function agentImageFindings(config, run) {
	const target = targetOf(run.targetVersion);
	const where = run.scalerConfigDir
		? `${run.scalerConfigPath} (or the file under ${run.scalerConfigDir} that declares it)`
		: run.scalerConfigPath;
	const out = [];
	for (const scaler of config.scalers.filter((s) => s.type === "container")) {
		for (const set of scaler.labelSets) {
			const finding = judge(set, target, where);
			if (finding === null) continue;
			const [issue, text] = finding;
			const head = `container scaler "${scaler.name}", label set [${set.labels.join(", ")}]: image ${set.image}`;
			out.push({ issue, scaler: scaler.name, labels: set.labels, image: set.image, message: `${head} ${text}` });
		}
	}
	return out;
}

// judge answers [issue, message tail] for one label set, or null when its
// image is fine, missing, or not the agent's.
function judge(set, target, where) {
	if (!set.image) return null;
	const ref = reference(set.image);
	if (!namesAgent(ref.repository)) return null;
	const pinned = `${ref.repository}:${target}`;
	const floating = ref.tag === null || ref.tag === LATEST;
	const reused = (set.imagePullPolicy ?? DEFAULT_POLICY) === DEFAULT_POLICY;
	if (floating && ref.digest === null && reused) {
		const fix = target === null
			? `set image to the kici-agent release you upgrade to (${ref.repository}:<version>)`
			: `set "image: ${pinned}"`;
		return ["moving-tag", `with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In ${where}, ${fix} on this label set, or set "imagePullPolicy: Always" to pull ${LATEST} on every spawn.`];
	}
	if (target !== null && ref.tag !== null && isOlder(ref.tag, target)) {
		return ["older-pin", `is older than the upgrade target ${target}, so the container agents keep running ${ref.tag}. In ${where}, set "image: ${pinned}" on this label set.`];
	}
	return null;
}

const hex = "0123456789abcdef".repeat(4);
const images = [
	"kici-agent", "kici-agent:latest", "kici-agent:0.19.0", "kici-agent:0.20.0",
	"kici-agent:0.21.0", "kici-agent:v0.19.0", "kici-agent:0.19.0-123",
	"kici-agent:0.20.0-5", "kici-agent:stable", "kici-agent:0.20", "kici-agent:v1",
	"kici-agent:LATEST", "quay.io/kici/kici-agent", "quay.io/kici/kici-agent:0.19.0",
	"registry.local:5000/kici-agent", `registry.local:5000/kici-agent:latest@sha256:${hex}`,
	`kici-agent@sha256:${hex}`, `kici-agent:0.19.0@sha256:${hex}`, "kici-agent:",
	"kici-agent@", "kici-agent: 0.19.0", "Quay.io/Kici/kici-agent:0.19.0",
	"kici-agent:latest@", "ubuntu:22.04", "kici-agent-dev:latest", "mirror/kici-agent:0.19.0",
	// Parts read as JavaScript numbers: any number of digits, equal once rounded.
	"kici-agent:0.0.99999999999999999999", "kici-agent:0.20.9007199254740992", "kici-agent:v0.21.18446744073709551616",
];
const policies = [undefined, "IfNotPresent", "Always", "Never"];
const labelSets = images.flatMap((image, i) => policies.map((policy) => ({
	labels: ["linux", `i${i}`, policy ?? "default"],
	image,
	...(policy ? { imagePullPolicy: policy } : {}),
})));
const config = {
	scalers: [
		{ name: "docker", type: "container", labelSets },
		{ name: "metal", type: "bare-metal", labelSets: [{ labels: ["metal"], image: "kici-agent" }] },
		{ name: "upper", type: "Container", labelSets: [{ labels: ["upper"], image: "kici-agent" }] },
		{ name: "sparse", type: "container", labelSets: [{ labels: ["no-image"] }, { labels: [], image: "" }, { labels: [], image: "kici-agent" }] },
	],
};
const scalerConfigPath = "/etc/kici/scalers.yaml";
const scalerConfigDir = "/etc/kici/scalers.d";
const targets = [undefined, "", "0.20.0", " v0.20.0 ", "v0.20.0-rc.1", "v 0.20.0", "vv0.20.0", "0.20", "latest", "\u00a00.20.0\ufeff",
	"0.20.9007199254740993", "0.21.99999999999999999999"];
// JSON.stringify leaves out a targetVersion that is undefined.
const runs = [
	...targets.map((targetVersion) => ({ targetVersion, scalerConfigPath })),
	{ targetVersion: "0.20.0", scalerConfigPath, scalerConfigDir },
	{ scalerConfigPath, scalerConfigDir },
];

// One run, and one finding, a line, so that a regenerated file diffs row by row.
const runLine = (run) => {
	const findings = agentImageFindings(config, run).map((f) => `\t\t\t${JSON.stringify(f)}`);
	return `\t\t{"input": ${JSON.stringify(run)}, "findings": [\n${findings.join(",\n")}\n\t\t]}`;
};
process.stdout.write(`{\n\t"config": ${JSON.stringify(config)},\n\t"runs": [\n${runs.map(runLine).join(",\n")}\n\t]\n}\n`);
