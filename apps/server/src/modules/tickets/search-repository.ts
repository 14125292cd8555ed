import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { foldedPersonSearch } from '../../db/pagination.js';

/**
 * The enrolments of a course whose student matches a ticket search (name or RUT), read once for a
 * list page and its total (TicketRepository.list). A name: each of the course's students is looked
 * up by key (OFFSET 0 keeps it so) instead of matching the text against every student of the
 * organisation. A RUT (three or more digits): the few students it matches come from the trigram
 * indexes on the RUT's digits and the folded name (migration 0016), then their enrolment in the
 * course by key. The condition is the same either way (the student's folded name,
 * registered_users.search_name, compared as stored).
 */
export async function coursePeople(db: Database, courseId: number, search: string): Promise<number[]> {
  const match = foldedPersonSearch(sql`sr.search_name`, sql`sr.rut`, search);
  const { rows } = /^[0-9kK]{3,}$/.test(search.trim().replace(/[.\s-]/g, ''))
    ? await sql<{ id: number }>`select se.id from registered_users sr
        join course_registered_users se on se.registered_user_id = sr.id and se.course_id = ${courseId}
        where ${match}`.execute(db)
    : await sql<{ id: number }>`select se.id from course_registered_users se
        cross join lateral (select u.search_name, u.rut from registered_users u where u.id = se.registered_user_id offset 0) sr
        where se.course_id = ${courseId} and ${match}`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * The enrolments, in any course, whose student matches a ticket search, when there are at most
 * `limit` of them (undefined otherwise: a common name, whose tickets are dense enough to be found
 * walking the list's order). From the trigram indexes on the folded name and the RUT's digits.
 */
export async function orgPeople(db: Database, search: string, limit: number): Promise<number[] | undefined> {
  const { rows } = await sql<{ id: number }>`
    select se.id from registered_users sr join course_registered_users se on se.registered_user_id = sr.id
    where ${foldedPersonSearch(sql`sr.search_name`, sql`sr.rut`, search)}
    limit ${limit + 1}`.execute(db);
  return rows.length > limit ? undefined : rows.map((r) => r.id);
}
