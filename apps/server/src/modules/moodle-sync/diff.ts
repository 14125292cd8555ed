import type { MoodleActivityCompletion } from '../../moodle/schemas.js';
import {
  GRADE_DECIMALS,
  resultFor,
  type LocalActivity,
  type LocalResult,
  type Matching,
  type UserGrades,
} from './plan.js';

/**
 * Which stored activity results a sync must read. A course's results are many (students ×
 * activities) and an unchanged re-sync writes none of them: instead of reading every row, the
 * repository gives each enrolment's results as one text (resultFingerprints) and the sync builds
 * the same text from what Moodle says; only the students whose texts differ are read and planned
 * row by row. Equal texts mean equal rows: planPeople then takes Moodle's values for the stored
 * ones (`unchanged`), and its answer is the same either way.
 */

/** PostgreSQL's quote_nullable. */
function quoteNullable(s: string | null): string {
  if (s === null) return 'NULL';
  const quoted = `'${s.replace(/'/g, "''")}'`;
  return s.includes('\\') ? `E${quoted.replace(/\\/g, '\\\\')}` : quoted;
}

/** A grade as numeric(10,5) prints it; '?' (never equal to a stored text) when the value has more decimals than are stored. */
const gradeText = (g: number | null) =>
  g === null ? '-' : Number(g.toFixed(GRADE_DECIMALS)) === g ? g.toFixed(GRADE_DECIMALS) : '?';

type ResultRow = Omit<LocalResult, 'id' | 'course_registered_user_id'>;

/** One enrolment's results as MoodleSyncRepository.resultFingerprints writes them (rows in activity order). */
export function resultFingerprint(rows: readonly ResultRow[]): string {
  return rows
    .map(
      (r) =>
        `${r.activity_id},${quoteNullable(r.status_moodle)},${quoteNullable(r.qualification_moodle)},${r.completion_state ?? '-'},${gradeText(r.grade)}`,
    )
    .join(';');
}

export interface StoredResultsInput {
  matching: Matching;
  activities: readonly LocalActivity[];
  grades: Map<number, UserGrades>;
  completion: Map<number, MoodleActivityCompletion[]>;
}

/**
 * The matched students whose stored results must be read (`load`: they differ from what Moodle
 * says), and those whose stored results are what Moodle says (`unchanged`: nothing of them is read
 * nor written). The others have no stored result: theirs are all new.
 */
export function storedResults(
  input: StoredResultsInput,
  fingerprints: ReadonlyMap<number, string>,
): { load: number[]; unchanged: Set<number> } {
  const tracked = input.activities
    .filter((a) => a.id_activity_moodle !== null)
    .sort((a, b) => a.id - b.id);
  const load: number[] = [];
  const unchanged = new Set<number>();
  for (const { enrolment, user } of input.matching.matches) {
    const known = input.completion.get(user.id);
    if (!known) {
      load.push(enrolment.id);
      continue;
    }
    const grades = input.grades.get(user.id);
    const completion = new Map(known.map((c) => [c.cmid, c]));
    const rows: ResultRow[] = [];
    for (const a of tracked) {
      const values = resultFor(
        completion.get(a.id_activity_moodle!),
        grades?.byCmid.get(a.id_activity_moodle!),
      );
      if (values) rows.push({ activity_id: a.id, ...values });
    }
    const stored = fingerprints.get(enrolment.id);
    if ((stored ?? '') === resultFingerprint(rows)) unchanged.add(enrolment.id);
    // A student with no stored result (a course's first sync) has none to read.
    else if (stored !== undefined) load.push(enrolment.id);
  }
  return { load, unchanged };
}
