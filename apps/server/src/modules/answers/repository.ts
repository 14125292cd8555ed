import type { Database } from '../../db/database.js';

/** The versions of what a course's whole answers read (answer_versions, migration 0024). */
export class AnswerVersionRepository {
  constructor(private readonly db: Database) {}

  /** `course:global`: both change whenever a row a course's answers show changes. */
  async versionOf(courseId: number): Promise<string> {
    const rows = await this.db.selectFrom('answer_versions').select(['scope', 'version']).where('scope', 'in', [0, courseId]).execute();
    const of = (scope: number) => rows.find((r) => r.scope === scope)?.version ?? '0';
    return `${of(courseId)}:${of(0)}`;
  }
}
