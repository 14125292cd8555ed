import { sql, type Kysely } from 'kysely';

/**
 * A student's grade in an activity is kept at Moodle's own precision: Moodle stores grades with
 * 5 decimals (grade_grades.finalgrade decimal(10,5), so 200/3 is 66.66667). At 4 decimals the
 * stored value never equalled Moodle's and every re-sync rewrote those rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table activity_course_users alter column grade type numeric(10,5)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table activity_course_users alter column grade type numeric(10,4)`.execute(db);
}
