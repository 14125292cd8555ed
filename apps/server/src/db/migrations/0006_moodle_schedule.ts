import { sql, type Kysely } from 'kysely';

/**
 * The nightly Moodle sync: one row per course and day, inserted by whichever server process
 * gets there first (the primary key makes it happen once however many processes run the
 * schedule); only the process whose insert succeeded queues that course's sync.
 */
const STATEMENTS: string[] = [
  `create table moodle_sync_schedule_runs (
    course_id int not null references courses(id) on delete cascade,
    day date not null,
    job_id bigint,
    created_at timestamptz not null default now(),
    primary key (course_id, day)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists moodle_sync_schedule_runs').execute(db);
}
