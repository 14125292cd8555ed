import { sql, type Kysely } from 'kysely';
import { triggerFunction } from './sql-helpers.js';

/**
 * The follow-up student table and Mi agenda at scale (docs/development/performance.md).
 *
 * 1. course_follow_up_rows: one row per student enrolment of a course (synchronised or not) with
 *    what the follow-up table shows and filters by that comes from Moodle and the student's record:
 *    the person's RUT, names and contact, test form, withdrawal stage, last access, and the graded
 *    and expected counting activities. Recomputed with the course's other student figures
 *    (course_progress_stats, 0008) when the triggers of 0008 have marked the course dirty: every
 *    table it reads (enrolments, activity results, activities, students, sections, profiles) is
 *    covered by them, so it is never stale.
 * 2. enrolment_ticket_counts: each enrolment's tickets and open tickets, kept by statement triggers
 *    on tickets in the writer's transaction (like ticket_counts), so sorting or filtering a course's
 *    students by their tickets reads one row per student.
 * 3. sigaf_rebuild_stats() also rebuilds enrolment_ticket_counts (after a restore or a bulk load
 *    that bypassed the triggers).
 */

/** The enrolment deltas of a set of ticket rows, each counting `sign`. */
const expand = (rows: string, sign: number) =>
  `select r.course_registered_user_id as id, ${sign} as n, case when r.status_ticket_id = (select st.id from status_tickets st where st.key = 'open') then ${sign} else 0 end as o from ${rows} r`;

/** Adds the deltas of a statement's rows, in key order (the same lock order in every writer). */
const applyDeltas = (parts: string[]) => `
  insert into enrolment_ticket_counts as c (enrolment_id, total, open)
  select id, sum(n), sum(o) from (${parts.join(' union all ')}) x
  group by id
  having sum(n) <> 0 or sum(o) <> 0
  order by id
  on conflict (enrolment_id) do update set total = c.total + excluded.total, open = c.open + excluded.open`;


const STATEMENTS: string[] = [
  `create table course_follow_up_rows (
    course_id int not null references courses(id) on delete cascade,
    enrolment_id int not null,
    registered_user_id int not null,
    classroom_id int,
    rut text not null,
    name text not null,
    last_name text not null,
    mother_last_name text,
    email text,
    phone text,
    form char(1) not null,
    stage smallint not null,
    last_access timestamptz,
    last_access_text text,
    synced boolean not null,
    suspended boolean not null,
    graded int not null,
    expected int not null,
    primary key (course_id, enrolment_id)
  )`,
  `create table enrolment_ticket_counts (
    enrolment_id int primary key references course_registered_users(id) on delete cascade,
    total int not null,
    open int not null
  )`,
  `insert into enrolment_ticket_counts (enrolment_id, total, open) select id, sum(n), sum(o) from (${expand('tickets', 1)}) x group by id`,
  triggerFunction('sigaf_enrolment_counts_insert', applyDeltas([expand('new_rows', 1)])),
  triggerFunction('sigaf_enrolment_counts_update', applyDeltas([expand('new_rows', 1), expand('old_rows', -1)])),
  triggerFunction('sigaf_enrolment_counts_delete', applyDeltas([expand('old_rows', -1)])),
  `create trigger tickets_enrolment_counts_insert after insert on tickets referencing new table as new_rows for each statement execute function sigaf_enrolment_counts_insert()`,
  `create trigger tickets_enrolment_counts_update after update on tickets referencing old table as old_rows new table as new_rows for each statement execute function sigaf_enrolment_counts_update()`,
  `create trigger tickets_enrolment_counts_delete after delete on tickets referencing old table as old_rows for each statement execute function sigaf_enrolment_counts_delete()`,
  // The rebuild of 0008 keeps its body under another name; the rebuild everyone calls adds these counts.
  `alter function sigaf_rebuild_stats() rename to sigaf_rebuild_ticket_stats`,
  `create function sigaf_rebuild_stats() returns void language plpgsql as $fn$
  begin
    perform sigaf_rebuild_ticket_stats();
    delete from enrolment_ticket_counts;
    insert into enrolment_ticket_counts (enrolment_id, total, open) select id, sum(n), sum(o) from (${expand('tickets', 1)}) x group by id;
  end
  $fn$`,
  // Every course's figures are recomputed on their next read, now with these rows.
  `update course_stats_state set dirty = true`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function if exists sigaf_rebuild_stats()').execute(db);
  await sql.raw('alter function sigaf_rebuild_ticket_stats() rename to sigaf_rebuild_stats').execute(db);
  for (const t of ['insert', 'update', 'delete']) {
    await sql.raw(`drop trigger if exists tickets_enrolment_counts_${t} on tickets`).execute(db);
    await sql.raw(`drop function if exists sigaf_enrolment_counts_${t}()`).execute(db);
  }
  await sql.raw('drop table if exists enrolment_ticket_counts').execute(db);
  await sql.raw('drop table if exists course_follow_up_rows').execute(db);
}
