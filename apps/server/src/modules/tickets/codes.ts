import { sql, type Insertable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { TicketTable } from '../../db/schema.js';
import { CODE_NUMBER } from './sql.js';

/*
 * Ticket codes: each prefix's sequence (ticket_code_sequences), and creating tickets with their
 * codes (TicketRepository delegates here).
 */

/**
 * Reserves `n` consecutive numbers of a code prefix atomically and returns the last one. The
 * first use of a prefix starts after the highest code that already has it.
 */
export async function allocateCodes(prefix: string, n: number, db: Database): Promise<number> {
  // A prefix in use: one row to bump (the scan below is only for its first use).
  const bumped = await sql<{ last_value: number }>`
    update ticket_code_sequences set last_value = last_value + ${n}::int where prefix = ${prefix} returning last_value`.execute(
    db,
  );
  if (bumped.rows[0]) return Number(bumped.rows[0].last_value);
  const like = `${prefix}-%`;
  const pattern = `^${prefix}${CODE_NUMBER}`;
  const r = await sql<{ last_value: number }>`
    insert into ticket_code_sequences as s (prefix, last_value)
    values (${prefix}, (select coalesce(max(substring(t.ticket_code from ${pattern})::int), 0) from tickets t where t.ticket_code like ${like}) + ${n}::int)
    on conflict (prefix) do update set last_value = s.last_value + ${n}::int
    returning last_value`.execute(db);
  return Number(r.rows[0]!.last_value);
}

/**
 * Creates tickets, their codes and their 'create' history in one statement (atomic by itself):
 * the code sequence rows are locked in prefix order and bumped, the tickets inserted with
 * consecutive codes per prefix, and the history written, so no lock is held across round trips
 * and concurrent creations wait only for each other's statement. When a prefix has no sequence
 * row yet nothing is written and `undefined` is returned (ensureCodeSequences, then again).
 * Returns the new tickets in input order.
 */
export async function createWithCodes(
  db: Database,
  input: {
    enrolments: Array<{ id: number; courseId: number; prefix: string }>;
    fields: Omit<
      Insertable<TicketTable>,
      'closing_date' | 'course_registered_user_id' | 'course_id' | 'ticket_code'
    >;
    closed: boolean;
    history: { userId: number; changes: Record<string, unknown> };
  },
): Promise<Array<{ id: number; ticket_code: string }> | undefined> {
  const { enrolments, fields: f, closed, history } = input;
  if (!enrolments.length) return [];
  const prefixes = [...new Set(enrolments.map((e) => e.prefix))].sort();
  const { rows } = await sql<{ id: number; ticket_code: string }>`
    with wanted as (select p as prefix, count(*)::int as n from unnest(${enrolments.map((e) => e.prefix)}::text[]) p group by p),
    locked as (
      select s.prefix from ticket_code_sequences s
      where s.prefix = any(${prefixes}::text[])
        and (select count(*) from ticket_code_sequences x where x.prefix = any(${prefixes}::text[])) = ${prefixes.length}
      order by s.prefix
      for update
    ),
    seq as (
      update ticket_code_sequences s set last_value = s.last_value + w.n
      from locked l join wanted w on w.prefix = l.prefix
      where s.prefix = l.prefix
      returning s.prefix, s.last_value - w.n as first
    ),
    input as (
      select i.enrolment, i.course, i.prefix, i.ord, row_number() over (partition by i.prefix order by i.ord) as k
      from unnest(${enrolments.map((e) => e.id)}::int[], ${enrolments.map((e) => e.courseId)}::int[], ${enrolments.map((e) => e.prefix)}::text[])
        with ordinality as i(enrolment, course, prefix, ord)
    ),
    ins as (
      insert into tickets (course_registered_user_id, course_id, ticket_code, type_ticket_id, status_ticket_id, priority_ticket_id,
                           source_ticket_id, motive_ticket_id, user_create_id, user_assigned_id, closing_date)
      select i.enrolment, i.course, i.prefix || '-' || lpad((seq.first + i.k)::text, greatest(4, length((seq.first + i.k)::text)), '0'),
        ${f.type_ticket_id}::int, ${f.status_ticket_id}::int, ${f.priority_ticket_id}::int, ${f.source_ticket_id}::int, ${f.motive_ticket_id}::int,
        ${f.user_create_id}::int, ${f.user_assigned_id ?? null}::int, ${closed ? sql`now()` : sql`null`}
      from input i join seq on seq.prefix = i.prefix
      order by i.ord
      returning id, ticket_code, course_registered_user_id
    ),
    hist as (
      insert into ticket_history (ticket_id, user_id, action, changes)
      select ins.id, ${history.userId}::int, 'create', jsonb_build_object('ticketCode', jsonb_build_array(null, ins.ticket_code)) || ${JSON.stringify(history.changes)}::jsonb
      from ins
    )
    select ins.id, ins.ticket_code from ins join input i on i.enrolment = ins.course_registered_user_id order by i.ord`.execute(
    db,
  );
  return rows.length < enrolments.length ? undefined : rows;
}

/** Creates the missing code sequence rows, each starting after the highest code that already has its prefix. */
export async function ensureCodeSequences(db: Database, prefixes: string[]) {
  await sql`
    insert into ticket_code_sequences (prefix, last_value)
    select p, (select coalesce(max(substring(t.ticket_code from '^' || p || ${CODE_NUMBER})::int), 0) from tickets t where t.ticket_code like p || '-%')
    from unnest(${prefixes}::text[]) p
    where not exists (select 1 from ticket_code_sequences s where s.prefix = p)
    on conflict (prefix) do nothing`.execute(db);
}
