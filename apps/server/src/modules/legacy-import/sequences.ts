import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** Every table column's id sequence and the value it had, before an import's transaction. */
export type SequenceSnapshot = Array<{
  seq: string;
  table: string;
  column: string;
  last: string | null;
}>;

/** The sequences owned by the schema's table columns, with their values now. */
export async function snapshotSequences(db: Database): Promise<SequenceSnapshot> {
  const r = await sql<{ seq: string; table: string; column: string; last: string | null }>`
    select format('%I.%I', s.schemaname, s.sequencename) as seq, t.relname as "table", a.attname as "column",
      s.last_value::text as last
    from pg_sequences s
    join pg_class c on c.relname = s.sequencename
    join pg_namespace n on n.oid = c.relnamespace and n.nspname = s.schemaname
    join pg_depend d on d.objid = c.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class t on t.oid = d.refobjid
    join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
    where s.schemaname = current_schema()`.execute(db);
  return r.rows;
}

/**
 * A rolled-back transaction keeps the sequences it advanced: after a dry run (or a failed run)
 * each one the run moved goes back to its value before, so that the real import gives the same
 * ids (catalogue values from 1, the first administrator's). Never below a row written meanwhile.
 */
export async function restoreSequences(db: Database, before: SequenceSnapshot): Promise<void> {
  const now = new Map((await snapshotSequences(db)).map((s) => [s.seq, s.last]));
  for (const s of before) {
    if (now.get(s.seq) === s.last) continue;
    await sql`
      select setval(${s.seq}::regclass, coalesce(m.top, ${s.last}::bigint, m.start), m.top is not null or ${s.last}::bigint is not null)
      from (select greatest((select max(${sql.id(s.column)}) from ${sql.id(s.table)})::bigint, ${s.last}::bigint) as top,
        (select start_value from pg_sequences where format('%I.%I', schemaname, sequencename) = ${s.seq}) as start) m`.execute(
      db,
    );
  }
}
