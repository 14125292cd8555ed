import { sql, type Kysely } from 'kysely';
import { DELETED_ENROLMENTS, refreshEnrolments, REFRESH_TICKETS, UPDATED_ENROLMENTS } from './0018_last_attempts.js';
import { triggerFunction } from './sql-helpers.js';

/**
 * Each student's last contact attempt in the course's cached follow-up rows (Mi agenda reads the
 * rows of an operator's courses with their rules and "nobody contacted them in N days" in one
 * pass, without joining the counts).
 *
 * course_follow_up_rows.last_attempt_at follows enrolment_ticket_counts.last_attempt_at (0018) by
 * statement triggers on the counts, in the writer's transaction. The recomputation of a course's
 * rows (StudentFiguresRepository.fresh) reads the counts after locking the course's
 * course_stats_state row FOR UPDATE; so that a change committed while it runs is never lost, the
 * triggers first lock the same row FOR KEY SHARE (making it, dirty, when the course has none yet):
 * whichever comes second waits for the first and then sees what it committed. One row is the only
 * lock both take, and KEY SHARE does not conflict with the dirty marks of 0008 (FOR NO KEY
 * UPDATE), so no order of writes can deadlock with a recomputation.
 */
const lockCourses = (rows: string) => `
  insert into course_stats_state (course_id, dirty) select distinct x.course_id, true from ${rows} x join courses c on c.id = x.course_id order by 1 on conflict (course_id) do nothing;
  perform 1 from course_stats_state s where s.course_id in (select y.course_id from ${rows} y) order by s.course_id for key share`;

/**
 * 0018's recomputations of a last attempt (after attempts or tickets are changed or removed) read
 * the maximum in the writer's snapshot: two transactions changing tickets of the same student at
 * once could each write a maximum that misses the other's. They now lock the rows they recompute
 * first (the lock their update took anyway, taken before the read), so the second one reads
 * after the first has committed.
 */
const lockThen = (lock: string, body: string) => `${lock};
  ${body}`;

const STATEMENTS: string[] = [
  triggerFunction('sigaf_last_attempt_refresh', lockThen(`perform 1 from tickets t where t.id in (select ticket_id from changed_attempts) order by t.id for no key update`, REFRESH_TICKETS)),
  triggerFunction('sigaf_enrolment_last_update', lockThen(`perform 1 from enrolment_ticket_counts c where c.enrolment_id in (${UPDATED_ENROLMENTS}) order by c.enrolment_id for no key update`, refreshEnrolments(UPDATED_ENROLMENTS))),
  triggerFunction('sigaf_enrolment_last_delete', lockThen(`perform 1 from enrolment_ticket_counts c where c.enrolment_id in (${DELETED_ENROLMENTS}) order by c.enrolment_id for no key update`, refreshEnrolments(DELETED_ENROLMENTS))),
  `alter table course_follow_up_rows add column last_attempt_at timestamptz`,
  `update course_follow_up_rows f set last_attempt_at = k.last_attempt_at from enrolment_ticket_counts k where k.enrolment_id = f.enrolment_id and k.last_attempt_at is not null`,
  // Counts made with a last attempt (a rebuild; the first ticket of a student has none yet).
  triggerFunction('sigaf_follow_up_last_insert', `
  ${lockCourses('(select course_id from new_rows where last_attempt_at is not null)')};
  update course_follow_up_rows f set last_attempt_at = n.last_attempt_at
  from new_rows n where f.course_id = n.course_id and f.enrolment_id = n.enrolment_id and n.last_attempt_at is not null`),
  // Counts whose last attempt changed.
  triggerFunction('sigaf_follow_up_last_update', `
  ${lockCourses(`(select n.course_id from old_rows o join new_rows n on n.enrolment_id = o.enrolment_id where o.last_attempt_at is distinct from n.last_attempt_at)`)};
  update course_follow_up_rows f set last_attempt_at = n.last_attempt_at
  from old_rows o join new_rows n on n.enrolment_id = o.enrolment_id
  where o.last_attempt_at is distinct from n.last_attempt_at and f.course_id = n.course_id and f.enrolment_id = n.enrolment_id`),
  // Counts removed (a rebuild, an enrolment deleted): no attempt left to show.
  triggerFunction('sigaf_follow_up_last_delete', `
  ${lockCourses('(select course_id from old_rows where last_attempt_at is not null)')};
  update course_follow_up_rows f set last_attempt_at = null
  from old_rows o where f.course_id = o.course_id and f.enrolment_id = o.enrolment_id and f.last_attempt_at is not null`),
  `create trigger enrolment_ticket_counts_follow_up_insert after insert on enrolment_ticket_counts referencing new table as new_rows for each statement execute function sigaf_follow_up_last_insert()`,
  `create trigger enrolment_ticket_counts_follow_up_update after update on enrolment_ticket_counts referencing old table as old_rows new table as new_rows for each statement execute function sigaf_follow_up_last_update()`,
  `create trigger enrolment_ticket_counts_follow_up_delete after delete on enrolment_ticket_counts referencing old table as old_rows for each statement execute function sigaf_follow_up_last_delete()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(triggerFunction('sigaf_last_attempt_refresh', REFRESH_TICKETS)).execute(db);
  await sql.raw(triggerFunction('sigaf_enrolment_last_update', refreshEnrolments(UPDATED_ENROLMENTS))).execute(db);
  await sql.raw(triggerFunction('sigaf_enrolment_last_delete', refreshEnrolments(DELETED_ENROLMENTS))).execute(db);
  for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists enrolment_ticket_counts_follow_up_${t} on enrolment_ticket_counts`).execute(db);
  for (const t of ['insert', 'update', 'delete']) await sql.raw(`drop function if exists sigaf_follow_up_last_${t}()`).execute(db);
  await sql.raw('alter table course_follow_up_rows drop column if exists last_attempt_at').execute(db);
}
