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
const cases = require('./cases.js');

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
    node = resolve(node);
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
    out.s = styles[node.type];
    return span(node, out);
  }
  const isMerge = (k) => YAML.isScalar(k) && typeof k.addToJSMap === 'function';
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
  function map(node, v) {
    if (YAML.isPair(node)) {
      // !!pairs reads each item as a one-pair object.
      const m = new YAML.YAMLMap(doc.schema);
      m.items = [node];
      m.range = [node.key.range[0], (node.value ?? node.key).range[1]];
      node = m;
    }
    if (!YAML.isMap(node)) throw new Error('object from a ' + node.constructor.name);
    const props = entries(node);
    const keys = Object.keys(v);
    if (keys.length !== props.size || keys.some((k) => !props.has(k))) {
      throw new Error('keys differ: ' + JSON.stringify(keys) + ' ' + JSON.stringify([...props.keys()]));
    }
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

function main() {
  // node gen.js --random N SEED OUT writes N generated cases to OUT
  // instead, for a wider comparison than the committed corpus.
  const args = process.argv.slice(2);
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
