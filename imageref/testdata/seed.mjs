// Generates seed.json: the findings of the KiCI orchestrator 0.20.0's own
// checkContainerAgentImages (copied verbatim below, with the helpers it
// calls, from its dist/cli.js) for the configs listed here. The Go tests
// check that CheckAgentImages reports exactly these as "moving-tag" and
// "older-pin".
//
// Regenerate from this folder with: node seed.mjs > seed.json

// The enums the orchestrator imports, reduced to the values used here.
const ScalerBackendType = { enum: { container: "container" } };
const ImagePullPolicy = { enum: { IfNotPresent: "IfNotPresent" } };

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
const AGENT_IMAGE_NAME = "kici-agent";
const LATEST_TAG = "latest";
function parseImageRef(image) {
	const at = image.indexOf("@");
	const named = at === -1 ? image : image.slice(0, at);
	const digest = at === -1 ? null : image.slice(at + 1);
	const colon = named.lastIndexOf(":");
	if (colon > named.lastIndexOf("/")) return {
		repository: named.slice(0, colon),
		tag: named.slice(colon + 1),
		digest
	};
	return {
		repository: named,
		tag: null,
		digest
	};
}
function isAgentImage(repository) {
	return repository.slice(repository.lastIndexOf("/") + 1) === AGENT_IMAGE_NAME;
}
function compareReleases(a, b) {
	const left = parseVersionBase(a.replace(/^v/, ""));
	const right = parseVersionBase(b.replace(/^v/, ""));
	if (!left || !right) return null;
	for (let i = 0; i < 3; i++) if (left[i] !== right[i]) return left[i] < right[i] ? -1 : 1;
	return 0;
}
function checkContainerAgentImages(args) {
	const { config } = args;
	const bare = args.targetVersion?.trim().replace(/^v/, "") ?? null;
	const targetVersion = bare && parseVersionBase(bare) ? bare : null;
	const where = args.scalerConfigDir ? `${args.scalerConfigPath} (or the file under ${args.scalerConfigDir} that declares it)` : args.scalerConfigPath;
	const findings = [];
	for (const entry of config.scalers) {
		if (entry.type !== ScalerBackendType.enum.container) continue;
		for (const ls of entry.labelSets) {
			if (!ls.image) continue;
			const ref = parseImageRef(ls.image);
			if (!isAgentImage(ref.repository)) continue;
			const pinned = targetVersion ? `${ref.repository}:${targetVersion}` : null;
			const prefix = `container scaler "${entry.name}", label set [${ls.labels.join(", ")}]: image ${ls.image}`;
			const finding = (issue, message) => ({
				issue,
				scaler: entry.name,
				labels: ls.labels,
				image: ls.image,
				message: `${prefix} ${message}`
			});
			const policy = ls.imagePullPolicy ?? ImagePullPolicy.enum.IfNotPresent;
			if ((ref.tag === null || ref.tag === LATEST_TAG) && ref.digest === null && policy === ImagePullPolicy.enum.IfNotPresent) {
				const pin = pinned ? `set "image: ${pinned}"` : `set image to the kici-agent release you upgrade to (${ref.repository}:<version>)`;
				findings.push(finding("moving-tag", `with imagePullPolicy IfNotPresent keeps the agent image this host already pulled, so the upgrade does not change the container agents. In ${where}, ${pin} on this label set, or set "imagePullPolicy: Always" to pull ${LATEST_TAG} on every spawn.`));
				continue;
			}
			if (!targetVersion || ref.tag === null) continue;
			if (compareReleases(ref.tag, targetVersion) === -1) findings.push(finding("older-pin", `is older than the upgrade target ${targetVersion}, so the container agents keep running ${ref.tag}. In ${where}, set "image: ${pinned}" on this label set.`));
		}
	}
	return findings;
}
// ---- end of the verbatim copy ----

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
];
const policies = [undefined, "IfNotPresent", "Always", "Never"];
const labelSets = [];
images.forEach((image, i) => policies.forEach((policy) => {
	labelSets.push({ labels: ["linux", `i${i}`, policy ?? "default"], image, ...(policy ? { imagePullPolicy: policy } : {}) });
}));
const config = {
	scalers: [
		{ name: "docker", type: "container", labelSets },
		{ name: "metal", type: "bare-metal", labelSets: [{ labels: ["metal"], image: "kici-agent" }] },
		{ name: "upper", type: "Container", labelSets: [{ labels: ["upper"], image: "kici-agent" }] },
		{ name: "sparse", type: "container", labelSets: [{ labels: ["no-image"] }, { labels: [], image: "" }, { labels: [], image: "kici-agent" }] },
	],
};
const runs = [];
for (const targetVersion of [undefined, "", "0.20.0", " v0.20.0 ", "v0.20.0-rc.1", "v 0.20.0", "vv0.20.0", "0.20", "latest", "\u00a00.20.0\ufeff"]) {
	runs.push({ targetVersion, scalerConfigPath: "/etc/kici/scalers.yaml" });
}
runs.push({ targetVersion: "0.20.0", scalerConfigPath: "/etc/kici/scalers.yaml", scalerConfigDir: "/etc/kici/scalers.d" });
runs.push({ scalerConfigPath: "/etc/kici/scalers.yaml", scalerConfigDir: "/etc/kici/scalers.d" });

const out = runs.map((run) => ({ ...run, findings: checkContainerAgentImages({ config, ...run }) }));
console.log(`{
	"config": ${JSON.stringify(config)},
	"runs": [
${out.map((run) => {
	const { findings, ...input } = run;
	return `\t\t{"input": ${JSON.stringify(input)}, "findings": [\n${findings.map((f) => "\t\t\t" + JSON.stringify(f)).join(",\n")}\n\t\t]}`;
}).join(",\n")}
	]
}`);
