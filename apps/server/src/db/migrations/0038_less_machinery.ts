import { sql, type Kysely } from 'kysely';

/**
 * Takes out what the staffed-day benchmark showed buys nothing staff feel, or too little for what
 * it costs to read (docs/development/performance.md, "What each mechanism buys"):
 * - each enrolment's copy of its student's folded name and RUT and its triggers (0028, now a step
 *   that creates nothing): a course's students are searched on the students' own (registered_users, 0016);
 * - the version of the students as a whole (answer_versions scope -1, 0025, likewise), under
 *   which the totals of searches across every student were kept: they are counted each time;
 * - the statement triggers that stood for the activity results' foreign keys (0026, which now only
 *   drops a redundant index): the foreign keys are back, as 0001 declares them;
 * - the early return that 0029 wrote into every statement trigger function reading a transition
 *   table (0029 now rewrites nothing): the functions get their migrations' bodies back.
 * Every step is idempotent: a database created after these changes has none of it to drop.
 */
const FOREIGN_KEYS = [
  ['activity_course_users_activity_id_fkey', 'activity_id', 'activities'],
  ['activity_course_users_course_registered_user_id_fkey', 'course_registered_user_id', 'course_registered_users'],
] as const;

/** The line 0029 put at the start of those functions' bodies. */
const QUIET_LINE = String.raw`\n  if not exists \\(select from [^)]*\\) then return null; end if; -- quiet: no rows, nothing to do`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    'drop trigger if exists course_registered_users_search on course_registered_users',
    'drop trigger if exists registered_users_enrolment_search on registered_users',
    'drop function if exists sigaf_enrolment_search()',
    'drop function if exists sigaf_enrolment_search_of_students()',
    'alter table course_registered_users drop column if exists search_name, drop column if exists search_rut',
    'drop trigger if exists registered_users_answers_students on registered_users',
    'drop function if exists sigaf_answers_students()',
    'delete from answer_versions where scope = -1',
    'drop trigger if exists activity_course_users_references_insert on activity_course_users',
    'drop trigger if exists activity_course_users_references_update on activity_course_users',
    'drop trigger if exists activities_results_cascade on activities',
    'drop trigger if exists course_registered_users_results_cascade on course_registered_users',
    'drop trigger if exists activities_id_fixed on activities',
    'drop trigger if exists course_registered_users_id_fixed on course_registered_users',
    'drop function if exists sigaf_results_references()',
    'drop function if exists sigaf_results_references_update()',
    'drop function if exists sigaf_results_of_activities()',
    'drop function if exists sigaf_results_of_course_registered_users()',
    'drop function if exists sigaf_referenced_id_fixed()',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
  await sql
    .raw(
      `do $do$
declare
  f record;
begin
  for f in select p.proname, p.prosrc from pg_proc p join pg_namespace ns on ns.oid = p.pronamespace and ns.nspname = current_schema()
    where position('-- quiet: no rows' in p.prosrc) > 0 loop
    execute format('create or replace function %I() returns trigger language plpgsql as %L', f.proname, regexp_replace(f.prosrc, E'${QUIET_LINE}', ''));
  end loop;
end
$do$`,
    )
    .execute(db);
  for (const [name, column, parent] of FOREIGN_KEYS) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_constraint where conname = ${name}`.execute(db);
    if (rows[0]!.n === 0) {
      await sql.raw(`alter table activity_course_users add constraint ${name} foreign key (${column}) references ${parent}(id) on delete cascade`).execute(db);
    }
  }
}
