import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** The versions of what kept answers read (answer_versions, migration 0024). */
export class AnswerVersionRepository {
  constructor(private readonly db: Database) {}

  /** `course:global` (a scope never written is 0): both change whenever a row a course's answers show changes. */
  async versionOf(courseId: number): Promise<string> {
    const version = (scope: number) =>
      sql`coalesce((select v.version from answer_versions v where v.scope = ${scope}), 0)`;
    return (
      await sql<{
        version: string;
      }>`select concat_ws(':', ${version(courseId)}, ${version(0)}) as version`.execute(this.db)
    ).rows[0]!.version;
  }
}
