// The orchestrator's scaler config schema, transcribed in zod from its
// published facts (field by field: type, optionality, default, checks,
// refinements and their messages), so that zod itself says which issues a
// config gets and in what order. scalerconfig must agree with it exactly.
//
// fileSchema(rules, host) is the schema of one line of releases: '0.16'
// (config.ts at 84ac3cd, which 0.17.0 to 0.20.0 keep), '0.14' (b9d436e and
// 221047e: 0.14.0 and 0.15.x) or '0.12' (0b46a9a). host is the orchestrator
// host's process.platform, which the batch-file binaryPath rule of '0.14'
// and '0.16' reads.
import { isIP } from 'node:net';
import { z } from 'zod';

// Labels: JavaScript's trim() then toLowerCase(), order and duplicates kept.
const canonical = (labels) => labels.map((l) => l.trim().toLowerCase());
const reserved = (labels) => labels.some((l) => l.toLowerCase().startsWith('kici:'));

// The plain platform labels that taint a pool when a label set declares one.
const TAINTS = new Set(['windows', 'win32', 'macos', 'darwin', 'arm64', 'aarch64', 'arm']);
function labelTaints(labels) {
  const out = new Set();
  for (const l of labels) if (TAINTS.has(l.toLowerCase())) out.add(l.toLowerCase());
  return [...out];
}
function platformTaints(p) {
  const out = [];
  if (p.os === 'macos') out.push('macos');
  else if (p.os === 'windows') out.push('windows');
  if (p.arch === 'arm64') out.push('arm64');
  return out;
}

// "512m" -> bytes; the error texts are the orchestrator's.
export function memoryBytes(s) {
  const m = s.match(/^(\d+(?:\.\d+)?)\s*([kmgKMG])$/);
  if (!m) throw new Error(`Invalid memory format: "${s}". Expected format like "512m", "2g", or "1024k".`);
  const v = parseFloat(m[1]);
  const unit = m[2].toLowerCase();
  if (unit === 'k') return Math.floor(v * 1024);
  if (unit === 'm') return Math.floor(v * 1024 * 1024);
  return Math.floor(v * 1024 * 1024 * 1024);
}

const HOSTNAME =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

// A firecracker scaler's extraHosts entry: host:address.
export function checkExtraHost(entry) {
  const i = entry.indexOf(':');
  const host = i < 0 ? '' : entry.slice(0, i);
  const addr = i < 0 ? '' : entry.slice(i + 1);
  if (host === '' || addr === '') throw new Error(`extraHosts entry "${entry}" must be host:address`);
  if (!HOSTNAME.test(host)) throw new Error(`extraHosts entry "${entry}": "${host}" is not a valid hostname`);
  if (addr !== 'host-gateway' && isIP(addr) === 0) {
    throw new Error(`extraHosts entry "${entry}": the address must be an IP address or host-gateway`);
  }
}

const IPV4CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;
function ipv4OrCidr(s) {
  const m = IPV4CIDR.exec(s);
  if (!m) return false;
  for (let i = 1; i <= 4; i++) if (Number(m[i]) > 255) return false;
  return m[5] === undefined || Number(m[5]) <= 32;
}
function hostAccessPort(v, entry) {
  if (!/^\d+$/.test(v)) throw new Error(`hostAccess entry "${entry}" has a non-numeric port "${v}"`);
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`hostAccess entry "${entry}" has port ${v}, outside 1-65535`);
}
// A network policy's hostAccess entry: <cidr|address|*>[:<port|*>].
export function checkHostAccess(entry) {
  const t = entry.trim();
  if (t.length === 0) throw new Error('hostAccess entry is empty');
  if (/^\d+$/.test(t)) return hostAccessPort(t, entry);
  const c = t.lastIndexOf(':');
  const addr = c < 0 ? t : t.slice(0, c);
  const port = c < 0 ? null : t.slice(c + 1);
  if (addr !== '*' && !ipv4OrCidr(addr)) {
    throw new Error(
      `hostAccess entry "${entry}" names "${addr}", which is not an IPv4 address, ` +
        `an IPv4 CIDR, or "*". Hostnames are not accepted — nftables matches addresses, and a ` +
        `name resolved at rule-build time goes stale without warning.`,
    );
  }
  if (port !== null && port !== '*') hostAccessPort(port, entry);
}

