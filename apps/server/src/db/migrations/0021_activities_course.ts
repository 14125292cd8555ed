import { sql, type Kysely } from 'kysely';

/**
 * A course's activities by an index (its unique index on Moodle ids is partial, so it does not
 * serve "every activity of the course"): the progress charts and every read of a course's
 * activities scanned all activities of the organisation, a cost that grew with the number of
 * courses (about 2 ms at 500 courses, the growth benchmark's 10 M set).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists activities_course_idx on activities (course_id, id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists activities_course_idx`.execute(db);
}
