/**
 * Benchmarks with budgets (`npm run bench`; never part of `npm test`). Each measure prints its
 * figure next to its budget; results go to bench/results.json and the run exits non-zero when a
 * figure is over budget.
 *
 *   npm run bench                      everything, on the full data set (generated once, reused)
 *   npm run bench -- --quick           a small data set and short runs, for development
 *   npm run bench -- --only dashboard  only the measures whose name contains this (repeatable)
 *   npm run bench -- --only day        a staffed day: 13 staff members on the load data set for 10 minutes (--quick: 60 s)
 *   npm run bench -- --only kept       each kept figure's read beside the figure computed from the data
 *   npm run bench -- --growth          the same course at 1 M and at 10 M tickets (needs the 10 M data set; alone)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dayBench } from './day.js';
import { growthBench } from './growth.js';
import { importBench } from './import.js';
import { legacyImportBench } from './legacy-import.js';
import { moodleSyncBench } from './moodle-sync.js';
import { keptApartBench } from './kept-apart.js';
import { outcomesBench } from './outcomes.js';
import { loadBench, type LoadRow } from './load.js';
import { uploadsBench } from './uploads.js';
import { staffStepsBench } from './staff-steps.js';
import { webBench } from './web.js';
import { HELP_OPTION, readCommandLine, usageError } from '../apps/server/src/lib/command-line.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const budgets: Record<string, number> = JSON.parse(
  fs.readFileSync(path.join(here, 'budgets.json'), 'utf8'),
);

const USAGE = `Uso: npm run bench [-- opciones]
  (sin opciones)       todas las mediciones, con el conjunto de datos completo
  --quick              un conjunto de datos pequeño y corridas cortas (desarrollo)
  --only <nombre>      solo las mediciones cuyo nombre contiene la palabra (repetible)
  --only day           una jornada con personal: 13 usuarios a la vez durante 10 minutos (--quick: 60 s)
  --only kept          cada cifra guardada frente a la misma cifra calculada desde los datos
  --staff <N>x         la jornada con N veces el personal de cada rol (2x: 26 usuarios, 4x: 52)
  --growth             el mismo curso con 1 M y 10 M de tickets (requiere el conjunto de 10 M)
  -h, --help           esta ayuda`;
const { values } = readCommandLine(USAGE, {
  options: {
    ...HELP_OPTION,
    quick: { type: 'boolean' },
    growth: { type: 'boolean' },
    only: { type: 'string', multiple: true },
    staff: { type: 'string' },
  },
});
const quick = !!values.quick;
const growth = !!values.growth;
const only = values.only ?? [];
const staffArg = values.staff;
const staff = staffArg === undefined ? 1 : Number(/^(\d+)x?$/i.exec(staffArg)?.[1]);
if (!Number.isInteger(staff) || staff < 1 || staff > 16)
  usageError(
    USAGE,
    `--staff espera un múltiplo entre 1x y 16x (por ejemplo 4x), no «${staffArg ?? ''}».`,
  );

/** A benchmark: a name its `--only` matches against, and what it measures. */
interface Bench {
  name: string;
  run(): Promise<Record<string, number>>;
}

let loadRows: LoadRow[] = [];
const benches: Bench[] = [
  { name: 'import', run: importBench },
  { name: 'uploads', run: uploadsBench },
  { name: 'legacy', run: () => legacyImportBench(quick) },
  // What staff wait for on a normal course: a small import's preview, the ticket report, Estadística (bench/staff-steps.ts).
  { name: 'steps', run: () => staffStepsBench(quick) },
  { name: 'moodle', run: moodleSyncBench },
  { name: 'outcomes', run: () => outcomesBench(quick) },
  // Each kept figure's read beside the figure computed from the base tables (bench/kept-apart.ts).
  { name: 'kept', run: () => keptApartBench(quick) },
  { name: 'web', run: webBench },
  {
    name: 'load',
    run: async () => {
      const out = await loadBench({ quick, only: only.filter((o) => !NAMES.includes(o)) });
      loadRows = out.rows;
      return out.results;
    },
  },
  // A staffed day on the load benchmark's data set (bench/day.ts).
  { name: 'day', run: async () => (await dayBench({ quick, staff })).results },
  // Only when asked for (`--growth` or `--only growth`): it needs the 10 M data set.
  {
    name: 'growth',
    run: () => growthBench({ quick, only: only.filter((o) => !NAMES.includes(o)) }),
  },
];

// `--only <benchmark name>` picks a benchmark; any other word picks load endpoints by name
// (`--only load` is every endpoint).
const NAMES = benches.map((b) => b.name);
const endpointWords = only.filter((o) => !NAMES.includes(o));
// `--growth` runs the growth benchmark (its endpoints picked by the other words), and only the
// benchmarks `--only` names besides; it is never part of the default run.
const picked = growth
  ? benches.filter((b) => b.name === 'growth' || only.includes(b.name))
  : only.length
    ? benches.filter(
        (b) => only.includes(b.name) || (b.name === 'load' && endpointWords.length > 0),
      )
    : benches.filter((b) => b.name !== 'growth');
const results: Record<string, number> = {};
for (const bench of picked) Object.assign(results, await bench.run());

if (loadRows.length) {
  console.log(
    '\n| endpoint | clients | p50 ms | p95 ms | p99 ms | req/s | errors | direct ms |\n|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const r of loadRows) {
    console.log(
      `| ${r.name} | ${r.connections} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.rps.toFixed(0)} | ${r.errors} | ${r.direct?.toFixed(1) ?? '—'} |`,
    );
  }
}

let over = 0;
console.log('\n| measure | result | budget | |\n|---|---:|---:|---|');
for (const [name, value] of Object.entries(results)) {
  const budget = budgets[name];
  const ok = budget === undefined || value <= budget;
  if (!ok) over++;
  if (budget === undefined && /\.(rps|direct\.ms)$|\.c(1|50)\.p95/.test(name)) continue;
  console.log(
    `| ${name} | ${value.toFixed(1)} | ${budget ?? '—'} | ${ok ? 'ok' : 'OVER BUDGET'} |`,
  );
}
fs.writeFileSync(
  path.join(here, 'results.json'),
  JSON.stringify(
    { at: new Date().toISOString(), quick, results, budgets, load: loadRows },
    null,
    2,
  ),
);
if (over) {
  console.error(`\n${over} measure(s) over budget`);
  process.exit(1);
}
