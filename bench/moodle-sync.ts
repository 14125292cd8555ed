import { PGlite } from '@electric-sql/pglite';
import { loadConfig } from '../apps/server/src/config.js';
import { migrate, openDatabase, PGLITE_PARSERS } from '../apps/server/src/db/database.js';
import { seed } from '../apps/server/src/db/seed.js';
import { encryptSecret } from '../apps/server/src/lib/crypto.js';
import { appendProgressHistory } from '../apps/server/src/modules/outcomes/history-repository.js';
import { createServices } from '../apps/server/src/services.js';
import { generateSite, type GeneratorOptions } from '../tools/moodle-sim/src/generator.js';
import { linkSimCourse, startSimWorker } from './moodle-sim.js';

/**
 * A full Moodle sync of one course of 10,000 students × 50 activities against the simulator
 * answering each call after 20 ms (in a thread of its own, as Moodle is another machine): wall time and web-service calls made (`--quick`: 1,000
 * students, or BENCH_STUDENTS). Calls in flight: MOODLE_CONCURRENCY (default 8 here); reads are
 * retried as in production (MOODLE_RETRIES), which matters after the long write phase: the
 * simulator has by then closed the idle keep-alive connections. The progress history's append
 * (every student's first row, as in a first sync) is timed alone after it: `history.pct` is its
 * share of the first sync's time.
 */
export async function moodleSyncBench(): Promise<Record<string, number>> {
  const quick = process.argv.includes('--quick');
  const students = Number(process.env.BENCH_STUDENTS ?? (quick ? 1_000 : 10_000));
  const concurrency = Number(process.env.MOODLE_CONCURRENCY ?? 8);
  // 11 units × 4 activities + Pre/Post Test A/B, Encuesta and Renuncia = 50 activities.
  const options: GeneratorOptions = {
    seed: 3,
    courses: 1,
    studentsPerCourse: students,
    units: 11,
    activitiesPerUnit: 4,
    invalidRutRate: 0,
    groupsPerCourse: 4,
  };
  const generated = generateSite(options);

  const handle = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, dataDir: '' })
    : await openDatabase({ dataDir: '', pglite: await PGlite.create({ parsers: PGLITE_PARSERS }) });
  const db = handle.db;
  await migrate(db);
  await seed(db, {
    adminEmail: 'bench@sigaf.cl',
    adminPassword: 'bench-password',
    adminName: 'Bench',
  });
  const config = loadConfig(
    {},
    {
      LOG_LEVEL: 'silent',
      APP_SECRET: 'bench-secret-bench-secret-bench',
      MOODLE_CONCURRENCY: concurrency,
    },
  );
  const platform = await db
    .selectFrom('platforms')
    .select('id')
    .where('key', '=', 'moodle')
    .executeTakeFirstOrThrow();
  const course = { id: await linkSimCourse(db, generated, `Sync ${students}`, 'BMDL') };
  const people = generated.people.filter((p) => p.rut);
  // The simulator starts once the local data is loaded (a long-blocked fresh HTTP server may drop its first connection).
  const sim = await startSimWorker(options, 20);
  await db
    .updateTable('platforms')
    .set({
      url: sim.url,
      token_encrypted: encryptSecret(generated.tokens.admin, config.APP_SECRET),
    })
    .where('id', '=', platform.id)
    .execute();
  const services = createServices(db, config);
  console.log(`moodle sync: site and ${people.length} local students ready; syncing...`);
  const before = await sim.calls();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const result = await services.moodleSync.syncCourse(course.id, { scope: 'full' });
  const ms = performance.now() - t;
  const cpuMs = cpuSince(cpu);
  const calls = (await sim.calls()) - before;
  // A second sync with nothing changed in Moodle: reads everything again, writes nothing.
  const cpu2 = process.cpuUsage();
  const t2 = performance.now();
  const again = await services.moodleSync.syncCourse(course.id, { scope: 'full' });
  const resyncMs = performance.now() - t2;
  const resyncCpuMs = cpuSince(cpu2);
  // The progress history's share of the first sync: its append (every student new, as then) timed on its own (migration 0035).
  await db.deleteFrom('enrolment_progress_history').execute();
  const t3 = performance.now();
  const appended = await appendProgressHistory(db, { courseId: course.id, all: true });
  const historyMs = performance.now() - t3;
  await handle.close();
  await sim.close();
  console.log(
    `moodle sync: progress history ${appended} rows in ${historyMs.toFixed(0)} ms, ${((100 * historyMs) / ms).toFixed(1)} % of the sync`,
  );
  console.log(
    `moodle sync: ${students} students × ${result.activitiesAdded} activities, concurrency ${concurrency}, 20 ms per call: ` +
      `${(ms / 1000).toFixed(1)} s (${(cpuMs / 1000).toFixed(1)} s of CPU), ${calls} calls (${result.moodleCalls} counted by the sync), ${result.rowsWritten} rows written; ` +
      `unchanged re-sync ${(resyncMs / 1000).toFixed(1)} s (${(resyncCpuMs / 1000).toFixed(1)} s of CPU), ${again.rowsWritten} rows written`,
  );
  const key = `moodle.sync.${students}x50`;
  return {
    [`${key}.ms`]: ms,
    [`${key}.calls`]: calls,
    [`${key}.resync.ms`]: resyncMs,
    [`${key}.cpu.ms`]: cpuMs,
    [`${key}.resync.cpu.ms`]: resyncCpuMs,
    [`${key}.history.ms`]: historyMs,
    [`${key}.history.pct`]: (100 * historyMs) / ms,
  };
}

/** CPU time of this process (the simulator's thread and, with PGlite, the database's included) since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

// Run on its own: `npx tsx bench/moodle-sync.ts [--quick]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await moodleSyncBench());
}
