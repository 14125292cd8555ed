/**
 * What a staffed day changes in the data set, written down before it changes it, so that the data
 * set is put back however the run ends: at its end, on Ctrl-C, or by the next run when the process
 * was killed or crashed midway (a table of the data set's own database holds the journal).
 */
import { sql } from 'kysely';
import type { Database } from '../apps/server/src/db/database.js';
import { moveCreation } from './day-hours.js';

/** One change the day makes, and what puts it back. */
export type JournalEntry =
  /** Rows with an id above these were written by the run. */
  | {
      kind: 'before';
      tickets: number;
      details: number;
      history: number;
      reminders: number;
    }
  /** Tickets the run assigned to its operators, with their operator before. */
  | { kind: 'assignments'; rows: Array<{ id: number; user: number | null }> }
  /** Open tickets whose creation the run moved `hours` back. */
  | { kind: 'moved'; ids: number[]; hours: number }
  | { kind: 'platform'; id: number; url: string | null; token: string | null }
  | { kind: 'motives'; rows: Array<{ id: number; description: string }> }
  | { kind: 'names'; rows: Array<{ id: number; name: string }> };

const TABLE = 'bench_day_journal';

export async function openJournal(db: Database): Promise<void> {
  await sql`create table if not exists ${sql.table(TABLE)} (seq serial primary key, entry jsonb not null)`.execute(
    db,
  );
}

export async function note(db: Database, entry: JournalEntry): Promise<void> {
  await sql`insert into ${sql.table(TABLE)} (entry) values (${JSON.stringify(entry)}::jsonb)`.execute(
    db,
  );
}

/**
 * Puts back everything the journal holds, newest first, and drops it. Returns how many entries
 * there were (0 when the last run ended cleanly).
 */
export async function putBack(db: Database): Promise<number> {
  const exists = await sql<{
    t: string | null;
  }>`select to_regclass(${TABLE})::text as t`.execute(db);
  if (!exists.rows[0]?.t) return 0;
  const { rows } = await sql<{
    entry: JournalEntry;
  }>`select entry from ${sql.table(TABLE)} order by seq desc`.execute(db);
  for (const { entry: e } of rows) {
    if (e.kind === 'before') {
      await sql`delete from reminders where id > ${e.reminders}`.execute(db);
      await sql`delete from ticket_details where id > ${e.details}`.execute(db);
      await sql`delete from ticket_history where id > ${e.history}`.execute(db);
      await sql`delete from tickets where id > ${e.tickets}`.execute(db);
    } else if (e.kind === 'assignments' && e.rows.length) {
      await sql`update tickets t set user_assigned_id = x.u from unnest(${e.rows.map((r) => r.id)}::int[], ${e.rows.map((r) => r.user)}::int[]) as x(id, u) where t.id = x.id`.execute(
        db,
      );
    } else if (e.kind === 'moved' && e.ids.length) {
      await moveCreation(db, e.ids, e.hours);
    } else if (e.kind === 'platform') {
      await sql`update platforms set url = ${e.url}, token_encrypted = ${e.token} where id = ${e.id}`.execute(
        db,
      );
    } else if (e.kind === 'motives') {
      for (const m of e.rows)
        await sql`update motive_tickets set description = ${m.description} where id = ${m.id} and description is distinct from ${m.description}`.execute(
          db,
        );
    } else if (e.kind === 'names') {
      // Only the names the run changed: an update that changes nothing still marks the student's courses' figures.
      for (const s of e.rows)
        await sql`update registered_users set name = ${s.name} where id = ${s.id} and name is distinct from ${s.name}`.execute(
          db,
        );
    }
  }
  await sql`drop table ${sql.table(TABLE)}`.execute(db);
  return rows.length;
}
