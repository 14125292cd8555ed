import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up } from '../src/db/migrations/0038_less_machinery.js';
import { fileContext } from './helpers.js';

/*
 * Migration 0038 on a database migrated before it: what 0025, 0026, 0028 and 0029 used to create
 * (put back here by hand, as those steps left it) is gone afterwards, the activity results have
 * their foreign keys again, and trigger functions have their bodies without 0029's early return.
 */
const file = fileContext();

const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
  (await query.execute(file.ctx.db)).rows[0]!.n;

describe('migration 0038 on a database that had the removed machinery', () => {
  it('drops the kept copies and the hand-made references, and restores the foreign keys and the functions', async () => {
    const db = file.ctx.db;
    const fn = (name: string, body: string) =>
      sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $fn$
begin
  ${body}
end
$fn$`);
    // As 0028 left it: the enrolments' copy and its triggers.
    await sql`alter table course_registered_users add column search_name text, add column search_rut text`.execute(
      db,
    );
    await fn('sigaf_enrolment_search', 'return new;').execute(db);
    await sql`create trigger course_registered_users_search before insert on course_registered_users for each row execute function sigaf_enrolment_search()`.execute(
      db,
    );
    // As 0025 left it: the students' version.
    await sql`insert into answer_versions (scope, version) values (-1, nextval('answer_version_seq')) on conflict (scope) do nothing`.execute(
      db,
    );
    await fn('sigaf_answers_students', 'return null;').execute(db);
    await sql`create trigger registered_users_answers_students after insert on registered_users for each statement execute function sigaf_answers_students()`.execute(
      db,
    );
    // As 0026 left it: no foreign keys on the results, a trigger instead.
    await sql`alter table activity_course_users drop constraint activity_course_users_activity_id_fkey, drop constraint activity_course_users_course_registered_user_id_fkey`.execute(
      db,
    );
    await fn('sigaf_results_references', 'return null;').execute(db);
    await sql`create trigger activity_course_users_references_insert after insert on activity_course_users
      referencing new table as changed for each statement execute function sigaf_results_references()`.execute(
      db,
    );
    // As 0029 left a keeping function: its early return first.
    const quiet = `if not exists (select from changed) then return null; end if; -- quiet: no rows, nothing to do`;
    await fn('sigaf_test_kept', `${quiet}\n  return null;`).execute(db);

    await up(db as never);

    const columns = await count(
      sql`select count(*)::int as n from information_schema.columns where table_name = 'course_registered_users' and column_name in ('search_name', 'search_rut')`,
    );
    const triggers = await count(
      sql`select count(*)::int as n from pg_trigger where tgname in ('course_registered_users_search', 'registered_users_answers_students', 'activity_course_users_references_insert')`,
    );
    const functions = await count(
      sql`select count(*)::int as n from pg_proc where proname in ('sigaf_enrolment_search', 'sigaf_answers_students', 'sigaf_results_references')`,
    );
    const scope = await count(sql`select count(*)::int as n from answer_versions where scope = -1`);
    const keys = await count(
      sql`select count(*)::int as n from pg_constraint where contype = 'f' and conname in ('activity_course_users_activity_id_fkey', 'activity_course_users_course_registered_user_id_fkey')`,
    );
    const quieted = await count(
      sql`select count(*)::int as n from pg_proc where prosrc like '%-- quiet: no rows%'`,
    );
    expect({ columns, triggers, functions, scope, keys, quieted }).toEqual({
      columns: 0,
      triggers: 0,
      functions: 0,
      scope: 0,
      keys: 2,
      quieted: 0,
    });
    const body = (
      await sql<{
        src: string;
      }>`select prosrc as src from pg_proc where proname = 'sigaf_test_kept'`.execute(db)
    ).rows[0]!.src;
    expect(body.replace(/\s+/g, ' ').trim()).toBe('begin return null; end');

    // Run again (a database created after these changes): nothing to do, nothing fails.
    await up(db as never);
    expect(
      await count(
        sql`select count(*)::int as n from pg_constraint where contype = 'f' and conrelid = 'activity_course_users'::regclass`,
      ),
    ).toBe(2);
  });
});
