import { sql, type Kysely } from 'kysely';

/**
 * An activity a sync no longer finds in any of Moodle's lists while it cannot confirm that the
 * token's user may see hidden activities (moodle/course:viewhiddenactivities): it may be deleted
 * or only hidden. Since when it is so ("no visible para el token: eliminada u oculta"); it stays,
 * with its results and in progress, until a sync can tell or staff confirm its removal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table activities add column moodle_unseen_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table activities drop column moodle_unseen_at`.execute(db);
}
