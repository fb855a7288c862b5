// random.js generates the random corpus: documents in every style yaml
// reads, and mutants of them, all from one seed, so that the same seed
// always gives the same cases (gen.js --random-corpus writes what yaml
// returns or throws for each).
'use strict';

// prng is mulberry32: the same numbers from the same seed.
function prng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Plain scalars: every number form of both schemas, bools and nulls of
// both, timestamps, merge keys, and strings that look like them.
const numbers = ['0', '-0', '+0', '1', '-1', '+1', '017', '-017', '08', '0o17', '0o8', '0x1F', '0xff', '0XFF', '-0x1F', '0x',
  '0b101', '-0b11', '0b2', '1_000', '-1_0', '0x_1F', '0_17', '1.5', '-1.5', '.5', '-.5', '5.', '1.50', '1.0', '0.0', '-0.0',
  '1e3', '1E3', '1e+3', '1e-3', '-1.5e-7', '.5e2', '5.e2', '1.e', '1e', 'e3', '.', '..', '1.2.3', '1_0.5', '685.230_15e+03',
  '1:30', '-1:30', '190:20:30', '1:30.5', '190:20:30.15', '1:60', '100000:00', '.inf', '-.inf', '+.inf', '.Inf', '.INF',
  '-.Inf', '.nan', '.NaN', '.NAN', '.nAn', 'inf', 'nan', 'Infinity', '-Infinity', 'NaN', '9007199254740993', '18446744073709551616',
  '0x10000000000000000', '1e400', '-1e400', '4.9e-324', '2.5e-324', '1e-400', '0.1e1', '123456789012345680000', '1e21', '1e-7',
  '0000000000000000000000001', '00', '0.', '+.5', '-.5e-3', '0x0', '0o0', '1__0', '_1', '1_', '0b', '0o', '3:25:45', '-0:0'];
const words = ['a', 'b', 'x', 'key', 'value', 'hello world', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'tRue',
  'yes', 'Yes', 'YES', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N', 'null', 'Null', 'NULL',
  'nULL', '~', '<<', '<', '=', '2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2002-1-1',
  '2001-12-15 2:59:43.10', '1970-0-01', '2001-13-45', '2001-01-01T00:00:00+05:30', '0050-01-01', '9999-12-31T23:59:59.999Z',
  'a b  c', 'a:b', 'a :b', 'a#b', 'a #b', 'http://x.y/z?q=1#f', 'C:\\path', 'x-y', '-x', '?x', ':x', 'x:', 'x?', '@x',
  'é', 'ü✓', '中文', '😀', 'a😀b', '𝄞', '\u00a0x', 'x\u2028y', 'x\u0085y', 'ǅ', 'Ľ', '--x', '...x', '%x', 'x%', 'x!y',
  'x&y', 'x*y', 'x|y', 'x>y', "x'y", 'x"y', 'x`y', 'x,y', 'x[y', 'x]y', 'x{y', 'x}y', 'a\tb', '0x1G', '1,000', '$x', '\\'];
const anchorNames = ['a', 'b', 'c', 'x1', 'long_anchor', 'é', '😀', 'a:', 'a.b', 'a-b', '1'];
const tags = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!!map', '!!seq', '!!binary', '!!timestamp', '!!set',
  '!!omap', '!!pairs', '!!merge', '!!foo', '!', '!foo', '!foo!bar', '!<tag:yaml.org,2002:str>', '!<tag:yaml.org,2002:int>',
  '!<tag:x.y,2000:z>', '!<!bar>', '!e!foo', '!e!', '!%21x', '!!%73tr', '!e!a%2Cb'];
// Tags yaml refuses.
const badTags = ['!<>', '!x%', '!!', '!e!%', '!<tag:a b>'];
const base64 = ['aGVsbG8=', 'aGVsbG8', 'YQ==', 'a', '', 'aGV=sbG8=', '-_-_', 'R0lG ODlh', 'abcdĽefgh', 'ab中cdefgh',
  'ab😀cdefgh', 'QUJD\n  REVG', 'a=b=c', '@@@@', 'AAAA', '/+/+', 'ÿÿÿÿ'];
// Double-quoted escapes, valid and not.
const escapes = ['\\\\', '\\"', '\\/', '\\0', '\\a', '\\b', '\\t', '\\\t', '\\n', '\\v', '\\f', '\\r', '\\e', '\\ ', '\\N',
  '\\_', '\\L', '\\P', '\\x41', '\\xe9', '\\x7f', '\\x4', '\\u00e9', '\\u263A', '\\ud83d\\ude00', '\\ud800', '\\udc00x',
  '\\U0001F600', '\\\n', '\\\r\n'];
