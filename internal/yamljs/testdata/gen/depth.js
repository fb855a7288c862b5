// depth.js measures how deep yaml's parse() nests before JavaScript's
// stack ends (yaml then reports RESOURCE_EXHAUSTION): for each kind of
// collection, the deepest document that parses, found by bisection, each
// try the first parse of a fresh process, as a CommonJS module (this file)
// and as an ES module (depth.mjs), cold and after 200 parses that let V8
// optimise yaml's code. The comment on maxDepth (compose.go) records what
// it printed.
//
// Run: npm ci && node depth.js
'use strict';

const { spawnSync } = require('child_process');
const path = require('path');

// text is a document of n nested collections of a kind.
function text(kind, n) {
  switch (kind) {
    case 'flow-seq': return '['.repeat(n) + ']'.repeat(n) + '\n';
    case 'flow-map': return '{a: '.repeat(n) + 'x' + '}'.repeat(n) + '\n';
    case 'block-map': return Array.from({ length: n }, (_, i) => ' '.repeat(i) + 'k:').join('\n') + ' v\n';
    case 'block-seq': return Array.from({ length: n }, (_, i) => ' '.repeat(2 * i) + '-').join('\n') + ' v\n';
  }
  throw new Error('no kind ' + kind);
}

// probe parses one document and prints "ok" or "fail".
function probe(YAML, kind, n, warm) {
  if (warm) for (let i = 0; i < 200; i++) YAML.parse(text(kind, 300));
  try {
    YAML.parse(text(kind, n));
    console.log('ok');
  } catch (e) {
    console.log('fail ' + (e.code || e.name));
  }
}

function deepest(script, kind, warm) {
  let lo = 100;
  let hi = 4000;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    // A process whose stack ran out may abort after it printed.
    const { stdout } = spawnSync(process.execPath, [path.join(__dirname, script), 'probe', kind, String(mid), warm ? 'warm' : ''], { encoding: 'utf8' });
    if (stdout.startsWith('ok')) lo = mid;
    else hi = mid;
  }
  return lo;
}

if (process.argv[2] === 'probe') {
  probe(require('yaml'), process.argv[3], Number(process.argv[4]), process.argv[5] === 'warm');
} else {
  console.log(`node ${process.version}, yaml ${require('yaml/package.json').version}: the deepest nesting that parses`);
  for (const warm of [false, true]) {
    for (const kind of ['flow-seq', 'flow-map', 'block-map', 'block-seq']) {
      const cjs = deepest('depth.js', kind, warm);
      const esm = deepest('depth.mjs', kind, warm);
      console.log(`${warm ? 'warm' : 'cold'} ${kind.padEnd(9)}  CommonJS ${cjs}  ES module ${esm}`);
    }
  }
}

module.exports = { text, probe };
