// Writes ../load.json: every case of cases.mjs run through the npm yaml
// parser and zod as the orchestrator loads its scaler config, so that
// scalerconfig's Go tests compare against the real libraries without node.
// Each case is loaded by the rules of 0.16.0 (want), and of 0.14.0 and
// 0.12.0, whose results are written only where they differ (want014, else
// want012, else want; want012, else want), on the case's host (linux
// unless it says win32).
//
//   cd scalerconfig/testdata/gen && npm ci && node gen.mjs
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LineCounter, isAlias, isMap, isScalar, isSeq, parse, parseDocument } from 'yaml';
import { ZodError } from 'zod';
import { cases } from './cases.mjs';
import { fileSchema } from './schema.mjs';

// load is the orchestrator's loadScalerConfig on real files: the main file,
// then each drop-in's scalers appended, in JavaScript's default sort order.
// It returns the config as the schema leaves it, and where each of the
// merged scalers comes from (origin.parts, when anything was appended).
function load(root, main, dir, schema) {
  const config = parse(readFileSync(join(root, main), 'utf-8'));
  const origin = { appended: false, parts: [] };
  if (dir) {
    const names = readdirSync(join(root, dir))
      .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
      .sort();
    for (const name of names) {
      const rel = join(dir, name);
      const parsed = parse(readFileSync(join(root, rel), 'utf-8'));
      if (parsed?.scalers && Array.isArray(parsed.scalers)) {
        const existing = config.scalers ?? [];
        const before = [...existing];
        config.scalers = [...existing, ...parsed.scalers];
        if (!origin.appended) origin.parts.push({ file: main, count: before.length });
        origin.appended = true;
        origin.parts.push({ file: rel, count: parsed.scalers.length });
      }
    }
  }
  try {
    return { config: schema.parse(config), origin };
  } catch (err) {
    err.origin = origin;
    throw err;
  }
}

// tagged writes a parsed YAML value as JSON, keeping what JSON cannot say.
function tagged(v) {
  if (typeof v === 'number') {
    if (Number.isNaN(v) || !Number.isFinite(v) || Object.is(v, -0)) return { '\u0000num': String(Object.is(v, -0) ? '-0' : v) };
    return v;
  }
  if (typeof v === 'symbol') return { '\u0000symbol': v.description };
  if (v === undefined) return { '\u0000undefined': null };
  if (v instanceof Date) return { '\u0000date': v.getTime() };
  if (v instanceof Uint8Array) return { '\u0000bytes': [...v] };
  if (v instanceof Set) return { '\u0000set': [...v].map(tagged) };
  if (v instanceof Map) return { '\u0000map': [...v].map(([k, x]) => [tagged(k), tagged(x)]) };
  if (Array.isArray(v)) return v.map(tagged);
  if (v && typeof v === 'object') {
    const out = {};
    for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: tagged(v[k]), enumerable: true, configurable: true, writable: true });
    return out;
  }
  return v;
}

