import { sql, type Expression } from 'kysely';
import type { Database } from '../../db/database.js';

/**
 * The version text of these scopes, `a:b` (a scope never written is 0): what an answer is kept
 * under. One expression, so that a query of its own (a ticket's owners) can carry it.
 */
export function versionText(scopes: Array<number | Expression<number>>) {
  return sql<string>`concat_ws(':', ${sql.join(scopes.map((scope) => sql`coalesce((select v.version from answer_versions v where v.scope = ${scope}), 0)`))})`;
}

/** The versions of what kept answers read (answer_versions, migration 0024). */
export class AnswerVersionRepository {
  constructor(private readonly db: Database) {}

  private async versions(scopes: number[]): Promise<string> {
    return (await sql<{ version: string }>`select ${versionText(scopes)} as version`.execute(this.db)).rows[0]!.version;
  }

  /** `course:global`: both change whenever a row a course's answers show changes. */
  versionOf(courseId: number): Promise<string> {
    return this.versions([courseId, 0]);
  }
}
