// Writes ../lower.json: what node's String.prototype.toLowerCase does, for
// jsstr.ToLower's generated table and its tests.
//
//   node internal/jsstr/testdata/gen/lower.mjs
import { writeFileSync } from 'node:fs';

const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;

// Every code point whose lower case, alone, is not itself.
const lower = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (isSurrogate(cp)) continue;
  const s = String.fromCodePoint(cp);
  const l = s.toLowerCase();
  if (l !== s) lower.push([cp, [...l].map((c) => c.codePointAt(0))]);
}

// The code point ranges of a Unicode property, as node's regular
// expressions have them.
function ranges(re) {
  const out = [];
  let start = -1;
  for (let cp = 0; cp <= 0x110000; cp++) {
    const inside = cp <= 0x10ffff && !isSurrogate(cp) && re.test(String.fromCodePoint(cp));
    if (inside && start < 0) start = cp;
    if (!inside && start >= 0) {
      out.push([start, cp - 1]);
      start = -1;
    }
  }
  return out;
}

// Strings around capital sigma, with what node makes of them: the
// Final_Sigma context reads the cased and case-ignorable characters around.
const bits = ['A', 'a', '\u03a3', "'", '.', '\u0345', '\u02b0', '1', ' ', '\u0301', '\u00ad', '\u{10400}', '\u{1d7ca}', '\u2160', ':', '\u0130', '\u1f88'];
const sigma = [];
let seed = 1;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
for (let i = 0; i < 4000; i++) {
  let s = '';
  const n = 1 + rand(6);
  for (let j = 0; j < n; j++) s += bits[rand(bits.length)];
  if (!s.includes('\u03a3')) s += '\u03a3';
  sigma.push([s, s.toLowerCase()]);
}

writeFileSync(
  new URL('../lower.json', import.meta.url),
  JSON.stringify({
    node: process.version,
    icu: process.versions.icu,
    unicode: process.versions.unicode,
    lower,
    cased: ranges(/^\p{Cased}$/u),
    caseIgnorable: ranges(/^\p{Case_Ignorable}$/u),
    sigma,
  }) + '\n',
);
