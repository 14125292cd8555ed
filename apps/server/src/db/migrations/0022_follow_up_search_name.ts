import { sql, type Kysely } from 'kysely';

/**
 * The student's folded name (registered_users.search_name, 0016) in the course's cached follow-up
 * rows, so the follow-up table's text search compares it as stored instead of folding every
 * student's name on each request. A change of name marks the course dirty (0008), and the
 * recomputation copies the new one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table course_follow_up_rows add column search_name text`.execute(db);
  await sql`update course_follow_up_rows f set search_name = r.search_name from registered_users r where r.id = f.registered_user_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table course_follow_up_rows drop column if exists search_name`.execute(db);
}
