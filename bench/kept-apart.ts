import { sql, type RawBuilder } from 'kysely';
import { openDatabase } from '../apps/server/src/db/database.js';
import { dataset, ensureData } from './load.js';
import { startPg } from './pg.js';

/**
 * What each kept figure without a staffed-day figure of its own buys (docs/development/kept-figures.md):
 * on the load data set (1 million tickets), the read the server makes from the kept figure beside
 * the same figure computed from the base tables, for the largest course, its busiest operator and
 * its busiest day of attempts. Each query warm, the median and the slowest of nine runs.
 */
export async function keptApartBench(quick: boolean): Promise<Record<string, number>> {
  const server = await startPg();
  const ds = dataset(quick);
  try {
    await ensureData(server.url, ds);
    const { db, close } = await openDatabase({ url: server.url(ds.database), dataDir: '' });
    try {
      const one = async <T>(q: RawBuilder<T>) => (await q.execute(db)).rows[0]!;
      const { course } = await one(
        sql<{
          course: number;
        }>`select course_id as course from tickets group by 1 order by count(*) desc limit 1`,
      );
      const { operator } = await one(
        sql<{
          operator: number;
        }>`select user_assigned_id as operator from tickets where course_id = ${course} group by 1 order by count(*) desc limit 1`,
      );
      const { day } = await one(
        sql<{
          day: string;
        }>`select to_char(created_at::date, 'YYYY-MM-DD') as day from ticket_details where course_id = ${course} group by 1 order by count(*) desc limit 1`,
      );
      const closed = sql`(select id from status_tickets where key = 'closed')`;
      const from = sql`${day}::date`;
      const to = sql`${day}::date + 1`;
      const pairs: Record<string, [kept: RawBuilder<unknown>, computed: RawBuilder<unknown>]> = {
        // The course dashboard's ticket counts and charts, all of them in one read.
        ticket_counts: [
          sql`select dim, value, status_ticket_id, n from ticket_counts where course_id = ${course}`,
          sql`select type_ticket_id, priority_ticket_id, source_ticket_id, motive_ticket_id, user_assigned_id,
                extract(hour from created_at) h, extract(isodow from created_at) w, status_ticket_id, count(*)
              from tickets where course_id = ${course}
              group by grouping sets ((type_ticket_id, status_ticket_id), (priority_ticket_id, status_ticket_id),
                (source_ticket_id, status_ticket_id), (motive_ticket_id, status_ticket_id), (user_assigned_id, status_ticket_id),
                (extract(hour from created_at)), (extract(isodow from created_at)))`,
        ],
        // Seguimiento sorted by tickets: the first page.
        enrolment_ticket_counts: [
          sql`select enrolment_id, total, open from enrolment_ticket_counts where course_id = ${course}
              order by total desc, enrolment_id limit 25`,
          sql`select course_registered_user_id, count(*) total, count(*) filter (where status_ticket_id <> ${closed}) open
              from tickets where course_id = ${course} group by 1 order by 2 desc, 1 limit 25`,
        ],
        // Mi agenda: the operator's open tickets without an attempt for 3 days, the first page.
        'tickets.last_attempt_at': [
          sql`select id from tickets where user_assigned_id = ${operator} and status_ticket_id <> ${closed}
                and coalesce(last_attempt_at, created_at) < now() - interval '3 days'
              order by coalesce(last_attempt_at, created_at), id limit 10`,
          sql`select t.id from tickets t where t.user_assigned_id = ${operator} and t.status_ticket_id <> ${closed}
                and coalesce((select max(d.created_at) from ticket_details d where d.ticket_id = t.id), t.created_at) < now() - interval '3 days'
              order by coalesce((select max(d.created_at) from ticket_details d where d.ticket_id = t.id), t.created_at), t.id limit 10`,
        ],
        // The daily report: a day's attempts of the course per operator.
        'ticket_details.course_id': [
          sql`select user_created_id, count(distinct ticket_id), count(*) from ticket_details
              where course_id = ${course} and created_at >= ${from} and created_at < ${to} group by 1`,
          sql`select d.user_created_id, count(distinct d.ticket_id), count(*) from ticket_details d
              join tickets t on t.id = d.ticket_id
              where t.course_id = ${course} and d.created_at >= ${from} and d.created_at < ${to} group by 1`,
        ],
        // The student search across courses: a common surname, the first page.
        'registered_users.search_name': [
          sql`select id from registered_users where search_name like '%gonzalez%' order by id limit 10`,
          sql`select id from registered_users
              where sigaf_search_name(name, last_name, mother_last_name) like '%gonzalez%' order by id limit 10`,
        ],
      };
      const out: Record<string, number> = {};
      console.log(
        `kept-apart: course ${course}, operator ${operator}, day ${day}\n\n| kept figure | kept p50 ms | computed p50 ms | kept max | computed max |\n|---|---:|---:|---:|---:|`,
      );
      for (const [name, [kept, computed]] of Object.entries(pairs)) {
        const k = await time(() => kept.execute(db));
        const c = await time(() => computed.execute(db));
        out[`kept.${name}.kept.p50.ms`] = k.p50;
        out[`kept.${name}.computed.p50.ms`] = c.p50;
        console.log(
          `| ${name} | ${k.p50.toFixed(2)} | ${c.p50.toFixed(2)} | ${k.max.toFixed(2)} | ${c.max.toFixed(2)} |`,
        );
      }
      return out;
    } finally {
      await close();
    }
  } finally {
    await server.stop();
  }
}

/** One warm-up, then nine runs: the median and the slowest, in milliseconds. */
async function time(run: () => Promise<unknown>): Promise<{ p50: number; max: number }> {
  await run();
  const ms: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[4]!, max: ms[8]! };
}
