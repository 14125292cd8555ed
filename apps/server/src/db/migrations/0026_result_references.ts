import { sql, type Kysely } from 'kysely';
import { triggerFunction as fn } from './sql-helpers.js';

/**
 * Students' activity results (activity_course_users) reference their activity and enrolment
 * through statement triggers instead of foreign keys, and lose a redundant index. A course's first
 * Moodle synchronisation writes 500,000 results (10,000 students × 50 activities); a foreign key
 * checks each row apart (a lookup and a lock of the referenced row per row, two keys: 9.7 of the
 * 14.9 s those inserts took on the embedded database), where these triggers check and lock each
 * referenced activity and enrolment once per statement. The guarantees are a foreign key's:
 * - a statement adding results, or changing what they reference, locks the referenced rows (FOR
 *   KEY SHARE, until its transaction ends: a concurrent deletion waits for it) and fails with the
 *   foreign-key error (23503) when one is missing;
 * - deleting activities or enrolments deletes their results in the same statement (the cascade);
 * - the ids of activities and enrolments cannot change (the foreign keys' NO ACTION on update).
 * acu_enrolment_idx (course_registered_user_id) repeated the first column of the unique index
 * (course_registered_user_id, activity_id); 3.2 s of those inserts.
 * db/references.ts names them for what reads foreign keys from the catalogue (backup.ts, seed:large).
 */
const CHECK = (rows: string) => `
  perform 1 from activities a where a.id in (select r.activity_id from ${rows} r) order by a.id for key share of a;
  perform 1 from course_registered_users e where e.id in (select r.course_registered_user_id from ${rows} r) order by e.id for key share of e;
  if exists (select 1 from ${rows} r where not exists (select 1 from activities a where a.id = r.activity_id)) then
    raise exception using errcode = 'foreign_key_violation', constraint = 'activity_course_users_activity_id_fkey',
      message = 'insert or update on table "activity_course_users" violates its reference to "activities"';
  end if;
  if exists (select 1 from ${rows} r where not exists (select 1 from course_registered_users e where e.id = r.course_registered_user_id)) then
    raise exception using errcode = 'foreign_key_violation', constraint = 'activity_course_users_course_registered_user_id_fkey',
      message = 'insert or update on table "activity_course_users" violates its reference to "course_registered_users"';
  end if`;

/** The updated rows whose references changed (old `o` and new `n`). */
const MOVED = `changed_before o join changed n on n.id = o.id
  where n.activity_id <> o.activity_id or n.course_registered_user_id <> o.course_registered_user_id`;

const STATEMENTS = [
  `alter table activity_course_users drop constraint activity_course_users_activity_id_fkey`,
  `alter table activity_course_users drop constraint activity_course_users_course_registered_user_id_fkey`,
  `drop index if exists acu_enrolment_idx`,
  fn('sigaf_results_references', CHECK('changed')),
  fn('sigaf_results_references_update', `if exists (select 1 from ${MOVED}) then
      ${CHECK(`(select n.activity_id, n.course_registered_user_id from ${MOVED})`)};
    end if`),
  `create trigger activity_course_users_references_insert after insert on activity_course_users
    referencing new table as changed for each statement execute function sigaf_results_references()`,
  `create trigger activity_course_users_references_update after update on activity_course_users
    referencing old table as changed_before new table as changed for each statement execute function sigaf_results_references_update()`,
  // The cascades: deleting activities or enrolments deletes their results in the same statement.
  ...(
    [
      ['activities', 'activity_id'],
      ['course_registered_users', 'course_registered_user_id'],
    ] as const
  ).flatMap(([parent, column]) => [
    fn(`sigaf_results_of_${parent}`, `delete from activity_course_users r where r.${column} in (select id from changed)`),
    `create trigger ${parent}_results_cascade after delete on ${parent}
      referencing old table as changed for each statement execute function sigaf_results_of_${parent}()`,
  ]),
  `create function sigaf_referenced_id_fixed() returns trigger language plpgsql as $fn$
  begin
    if new.id <> old.id then
      raise exception using errcode = 'foreign_key_violation', message = format('the id of a row of %s is referenced and does not change', tg_table_name);
    end if;
    return new;
  end
  $fn$`,
  `create trigger activities_id_fixed before update of id on activities for each row execute function sigaf_referenced_id_fixed()`,
  `create trigger course_registered_users_id_fixed before update of id on course_registered_users for each row execute function sigaf_referenced_id_fixed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
