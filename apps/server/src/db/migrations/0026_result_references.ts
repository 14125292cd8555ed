import { sql, type Kysely } from 'kysely';

/**
 * Drops acu_enrolment_idx (course_registered_user_id), which repeated the first column of the
 * unique index (course_registered_user_id, activity_id): 3.2 s of the half a million result
 * inserts of a course's first Moodle synchronisation (10,000 students × 50 activities).
 *
 * This step once also replaced the results' two foreign keys with statement triggers (checking
 * each referenced row once per statement instead of once per row); measured again, that bought
 * 3 s of a 38 s first synchronisation, and 0038 put the foreign keys back
 * (docs/development/performance.md, "What each mechanism buys").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists acu_enrolment_idx`.execute(db);
}
