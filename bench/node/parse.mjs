// Reads the file named by its argument as the orchestrator reads its scaler
// config (readFileSync, then yaml's parse), once, in a fresh process, and
// prints the nanoseconds the parse took: what bench/ compares with
// scalerconfig.Load. Run by bench's BenchmarkLoadScalerConfig and
// BenchmarkMerge (impl=npmyaml) after `npm ci` here.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const text = readFileSync(process.argv[2], 'utf-8');
const start = process.hrtime.bigint();
const value = parse(text);
const took = process.hrtime.bigint() - start;
if (value === null || typeof value !== 'object') throw new Error('not a mapping');
console.log(`parse-ns ${took}`);
