import { sql, type Kysely } from 'kysely';

/**
 * Drops two kept copies that the staffed-day benchmark showed buy nothing staff feel
 * (docs/development/performance.md, "What each mechanism buys"), with the triggers that kept them:
 * - each enrolment's copy of its student's folded name and RUT (0028, now a step that creates
 *   nothing): a course's students are searched on the students' own (registered_users, 0016);
 * - the version of the students as a whole (answer_versions scope -1, 0025, likewise), under
 *   which the totals of searches across every student were kept: they are counted each time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists course_registered_users_search on course_registered_users`.execute(db);
  await sql`drop trigger if exists registered_users_enrolment_search on registered_users`.execute(db);
  await sql`drop function if exists sigaf_enrolment_search()`.execute(db);
  await sql`drop function if exists sigaf_enrolment_search_of_students()`.execute(db);
  await sql`alter table course_registered_users drop column if exists search_name, drop column if exists search_rut`.execute(db);
  await sql`drop trigger if exists registered_users_answers_students on registered_users`.execute(db);
  await sql`drop function if exists sigaf_answers_students()`.execute(db);
  await sql`delete from answer_versions where scope = -1`.execute(db);
}
