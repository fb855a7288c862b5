// gen.js writes ../corpus.json: for every case of cases.js, what the npm
// package yaml (the version package.json pins) returns or throws for the case's
// bytes, read as the orchestrator reads its config: fs.readFile(path,
// 'utf-8') (invalid UTF-8 becomes U+FFFD, a BOM stays U+FEFF), then
// YAML.parse(text) with default options.
//
// Run: npm ci && node gen.js
//
// JSON cannot hold every JavaScript value, so a value is written as a tree of
// tagged objects:
//
//	{"t":"null"} {"t":"bool","v":true} {"t":"str","v":"..."}
//	{"t":"num","v":"-0"}   the number as String() writes it, "-0" for -0
//	{"t":"seq","id":1,"items":[...]}
//	{"t":"map","id":2,"pairs":[["key",[off,line,col],{...}], ...]}
//	{"t":"ref","id":1}     the same object as the one with that id
//	{"t":"bytes","v":"aGk="}  a Buffer (!!binary), base64
//	{"t":"date","v":"1008288000000"}  a Date (!!timestamp), its time value
//	{"t":"symbol","v":"<<"}  a Symbol (!!merge as a value), its description
//	{"t":"set","id":3,"items":[...]}  a Set (!!set), its members
//	{"t":"omap","id":4,"pairs":[[{key},{value}], ...]}  a Map (!!omap)
//
// A string holding a lone surrogate also has "w": the hex of its WTF-8 bytes.
// Every value but a ref has "p" and "e", its start and end as [byte offset,
// line, column in bytes] in the case's bytes, and a scalar has "s", its style.
'use strict';

// A Date names a key by its local time: the corpus is written in UTC, the
// zone this package assumes.
process.env.TZ = 'UTC';

const fs = require('fs');
const path = require('path');
const YAML = require('yaml');

// yaml's resolvePairs (!!omap, !!pairs) makes an item that is an empty map
// a pair whose key is a new null Scalar, with no range. That key is placed
// where the item is, as this package places it: resolvePairs is wrapped to
// give it the item's range, which changes no value.
{
  const pairsModule = require(path.join(path.dirname(require.resolve('yaml')), 'schema', 'yaml-1.1', 'pairs.js'));
  const resolvePairs = pairsModule.resolvePairs;
  const placed = (seq, onError) => {
    const ranges = YAML.isSeq(seq) ? seq.items.map((it) => it.range) : [];
    const res = resolvePairs(seq, onError);
    if (YAML.isSeq(res)) {
      res.items.forEach((p, i) => {
        if (YAML.isPair(p) && YAML.isScalar(p.key) && !p.key.range) p.key.range = ranges[i];
      });
    }
    return res;
  };
  pairsModule.resolvePairs = placed;
  pairsModule.pairs.resolve = placed;
}
const zlib = require('zlib');
const cases = require('./cases.js');
const random = require('./random.js');

// The random corpus committed: its seed, how many documents, and how many
// mutants of each.
const randomSeed = 20;
const randomDocs = 20000;
const randomMutants = 2;

// decodeUTF8 decodes buf as the WHATWG decoder (and so Node's Buffer) does,
// returning the text and, for every UTF-16 index of it, its byte offset.
function decodeUTF8(buf) {
  let text = '';
  const at = [];
  let i = 0;
  while (i < buf.length) {
    const start = i;
    const b = buf[i++];
    let cp = 0xfffd;
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b < 0x80) cp = b;
    else if (b >= 0xc2 && b <= 0xdf) { need = 1; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2; cp = b & 0x0f;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3; cp = b & 0x07;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    }
    let ok = b < 0x80;
    if (need > 0) {
      ok = true;
      for (let k = 0; k < need; k++) {
        const c = buf[i];
        if (c === undefined || c < lo || c > hi) { ok = false; break; }
        cp = (cp << 6) | (c & 0x3f);
        i++;
        lo = 0x80; hi = 0xbf;
      }
    }
    if (!ok) cp = 0xfffd;
    const s = String.fromCodePoint(cp);
    // The second code unit of a pair is inside the character: it maps to
    // the character's end.
    for (let k = 0; k < s.length; k++) at.push(k === 0 ? start : i);
    text += s;
  }
  at.push(buf.length);
  if (text !== buf.toString('utf8')) throw new Error('decoder differs from Buffer.toString');
  return { text, at };
}

