import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The counts behind an installation's first steps, in one statement. */
export async function setupCounts(db: Database) {
  const { rows } = await sql<{
    moodle: boolean;
    courses: number;
    synced_courses: number;
    students: number;
    staff: number;
  }>`
    select
      exists (select 1 from platforms p where p.url is not null and p.url <> '' and p.token_encrypted is not null) as moodle,
      (select count(*)::int from courses c where c.status = 1) as courses,
      (select count(*)::int from courses c where c.status = 1 and c.last_sync_at is not null) as synced_courses,
      (select count(*)::int from course_registered_users e join courses c on c.id = e.course_id and c.status = 1) as students,
      (select count(*)::int from users u join roles r on r.id = u.role_id where u.deleted_at is null and r.key in ('operator', 'tutor')) as staff`.execute(
    db,
  );
  return rows[0]!;
}
