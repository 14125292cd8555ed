import { sql, type Kysely } from 'kysely';

/**
 * The kept effectiveness rows by scope and dimension before the day: a report reads its nine
 * dimensions' few rows apart from the student rows (one per student and day, most of the table),
 * and those apart again for the design effect, instead of every row of its days.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index outcome_kept_groups_dim_idx on outcome_kept_groups (course_id, operator_id, dim, day)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index outcome_kept_groups_dim_idx`.execute(db);
}
