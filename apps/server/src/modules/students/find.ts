import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { foldedPersonSearch } from '../../db/pagination.js';

export interface StudentMatchRow {
  enrolment_id: number;
  student_id: number;
  rut: string;
  name: string;
  last_name: string;
  mother_last_name: string | null;
  course_id: number;
  course: string;
  category: string;
}

/**
 * Enrolments in active courses whose student matches a name or RUT (the one person matcher, on the
 * student's folded name and RUT), the given course's first, then by
 * surname; at most `limit`.
 */
export async function findEnrolments(
  db: Database,
  search: string,
  firstCourseId: number | undefined,
  limit: number,
): Promise<StudentMatchRow[]> {
  const { rows } = await sql<StudentMatchRow>`
    select e.id as enrolment_id, r.id as student_id, r.rut, r.name, r.last_name, r.mother_last_name,
      c.id as course_id, c.description as course, g.description as category
    from course_registered_users e
    join registered_users r on r.id = e.registered_user_id
    join courses c on c.id = e.course_id and c.status = 1
    join categories g on g.id = c.category_id
    where ${foldedPersonSearch(sql`r.search_name`, sql`r.rut`, search)}
    order by (c.id = ${firstCourseId ?? 0}) desc, r.last_name, r.mother_last_name, r.name, c.description, e.id
    limit ${limit}`.execute(db);
  return rows;
}
