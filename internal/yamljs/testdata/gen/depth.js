// depth.js measures how deep yaml's parse() nests before JavaScript's
// stack ends (yaml then reports RESOURCE_EXHAUSTION, or node aborts): for
// each shape of nesting, the deepest document that parses, found by
// bisection, each try the first parse of a fresh process, as a CommonJS
// module (this file) and as an ES module (depth.mjs, as the orchestrator
// calls parse()), cold, warm (after 200 parses of 300 levels) and hot
// (after 1,000 parses of 700 levels, which let V8 optimise yaml's code
// further; a warm-up that overflows the stack may abort node). The comment on MaxDepth (compose.go) records what it printed.
//
// Run: npm ci && node depth.js
// Or: node depth.js COND... KIND...   those conditions and shapes alone.
// Or: node depth.js soak   the deepest of each shape once hotter still.
// Then: node depth.js beyond N   tries N+1 and 2N levels of every shape
// under every condition, and prints any that parses: none may, for N to be
// a depth past which node refuses all nesting.
'use strict';

const { spawnSync } = require('child_process');
const path = require('path');

const kinds = ['flow-seq', 'flow-map', 'block-map', 'block-seq', 'compact-seq', 'block-mixed', 'block-flow'];

// text is a document of n nested collections of a kind.
function text(kind, n) {
  const lines = (f) => Array.from({ length: n }, (_, i) => f(i)).join('\n') + ' v\n';
  switch (kind) {
    case 'flow-seq': return '['.repeat(n) + ']'.repeat(n) + '\n';
    case 'flow-map': return '{a: '.repeat(n) + 'x' + '}'.repeat(n) + '\n';
    case 'block-map': return lines((i) => ' '.repeat(i) + 'k:');
    case 'block-seq': return lines((i) => ' '.repeat(2 * i) + '-');
    case 'compact-seq': return '- '.repeat(n) + 'v\n';
    case 'block-mixed': return lines((i) => ' '.repeat(2 * i) + (i % 2 ? '-' : 'k:'));
    case 'block-flow': {
      const h = n >> 1;
      return '- '.repeat(h) + '['.repeat(n - h) + ']'.repeat(n - h) + '\n';
    }
  }
  throw new Error('no kind ' + kind);
}

const warmups = { cold: [0, 0], warm: [200, 300], hot: [1000, 700] };

// probe parses one document and prints "ok" or "fail".
function probe(YAML, kind, n, cond) {
  const [times, depth] = warmups[cond];
  for (let i = 0; i < times; i++) {
    try {
      YAML.parse(text(kind, depth));
    } catch {}
  }
  try {
    YAML.parse(text(kind, n));
    console.log('ok');
  } catch (e) {
    console.log('fail ' + (e.code || e.name));
  }
}

// parses says whether n levels of kind parse in a fresh process.
function parses(script, kind, n, cond) {
  // A process whose stack ran out may abort after it printed, or before.
  const { stdout } = spawnSync(process.execPath, [path.join(__dirname, script), 'probe', kind, String(n), cond], { encoding: 'utf8' });
  return stdout.startsWith('ok');
}

function deepest(script, kind, cond) {
  let lo = 100;
  let hi = 4000;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (parses(script, kind, mid, cond)) lo = mid;
    else hi = mid;
  }
  return lo;
}

if (require.main !== module) {
  // required by depth.mjs, which probes
} else if (process.argv[2] === 'probe') {
  probe(require('yaml'), process.argv[3], Number(process.argv[4]), process.argv[5]);
} else if (process.argv[2] === 'soak') {
  // node depth.js soak: in one process, parses every shape 3,000 times
  // 1,200 levels deep, then prints the deepest of each that parses, from
  // 1,800 to 3,200 levels by 50: how far V8's optimisation takes yaml.
  const YAML = require('yaml');
  for (let i = 0; i < 3000; i++) {
    for (const kind of kinds) {
      try {
        YAML.parse(text(kind, 1200));
      } catch {}
    }
  }
  for (const kind of kinds) {
    let best = 0;
    for (let n = 1800; n <= 3200; n += 50) {
      try {
        YAML.parse(text(kind, n));
        best = n;
      } catch {}
    }
    console.log(`soaked ${kind.padEnd(11)} ${best || 'under 1800'}`);
  }
} else if (process.argv[2] === 'beyond') {
  const n = Number(process.argv[3]);
  let parsed = 0;
  for (const cond of Object.keys(warmups)) {
    for (const kind of kinds) {
      for (const script of ['depth.js', 'depth.mjs']) {
        for (const m of [n + 1, 2 * n]) {
          if (parses(script, kind, m, cond)) {
            parsed++;
            console.log(`parses: ${cond} ${kind} ${script} ${m}`);
          }
        }
      }
    }
  }
  console.log(`node ${process.version}, yaml ${require('yaml/package.json').version}: ${parsed} of the nestings past ${n} parse`);
} else {
  // node depth.js [COND|KIND...] measures those conditions and shapes alone.
  const only = (list) => list.filter((x) => process.argv.includes(x)).length ? list.filter((x) => process.argv.includes(x)) : list;
  console.log(`node ${process.version}, yaml ${require('yaml/package.json').version}: the deepest nesting that parses`);
  for (const cond of only(Object.keys(warmups))) {
    for (const kind of only(kinds)) {
      const cjs = deepest('depth.js', kind, cond);
      const esm = deepest('depth.mjs', kind, cond);
      console.log(`${cond.padEnd(4)} ${kind.padEnd(11)}  CommonJS ${cjs}  ES module ${esm}`);
    }
  }
}

module.exports = { text, probe };
