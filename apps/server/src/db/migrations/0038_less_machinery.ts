import { sql, type Kysely } from 'kysely';

/**
 * Takes out what the staffed-day benchmark showed buys nothing staff feel
 * (docs/development/performance.md, "What each mechanism buys"): each enrolment's copy of its
 * student's folded name and RUT (0028); the version of the students as a whole (0025), under which
 * the totals of searches across every student were kept; the statement triggers that stood for the
 * activity results' foreign keys (0026): the foreign keys are back; the early return 0029 wrote
 * into every statement trigger function. Those steps now create nothing; every step is idempotent.
 */
const FOREIGN_KEYS = [
  ['activity_course_users_activity_id_fkey', 'activity_id', 'activities'],
  ['activity_course_users_course_registered_user_id_fkey', 'course_registered_user_id', 'course_registered_users'],
] as const;

/** The line 0029 put at the start of those functions' bodies. */
const QUIET_LINE = String.raw`\n  if not exists \\(select from [^)]*\\) then return null; end if; -- quiet: no rows, nothing to do`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // Each function's triggers go with it.
    `drop function if exists sigaf_enrolment_search(), sigaf_enrolment_search_of_students(), sigaf_answers_students(),
      sigaf_results_references(), sigaf_results_references_update(), sigaf_results_of_activities(),
      sigaf_results_of_course_registered_users(), sigaf_referenced_id_fixed() cascade`,
    'alter table course_registered_users drop column if exists search_name, drop column if exists search_rut',
    'delete from answer_versions where scope = -1',
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