// A bare-metal binaryPath that cmd.exe runs (a .cmd or .bat file) is
// refused on a Windows host when cmd.exe would read one of its characters
// as syntax: outside quotes (no space or tab in the path) any of "%^&|<>(),;=,
// inside them (with one) any of "%^. The message names the first.
export function batchRefusal(path, host) {
  if (host !== 'win32' || !/\.(cmd|bat)$/i.test(path)) return null;
  const bad = /[ \t]/.test(path) ? /["%^]/ : /["%^&|<>(),;=]/;
  const m = bad.exec(path);
  if (!m) return null;
  return (
    `cannot run "${path}" as a bare-metal agent: it contains "${m[0]}", which cmd.exe ` +
    'reads as syntax when it runs the batch file. Move the agent to a path without it.'
  );
}

const PLATFORM_LABELS = TAINTS; // the plain labels 0.16 refuses without a platform

export function fileSchema(rules = '0.16', host = 'linux') {
  const newest = rules === '0.16';
  const batch = rules !== '0.12';

  // 0.16's resource spec is the engine's, cpus first; 0.12's has memory first.
  const cpus = z.number().positive().max(256).optional();
  const memory = z.string().optional();
  const spec = (newest ? z.object({ cpus, memory }) : z.object({ memory, cpus })).strict();
  const nested = z.object({ requests: spec.optional(), limits: spec.optional() }).strict();
  const resources = newest
    ? z.preprocess((v, ctx) => {
        // An object with a cpus or memory key, whatever else it holds.
        if (v && typeof v === 'object' && ('cpus' in v || 'memory' in v)) {
          ctx.addIssue({
            code: 'custom',
            message: 'resources takes { requests, limits }: nest cpus and memory under limits (a limit alone also sets the request)',
          });
          return z.NEVER;
        }
        return v;
      }, nested)
    : z.union([nested, spec]).transform((v) => {
        if ('cpus' in v || 'memory' in v) {
          if (v.cpus === undefined && v.memory === undefined) return {};
          return { requests: { ...v }, limits: { ...v } };
        }
        return v;
      });

  const cap = z
    .object({ maxCpu: z.number().positive().optional(), maxMemory: z.string().optional() })
    .strict()
    .transform((v, ctx) => {
      let bytes;
      if (v.maxMemory !== undefined) {
        try {
          bytes = memoryBytes(v.maxMemory);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: err.message, path: ['maxMemory'] });
          return z.NEVER;
        }
      }
      return { maxCpu: v.maxCpu, maxMemoryBytes: bytes };
    });

  const posInt = () => z.number().int().positive();

  const labelSet = z
    .object({
      labels: z
        .array(z.string())
        .min(1)
        .refine((l) => !reserved(l), {
          message: "Labels with 'kici:' prefix are reserved and cannot be used in scaler labelSets",
        })
        .transform(canonical),
      image: z.string().optional(),
      imagePullPolicy: z.enum(['Always', 'IfNotPresent', 'Never']).default('IfNotPresent'),
      binaryPath: z.string().optional(),
      resources: resources.optional(),
      volumes: z.array(z.string()).optional(),
      containerSocket: z.boolean().default(false),
      env: z.record(z.string(), z.string()).optional(),
      backpressureMode: z.enum(['pause', 'drop']).optional(),
      networkPolicy: z
        .object({
          allowlist: z.array(z.string()).optional(),
          denyAll: z.boolean().default(false),
          hostAccess: z
            .array(z.string())
            .optional()
            .superRefine((entries, ctx) => {
              // params.at is not the orchestrator's: it tells the position
              // oracle which entry the issue is about.
              (entries ?? []).forEach((e, at) => {
                try {
                  checkHostAccess(e);
                } catch (err) {
                  ctx.addIssue({ code: 'custom', message: err.message, params: { at } });
                }
              });
            }),
        })
        .optional(),
      rootfsPath: z.string().optional(),
      kernelPath: z.string().optional(),
      vcpuCount: posInt().optional(),
      memSizeMib: posInt().optional(),
      overlayDriveSizeMib: posInt().optional(),
    })
    .strict();

  const scaler = z
    .object({
      name: z.string(),
      type: z.enum(['container', 'bare-metal', 'firecracker', 'event']),
      maxAgents: posInt(),
      maxConcurrentSpawns: posInt().default(8),
      labelSets: z.array(labelSet).min(1),
      host: z.string().optional(),
      socketPath: z.string().optional(),
      runtime: z.enum(['docker', 'podman', 'auto']).default('auto'),
      orchestratorUrl: z.string().optional(),
      extraHosts: z.array(z.string()).optional(),
      networkIsolation: z.boolean().default(true),
      warmPool: z
        .object({
          enabled: z.boolean().default(false),
          size: z.number().int().nonnegative().default(0),
          idleTimeoutSeconds: z.number().default(300),
        })
        .optional(),
      mandatoryLabels: z
        .array(z.string())
        .default([])
        .refine((l) => !reserved(l), {
          message: "Labels with 'kici:' prefix are reserved and cannot be used in mandatoryLabels",
        })
        .transform(canonical),
      platform: z.object({ os: z.enum(['linux', 'macos', 'windows']), arch: z.enum(['x64', 'arm64']) }).strict().optional(),
      roles: z
        .array(z.enum(['builder', 'init-runner', 'all']))
        .optional()
        .transform((r) => {
          if (!r || r.includes('all')) return undefined;
          if (r.length === 0) return [];
          return r.filter((x) => x !== 'all');
        }),
      resourceCap: cap.optional(),
      machinePool: z.string().optional(),
      enforceCgroups: z.boolean().default(false),
      firecrackerPath: z.string().optional(),
      jailerPath: z.string().optional(),
      kernelPath: z.string().optional(),
      chrootBaseDir: z.string().default('/srv/jailer'),
      uid: z.number().int().optional(),
      gid: z.number().int().optional(),
      vcpuCount: posInt().default(2),
      memSizeMib: posInt().default(512),
      requireSudo: z.boolean().default(false),
      provisioningTargets: z.array(z.string().min(1)).optional(),
      claimTtlSeconds: posInt().default(300),
      agentTokenTtlSeconds: posInt().default(600),
    })
    .strict()
    .superRefine((s, ctx) => {
      const add = (message, path, params) => ctx.addIssue({ code: 'custom', message, path, ...(params ? { params } : {}) });
      if (s.type === 'event' && (!s.provisioningTargets || s.provisioningTargets.length === 0)) {
        add(
          `Event scaler "${s.name}" requires a non-empty 'provisioningTargets' array (workflow refs the scale-up/scale-down events are delivered to)`,
          ['provisioningTargets'],
        );
      }
      if (s.type === 'container') {
        s.labelSets.forEach((ls, i) => {
          if (!ls.image) add(`Container scaler "${s.name}" label set [${i}] requires an 'image' field`, ['labelSets', i, 'image']);
        });
      }
      if (s.type === 'bare-metal') {
        s.labelSets.forEach((ls, i) => {
          if (!ls.binaryPath && !ls.image) {
            add(
              `Bare-metal scaler "${s.name}" label set [${i}] requires a 'binaryPath' (spawn a local agent process) or an 'image' (run the job's own container image as the agent, with the KiCI runtime injected)`,
              ['labelSets', i, 'binaryPath'],
            );
          }
          const refusal = batch && ls.binaryPath ? batchRefusal(ls.binaryPath, host) : null;
          if (refusal) add(`Bare-metal scaler "${s.name}" label set [${i}]: ${refusal}`, ['labelSets', i, 'binaryPath']);
        });
      }
      if (newest && !s.platform) {
        s.labelSets.forEach((ls, i) => {
          // params.at is not the orchestrator's: it places the issue at the label.
          ls.labels.forEach((label, at) => {
            if (PLATFORM_LABELS.has(label.toLowerCase())) {
              add(
                `Scaler "${s.name}" labelSets[${i}]: label "${label}" names a platform; declare platform: { os, arch } instead`,
                ['labelSets', i, 'labels'],
                { at },
              );
            }
          });
        });
      }
      const structured = s.platform ? platformTaints(s.platform) : [];
      s.labelSets.forEach((ls, i) => {
        const gate = new Set([
          ...s.mandatoryLabels.map((l) => l.toLowerCase()),
          ...structured.map((l) => l.toLowerCase()),
          ...(newest ? [] : labelTaints(ls.labels)),
        ]);
        if (gate.size === 0) return;
        const reach = new Set([...ls.labels.map((l) => l.toLowerCase()), ...structured.map((l) => l.toLowerCase())]);
        for (const g of gate) {
          if (!reach.has(g)) {
            add(
              `Scaler "${s.name}" gate label "${g}" is missing from labelSets[${i}].labels — every label in a label set's gate must be requestable on that label set, otherwise no job can route to it`,
              ['labelSets', i, 'labels'],
            );
          }
        }
      });
      if (s.type === 'firecracker') {
        for (const f of ['firecrackerPath', 'jailerPath', 'kernelPath']) {
          if (!s[f]) add(`Firecracker scaler "${s.name}" requires a '${f}' field`, [f]);
        }
        for (const f of ['uid', 'gid']) {
          if (s[f] === undefined) add(`Firecracker scaler "${s.name}" requires a '${f}' field`, [f]);
        }
        (s.extraHosts ?? []).forEach((e, i) => {
          try {
            checkExtraHost(e);
          } catch (err) {
            add(`Firecracker scaler "${s.name}" extraHosts[${i}]: ${err.message}`, ['extraHosts', i]);
          }
        });
        s.labelSets.forEach((ls, i) => {
          if (!ls.rootfsPath) add(`Firecracker scaler "${s.name}" label set [${i}] requires a 'rootfsPath' field`, ['labelSets', i, 'rootfsPath']);
        });
      }
    });

  return z
    .object({
      version: z.literal(1),
      globalMaxAgents: posInt().default(50),
      defaults: z.object({ resources: resources.optional() }).optional(),
      globalResourceCap: cap.optional(),
      machinePools: z.array(z.object({ name: z.string().min(1), cap }).strict()).optional(),
      scalers: z.array(scaler),
      firecracker: z
        .object({
          cidr: z.string().default('10.0.0.0/24'),
          bridgeName: z.string().default('kici-br0'),
          gateway: z.string().default('10.0.0.1'),
          netmask: z.string().default('255.255.255.0'),
          table: z.string().default('kici'),
          autoProvisionHost: z.boolean().default(true),
        })
        .optional(),
    })
    .superRefine((c, ctx) => {
      const pools = new Set((c.machinePools ?? []).map((p) => p.name));
      c.scalers.forEach((s, i) => {
        if (s.machinePool !== undefined && !pools.has(s.machinePool)) {
          ctx.addIssue({
            code: 'custom',
            message: `Scaler "${s.name}" references unknown machinePool "${s.machinePool}". Define it under top-level machinePools[].`,
            path: ['scalers', i, 'machinePool'],
          });
        }
      });
      const seen = new Set();
      (c.machinePools ?? []).forEach((p, i) => {
        if (seen.has(p.name)) {
          ctx.addIssue({ code: 'custom', message: `Duplicate machinePool name "${p.name}".`, path: ['machinePools', i, 'name'] });
        }
        seen.add(p.name);
      });
    });
}
