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
  [/\b(pre\s?test|pretest|test|test inicial|evaluacion inicial|diagnostico|test de entrada)\s?a\b/, 'pre_test_a'],
  [/\b(pre\s?test|pretest|test|test inicial|evaluacion inicial|diagnostico|test de entrada)\s?b\b/, 'pre_test_b'],
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
export function proposeSection(moodleSection: string | null | undefined, activityName: string, sections: readonly SigafSection[]): SigafSection | null {
  const folded = foldName(moodleSection ?? '');
  const byKey = (key: string | null) => (key ? (sections.find((s) => s.key === key) ?? null) : null);
  const found = (folded ? sections.find((s) => foldName(s.description) === folded) : undefined) ?? byKey(sectionKeyOfName(moodleSection)) ?? byKey(sectionKeyOfName(activityName));
  return found && found.key !== 'formative' ? found : null;
}

/** The Moodle section name of each course module (by cmid) in the course contents. */
export function moodleSectionsOf(contents: readonly MoodleSection[]): Map<number, string> {
  return new Map(contents.flatMap((s) => s.modules.map((m) => [m.id, s.name.trim().slice(0, 255)] as [number, string])));
}

/** A course's mapping Moodle section → SIGAF section, looked up accent- and case-insensitively. */
export function mappingLookup(maps: ReadonlyArray<{ moodle_section: string; section_id: number }>): (moodleSection: string | null | undefined) => number | null {
  const byName = new Map(maps.map((m) => [foldName(m.moodle_section), m.section_id]));
  return (name) => (name ? (byName.get(foldName(name)) ?? null) : null);
}
