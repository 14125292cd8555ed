import { sql, type Kysely } from 'kysely';

/**
 * The workload table's count of at-risk students per operator, read from indexes alone
 * (docs/development/performance.md, "What each mechanism buys"): a course's cached follow-up rows
 * carry the columns the at-risk rules compare in their primary key's index; a student's open
 * tickets carry their operator in the enrolment-and-status index (replacing 0036's index).
 */
const RULE_COLUMNS = 'synced, stage, classroom_id, last_access, last_attempt_at, graded, expected';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`alter table course_follow_up_rows drop constraint course_follow_up_rows_pkey,
    add constraint course_follow_up_rows_pkey primary key (course_id, enrolment_id) include (${RULE_COLUMNS})`).execute(db);
  await sql`drop index if exists tickets_enrolment_status_idx`.execute(db);
  await sql`create index tickets_enrolment_status_idx on tickets (course_registered_user_id, status_ticket_id) include (user_assigned_id)`.execute(db);
  await sql`drop index if exists tickets_enrolment_operator_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists tickets_enrolment_operator_idx on tickets (course_registered_user_id, user_assigned_id)`.execute(db);
  await sql`drop index if exists tickets_enrolment_status_idx`.execute(db);
  await sql`create index tickets_enrolment_status_idx on tickets (course_registered_user_id, status_ticket_id)`.execute(db);
  await sql`alter table course_follow_up_rows drop constraint course_follow_up_rows_pkey, add constraint course_follow_up_rows_pkey primary key (course_id, enrolment_id)`.execute(db);
}
