/**
 * Benchmarks with budgets (`npm run bench`; never part of `npm test`). Each measure prints its
 * figure next to its budget; results go to bench/results.json and the run exits non-zero when a
 * figure is over budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importBench } from './import.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const budgets: Record<string, number> = JSON.parse(fs.readFileSync(path.join(here, 'budgets.json'), 'utf8'));

const results: Record<string, number> = {};
for (const bench of [importBench]) Object.assign(results, await bench());

let over = 0;
console.log('\n| measure | result | budget | |\n|---|---:|---:|---|');
for (const [name, value] of Object.entries(results)) {
  const budget = budgets[name];
  const ok = budget === undefined || value <= budget;
  if (!ok) over++;
  console.log(`| ${name} | ${value.toFixed(1)} | ${budget ?? '—'} | ${ok ? 'ok' : 'OVER BUDGET'} |`);
}
fs.writeFileSync(path.join(here, 'results.json'), JSON.stringify({ at: new Date().toISOString(), results, budgets }, null, 2));
if (over) {
  console.error(`\n${over} measure(s) over budget`);
  process.exit(1);
}
