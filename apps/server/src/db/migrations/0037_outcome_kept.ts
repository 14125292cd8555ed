import { sql, type Kysely } from 'kysely';

/**
 * The effectiveness report's figures of settled days, kept by a nightly task
 * (modules/outcomes/keeper.ts) so that the report reads them instead of computing every contact's
 * outcome and every baseline student-day again (docs/development/performance.md, "Contact
 * outcomes"). A Chilean day is kept once all its windows have closed (8 days after it);
 * outcome_kept_days lists the days kept, outcome_kept_groups holds, per day and dimension group,
 * the contacts' sums and their baseline's, for three scopes: the organisation (course 0,
 * operator 0), each course (operator 0) and each operator (course 0). The figures are sums, so
 * that a period's report is the sum of its days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table outcome_kept_days (
    day date primary key,
    kept_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table outcome_kept_groups (
    course_id int not null,
    operator_id int not null,
    day date not null,
    dim text not null,
    key text not null,
    n int not null,
    accessed int not null,
    gain_n int not null,
    gain_sum bigint not null,
    base_n int not null,
    base_accessed int not null,
    base_gain_n int not null,
    base_gain_sum bigint not null,
    primary key (course_id, operator_id, day, dim, key)
  )`.execute(db);
  await sql`create index outcome_kept_groups_day_idx on outcome_kept_groups (day)`.execute(db);
  // Course 0 and operator 0 are each common, their pair (the organisation) rare: without the pair's
  // statistics the planner expects a tenth of the table for an organisation-wide report.
  await sql`create statistics outcome_kept_groups_scope_stats (mcv) on course_id, operator_id from outcome_kept_groups`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop statistics if exists outcome_kept_groups_scope_stats`.execute(db);
  await sql`drop table outcome_kept_groups`.execute(db);
  await sql`drop table outcome_kept_days`.execute(db);
}
