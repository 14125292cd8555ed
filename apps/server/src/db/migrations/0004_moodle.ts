import { sql, type Kysely } from 'kysely';

/**
 * Moodle integration: the per-course state of the last synchronisation (kept beyond the jobs'
 * retention, also for the synchronous partial syncs), and the student state a course's Renuncia
 * activity gives each enrolment (registered_users.status_moodle is per person, not per course).
 * The Moodle URL and encrypted token live in platforms (0001).
 */
const STATEMENTS: string[] = [
  `alter table course_registered_users add column status_moodle varchar(40)`,
  `create table moodle_course_syncs (
    course_id int primary key references courses(id) on delete cascade,
    state varchar(20) not null,
    scope varchar(20) not null,
    job_id bigint,
    progress jsonb,
    result jsonb,
    error text,
    started_at timestamptz,
    finished_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint moodle_course_syncs_state_ck check (state in ('queued','running','done','failed'))
  )`,
  // The sync matches a course's enrolments to Moodle users, and reads results per enrolment.
  `create index acu_enrolment_idx on activity_course_users (course_registered_user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists acu_enrolment_idx').execute(db);
  await sql.raw('drop table if exists moodle_course_syncs').execute(db);
  await sql.raw('alter table course_registered_users drop column if exists status_moodle').execute(db);
}
