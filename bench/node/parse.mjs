// Reads the file named by its first argument, and each file of the folder
// named by its second when there is one, as the orchestrator reads its
// scaler config and drop-ins (readFileSync, then yaml's parse), in a fresh
// process, keeps what it parsed, and prints the nanoseconds the parses
// took: what bench/ compares with scalerconfig.Load. bench/ also measures
// the process's peak memory. Run by bench's BenchmarkLoadScalerConfig,
// BenchmarkMerge (impl=npmyaml) and BenchmarkMemory after `npm ci` here.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const [file, dropins] = process.argv.slice(2);
const files = [file];
if (dropins) for (const name of readdirSync(dropins).sort()) files.push(join(dropins, name));
let took = 0n;
const values = files.map((f) => {
  const text = readFileSync(f, 'utf-8');
  const start = process.hrtime.bigint();
  const value = parse(text);
  took += process.hrtime.bigint() - start;
  return value;
});
if (values.some((v) => v === null || typeof v !== 'object')) throw new Error('not a collection');
console.log(`parse-ns ${took}`);
