import { sql, type Kysely } from 'kysely';

/**
 * Each enrolment's Moodle figures over time: a row whenever a sync (or the legacy import, as a
 * first point) finds them different from the enrolment's last row. Progress is the percentage of
 * the counting activities graded (as the follow-up table's), completed the activities with a
 * completion, grade Moodle's course grade when it is a number. Kept for the life of the enrolment;
 * the primary key is also the lookup of "the figures after a contact" (enrolment, time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table enrolment_progress_history (
    enrolment_id int not null references course_registered_users (id) on delete cascade,
    recorded_at timestamptz not null default now(),
    progress smallint,
    last_access timestamptz,
    completed smallint not null default 0,
    grade numeric(10, 5),
    primary key (enrolment_id, recorded_at)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table enrolment_progress_history`.execute(db);
}
