// depth.mjs is depth.js's probe as an ES module, as the orchestrator calls
// parse(), whose caller's stack is deeper: node depth.mjs probe KIND N COND.
import YAML from 'yaml';
import { createRequire } from 'module';

const { probe } = createRequire(import.meta.url)('./depth.js');
probe(YAML, process.argv[3], Number(process.argv[4]), process.argv[5]);
