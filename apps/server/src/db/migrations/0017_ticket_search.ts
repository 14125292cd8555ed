import { sql, type Kysely } from 'kysely';

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
  await sql.raw(`do $$
    begin
      if exists (select 1 from pg_available_extensions where name = 'pg_trgm') then
        begin
          create extension if not exists pg_trgm;
        exception when others then
          raise notice 'pg_trgm not created (%): ticket codes are searched without their index', sqlerrm;
        end;
      end if;
      if exists (select 1 from pg_extension where extname = 'pg_trgm') then
        create index if not exists tickets_code_trgm_idx on tickets using gin (ticket_code gin_trgm_ops);
      end if;
    end $$`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists tickets_code_trgm_idx`.execute(db);
}