// Positions: the node an issue's path leads to, as far as the files have it.
function docs(root, c) {
  const out = {};
  for (const rel of Object.keys(c.files)) {
    const lc = new LineCounter();
    const text = readFileSync(join(root, rel), 'utf-8');
    const doc = parseDocument(text, { lineCounter: lc });
    out[rel] = { doc, lc, text };
  }
  return out;
}
const deref = (d, n) => (isAlias(n) ? n.resolve(d.doc) : n);
const keyOf = (p) => String(isScalar(p.key) ? p.key.value : p.key);
// child is the node at seg below node, with the key that names it.
function child(d, node, seg) {
  node = deref(d, node);
  if (typeof seg === 'number') return isSeq(node) && node.items[seg] ? { node: deref(d, node.items[seg]) } : undefined;
  // A Set's members are not properties.
  if (!isMap(node) || node.tag === 'tag:yaml.org,2002:set') return undefined;
  const pair = findPair(d, node, seg);
  return pair ? { node: deref(d, pair.value), key: pair.key } : undefined;
}
// A YAML 1.1 merge key ('<<'), which yaml reads as a symbol.
const isMerge = (p) => typeof p.key?.value === 'symbol';
// findPair is the pair of the mapping node that gives key its value, as
// the merged value has it: the mapping's own, else that of the first merge
// source (an alias, or a list of them) that has it, so that a merged key is
// placed where it is written, as Load places it.
function findPair(d, node, key, seen = new Set()) {
  const own = node.items.find((p) => !isMerge(p) && keyOf(p) === key);
  if (own) return own;
  seen.add(node);
  for (const p of node.items.filter(isMerge)) {
    const v = deref(d, p.value);
    for (const src of isSeq(v) ? v.items.map((n) => deref(d, n)) : [v]) {
      if (isMap(src) && !seen.has(src)) {
        const found = findPair(d, src, key, seen);
        if (found) return found;
      }
    }
  }
  return undefined;
}
function position(c, ds, origin, iss) {
  let file = c.main;
  let d = ds[file];
  let node = d.doc.contents;
  let path = iss.path;
  if (origin.appended && path[0] === 'scalers' && typeof path[1] === 'number') {
    let i = path[1];
    for (const part of origin.parts) {
      if (i < part.count) {
        file = part.file;
        d = ds[file];
        // An array's or a Set's entry is a node of the file; a string's
        // character, a Map's [key, value] pair or a Buffer's byte is placed
        // at the value spread.
        const seq = child(d, d.doc.contents, 'scalers').node;
        if (isSeq(seq) && seq.tag !== 'tag:yaml.org,2002:omap') node = seq.items[i];
        else if (isMap(seq) && seq.tag === 'tag:yaml.org,2002:set') node = seq.items[i].key;
        else node = seq;
        break;
      }
      i -= part.count;
    }
    path = path.slice(2);
  }
  node = deref(d, node);
  for (const seg of path) {
    const next = child(d, node, seg);
    if (next === undefined) break;
    node = next.node ?? next.key;
    if (next.node == null) break;
  }
  let at = node;
  if (iss.code === 'unrecognized_keys' && isMap(node)) {
    at = findPair(d, node, iss.keys[0])?.key ?? node;
  } else if (iss.params?.at !== undefined && isSeq(node)) {
    at = deref(d, node.items[iss.params.at]);
  } else if (iss.message.startsWith("Labels with 'kici:'") && isSeq(node)) {
    at = node.items.map((n) => deref(d, n)).find((n) => typeof n?.value === 'string' && n.value.toLowerCase().startsWith('kici:')) ?? node;
  }
  // The column in bytes: yaml counts UTF-16 code units.
  const offset = at?.range?.[0] ?? 0;
  const { line } = d.lc.linePos(offset);
  const start = d.lc.lineStarts[line - 1];
  return { file, line, col: Buffer.byteLength(d.text.slice(start, offset)) + 1 };
}

// wanted is what loading the case's files by schema gives: the config,
// the issues where they are, or the error.
function wanted(c, root, schema) {
  const want = {};
  try {
    const { config } = load(root, c.main, c.dir ?? '', schema);
    want.config = JSON.parse(JSON.stringify(config));
  } catch (err) {
    if (err instanceof ZodError) {
      const ds = docs(root, c);
      want.issues = err.issues.map((iss) => ({
        path: iss.path,
        message: iss.message,
        code: iss.code,
        ...position(c, ds, err.origin, iss),
      }));
    } else {
      want.error = { name: err.name, code: err.code ?? null, message: err.message };
    }
  }
  return want;
}

