import type { Database } from '../../db/database.js';

/** The scope of the students as a whole (migration 0025). */
const STUDENTS_SCOPE = -1;

/** The versions of what kept answers read (answer_versions, migrations 0024 and 0025). */
export class AnswerVersionRepository {
  constructor(private readonly db: Database) {}

  private async versions(scopes: number[]): Promise<string> {
    const rows = await this.db.selectFrom('answer_versions').select(['scope', 'version']).where('scope', 'in', scopes).execute();
    return scopes.map((scope) => rows.find((r) => r.scope === scope)?.version ?? '0').join(':');
  }

  /** `course:global`: both change whenever a row a course's answers show changes. */
  versionOf(courseId: number): Promise<string> {
    return this.versions([courseId, 0]);
  }

  /** `students:global`: changes whenever a student is added or removed, or what a search matches changes. */
  studentsVersion(): Promise<string> {
    return this.versions([STUDENTS_SCOPE, 0]);
  }
}
