import { sql, type Kysely } from 'kysely';

/**
 * Mi agenda's at-risk students in name order (its default) read each course's cached follow-up
 * rows (0015) in that order and stop once the page is filled, instead of sorting every match of
 * the operator's courses on each request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists course_follow_up_rows_name_idx on course_follow_up_rows (course_id, lower(last_name || ' ' || name) nulls first, enrolment_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists course_follow_up_rows_name_idx`.execute(db);
}
