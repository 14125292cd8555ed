import { sql, type Kysely } from 'kysely';

/**
 * Each staff member's current course: the course every screen with a course selector opens on,
 * remembered on the server so that it follows the person from page to page and device to device.
 * A deleted course leaves nobody on it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column current_course_id integer references courses(id) on delete set null`.execute(db);
  await sql`create index users_current_course_idx on users (current_course_id) where current_course_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column current_course_id`.execute(db);
}
