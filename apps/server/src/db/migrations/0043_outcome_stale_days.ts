import { sql, type Kysely } from 'kysely';
import { triggerFunction as fn } from './sql-helpers.js';

/**
 * Kept effectiveness days (0037) that a write made stale (docs/development/performance.md,
 * "What keeps the kept days true"). Every write to what a day's figures are computed from marks the days it
 * changes in outcome_stale_days, in the writer's transaction: progress history (a sync, the legacy
 * import, a restore; an access or progress dated in the past), attempts (created, moved, deleted),
 * a ticket's channel, source, motive, course or student, an enrolment's profile or course. The
 * report computes a marked day live; the keeper computes it again and removes its marks. Only
 * days that may be kept are marked: from the oldest kept day (or the keeper's horizon, 367 days
 * back) to 7 days ago (a day is kept 8 days after it, OUTCOME_SETTLED_AFTER_DAYS; a day's margin for a
 * transaction that spans midnight). Marks are appended, never updated: writers do not wait on
 * each other or on the keeper.
 *
 * A day D depends on:
 * - its attempts (logged on D): their ticket's channel, source, motive, course and student, and
 *   the baseline of the days whose start lies within (attempt − 8 days, attempt + 7 days) (an
 *   attempt keeps its student out of those days' baseline);
 * - a history row recorded at r with last access a: the days from r − 7 days on (the figures
 *   before a contact or a day's start, and 7 days after), and the days from a − 7 days to a (the
 *   first access after a contact or a day's start, within 7 days). A row appended with the same
 *   last access as the row before it (and not after that row) tells nothing new about accesses.
 */
const TZ = `'America/Santiago'`;
const local = (ts: string) => `((${ts}) at time zone ${TZ})::date`;

/** The days an attempt at `c` counts in: its own and those whose baseline it changes (start within (c − 8 days, c + 7 days)). */
const attemptRanges = (c: string, from: string) => `select distinct ${local(`${c} - interval '8 days'`)} + 1 as f, ${local(`${c} + interval '7 days'`)} as l from ${from}`;
/** The days history rows (`from`, as n) change (see above); `opt`: leave out the access part when the row before says the same. */
const historyRanges = (from: string, opt: boolean) => `
  select distinct ${local("n.recorded_at - interval '7 days'")} as f, 'infinity'::date as l from ${from}
  union
  select distinct ${local("n.last_access - interval '7 days'")}, ${local('n.last_access')} from ${from}
  where n.last_access is not null${
    opt
      ? ` and not exists (
    select 1 from (
      select p.recorded_at, p.last_access from enrolment_progress_history p
      where p.enrolment_id = n.enrolment_id and p.recorded_at < n.recorded_at order by p.recorded_at desc limit 1
    ) p where p.last_access = n.last_access and p.last_access <= p.recorded_at)`
      : ''
  }`;
const mark = (ranges: string) => `perform sigaf_outcome_stale(array_agg(x.f), array_agg(x.l)) from (${ranges}) x`;

const STATEMENTS = [
  `create table outcome_stale_days (day date not null)`,
  `create index outcome_stale_days_day_idx on outcome_stale_days (day)`,
  `create function sigaf_outcome_stale(firsts date[], lasts date[]) returns void language sql as $$
    insert into outcome_stale_days (day)
    select distinct g.day from (
      select ${local('now()')} - 7 as hi, least((select min(day) from outcome_kept_days), ${local('now()')} - 367) as lo
    ) b
    cross join unnest(firsts, lasts) r (f, l)
    cross join lateral (select generate_series(greatest(r.f, b.lo), least(r.l, b.hi), interval '1 day')::date as day) g
    where not exists (select 1 from outcome_stale_days s where s.day = g.day)
  $$`,
  // Attempts: created or deleted (statement), moved to another ticket, time, operator or course (row).
  fn('sigaf_outcome_stale_attempts', mark(attemptRanges('c.created_at', 'changed c'))),
  `create trigger ticket_details_outcome_insert after insert on ticket_details referencing new table as changed for each statement execute function sigaf_outcome_stale_attempts()`,
  `create trigger ticket_details_outcome_delete after delete on ticket_details referencing old table as changed for each statement execute function sigaf_outcome_stale_attempts()`,
  fn('sigaf_outcome_stale_attempt', mark(attemptRanges('c.created_at', '(select old.created_at union all select new.created_at) c (created_at)'))),
  `create trigger ticket_details_outcome_update after update of ticket_id, created_at, user_created_id, course_id on ticket_details for each row
     when ((old.ticket_id, old.created_at, old.user_created_id, old.course_id) is distinct from (new.ticket_id, new.created_at, new.user_created_id, new.course_id))
     execute function sigaf_outcome_stale_attempt()`,
  // A ticket's channel, source, motive, course or student: the days of its attempts.
  fn('sigaf_outcome_stale_ticket', mark(`${attemptRanges('d.created_at', 'ticket_details d')} where d.ticket_id = new.id`)),
  `create trigger tickets_outcome_update after update of course_id, course_registered_user_id, type_ticket_id, source_ticket_id, motive_ticket_id on tickets for each row
     when ((old.course_id, old.course_registered_user_id, old.type_ticket_id, old.source_ticket_id, old.motive_ticket_id)
       is distinct from (new.course_id, new.course_registered_user_id, new.type_ticket_id, new.source_ticket_id, new.motive_ticket_id))
     execute function sigaf_outcome_stale_ticket()`,
  // Progress history: appended (statement), deleted (statement), rewritten (row).
  fn('sigaf_outcome_stale_history_insert', mark(historyRanges('changed n', true))),
  fn('sigaf_outcome_stale_history_delete', mark(historyRanges('changed n', false))),
  fn('sigaf_outcome_stale_history_update', mark(historyRanges('(select old.recorded_at, old.last_access union all select new.recorded_at, new.last_access) n (recorded_at, last_access)', false))),
  `create trigger enrolment_progress_history_outcome_insert after insert on enrolment_progress_history referencing new table as changed for each statement execute function sigaf_outcome_stale_history_insert()`,
  `create trigger enrolment_progress_history_outcome_delete after delete on enrolment_progress_history referencing old table as changed for each statement execute function sigaf_outcome_stale_history_delete()`,
  `create trigger enrolment_progress_history_outcome_update after update on enrolment_progress_history for each row
     when (old.* is distinct from new.*) execute function sigaf_outcome_stale_history_update()`,
  // An enrolment's profile (student or not: in the baseline or not) or course: every day since its first figures.
  fn('sigaf_outcome_stale_enrolment', mark(`select ${local("min(h.recorded_at) - interval '8 days'")} as f, 'infinity'::date as l from enrolment_progress_history h where h.enrolment_id = new.id having count(*) > 0`)),
  `create trigger course_registered_users_outcome_update after update of profile_id, course_id on course_registered_users for each row
     when ((old.profile_id, old.course_id) is distinct from (new.profile_id, new.course_id)) execute function sigaf_outcome_stale_enrolment()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `drop function if exists sigaf_outcome_stale_attempts(), sigaf_outcome_stale_attempt(), sigaf_outcome_stale_ticket(),
        sigaf_outcome_stale_history_insert(), sigaf_outcome_stale_history_delete(), sigaf_outcome_stale_history_update(),
        sigaf_outcome_stale_enrolment() cascade`,
    )
    .execute(db);
  await sql`drop function if exists sigaf_outcome_stale(date[], date[])`.execute(db);
  await sql`drop table if exists outcome_stale_days`.execute(db);
}