function run(c) {
  const root = mkdtempSync(join(tmpdir(), 'scalerconfig-'));
  try {
    for (const d of c.dirs ?? []) mkdirSync(join(root, d), { recursive: true });
    for (const [rel, text] of Object.entries(c.files)) {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
    }
    const parsed = {};
    for (const rel of Object.keys(c.files)) {
      try {
        parsed[rel] = { value: tagged(parse(readFileSync(join(root, rel), 'utf-8'))) };
      } catch (err) {
        parsed[rel] = { error: err.code ?? err.name };
      }
    }
    const host = c.host ?? 'linux';
    const want = wanted(c, root, fileSchema('0.16', host));
    const want014 = wanted(c, root, fileSchema('0.14', host));
    const want012 = wanted(c, root, fileSchema('0.12', host));
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const out = { name: c.name, note: c.note, host, files: c.files, dirs: c.dirs ?? [], main: c.main, dir: c.dir ?? '', parsed, want };
    if (!same(want012, want)) out.want012 = want012;
    if (!same(want014, out.want012 ?? want)) out.want014 = want014;
    return out;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const seen = new Set();
const out = cases.map((c) => {
  if (seen.has(c.name)) throw new Error(`duplicate case name ${c.name}`);
  seen.add(c.name);
  return run(c);
});
writeFileSync(new URL('../load.json', import.meta.url), JSON.stringify(out, null, 1) + '\n');
console.log(`${out.length} cases`);

// The orchestrator's readEnvValue, and what it reads from each env file
// of envCases: the value of KICI_SCALER_CONFIG_PATH and _DIR, or null.
function readEnvValue(content, key) {
  let value;
  for (const line of content.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const i = t.indexOf('=');
    if (i > 0 && t.slice(0, i) === key) value = t.slice(i + 1).trim().replace(/^["']|["']$/g, '');
  }
  return value;
}
const envCases = [
  'KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\n',
  'KICI_SCALER_CONFIG_PATH=/etc/kici/scalers.yaml\nKICI_SCALER_CONFIG_DIR=/etc/kici/scalers.d\n',
  'KICI_SCALER_CONFIG_PATH = /x\n',
  'export KICI_SCALER_CONFIG_PATH=/x\n',
  '  KICI_SCALER_CONFIG_PATH=  "/etc/kici/s.yaml"  \r\n',
  "KICI_SCALER_CONFIG_PATH='/a'\n",
  'KICI_SCALER_CONFIG_PATH="/a\'\n',
  'KICI_SCALER_CONFIG_PATH="\n',
  'KICI_SCALER_CONFIG_PATH=""\n',
  'KICI_SCALER_CONFIG_PATH=\n',
  'KICI_SCALER_CONFIG_PATH=/first\nKICI_SCALER_CONFIG_PATH=/second\n',
  'KICI_SCALER_CONFIG_PATH=/first\nKICI_SCALER_CONFIG_PATH=\n',
  '# KICI_SCALER_CONFIG_PATH=/commented\n',
  '\u00a0KICI_SCALER_CONFIG_PATH=/nbsp\u3000\n',
  '\u0085KICI_SCALER_CONFIG_PATH=/nel\n',
  'KICI_SCALER_CONFIG_PATH=relative/s.yaml\nKICI_SCALER_CONFIG_DIR=./d\n',
  'KICI_SCALER_CONFIG_PATH=/a=b=c\n',
  '=x\nKICI_SCALER_CONFIG_PATH\nKICI_SCALER_CONFIG_PATHX=/no\n',
  'KICI_SCALER_CONFIG_DIR=/only-dir\n',
  'KICI_SCALER_CONFIG_PATH="\'/x\'"\n',
  'KICI_SCALER_CONFIG_PATH=C:\\kici\\scalers.yaml\r\nKICI_SCALER_CONFIG_DIR=scalers.d\r\n',
  'KICI_SCALER_CONFIG_PATH=/x\rKICI_SCALER_CONFIG_DIR=/y\n',
  '',
];
writeFileSync(
  new URL('../env.json', import.meta.url),
  JSON.stringify(
    envCases.map((content) => ({
      content,
      path: readEnvValue(content, 'KICI_SCALER_CONFIG_PATH') ?? null,
      dir: readEnvValue(content, 'KICI_SCALER_CONFIG_DIR') ?? null,
    })),
    null,
    1,
  ) + '\n',
);
