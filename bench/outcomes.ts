import { chileParts, OUTCOME_DEFAULT_DAYS } from '@sigaf/contract';
import { sql } from 'kysely';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/database.js';
import { keepOutcomes } from '../apps/server/src/kept/outcomes-keeper.js';
import { lastSettledDay } from '../apps/server/src/modules/outcomes/service.js';
import { createServices } from '../apps/server/src/services.js';
import { dataset, ensureData } from './load.js';
import { startPg } from './pg.js';

/**
 * The organisation-wide effectiveness report (docs/usage/efectividad.md) on the load benchmark's
 * data set (1 million tickets; `--quick` 50,000), with a progress history added once: twelve rows
 * per student enrolment over the year before the data set's day. The settled days the report
 * covers are kept first, as the server's nightly keeper does (once; `outcomes.keep.day` is what
 * one day's keeping costs: the last settled day computed again; a night keeps one day, and the
 * day the kept days a write made stale). `cold` is the first report on fresh
 * connections (every dimension, the default 90 days, as an administrator opens the screen);
 * `warm` the median of three more. Budget: `outcomes.report.org.1000000.cold.ms`.
 */
export async function outcomesBench(quick: boolean): Promise<Record<string, number>> {
  const server = await startPg();
  const ds = dataset(quick);
  try {
    await ensureData(server.url, ds);
    const fill = await openDatabase({ url: server.url(ds.database), dataDir: '' });
    try {
      // Rows a sync or another benchmark appended today do not count: the year's history is the benchmark's own.
      const has = await fill.db
        .selectFrom('enrolment_progress_history')
        .select('enrolment_id')
        .where('recorded_at', '<', sql<Date>`${ds.now}::date - 60`)
        .limit(1)
        .executeTakeFirst();
      if (!has) {
        const t = performance.now();
        await sql`
          insert into enrolment_progress_history (enrolment_id, recorded_at, progress, last_access, completed)
          select e.id, ${ds.now}::date - make_interval(days => k * 30 + e.id % 29), least(100, k * 8 + e.id % 10)::smallint,
            ${ds.now}::date - make_interval(days => k * 30 + e.id % 29 + e.id % 5), k::smallint
          from course_registered_users e cross join generate_series(0, 11) k
          on conflict do nothing`.execute(fill.db);
        await sql`analyze enrolment_progress_history`.execute(fill.db);
        console.log(
          `outcomes: progress history added in ${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      }
    } finally {
      await fill.close();
    }
    // The nightly keeping (kept/outcomes-keeper.ts) as a server would have done it: every settled
    // day the report covers, then what one day's keeping costs (the last settled day computed again).
    const keep = await openDatabase({ url: server.url(ds.database), dataDir: '' });
    const kept: Record<string, number> = {};
    try {
      const fromDay = chileParts(new Date(Date.now() - OUTCOME_DEFAULT_DAYS * 86_400_000)).day;
      let t = performance.now();
      const days = await keepOutcomes(keep.db, { fromDay });
      if (days.length)
        console.log(
          `outcomes: ${days.length} days kept in ${((performance.now() - t) / 1000).toFixed(1)} s`,
        );
      await sql`delete from outcome_kept_days where day = ${lastSettledDay()}::date`.execute(
        keep.db,
      );
      t = performance.now();
      await keepOutcomes(keep.db, { fromDay });
      kept[`outcomes.keep.day.${ds.tickets}.ms`] = performance.now() - t;
      console.log(
        `outcomes: one day's keeping (the last settled day) in ${kept[`outcomes.keep.day.${ds.tickets}.ms`]!.toFixed(0)} ms`,
      );
    } finally {
      await keep.close();
    }
    const handle = await openDatabase({ url: server.url(ds.database), dataDir: '' });
    try {
      const services = createServices(
        handle.db,
        loadConfig({}, { LOG_LEVEL: 'silent', APP_SECRET: 'bench-secret-bench-secret-bench' }),
      );
      const admin = await handle.db
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.role_id'])
        .where('r.key', '=', 'admin')
        .orderBy('u.id')
        .executeTakeFirstOrThrow();
      const actor = { id: admin.id, roleId: admin.role_id, role: 'admin' as const, tokenId: 0 };
      const query = { to: ds.now };
      const t0 = performance.now();
      const first = await services.outcomes.report(query, actor);
      const cold = performance.now() - t0;
      const warm: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        await services.outcomes.report(query, actor);
        warm.push(performance.now() - t);
      }
      warm.sort((a, b) => a - b);
      const contacts = first.dimensions.all[0]?.reengaged.n ?? 0;
      console.log(
        `outcomes: organisation-wide report over ${contacts} contacts: cold ${cold.toFixed(0)} ms, warm ${warm[1]!.toFixed(0)} ms`,
      );
      const key = `outcomes.report.org.${ds.tickets}`;
      return { [`${key}.cold.ms`]: cold, [`${key}.warm.ms`]: warm[1]!, ...kept };
    } finally {
      await handle.close();
    }
  } finally {
    await server.stop();
  }
}

// Run on its own: `npx tsx bench/outcomes.ts [--quick]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await outcomesBench(process.argv.includes('--quick')));
}