// Escapes yaml refuses.
const badEscapes = ['\\U00110000', '\\U0000004', '\\q', "\\'", '\\u', '\\x', '\\xg1', '\\uD83'];
const comments = ['#c', '# comment', '#', '# é 😀', '#  two  spaces', '# - x', '# a: b', '#:', '# "q"'];

class Gen {
  constructor(rand) {
    this.rand = rand;
    this.anchors = [];
    this.handles = false;
  }

  chance(p) { return this.rand() < p; }

  int(n) { return Math.floor(this.rand() * n); }

  pick(a) { return a[this.int(a.length)]; }

  comment() { return this.pick(comments); }

  anchor() {
    const name = this.chance(0.7) ? 'a' + this.anchors.length : this.pick(anchorNames);
    this.anchors.push(name);
    return '&' + name;
  }

  alias() {
    if (this.anchors.length === 0 && this.chance(0.85)) return this.pick(words).replace(/[^a-z ]/g, '') || 'x';
    if (this.anchors.length === 0 || this.chance(0.02)) return '*' + this.pick(anchorNames);
    return '*' + this.pick(this.anchors);
  }

  tag() {
    const t = this.chance(0.03) ? this.pick(badTags) : this.pick(tags);
    return t.startsWith('!e!') ? (this.handles = true, t) : t;
  }

  // props returns a node's anchor and tag, in either order, or nothing.
  props(p = 0.25) {
    const out = [];
    if (this.chance(p)) out.push(this.anchor());
    if (this.chance(p)) out.push(this.tag());
    if (out.length === 2 && this.chance(0.3)) out.reverse();
    return out.join(' ');
  }

  plainWord() {
    const r = this.rand();
    if (r < 0.3) return this.pick(numbers);
    if (r < 0.85) return this.pick(words);
    if (r < 0.9) return this.pick(base64);
    return this.pick(words) + ' ' + this.pick(words);
  }

