import { sql, type Kysely } from 'kysely';
import { withTrigram } from './sql-helpers.js';

/**
 * The ticket search at scale (docs/development/performance.md).
 * A search matches a ticket by its code (any part of it, `ilike`) or by its student: the students
 * come from the course's enrolments and their tickets from the `(enrolment, status)` index, but
 * the code part alone read every ticket of the course (30,000 in the largest one, and `ilike`
 * costs about a microsecond a row). A trigram index on the codes answers it from the index
 * (pg_trgm, shipped with PostgreSQL's contrib modules and trusted: a database owner may create
 * it). Where the extension is not available (the embedded database) nothing is created: the
 * search gives the same answers, only by reading the course's tickets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(withTrigram('ticket codes are searched', ['create index if not exists tickets_code_trgm_idx on tickets using gin (ticket_code gin_trgm_ops)'])).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tickets_code_trgm_idx`.execute(db);
}
