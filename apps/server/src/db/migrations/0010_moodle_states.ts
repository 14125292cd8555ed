import { sql, type Kysely } from 'kysely';

/**
 * States Moodle really has (docs/usage/moodle.md): an enrolment suspended in Moodle; an activity
 * deleted in Moodle (kept for history, out of progress), hidden in Moodle, or left out of
 * progress by staff; whether an enrolment was ever matched in the Moodle course (so that a push
 * does not silently re-enrol someone Moodle unenrolled on purpose).
 */
const STATEMENTS: string[] = [
  `alter table course_registered_users add column moodle_suspended boolean not null default false`,
  `alter table course_registered_users add column moodle_seen boolean not null default false`,
  `update course_registered_users set moodle_seen = true where is_sincronized`,
  `alter table activities add column removed_at timestamptz`,
  `alter table activities add column hidden boolean not null default false`,
  `alter table activities add column excluded_from_progress boolean not null default false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['excluded_from_progress', 'hidden', 'removed_at']) await sql.raw(`alter table activities drop column ${column}`).execute(db);
  for (const column of ['moodle_seen', 'moodle_suspended']) await sql.raw(`alter table course_registered_users drop column ${column}`).execute(db);
}