function positioner(buf, at) {
  const lineStarts = [0];
  for (let i = 0; i < buf.length; i++) if (buf[i] === 0x0a) lineStarts.push(i + 1);
  return (u16) => {
    const off = at[u16];
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= off) lo = mid;
      else hi = mid - 1;
    }
    return [off, lo + 1, off - lineStarts[lo] + 1];
  };
}

const styles = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

function numString(v) {
  return Object.is(v, -0) ? '-0' : String(v);
}

function hasLoneSurrogate(s) {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

function wtf8(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
  }
  return Buffer.from(out).toString('hex');
}

// toJSCtx is a context of conversion like parse()'s, without its alias
// limit or warnings.
const toJSCtx = (doc) => ({ anchors: new Map(), doc, keep: true, mapAsMap: false, mapKeyWarned: true, maxAliasCount: -1 });

// keyOf returns the property name parse() gives the key of pair.
function keyOf(doc, pair) {
  const one = new YAML.Pair(pair.key, null).toJSON(null, toJSCtx(doc));
  const keys = Object.keys(one);
  if (keys.length !== 1) throw new Error('a pair gave ' + keys.length + ' keys');
  return keys[0];
}

// jsKeyOf returns the value parse() gives the key of pair when it reads the
// pair into a JavaScript Map, as it does for the maps a merge key names:
// the key's own value, its inner maps plain objects.
function jsKeyOf(doc, pair) {
  return YAML.isNode(pair.key) ? pair.key.toJSON(null, toJSCtx(doc)) : pair.key;
}

