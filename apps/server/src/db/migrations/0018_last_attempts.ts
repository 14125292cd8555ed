import { sql, type Kysely } from 'kysely';
import { triggerFunction } from './sql-helpers.js';

/**
 * When each ticket and each student was last contacted, kept by triggers (Mi agenda at scale:
 * docs/development/performance.md).
 *
 * 1. tickets.last_attempt_at: the newest contact attempt of the ticket. An insert of attempts moves
 *    it forward; an update or delete of attempts recomputes it for their tickets. An index over an
 *    operator's tickets by status and "last attempt, else creation" gives the open tickets without
 *    an attempt for K days in that order, a page at a time.
 * 2. enrolment_ticket_counts.last_attempt_at (0015): the newest of the enrolment's tickets', kept by
 *    the ticket triggers of 0015, so "nobody contacted this student in N days" is one key lookup.
 * 3. enrolment_ticket_counts.course_id: the enrolment's course, so the counts of a course's students
 *    are one index range (the follow-up table and the agenda join them with the course's rows).
 * 4. sigaf_rebuild_stats() recomputes the enrolments' (after a bulk load or a restore; the tickets'
 *    own come with them).
 */

/** Recomputes the enrolments' last attempt from their tickets, for the enrolments in `ids` (a query). */
export const refreshEnrolments = (ids: string) => `
  update enrolment_ticket_counts c set last_attempt_at = x.last
  from (
    select e.id, (select max(t.last_attempt_at) from tickets t where t.course_registered_user_id = e.id) as last
    from (${ids}) e(id)
  ) x
  where c.enrolment_id = x.id and c.last_attempt_at is distinct from x.last`;

/** Recomputes the last attempt of the tickets of changed attempts (transition table changed_attempts). */
export const REFRESH_TICKETS = `
  update tickets t set last_attempt_at = x.last
  from (
    select k.id, (select max(d.created_at) from ticket_details d where d.ticket_id = k.id) as last
    from (select ticket_id as id from changed_attempts group by ticket_id order by ticket_id) k
  ) x
  where t.id = x.id and t.last_attempt_at is distinct from x.last`;
/** The enrolments whose last attempt an update of tickets may change (transition tables old_rows, new_rows). */
export const UPDATED_ENROLMENTS = `
    select distinct id from (
      select o.course_registered_user_id as id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
      union all
      select n.course_registered_user_id from old_rows o join new_rows n on n.id = o.id
        where o.last_attempt_at is distinct from n.last_attempt_at or o.course_registered_user_id <> n.course_registered_user_id
    ) m order by id`;
/** The enrolments whose last attempt a deletion of tickets may change (old_rows). */
export const DELETED_ENROLMENTS = `select distinct course_registered_user_id from old_rows where last_attempt_at is not null order by 1`;

