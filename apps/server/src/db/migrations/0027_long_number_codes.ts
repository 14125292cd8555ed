import { sql, type Kysely } from 'kysely';
import { withTrigram } from './sql-helpers.js';

/**
 * The codes with seven digits or more in a row, in a trigram index of their own (a code's number
 * reaches seven digits only past a million tickets of one course and category: usually none).
 * A search by RUT (seven or eight digits) also looks for the text in every ticket's code; any code
 * containing it has such a run, so the search reads this index (modules/tickets/sql.ts,
 * codeContains) instead of the long posting lists of digit trigrams in the index of every code
 * (3 ms at 10 million tickets, 0.5 ms at 1 million: the one part of a course's RUT search that grew
 * with the organisation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(withTrigram('ticket codes are searched by RUT', [`create index if not exists tickets_code_long_number_trgm_idx on tickets using gin (ticket_code gin_trgm_ops) where ticket_code ~ '[0-9]{7}'`]))
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tickets_code_long_number_trgm_idx`.execute(db);
}