function encoder(doc, pos) {
  const ids = new Map();
  const resolve = (n) => (YAML.isAlias(n) ? n.resolve(doc) : n);
  const span = (n, out) => {
    out.p = pos(n.range[0]);
    out.e = pos(n.range[1]);
    return out;
  };
  function enc(node, v) {
    if (node.synthetic !== undefined || 'synthetic' in node) {
      if (node.items) {
        // A Map's entry: an array of its key and value.
        if (!Array.isArray(v) || v.length !== 2 || v[0] !== node.synthetic[0]) throw new Error('a set merge entry differs');
        ids.set(v, ids.size + 1);
        const at = node.at.range;
        const val = node.items[1] === null ? { t: 'null', s: 'plain', p: pos(node.items[0].range[1]), e: pos(node.items[0].range[1]) } : enc(node.items[1], v[1]);
        return { t: 'seq', id: ids.get(v), p: pos(at[0]), e: pos(at[1]), items: [enc(node.items[0], v[0]), val] };
      }
      if (v !== node.synthetic || (v !== undefined && typeof v !== 'string' && typeof v !== 'number')) throw new Error('a set merge value differs');
      const t = v === undefined ? 'undefined' : typeof v === 'string' ? 'str' : 'num';
      const out = { t, s: 'plain', p: pos(node.at.range[0]), e: pos(node.at.range[1]) };
      if (v !== undefined) out.v = t === 'num' ? numString(v) : v;
      return out;
    }
    node = resolve(node);
    if (v === undefined) return scalar(node, { t: 'undefined' });
    if (v !== null && typeof v === 'object') {
      if (ids.has(v)) return { t: 'ref', id: ids.get(v) };
      ids.set(v, ids.size + 1);
    }
    if (v === null) return scalar(node, { t: 'null' });
    switch (typeof v) {
      case 'boolean':
        return scalar(node, { t: 'bool', v });
      case 'number':
        return scalar(node, { t: 'num', v: numString(v) });
      case 'string': {
        const out = { t: 'str', v };
        if (hasLoneSurrogate(v)) out.w = wtf8(v);
        return scalar(node, out);
      }
    }
    if (typeof v === 'symbol') return scalar(node, { t: 'symbol', v: v.description });
    if (v instanceof Uint8Array) return scalar(node, { t: 'bytes', v: Buffer.from(v).toString('base64') });
    if (v instanceof Date) return scalar(node, { t: 'date', v: numString(v.getTime()) });
    if (v instanceof Set) {
      const members = [...v];
      const items = [];
      const seen = new Set();
      for (const pair of node.items) {
        const k = jsKeyOf(doc, pair);
        if (k === null || typeof k !== 'object') {
          if (seen.has(k)) continue;
          seen.add(k);
        }
        items.push(enc(pair.key, members[items.length]));
      }
      if (items.length !== members.length) throw new Error('set members differ');
      return span(node, { t: 'set', id: ids.get(v), items });
    }
    if (v instanceof Map) {
      const es = [...v.entries()];
      if (es.length !== node.items.length) throw new Error('omap entries differ');
      const pairs = node.items.map((pair, i) => [enc(pair.key, es[i][0]), pair.value === null ? { t: 'null', s: 'plain', p: pos(pair.key.range[1]), e: pos(pair.key.range[1]) } : enc(pair.value, es[i][1])]);
      return span(node, { t: 'omap', id: ids.get(v), pairs });
    }
    if (Array.isArray(v)) {
      if (!YAML.isSeq(node)) throw new Error('array from a ' + node.constructor.name);
      return span(node, { t: 'seq', id: ids.get(v), items: node.items.map((it, i) => enc(it, v[i])) });
    }
    if (Object.getPrototypeOf(v) === Object.prototype) return map(node, v);
    throw new Error('cannot encode a ' + v.constructor.name);
  }
  function scalar(node, out) {
    if (!YAML.isScalar(node)) throw new Error('scalar value from a ' + node.constructor.name);
    // A Scalar yaml makes itself (an !!omap item that is an empty map) has
    // no type: plain, as this package writes every node but a quoted or
    // block scalar.
    out.s = styles[node.type] ?? 'plain';
    return span(node, out);
  }
  // isMerge is yaml's test of a merge key: one the merge tag resolved, or a
  // plain "<<" where the schema merges by default.
  const mergesByDefault = doc.schema.tags.some((t) => t.tag === 'tag:yaml.org,2002:merge' && t.default);
  const isMerge = (k) => YAML.isScalar(k) && (typeof k.addToJSMap === 'function' ||
    (mergesByDefault && (!k.type || k.type === 'PLAIN') && (k.value === '<<' || (typeof k.value === 'symbol' && k.value.description === '<<'))));
  // mergeSources returns the maps a merge key's value names.
  const mergeSources = (value) => {
    const src = resolve(value);
    return (YAML.isSeq(src) ? src.items : [src]).map(resolve);
  };
  // entries returns a map's properties in the order parse() creates them,
  // each with the key node that created it and the value node it ends with.
  function entries(node) {
    const res = new Map();
    for (const pair of node.items) {
      if (isMerge(pair.key)) {
        for (const src of mergeSources(pair.value)) {
          for (const [jsKey, e] of mapEntries(src)) {
            const prop = String(jsKey);
            if (!res.has(prop)) res.set(prop, e);
          }
        }
        continue;
      }
      const prop = keyOf(doc, pair);
      if (res.has(prop)) Object.assign(res.get(prop), { value: pair.value, valueKey: pair.key });
      else res.set(prop, { key: pair.key, value: pair.value, valueKey: pair.key });
    }
    return res;
  }
  // mapEntries is entries for a merge source, which parse() reads into a
  // JavaScript Map: keys are values, not property names.
  function mapEntries(node) {
    if (node.constructor.name === 'YAMLSet') return setEntries(node);
    const res = new Map();
    for (const pair of node.items) {
      if (isMerge(pair.key)) {
        for (const src of mergeSources(pair.value)) {
          for (const [jsKey, e] of mapEntries(src)) if (!res.has(jsKey)) res.set(jsKey, e);
        }
        continue;
      }
      const jsKey = jsKeyOf(doc, pair);
      if (res.has(jsKey)) Object.assign(res.get(jsKey), { value: pair.value, valueKey: pair.key });
      else res.set(jsKey, { key: pair.key, value: pair.value, valueKey: pair.key });
    }
    return res;
  }
  // setEntries is mapEntries for a merge source that is a !!set: merging
  // reads it as a Map, but it is a Set, whose members are destructured as
  // [key, value] pairs: a string's first two characters, an array's first
  // two items. A value that is no node's is placed where the member is.
  function setEntries(node) {
    const res = new Map();
    const seen = new Set();
    for (const pair of node.items) {
      const m = jsKeyOf(doc, pair);
      if (m === null || typeof m !== 'object') {
        if (seen.has(m)) continue;
        seen.add(m);
      }
      let key;
      let value;
      if (typeof m === 'string') {
        const cps = [...m];
        key = cps[0];
        value = { synthetic: cps[1], at: resolve(pair.key) };
      } else if (Array.isArray(m)) {
        const seq = resolve(pair.key);
        key = m[0];
        value = seq.items.length > 1 ? seq.items[1] : { synthetic: undefined, at: seq };
      } else if (m instanceof Uint8Array) {
        key = m[0];
        value = { synthetic: m[1], at: resolve(pair.key) };
      } else if (m instanceof Map) {
        // Its entries, each a new [key, value] array.
        const omap = resolve(pair.key);
        const es = [...m.entries()];
        key = es[0];
        value = es.length > 1 ? { synthetic: es[1], at: omap, items: [omap.items[1].key, omap.items[1].value] } : { synthetic: undefined, at: omap };
      } else throw new Error('a set merge member of another kind');
      if (!res.has(key)) res.set(key, { key: pair.key, value, valueKey: pair.key });
    }
    return res;
  }
  // renamed gives the entries the names parse() gave them where they
  // differ: a key that is an alias of a collection still being built (its
  // own ancestor) is named by what that collection holds so far, which
  // keyOf, reading it anew, cannot see. Each name that differs must be
  // the one left over, and the order must come out as parse()'s.
  function renamed(props, keys) {
    const missing = [...props.keys()].filter((k) => !keys.includes(k));
    const extra = keys.filter((k) => !props.has(k));
    if (missing.length === 0 && extra.length === 0 && keys.length === props.size) return props;
    const differ = () => new Error('keys differ: ' + JSON.stringify(keys) + ' ' + JSON.stringify([...props.keys()]));
    if (missing.length !== extra.length || keys.length !== props.size) throw differ();
    const out = new Map();
    for (const [k, e] of props) out.set(missing.includes(k) ? extra[missing.indexOf(k)] : k, e);
    const order = Object.keys(Object.fromEntries([...out.keys()].map((k) => [k, 0])));
    if (out.size !== props.size || order.some((k, i) => k !== keys[i])) throw differ();
    return out;
  }
  function map(node, v) {
    if (YAML.isPair(node)) {
      // !!pairs reads each item as a one-pair object.
      const m = new YAML.YAMLMap(doc.schema);
      m.items = [node];
      m.range = [node.key.range[0], (node.value ?? node.key).range[1]];
      node = m;
    }
    if (!YAML.isMap(node)) throw new Error('object from a ' + node.constructor.name);
    const props = renamed(entries(node), Object.keys(v));
    const keys = Object.keys(v);
    const pairs = keys.map((k) => {
      const { key, value, valueKey } = props.get(k);
      // A key without a value (`? a`) has no value node: its null is placed
      // where the key of the pair that set it ends.
      const at = valueKey.range[1];
      const val = value === null ? { t: 'null', s: 'plain', p: pos(at), e: pos(at) } : enc(value, v[k]);
      return [k, pos(key.range[0]), val];
    });
    return span(node, { t: 'map', id: ids.get(v), pairs });
  }
  return enc;
}