const STATEMENTS: string[] = [
  `alter table tickets add column last_attempt_at timestamptz`,
  `alter table enrolment_ticket_counts add column last_attempt_at timestamptz`,
  // Each count row carries its enrolment's course (set when the row is made), so a course's rows are
  // one index range that joins with its students, instead of a lookup per student.
  `alter table enrolment_ticket_counts add column course_id int`,
  `update enrolment_ticket_counts c set course_id = e.course_id from course_registered_users e where e.id = c.enrolment_id`,
  `create or replace function sigaf_enrolment_counts_course() returns trigger language plpgsql as $fn$
  begin
    select e.course_id into new.course_id from course_registered_users e where e.id = new.enrolment_id;
    return new;
  end
  $fn$`,
  `create trigger enrolment_ticket_counts_course before insert on enrolment_ticket_counts for each row execute function sigaf_enrolment_counts_course()`,
  `create or replace function sigaf_enrolment_counts_moved() returns trigger language plpgsql as $fn$
  begin
    update enrolment_ticket_counts set course_id = new.course_id where enrolment_id = new.id;
    return null;
  end
  $fn$`,
  `create trigger course_registered_users_counts_moved after update of course_id on course_registered_users
     for each row when (old.course_id is distinct from new.course_id) execute function sigaf_enrolment_counts_moved()`,
  `create index enrolment_ticket_counts_course_idx on enrolment_ticket_counts (course_id, enrolment_id) include (total, open, last_attempt_at)`,
  `update tickets t set last_attempt_at = d.last from (select ticket_id, max(created_at) as last from ticket_details group by ticket_id) d where d.ticket_id = t.id`,
  `update enrolment_ticket_counts c set last_attempt_at = x.last
     from (select course_registered_user_id as id, max(last_attempt_at) as last from tickets group by 1) x
     where x.id = c.enrolment_id and x.last is not null`,
  // The two times are included so that counting a range reads the index alone (an expression is not enough for that).
  `create index tickets_assigned_stale_idx on tickets (user_assigned_id, status_ticket_id, (coalesce(last_attempt_at, created_at)), id) include (last_attempt_at, created_at)`,

  // Attempts inserted: their tickets' last attempt moves forward (in ticket order: one lock order).
  triggerFunction('sigaf_last_attempt_insert', `
  update tickets t set last_attempt_at = x.last
  from (select ticket_id, max(created_at) as last from new_attempts group by ticket_id order by ticket_id) x
  where t.id = x.ticket_id and (t.last_attempt_at is null or t.last_attempt_at < x.last)`),
  // Attempts changed or removed: their tickets' last attempt is recomputed (a ticket removed with them has none left to update).
  triggerFunction('sigaf_last_attempt_refresh', REFRESH_TICKETS),
  `create trigger ticket_details_last_attempt_insert after insert on ticket_details referencing new table as new_attempts for each statement execute function sigaf_last_attempt_insert()`,
  `create trigger ticket_details_last_attempt_update after update on ticket_details referencing new table as changed_attempts for each statement execute function sigaf_last_attempt_refresh()`,
  `create trigger ticket_details_last_attempt_moved after update on ticket_details referencing old table as changed_attempts for each statement execute function sigaf_last_attempt_refresh()`,
  `create trigger ticket_details_last_attempt_delete after delete on ticket_details referencing old table as changed_attempts for each statement execute function sigaf_last_attempt_refresh()`,

  // The enrolments' last attempt follows their tickets' (0015's counting triggers, one statement each).
  triggerFunction('sigaf_enrolment_last_insert', `
    update enrolment_ticket_counts c set last_attempt_at = x.last
    from (select course_registered_user_id as id, max(last_attempt_at) as last from new_rows where last_attempt_at is not null group by 1 order by 1) x
    where c.enrolment_id = x.id and (c.last_attempt_at is null or c.last_attempt_at < x.last)`),
  triggerFunction('sigaf_enrolment_last_update', refreshEnrolments(UPDATED_ENROLMENTS)),
  triggerFunction('sigaf_enrolment_last_delete', refreshEnrolments(DELETED_ENROLMENTS)),
  // Named to run after 0015's count triggers on the same event (triggers fire in name order).
  `create trigger tickets_enrolment_last_insert after insert on tickets referencing new table as new_rows for each statement execute function sigaf_enrolment_last_insert()`,
  `create trigger tickets_enrolment_last_update after update on tickets referencing old table as old_rows new table as new_rows for each statement execute function sigaf_enrolment_last_update()`,
  `create trigger tickets_enrolment_last_delete after delete on tickets referencing old table as old_rows for each statement execute function sigaf_enrolment_last_delete()`,

  `create or replace function sigaf_rebuild_stats() returns void language plpgsql as $fn$
  begin
    perform sigaf_rebuild_ticket_stats();
    delete from enrolment_ticket_counts;
    insert into enrolment_ticket_counts (enrolment_id, total, open, last_attempt_at, course_id)
    select x.*, e.course_id
    from (
      select t.course_registered_user_id, count(*), count(*) filter (where t.status_ticket_id = (select st.id from status_tickets st where st.key = 'open')), max(t.last_attempt_at)
      from tickets t group by 1
    ) x
    join course_registered_users e on e.id = x.course_registered_user_id;
  end
  $fn$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists tickets_enrolment_last_${t} on tickets`).execute(db);
  for (const t of ['insert', 'update', 'moved', 'delete']) await sql.raw(`drop trigger if exists ticket_details_last_attempt_${t} on ticket_details`).execute(db);
  for (const f of ['sigaf_enrolment_last_insert', 'sigaf_enrolment_last_update', 'sigaf_enrolment_last_delete', 'sigaf_last_attempt_insert', 'sigaf_last_attempt_refresh']) {
    await sql.raw(`drop function if exists ${f}()`).execute(db);
  }
  await sql.raw(`create or replace function sigaf_rebuild_stats() returns void language plpgsql as $fn$
  begin
    perform sigaf_rebuild_ticket_stats();
    delete from enrolment_ticket_counts;
    insert into enrolment_ticket_counts (enrolment_id, total, open)
    select course_registered_user_id, count(*), count(*) filter (where status_ticket_id = (select st.id from status_tickets st where st.key = 'open')) from tickets group by 1;
  end
  $fn$`).execute(db);
  await sql.raw('drop index if exists tickets_assigned_stale_idx').execute(db);
  await sql.raw('drop trigger if exists enrolment_ticket_counts_course on enrolment_ticket_counts').execute(db);
  await sql.raw('drop trigger if exists course_registered_users_counts_moved on course_registered_users').execute(db);
  await sql.raw('drop function if exists sigaf_enrolment_counts_course()').execute(db);
  await sql.raw('drop function if exists sigaf_enrolment_counts_moved()').execute(db);
  await sql.raw('alter table enrolment_ticket_counts drop column if exists course_id').execute(db);
  await sql.raw('alter table enrolment_ticket_counts drop column if exists last_attempt_at').execute(db);
  await sql.raw('alter table tickets drop column if exists last_attempt_at').execute(db);
}
