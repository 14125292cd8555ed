import { sql, type Kysely } from 'kysely';
import { bumpAnswerVersions, triggerFunction as fn } from './sql-helpers.js';

/**
 * Versions of what the whole-course answers read (docs/development/performance.md, "Whole-course
 * answers"). The original client asks for a course's every ticket, every enrolment and every
 * student's results on chosen activities in one answer each (11–28 MB); the server keeps each
 * serialised answer (modules/answers/cache.ts) under the version of its course and the global
 * version it was read at, and serves it again while both are unchanged.
 *
 * - answer_versions: one row per course (scope = the course id) and one for everything every
 *   course shows (scope 0: catalogues, classrooms, categories, staff names…), each holding the
 *   last value of one sequence given to it — a value is never given twice, not even to a course
 *   deleted and created again.
 * - Statement triggers on every table those answers read give the affected courses (or scope 0)
 *   a new value in the writer's own transaction, so a reader that sees a committed change also
 *   sees its new version. The courses are locked in key order, like the other summary triggers.
 * - sigaf_rebuild_stats() (after a bulk load that bypassed triggers, or a restore) also gives
 *   scope 0 a new value: every kept answer is read again.
 */

/** How the courses a statement touched are found, per table, from its transition table `changed`. */
const PER_COURSE: Record<string, string> = {
  tickets: 'select course_id from changed',
  ticket_details: 'select course_id from changed',
  course_registered_users: 'select course_id from changed',
  activities: 'select course_id from changed',
  classroom_tutors: 'select course_id from changed',
  moodle_section_maps: 'select course_id from changed',
  courses: 'select id from changed',
  log_editing_tickets: 'select t.course_id from tickets t where t.id in (select ticket_id from changed)',
  activity_course_users: 'select a.course_id from activities a where a.id in (select activity_id from changed)',
  registered_users: 'select e.course_id from course_registered_users e where e.registered_user_id in (select id from changed)',
};

/** Tables every course's answers show rows of: any change gives scope 0 a new value. */
const GLOBAL = [
  'roles', 'profiles', 'classrooms', 'final_statuses', 'status_tickets', 'priority_tickets', 'motive_tickets',
  'status_detail_tickets', 'source_tickets', 'type_tickets', 'sections', 'platforms', 'regions', 'categories',
];

const BUMP = bumpAnswerVersions;

function statements(): string[] {
  const out = [
    `create sequence answer_version_seq`,
    `create table answer_versions (scope int primary key, version bigint not null)`,
    `insert into answer_versions (scope, version) values (0, nextval('answer_version_seq'))`,
    fn('sigaf_answers_global', BUMP('select 0')),
  ];
  for (const [table, courses] of Object.entries(PER_COURSE)) {
    // One function for inserts and deletes (the rows as `changed`), one for updates (a row may move between courses).
    out.push(fn(`sigaf_answers_${table}`, BUMP(courses)));
    out.push(fn(`sigaf_answers_${table}_update`, BUMP(`${courses} union all ${courses.replace(/\bchanged\b/g, 'changed_before')}`)));
    out.push(`create trigger ${table}_answers_insert after insert on ${table} referencing new table as changed for each statement execute function sigaf_answers_${table}()`);
    out.push(`create trigger ${table}_answers_update after update on ${table} referencing old table as changed_before new table as changed for each statement execute function sigaf_answers_${table}_update()`);
    out.push(`create trigger ${table}_answers_delete after delete on ${table} referencing old table as changed for each statement execute function sigaf_answers_${table}()`);
  }
  for (const table of GLOBAL) {
    out.push(`create trigger ${table}_answers after insert or update or delete on ${table} for each statement execute function sigaf_answers_global()`);
  }
  // Staff names show on tickets (creator, operator, who holds the lock); signing in changes other columns.
  out.push(`create trigger users_answers after insert or delete or update of name on users for each statement execute function sigaf_answers_global()`);
  out.push(`alter function sigaf_rebuild_stats() rename to sigaf_rebuild_summaries`);
  out.push(`create function sigaf_rebuild_stats() returns void language plpgsql as $fn$
  begin
    perform sigaf_rebuild_summaries();
    ${BUMP('select 0')};
  end
  $fn$`);
  return out;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements()) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop function if exists sigaf_rebuild_stats()').execute(db);
  await sql.raw('alter function sigaf_rebuild_summaries() rename to sigaf_rebuild_stats').execute(db);
  for (const table of Object.keys(PER_COURSE)) {
    for (const event of ['insert', 'update', 'delete']) await sql.raw(`drop trigger if exists ${table}_answers_${event} on ${table}`).execute(db);
    await sql.raw(`drop function if exists sigaf_answers_${table}()`).execute(db);
    await sql.raw(`drop function if exists sigaf_answers_${table}_update()`).execute(db);
  }
  for (const table of [...GLOBAL, 'users']) await sql.raw(`drop trigger if exists ${table}_answers on ${table}`).execute(db);
  await sql.raw('drop function if exists sigaf_answers_global()').execute(db);
  await sql.raw('drop table if exists answer_versions').execute(db);
  await sql.raw('drop sequence if exists answer_version_seq').execute(db);
}
