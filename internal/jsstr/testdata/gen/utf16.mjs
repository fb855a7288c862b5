// Writes ../utf16.json: byte strings, mostly invalid UTF-8, and the length
// in UTF-16 code units of the string node makes of each, as fs/promises
// readFile(path, "utf-8") makes it, for jsstr.UTF16Counter's tests.
//
//   node internal/jsstr/testdata/gen/utf16.mjs
//
// It needs no package. It checks, for every case, that a StringDecoder fed
// one byte at a time (readFile decodes 512 KiB pieces with one) makes the
// same string as Buffer.toString, so the length does not depend on where
// the file's pieces end.
import { writeFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

let seed = 20;
function rand() { // mulberry32: the same cases on every run
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// Bytes at the edges of every range the decoder tells apart.
const edges = [0x00, 0x0a, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf,
  0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xfe, 0xff];
const chars = ['a', 'é', '€', '\ufeff', '😀', '\u{10ffff}', '\ud7ff', '\ue000'].map((c) => [...Buffer.from(c)]);

const inputs = [];
for (let b = 0; b < 256; b++) inputs.push([b]);
for (const a of edges) for (const b of edges) inputs.push([a, b]);
for (let i = 0; i < 6000; i++) {
  const n = 1 + Math.floor(rand() * 12);
  const bytes = [];
  while (bytes.length < n) {
    if (rand() < 0.25) bytes.push(...chars[Math.floor(rand() * chars.length)]);
    else bytes.push(edges[Math.floor(rand() * edges.length)]);
  }
  inputs.push(bytes);
}

const cases = inputs.map((bytes) => {
  const buf = Buffer.from(bytes);
  const whole = buf.toString('utf8');
  const d = new StringDecoder('utf8');
  let piecewise = '';
  for (let i = 0; i < buf.length; i++) piecewise += d.write(buf.subarray(i, i + 1));
  piecewise += d.end();
  if (piecewise !== whole) throw new Error(`pieces differ on ${buf.toString('hex')}`);
  return { hex: buf.toString('hex'), units: whole.length };
});
writeFileSync(new URL('../utf16.json', import.meta.url),
  JSON.stringify({ node: process.version, cases }, null, 0).replace(/\},\{/g, '},\n{') + '\n');
console.log(`${cases.length} cases, node ${process.version}`);
