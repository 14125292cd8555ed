import type { MoodleSection } from '../../moodle/schemas.js';

/**
 * Where a new Moodle activity belongs among SIGAF's sections (the "sections" catalogue: Renuncia,
 * Encuesta, Pre/Post Test A and B, Formativa, and any a course added), proposed from what Moodle
 * says: the name of the Moodle section it sits in, then its own name. Pure functions: the sync
 * and the proposals route call them.
 */

export interface SigafSection {
  id: number;
  key: string | null;
  description: string;
}

/** Lower case, no accents, punctuation as spaces, single spaces. */
export function foldName(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Rules on a folded name, in order: the first that matches gives the section key. */
const RULES: Array<[RegExp, string]> = [
  [/\b(renuncia|renuncias|retiro|retiros|desercion|baja del curso)\b/, 'resign'],
  [/\b(encuesta|encuestas|survey|satisfaccion)\b/, 'survey'],
  [/\b(post\s?test|postest|test final|evaluacion final|test de salida)\s?a\b/, 'post_test_a'],
  [/\b(post\s?test|postest|test final|evaluacion final|test de salida)\s?b\b/, 'post_test_b'],
  [
    /\b(pre\s?test|pretest|test|test inicial|evaluacion inicial|diagnostico|test de entrada)\s?a\b/,
    'pre_test_a',
  ],
  [
    /\b(pre\s?test|pretest|test|test inicial|evaluacion inicial|diagnostico|test de entrada)\s?b\b/,
    'pre_test_b',
  ],
];

/** The section key a name points to, or null. */
export function sectionKeyOfName(name: string | null | undefined): string | null {
  const folded = foldName(name ?? '');
  if (!folded) return null;
  for (const [rule, key] of RULES) if (rule.test(folded)) return key;
  return null;
}

/**
 * The proposed SIGAF section of an activity: a section whose name is the Moodle section's name
 * (accents and case aside), else the rules on the Moodle section's name, else the rules on the
 * activity's name. Null when nothing points anywhere (the activity stays in Formativa), or when
 * the proposal would be Formativa itself.
 */
export function proposeSection(
  moodleSection: string | null | undefined,
  activityName: string,
  sections: readonly SigafSection[],
): SigafSection | null {
  const folded = foldName(moodleSection ?? '');
  const byKey = (key: string | null) =>
    key ? (sections.find((s) => s.key === key) ?? null) : null;
  const found =
    (folded ? sections.find((s) => foldName(s.description) === folded) : undefined) ??
    byKey(sectionKeyOfName(moodleSection)) ??
    byKey(sectionKeyOfName(activityName));
  return found && found.key !== 'formative' ? found : null;
}

/** The Moodle section name of each course module (by cmid) in the course contents. */
export function moodleSectionsOf(contents: readonly MoodleSection[]): Map<number, string> {
  return new Map(
    contents.flatMap((s) =>
      s.modules.map((m) => [m.id, s.name.trim().slice(0, 255)] as [number, string]),
    ),
  );
}

/** A course's mapping Moodle section → SIGAF section, looked up accent- and case-insensitively. */
export function mappingLookup(
  maps: ReadonlyArray<{ moodle_section: string; section_id: number }>,
): (moodleSection: string | null | undefined) => number | null {
  const byName = new Map(maps.map((m) => [foldName(m.moodle_section), m.section_id]));
  return (name) => (name ? (byName.get(foldName(name)) ?? null) : null);
}

/** Moodle modules that carry a grade of their own (assignments, quizzes, …); pages, files, links and forums do not. */
export const GRADED_MODNAMES: ReadonlySet<string> = new Set([
  'assign',
  'quiz',
  'lesson',
  'workshop',
  'scorm',
  'h5pactivity',
  'hvp',
  'lti',
]);

/** Sections whose activities count toward progress whatever their weight (docs/development/domain.md). */
const COUNTED_BY_SECTION: ReadonlySet<string> = new Set([
  'resign',
  'survey',
  'pre_test_a',
  'pre_test_b',
  'post_test_a',
  'post_test_b',
]);

export interface WeightCandidate {
  id: number;
  type: string | null;
  moodleSection: string | null;
  /** The SIGAF section key it is (or is proposed to be) filed in. */
  sectionKey: string | null;
  weighing: number;
  removed: boolean;
  excluded: boolean;
}

/**
 * Weights for a course nobody has weighted yet (every weight 0): its graded activities outside
 * Renuncia, Encuesta and the tests share 100, each Moodle section an equal part, each activity of a
 * section an equal part of it (two decimals; the last takes the rounding so the total is 100).
 * Empty when a weight is set already or nothing is graded.
 */
export function proposeWeights(rows: readonly WeightCandidate[]): Map<number, number> {
  const out = new Map<number, number>();
  if (rows.some((r) => !r.removed && r.weighing > 0)) return out;
  const graded = rows.filter(
    (r) =>
      !r.removed &&
      !r.excluded &&
      r.type !== null &&
      GRADED_MODNAMES.has(r.type) &&
      !COUNTED_BY_SECTION.has(r.sectionKey ?? ''),
  );
  const groups = new Map<string, WeightCandidate[]>();
  for (const r of graded) {
    const k = foldName(r.moodleSection ?? '');
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  let total = 0;
  for (const members of groups.values()) {
    const each = Math.floor(10_000 / groups.size / members.length) / 100;
    for (const m of members) {
      out.set(m.id, each);
      total = Math.round((total + each) * 100) / 100;
    }
  }
  const last = graded[graded.length - 1];
  if (last) out.set(last.id, Math.round((out.get(last.id)! + 100 - total) * 100) / 100);
  return out;
}