function run(name, buf) {
  const { text, at } = decodeUTF8(buf);
  const pos = positioner(buf, at);
  const out = { name };
  if (buf.toString('utf8') === text && Buffer.from(text, 'utf8').equals(buf)) out.src = text;
  else out.b64 = buf.toString('base64');
  let value;
  let thrown = null;
  try {
    value = YAML.parse(text);
  } catch (e) {
    thrown = e;
  }
  const doc = YAML.parseDocument(text, { prettyErrors: false });
  if (thrown) {
    out.throws = { name: thrown.name, message: thrown.message };
    if (thrown.code) out.throws.code = thrown.code;
    out.errors = doc.errors.map((e) => ({
      code: e.code,
      message: e.message,
      p: pos(e.pos[0]),
      e: pos(Math.min(e.pos[1], text.length)),
    }));
    return out;
  }
  if (doc.errors.length > 0) throw new Error(name + ': parse() did not throw, but the document has errors');
  if (doc.warnings.length > 0) out.warnings = doc.warnings.map((w) => w.code);
  if (doc.contents === null) {
    if (value !== null) throw new Error(name + ': an empty document is not null');
    out.value = { t: 'null', s: 'plain', p: pos(doc.range[0]), e: pos(doc.range[0]) };
    return out;
  }
  out.value = encoder(doc, pos)(doc.contents, value);
  return out;
}

// compact writes run()'s answer for the random corpus in a shorter form,
// a JSON array, where a position is its byte offset only (the line and
// column follow from it):
//
//	["v", node]                  the value, node as below
//	["t", message, [[code, message, p, e], ...]]  what parse() throws and
//	                             the document's errors (none when it throws
//	                             while building the value)
//
// A node is [type, style, p, e, value] for a scalar (type n null, b bool,
// f number, s string, y symbol, x bytes, d date, u undefined; style p
// plain, s single, d double, l literal, f folded), [type, id, p, e, items]
// for a collection (a array, S set; m map, whose items are [key, keyOffset,
// node]; M ordered map, whose items are [node, node]), or ["r", id].
const typeCodes = { null: 'n', bool: 'b', num: 'f', str: 's', symbol: 'y', bytes: 'x', date: 'd', undefined: 'u' };
const styleCodes = { plain: 'p', single: 's', double: 'd', literal: 'l', folded: 'f' };

