import { sql, type Kysely } from 'kysely';
import { bumpAnswerVersions, triggerFunction as fn } from './sql-helpers.js';

/**
 * The version of the students as a whole (answer_versions scope -1), for the exact totals of
 * searches across every student (modules/answers/totals.ts): a statement that adds or removes a
 * student, or changes what a search matches (RUT, names, e-mail), gives it a new value in the
 * writer's transaction. Other columns (telephones, school, Moodle fields) leave it as it is.
 */
const STUDENTS_SCOPE = -1;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`insert into answer_versions (scope, version) values (${STUDENTS_SCOPE}, nextval('answer_version_seq')) on conflict (scope) do nothing`).execute(db);
  await sql.raw(fn('sigaf_answers_students', bumpAnswerVersions(`select ${STUDENTS_SCOPE}`))).execute(db);
  await sql
    .raw(`create trigger registered_users_answers_students
      after insert or delete or update of rut, name, last_name, mother_last_name, email, search_name on registered_users
      for each statement execute function sigaf_answers_students()`)
    .execute(db);
}
