// Writes ../strings.json: what node answers for JSON.stringify of a string
// and for the default sort of strings, for jsstr.Stringify's and
// jsstr.Compare's tests. Strings are written as their UTF-16 code units, so
// that lone surrogates survive the trip through JSON.
//
//   node internal/jsstr/testdata/gen/strings.mjs
import { writeFileSync } from 'node:fs';

const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

// Every code unit below 0x80, the edges of each UTF-8 length, the
// characters JSON and JavaScript treat specially, and surrogates alone,
// paired, reversed and at either end.
const singles = [];
for (let c = 0; c < 0x80; c++) singles.push(String.fromCharCode(c));
const strings = [
  ...singles,
  '', 'plain', 'say "hi"', 'back\\slash', 'tab\there', 'nl\ncr\r', '\u0080', '\u00ff', '\u07ff', '\u0800',
  '\u2028\u2029', '\ufeff', '\ufffd', '\uffff', '\ue000', '\ud7ff', '\u{10000}', '\u{1f600}', '\u{10ffff}',
  '\ud800', '\udbff', '\udc00', '\udfff', 'a\ud800b', 'a\udc00b', '\ud83d\ude00', '\ude00\ud83d',
  '\ud800\ud800', '\udc00\udc00', 'x\ud83d', '\ude00x', '\ud83d\ude00\ud83d', 'über "ß" \u0007',
];
const stringify = strings.map((s) => [units(s), JSON.stringify(s)]);

// Strings whose UTF-16 order differs from their code point order, and the
// plain cases around them; node's sort gives the order.
const toSort = [
  'b', 'a', '', 'ab', 'a\u0000', '\uffff', '\ue000', '\u{10000}', '\u{1f600}', '\u{10ffff}', '\ud7ff',
  '10.yaml', '9.yaml', 'Z', 'z', '\u00e9', 'e\u0301', 'a\u{1f600}', 'a\uffff', 'aa', '\uff61', '\u{20000}',
];
const sorted = [...toSort].sort();

writeFileSync(
  new URL('../strings.json', import.meta.url),
  // One case a line, so that a change of node's answers reads as a diff.
  `{"node": ${JSON.stringify(process.version)},\n"stringify": [\n` +
    stringify.map((c) => JSON.stringify(c)).join(',\n') +
    '\n],\n"sort": [\n' +
    sorted.map((s) => JSON.stringify(units(s))).join(',\n') +
    '\n]}\n',
);