function compactNode(n) {
  switch (n.t) {
    case 'ref':
      return ['r', n.id];
    case 'seq':
    case 'set':
      return [n.t === 'seq' ? 'a' : 'S', n.id, n.p[0], n.e[0], n.items.map(compactNode)];
    case 'map':
      return ['m', n.id, n.p[0], n.e[0], n.pairs.map(([k, kp, v]) => [k, kp[0], compactNode(v)])];
    case 'omap':
      return ['M', n.id, n.p[0], n.e[0], n.pairs.map(([k, v]) => [compactNode(k), compactNode(v)])];
  }
  const out = [typeCodes[n.t], styleCodes[n.s], n.p[0], n.e[0]];
  if (n.v !== undefined) out.push(n.v);
  return out;
}

function compact(r) {
  if (r.throws) return ['t', r.throws.message, r.errors.map((e) => [e.code, e.message, e.p[0], e.e[0]])];
  return ['v', compactNode(r.value)];
}

// randomCorpusFile writes the random corpus: a gzip'd text of one line per
// case, the case's name, its text (a JSON string, or {"b64": ...} for bytes
// that are not UTF-8) and compact()'s answer, joined by tabs.
function randomCorpusFile(seed, docs, mutants) {
  const list = random.randomCorpus(seed, docs, mutants);
  const version = require('yaml/package.json').version;
  const lines = [JSON.stringify({ yaml: version, seed, docs, mutants, cases: list.length })];
  for (const c of list) {
    const buf = Buffer.isBuffer(c.src) ? c.src : Buffer.from(c.src, 'utf8');
    let r;
    try {
      r = run(c.name, buf);
    } catch (e) {
      e.message = c.name + ': ' + e.message + ' in ' + JSON.stringify(buf.toString('utf8'));
      throw e;
    }
    const src = r.src !== undefined ? JSON.stringify(r.src) : JSON.stringify({ b64: r.b64 });
    lines.push(JSON.stringify(c.name) + '\t' + src + '\t' + JSON.stringify(compact(r)));
  }
  return { text: lines.join('\n') + '\n', count: list.length };
}

function main() {
  // node gen.js --random N SEED OUT writes N generated cases to OUT
  // instead, for a wider comparison than the committed corpus.
  const args = process.argv.slice(2);
  if (args[0] === '--random-corpus') {
    // node gen.js --random-corpus [SEED DOCS MUTANTS OUT] writes the random
    // corpus, by default ../random.jsonl.gz, which random_test.go reads.
    const [seed, docs, mutants] = [args[1] ?? randomSeed, args[2] ?? randomDocs, args[3] ?? randomMutants].map(Number);
    const out = args[4] ?? path.join(__dirname, '..', 'random.jsonl.gz');
    const { text, count } = randomCorpusFile(seed, docs, mutants);
    fs.writeFileSync(out, zlib.gzipSync(text, { level: 9 }));
    console.log(`wrote ${count} cases to ${out}`);
    return;
  }
  let list = cases();
  let file = path.join(__dirname, '..', 'corpus.json');
  if (args[0] === '--random' || args[0] === '--structured') {
    const make = args[0] === '--random' ? cases.randomCases : cases.structuredCases;
    list = make(Number(args[1]), Number(args[2]));
    file = args[3];
  }
  const seen = new Set();
  const results = [];
  for (const c of list) {
    if (seen.has(c.name)) throw new Error('duplicate case name ' + c.name);
    seen.add(c.name);
    const buf = Buffer.isBuffer(c.src) ? c.src : Buffer.from(c.src, 'utf8');
    try {
      results.push(run(c.name, buf));
    } catch (e) {
      e.message = c.name + ': ' + e.message;
      throw e;
    }
  }
  const body = results.map((r) => JSON.stringify(r)).join(',\n');
  const version = require('yaml/package.json').version;
  fs.writeFileSync(file, `{"yaml":${JSON.stringify(version)},"cases":[\n${body}\n]}\n`);
  console.log(`wrote ${results.length} cases to ${file}`);
}

process.removeAllListeners('warning');
process.on('warning', () => {});
main();
