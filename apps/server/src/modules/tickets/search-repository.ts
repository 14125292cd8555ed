import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { foldedPersonSearch } from '../../db/pagination.js';

/**
 * The enrolments of a course whose student matches a ticket search (name or RUT), read once for a
 * list page and its total (TicketRepository.list): the course's enrolments and their students' folded
 * name and RUT, compared as everywhere.
 */
export async function coursePeople(
  db: Database,
  courseId: number,
  search: string,
): Promise<number[]> {
  const { rows } = await sql<{
    id: number;
  }>`select se.id from course_registered_users se join registered_users sr on sr.id = se.registered_user_id
    where se.course_id = ${courseId} and ${foldedPersonSearch(sql`sr.search_name`, sql`sr.rut`, search)}`.execute(
    db,
  );
  return rows.map((r) => r.id);
}

/**
 * The enrolments, in any course, whose student matches a ticket search, when there are at most
 * `limit` of them (undefined otherwise: a common name, whose tickets are dense enough to be found
 * walking the list's order). From the trigram indexes on the folded name and the RUT's digits.
 */
export async function orgPeople(
  db: Database,
  search: string,
  limit: number,
): Promise<number[] | undefined> {
  const { rows } = await sql<{ id: number }>`
    select se.id from registered_users sr join course_registered_users se on se.registered_user_id = sr.id
    where ${foldedPersonSearch(sql`sr.search_name`, sql`sr.rut`, search)}
    limit ${limit + 1}`.execute(db);
  return rows.length > limit ? undefined : rows.map((r) => r.id);
}