  doubleQuoted() {
    let s = '';
    const n = this.int(4);
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (r < 0.03) s += this.pick(badEscapes);
      else if (r < 0.5) s += this.pick(escapes);
      else s += this.pick(words).replace(/["\\]/g, '');
    }
    return '"' + s + '"';
  }

  singleQuoted() {
    let s = this.pick(words).replace(/'/g, "''");
    if (this.chance(0.3)) s += "''" + this.pick(words).replace(/'/g, "''");
    return "'" + s + "'";
  }

  // flowScalar is a scalar that fits on one line in any context.
  flowScalar(inFlow) {
    const r = this.rand();
    let s;
    if (r < 0.55) {
      s = this.plainWord();
      // A plain scalar in a flow collection must not hold its indicators.
      if (inFlow && /[,[\]{}]|: |^[-?:] |#/.test(s)) s = JSON.stringify(s);
      else if (/^[-?:,[\]{}#&*!|>'"%@`]|: | #|^$/.test(s) && this.chance(0.7)) s = JSON.stringify(s);
    } else if (r < 0.75) s = this.doubleQuoted();
    else if (r < 0.9) s = this.singleQuoted();
    else if (r < 0.95) s = this.pick(base64);
    else s = '';
    return s;
  }

  // multiLine is a scalar that may run on over lines indented by ind.
  multiLine(ind) {
    const pad = ' '.repeat(ind);
    const r = this.rand();
    const lines = 1 + this.int(3);
    const parts = Array.from({ length: lines }, () => this.pick(words).replace(/[#:"'\\]/g, ''));
    if (r < 0.35) return 'plain ' + parts.join('\n' + pad + (this.chance(0.2) ? '\n' + pad : ''));
    if (r < 0.6) return '"' + parts.join(this.chance(0.5) ? '\n' + pad : '\\\n' + pad + this.pick(['', ' ', '\\ '])) + '"';
    return "'" + parts.join('\n' + pad + (this.chance(0.3) ? '\n' + pad : '')) + "'";
  }

  // blockScalar is a literal or folded scalar's header and lines.
  blockScalar(ind) {
    const chomp = this.pick(['', '', '-', '+']);
    const explicit = this.chance(0.2) ? String(1 + this.int(3)) : '';
    const header = this.pick(['|', '>']) + (this.chance(0.5) ? explicit + chomp : chomp + explicit);
    const step = explicit ? Number(explicit) : 2;
    const pad = ' '.repeat(Math.max(0, ind + step));
    let s = header + (this.chance(0.15) ? ' ' + this.comment() : '') + '\n';
    const n = this.int(4);
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (r < 0.15) s += '\n';
      else if (r < 0.3) s += pad + '  ' + this.pick(words) + '\n';
      else if (r < 0.35) s += pad + '\t' + this.pick(words) + '\n';
      else s += pad + this.pick(words) + (this.chance(0.1) ? ' ' : '') + '\n';
    }
    if (this.chance(0.2)) s += '\n';
    return s;
  }

  flowKey(d) {
    const r = this.rand();
    if (r < 0.1 && d < 3) return this.flow(d + 1);
    if (r < 0.15) return this.alias() + ' ';
    if (r < 0.2) return '<<';
    if (r < 0.23) return '!!merge <<';
    let k = this.flowScalar(true);
    if (this.chance(0.1)) k = this.props() + ' ' + k;
    return k;
  }

  // flow is a flow collection, or a scalar in one.
  flow(d) {
    const props = this.chance(0.15) ? this.props(0.5) + ' ' : '';
    if (d > 3 || this.chance(0.35)) {
      if (this.chance(0.1)) return this.alias();
      return (this.chance(0.1) ? props : '') + this.flowScalar(true);
    }
    const n = this.int(4);
    const sep = () => (this.chance(0.1) ? ' # c\n  ' : this.chance(0.1) ? '\n  ' : ' ');
    const items = [];
    const isMap = this.chance(0.5);
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (isMap) {
        if (r < 0.1) items.push(this.flowKey(d));
        else if (r < 0.2) items.push('? ' + this.flowKey(d) + (this.chance(0.5) ? ' : ' + this.flow(d + 1) : ''));
        else if (r < 0.25) items.push(': ' + this.flow(d + 1));
        else items.push(this.flowKey(d) + ':' + (this.chance(0.1) ? '' : ' ' + this.flow(d + 1)));
      } else if (r < 0.15) items.push(this.flowKey(d) + ': ' + this.flow(d + 1));
      else if (r < 0.2) items.push('? ' + this.flowKey(d));
      else items.push(this.flow(d + 1));
    }
    const body = items.join(',' + sep()) + (n > 0 && this.chance(0.15) ? ',' : '');
    const [open, close] = isMap ? ['{', '}'] : ['[', ']'];
    return props + open + body + close;
  }

  blockKey(d, ind) {
    const r = this.rand();
    if (r < 0.08) return { key: '<<', merge: true };
    if (r < 0.1) return { key: '!!merge <<', merge: true };
    if (r < 0.15) return { key: this.alias() + ' ' };
    if (r < 0.2) return { key: this.flow(d + 1) };
    if (r < 0.28) return { explicit: true };
    if (r < 0.3) return { key: '' };
    let k = this.flowScalar(false);
    if (k.includes('\n')) k = JSON.stringify(k);
    if (this.chance(0.1)) k = this.props() + ' ' + k;
    return { key: k };
  }

  // mergeValue is what a merge key names: an alias, a list of them, or a
  // map.
  mergeValue(d, ind) {
    const r = this.rand();
    if (r < 0.5) return ' ' + this.alias() + '\n';
    if (r < 0.75) return ' [' + Array.from({ length: 1 + this.int(3) }, () => (this.chance(0.8) ? this.alias() : this.flow(d + 1))).join(', ') + ']\n';
    return this.block(d, ind);
  }

  // block is a node after an indicator ("key:", "- ") at indentation ind:
  // " scalar\n" on the same line, or "\n" and lines indented deeper.
  block(d, ind) {
    const r = this.rand();
    const props = this.chance(0.2) ? this.props(0.5) : '';
    const pre = props ? ' ' + props : '';
    if (d > 4 || r < 0.3) {
      const x = this.rand();
      if (x < 0.1) return ' ' + this.alias() + '\n';
      if (x < 0.25) return pre + ' ' + this.flow(d) + '\n';
      if (x < 0.35) return pre + ' ' + this.multiLine(ind + 2) + '\n';
      if (x < 0.5) return pre + ' ' + this.blockScalar(ind);
      if (x < 0.55) return pre + '\n';
      return pre + ' ' + this.flowScalar(false) + (this.chance(0.1) ? ' ' + this.comment() : '') + '\n';
    }
    const step = this.pick([1, 2, 2, 2, 3, 4]);
    const child = Math.max(0, ind + step);
    const pad = ' '.repeat(child);
    const seq = this.chance(0.4);
    const n = 1 + this.int(4);
    let s = pre + (this.chance(0.1) ? ' ' + this.comment() : '') + '\n';
    for (let i = 0; i < n; i++) {
      if (this.chance(0.07)) s += pad + this.comment() + '\n';
      if (this.chance(0.05)) s += '\n';
      if (seq) {
        s += pad + '-';
        if (this.chance(0.15)) {
          // A compact map in a sequence item.
          s += ' ' + this.flowScalar(false).replace(/\n/g, ' ') + ':' + this.block(d + 2, child + 2);
          if (this.chance(0.5)) s += pad + '  ' + 'k' + i + ':' + this.block(d + 2, child + 2);
        } else s += this.block(d + 1, child);
        continue;
      }
      const k = this.blockKey(d, child);
      if (k.explicit) {
        s += pad + '?' + this.block(d + 1, child);
        if (this.chance(0.8)) s += pad + ':' + this.block(d + 1, child);
        continue;
      }
      s += pad + k.key + ':' + (k.merge ? this.mergeValue(d + 1, child) : this.block(d + 1, child));
    }
    return s;
  }

  directives() {
    let s = '';
    const r = this.rand();
    if (r < 0.15) s += '%YAML 1.1\n';
    else if (r < 0.2) s += '%YAML 1.2\n';
    else if (r < 0.22) s += this.pick(['%YAML 1.3\n', '%YAML 2.0\n', '%YAML\n', '%YAML 1.1 x\n']);
    if (this.chance(0.03)) s += this.pick(['%FOO bar\n', '%TAG ! tag:x.y,2000:\n', '%TAG !! tag:x.y,2000:\n', '%TAG !e! !\n']);
    return s;
  }

  // document is a whole file: directives, markers, comments, a root node.
  document() {
    const sch = this.rand();
    let s = this.directives();
    const root = () => {
      const r = this.rand();
      if (r < 0.55) return this.block(0, -2).replace(/^[^\n]*\n/, (first) => (first.trim() ? first.replace(/^ /, '') : ''));
      if (r < 0.75) return this.flow(0) + '\n';
      if (r < 0.85) return this.flowScalar(false) + '\n';
      if (r < 0.9) return this.blockScalar(-1);
      return 'root:' + this.block(0, 0);
    };
    let body = root();
    if (this.handles && this.chance(0.8)) s += '%TAG !e! tag:example.com,2000:app/\n';
    const marker = s !== '' || this.chance(0.15);
    if (this.chance(0.1)) s += this.comment() + '\n';
    if (marker) s += this.chance(0.3) && !/^[-?]|^\S+:/.test(body) ? '--- ' : '---\n';
    s += body;
    if (this.chance(0.08)) s += '...\n';
    if (this.chance(0.04)) s += this.pick(['---\n', '--- x\n', '...\n', '# end\n', '%YAML 1.2\n---\n']);
    if (this.chance(0.1)) s = s.replace(/\n$/, '');
    if (sch < 0.12) s = s.replace(/\n/g, '\r\n');
    if (this.chance(0.05)) s = '\ufeff' + s;
    if (this.chance(0.05)) s = s.replace(/: /, ':\t');
    if (this.chance(0.03)) s = s.replace(/- /, '-\t');
    return s;
  }

  // longText is a long string, written in any style, for the folding of
  // long lines when a key is written as YAML.
  longText(inFlow) {
    const n = 3 + this.int(25);
    const parts = [];
    for (let i = 0; i < n; i++) {
      const r = this.rand();
      if (r < 0.05) parts.push(this.pick(escapes).replace(/\\\r?\n/, '\\n'));
      else if (r < 0.1) parts.push('\\n');
      else if (r < 0.13) parts.push('  ');
      else parts.push(this.pick(words).replace(/["\\\t]/g, ''));
    }
    const text = parts.join(this.chance(0.9) ? ' ' : '');
    const r = this.rand();
    if (r < 0.5) return '"' + text + '"';
    if (r < 0.8) return "'" + text.replace(/\\[^ ]?/g, '').replace(/'/g, "''") + "'";
    const plain = text.replace(/\\[^ ]?/g, '').replace(/[#,[\]{}:"'&*!|>%@`]/g, '').trim();
    return plain || 'x';
  }

  // keyNode is a collection for a key: nested flow and block collections
  // with long strings, comments, properties and aliases, which yaml names
  // by its YAML text.
  keyNode(d, ind) {
    const pad = ' '.repeat(ind);
    const r = this.rand();
    const item = () => {
      const x = this.rand();
      if (d < 2 && x < 0.25) return this.keyFlow(d + 1);
      if (x < 0.5) return this.longText(true);
      if (x < 0.6) return this.alias();
      return (this.chance(0.2) ? this.props(0.5) + ' ' : '') + this.flowScalar(true);
    };
    if (r < 0.5) return this.keyFlow(d, item);
    const seq = this.chance(0.5);
    const n = 1 + this.int(3);
    let s = '';
    for (let i = 0; i < n; i++) {
      if (this.chance(0.15)) s += pad + this.comment() + '\n';
      if (this.chance(0.1)) s += '\n';
      const lead = i === 0 ? '' : pad;
      if (seq) s += lead + '- ' + (d < 2 && this.chance(0.2) ? this.keyNode(d + 1, ind + 2).trimStart() : item() + (this.chance(0.15) ? ' ' + this.comment() : '') + '\n');
      else s += lead + 'k' + i + ': ' + item() + (this.chance(0.15) ? ' ' + this.comment() : '') + '\n';
    }
    return s;
  }

  keyFlow(d, item = () => this.longText(true)) {
    const isMap = this.chance(0.5);
    const n = this.int(4);
    const items = [];
    for (let i = 0; i < n; i++) {
      const sep = this.chance(0.15) ? ' # c\n  ' : this.chance(0.15) ? '\n\n  ' : ' ';
      if (isMap) items.push((this.chance(0.2) ? '? ' : '') + item() + (this.chance(0.8) ? ': ' + item() : '') + ',' + sep);
      else items.push((this.chance(0.1) ? item() + ': ' : '') + item() + ',' + sep);
    }
    const props = this.chance(0.2) ? this.props(0.5) + ' ' : '';
    return props + (isMap ? '{' : '[') + items.join('').replace(/,\s*$/, '') + (isMap ? '}' : ']');
  }

  keyDocument() {
    let s = this.directives();
    if (this.handles || this.chance(0.1)) s += '%TAG !e! tag:example.com,2000:app/\n';
    if (s) s += '---\n';
    const n = 1 + this.int(2);
    for (let i = 0; i < n; i++) {
      if (this.chance(0.5)) s += '? ' + this.keyNode(0, 2) + (this.chance(0.9) ? ': ' + this.flowScalar(false) + '\n' : '');
      else s += this.keyFlow(0, () => (this.chance(0.5) ? this.longText(true) : this.flowScalar(true))) + ': ' + this.flowScalar(false) + '\n';
    }
    if (this.chance(0.1)) s = s.replace(/\n/g, '\r\n');
    return s;
  }

  // longDocument has an implicit key near yaml's limit of 1024 code units
  // (wide characters count two), or long strings in a key that yaml folds
  // at 80 columns.
  longDocument() {
    const unit = this.pick(['a', 'é', '😀', 'ab ', '中']);
    const units = unit === '😀' ? 2 : unit.length;
    const n = Math.floor((1018 + this.int(12)) / units);
    const key = unit.repeat(n).trim() || 'x';
    const r = this.rand();
    if (r < 0.4) return (this.chance(0.5) ? '' : '- ') + key + ': ' + this.flowScalar(false) + '\n';
    if (r < 0.6) return '[' + key + ': x]\n';
    let s = '? [';
    for (let i = 0; i < 2 + this.int(4); i++) s += (i ? ', ' : '') + this.longText(true) + ' ' + this.longText(true).replace(/^["']|["']$/g, '');
    return s + ']\n: x\n';
  }

  // config is a scaler config of the shape the orchestrator reads.
  config() {
    let s = this.chance(0.2) ? '%YAML 1.1\n---\n' : '';
    s += 'version: ' + this.pick(['1', '"1"', '1.0', '2']) + '\n';
    if (this.chance(0.5)) s += 'globalMaxAgents: ' + this.pick(['50', '0x10', '-1', '~', '1e3']) + '\n';
    const defaults = this.chance(0.3);
    if (defaults) s += 'defaults: &d\n  resources:\n    cpus: ' + this.pick(['2', '0.5', '"2"']) + '\n    memory: ' + this.pick(['4g', '512m', '1024']) + '\n';
    s += 'scalers:\n';
    const n = 1 + this.int(3);
    for (let i = 0; i < n; i++) {
      s += '  - name: ' + this.pick(['docker-linux', '"gpu"', "'metal'", 'x y', 'é😀']) + '\n';
      s += '    type: ' + this.pick(['container', 'bare-metal', 'vm']) + '\n';
      if (this.chance(0.4)) s += '    maxAgents: ' + this.pick(['4', '0', '1.5', 'ten']) + '\n';
      if (this.chance(defaults ? 0.4 : 0.02)) s += '    <<: *d\n';
      s += '    labelSets:\n';
      const m = 1 + this.int(3);
      for (let j = 0; j < m; j++) {
        s += '      - labels: ' + this.pick(['[docker, linux]', '[x]', '[]', '\n          - a\n          - "B"']) + '\n';
        s += '        image: ' + this.pick(['ghcr.io/kici-dev/kici-agent:0.20.0', "'ghcr.io/x/y@sha256:0123'", 'busybox', '']) + '\n';
        if (this.chance(0.3)) s += '        env:\n          FOO: "bar"\n          EMPTY: ""\n';
      }
    }
    if (this.chance(0.1)) s = s.replace(/\n/g, '\r\n');
    return s;
  }
}

// mutate changes a text by a few edits: characters and lines deleted,
// duplicated or swapped, indentation changed, indicators inserted.
function mutate(rand, text) {
  const int = (n) => Math.floor(rand() * n);
  const chars = [...text];
  const edits = 1 + int(3);
  let s = text;
  for (let e = 0; e < edits; e++) {
    const cs = [...s];
    const lines = s.split('\n');
    const at = int(cs.length + 1);
    const li = int(lines.length);
    switch (int(9)) {
      case 0: cs.splice(at, 1); s = cs.join(''); break;
      case 1: if (at < cs.length) cs.splice(at, 0, cs[at]); s = cs.join(''); break;
      case 2: if (at + 1 < cs.length) [cs[at], cs[at + 1]] = [cs[at + 1], cs[at]]; s = cs.join(''); break;
      case 3: lines.splice(li, 1); s = lines.join('\n'); break;
      case 4: lines.splice(li, 0, lines[li]); s = lines.join('\n'); break;
      case 5: {
        const lj = int(lines.length);
        [lines[li], lines[lj]] = [lines[lj], lines[li]];
        s = lines.join('\n');
        break;
      }
      case 6: {
        const delta = int(5) - 2;
        lines[li] = delta > 0 ? ' '.repeat(delta) + lines[li] : lines[li].replace(new RegExp('^ {0,' + -delta + '}'), '');
        s = lines.join('\n');
        break;
      }
      case 7: {
        const ind = ['-', '- ', '?', '? ', ':', ': ', ',', '[', ']', '{', '}', '#', ' #', '&a ', '*a', '!', '!!str ', '|', '>',
          "'", '"', '%', '@', '`', '\t', '\n', '\r', '\ufeff', '---', '...', '\\', '<<: ', '\u0000', '\u00a0', '😀'];
        cs.splice(at, 0, ind[int(ind.length)]);
        s = cs.join('');
        break;
      }
      default: {
        // A piece of the original text pasted elsewhere.
        const from = int(chars.length);
        const piece = chars.slice(from, from + 1 + int(12)).join('');
        cs.splice(at, 0, piece);
        s = cs.join('');
      }
    }
  }
  return s;
}

const maxLength = 500;

// randomCorpus returns n documents and configs, each followed by m
// mutants of it.
function randomCorpus(seed, docs, mutantsPer) {
  const rand = prng(seed);
  const out = [];
  for (let i = 0; i < docs; i++) {
    // A document is kept small (most are under 300 bytes): the corpus
    // covers more shapes in more cases of a few hundred bytes each.
    let doc;
    if (rand() < 0.01) doc = new Gen(rand).longDocument();
    else {
      do {
        const g = new Gen(rand);
        const kind = rand();
        doc = kind < 0.1 ? g.config() : kind < 0.3 ? g.keyDocument() : g.document();
      } while (doc.length > maxLength);
    }
    out.push({ name: 'd' + i, src: doc });
    for (let j = 0; j < mutantsPer; j++) {
      let src = Buffer.from(mutate(rand, doc), 'utf8');
      if (rand() < 0.02) {
        // Bytes that are not UTF-8, which the reader decodes as U+FFFD.
        const bad = [[0xff], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0x80]][Math.floor(rand() * 6)];
        const at = Math.floor(rand() * (src.length + 1));
        src = Buffer.concat([src.subarray(0, at), Buffer.from(bad), src.subarray(at)]);
      }
      out.push({ name: 'd' + i + 'm' + j, src });
    }
  }
  return out;
}

module.exports = { randomCorpus, prng };
