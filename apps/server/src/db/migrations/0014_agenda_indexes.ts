import { sql, type Kysely } from 'kysely';

/**
 * Mi agenda's "my courses" (the courses where an operator has tickets assigned): one index-only
 * lookup per course, whatever the number of the operator's tickets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists tickets_assigned_course_idx on tickets (user_assigned_id, course_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tickets_assigned_course_idx`.execute(db);
}
