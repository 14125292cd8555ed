/**
 * The staffed day in the tickets' working hours (day.ts): an open ticket's age changes once a day at
 * the time of day it was opened, which a kept whole-course answer must follow
 * (docs/development/performance.md#staffed-day).
 */
import { sql } from 'kysely';
import type { Database } from '../apps/server/src/db/database.js';

/**
 * Hours to move the open tickets' creation back so that the run falls in the hours they were opened
 * in. An open ticket's age changes once a day at its creation's time of day, and the generator opens
 * tickets 09:00–19:00 in Chile: a run at night there would see none change. Between 10:00 and 18:00
 * none is needed; otherwise the middle of those hours (14:00) is brought to the run's hour.
 */
export function workingHoursShift(now: Date): number {
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Santiago',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(now),
  );
  return hour >= 10 && hour < 18 ? 0 : (((14 - hour) % 24) + 24) % 24;
}

/** Moves the creation of the given tickets by `hours` (no trigger runs: the data set's figures are not about the hour). */
export async function moveCreation(db: Database, ids: number[], hours: number) {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`update tickets set created_at = created_at + make_interval(hours => ${hours}) where id = any(${ids}::int[])`.execute(
      trx,
    );
  });
}

/** The open tickets of a course whose age (in whole days) changed between two moments. */
export async function agesChanged(
  db: Database,
  courseId: number,
  from: Date,
  to: Date,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from tickets
    where course_id = ${courseId} and closing_date is null and created_at < ${from}
      and floor(extract(epoch from (${to}::timestamptz - created_at)) / 86400) > floor(extract(epoch from (${from}::timestamptz - created_at)) / 86400)`.execute(
    db,
  );
  return rows[0]!.n;
}
