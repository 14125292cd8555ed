import { sql, type Kysely } from 'kysely';
import { withTrigram } from './sql-helpers.js';

/**
 * Growth to ten million tickets (docs/development/performance.md, "Growth"): the reads over the
 * whole organisation stop growing with it.
 * - The Administración lists by dates and by operator (every course, newest first): indexes in the
 *   lists' exact order (`created_at desc nulls last, id desc`, and the same after the operator),
 *   so a page is the first rows of one index range instead of a sort of all of them (a week is
 *   200,000 tickets at 10 million). The plain creation-time index is subsumed and replaced.
 * - Administración by code (`ilike '%…%'`, every course): a trigram index on the codes (the same
 *   the ticket search within a course reads; whichever migration runs first creates it).
 * - ticket_counts' creation hours and days (dims 7 and 9) of every course at once, with their
 *   counts (an index-only read), for the total of a date range: whole UTC days, then the hours at
 *   either end.
 * - The student search across courses: registered_users.search_name, the full name lower-cased
 *   and without accents exactly as the search compares it (db/pagination.ts), kept by a trigger,
 *   so matching reads a column instead of folding 200,000 names; and trigram indexes (pg_trgm,
 *   trusted: a database owner may create it) on that name, the e-mail and the RUT's digits. Where
 *   the extension is not available (the embedded database) the indexes are not created: the
 *   search answers the same, reading every student.
 */
const ACCENTED = 'áàäâéèëêíìïîóòöôúùüûñçÁÀÄÂÉÈËÊÍÌÏÎÓÒÖÔÚÙÜÛÑÇ';
const PLAIN = 'aaaaeeeeiiiioooouuuuncaaaaeeeeiiiioooouuuunc';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Ticket lists over every course, in their order.
  await sql`create index if not exists tickets_created_order_idx on tickets (created_at desc nulls last, id desc)`.execute(db);
  await sql`drop index if exists tickets_created_idx`.execute(db);
  await sql`create index if not exists tickets_assigned_created_idx on tickets (user_assigned_id, created_at desc nulls last, id desc)`.execute(db);
  await sql`create index if not exists ticket_counts_created_idx on ticket_counts (dim, value) include (n) where dim in (7, 9)`.execute(db);

  // The folded full name of each student.
  await sql`alter table registered_users add column if not exists search_name text`.execute(db);
  await sql.raw(`create or replace function sigaf_search_name(name text, last_name text, mother_last_name text) returns text
    language sql immutable parallel safe
    as $fn$ select translate(lower(name || ' ' || last_name || ' ' || coalesce(mother_last_name, '')), '${ACCENTED}', '${PLAIN}') $fn$`).execute(db);
  await sql.raw(`create or replace function sigaf_registered_users_search_name() returns trigger language plpgsql as $fn$
    begin
      new.search_name := sigaf_search_name(new.name, new.last_name, new.mother_last_name);
      return new;
    end $fn$`).execute(db);
  await sql`drop trigger if exists registered_users_search_name on registered_users`.execute(db);
  await sql`create trigger registered_users_search_name before insert or update of name, last_name, mother_last_name, search_name on registered_users for each row execute function sigaf_registered_users_search_name()`.execute(db);
  await sql`update registered_users set search_name = sigaf_search_name(name, last_name, mother_last_name) where search_name is distinct from sigaf_search_name(name, last_name, mother_last_name)`.execute(db);

  await sql.raw(
    withTrigram('codes and students are searched', [
      `create index if not exists tickets_code_trgm_idx on tickets using gin (ticket_code gin_trgm_ops)`,
      `create index if not exists registered_users_search_trgm_idx on registered_users using gin (search_name gin_trgm_ops)`,
      `create index if not exists registered_users_email_trgm_idx on registered_users using gin (email gin_trgm_ops)`,
      `create index if not exists registered_users_rut_trgm_idx on registered_users using gin ((replace(replace(rut, '.', ''), '-', '')) gin_trgm_ops)`,
    ]),
  ).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['tickets_code_trgm_idx', 'registered_users_search_trgm_idx', 'registered_users_email_trgm_idx', 'registered_users_rut_trgm_idx', 'ticket_counts_created_idx', 'tickets_assigned_created_idx']) {
    await sql`drop index if exists ${sql.ref(index)}`.execute(db);
  }
  await sql`drop trigger if exists registered_users_search_name on registered_users`.execute(db);
  await sql`drop function if exists sigaf_registered_users_search_name()`.execute(db);
  await sql`alter table registered_users drop column if exists search_name`.execute(db);
  await sql`drop function if exists sigaf_search_name(text, text, text)`.execute(db);
  await sql`create index if not exists tickets_created_idx on tickets (created_at)`.execute(db);
  await sql`drop index if exists tickets_created_order_idx`.execute(db);
}
