import type { StudentOnActivities } from '@sigaf/contract';
import type { CourseSection, EnrolmentInfo } from '../api';

/** The Masivo recipients' filters (docs/development/screens.md#massive-tickets), applied on screen to the course's students. */

export interface RecipientFilters {
  /** "Filtrar actividades pendientes": local activity ids, in the order chosen. */
  activityIds: number[];
  /** "Filtrar aula": a classroom id, or '' for all. */
  classroomId: number | '';
  /** "Nunca": only students who never entered the course. */
  never: boolean;
}

export const noRecipientFilters = (): RecipientFilters => ({
  activityIds: [],
  classroomId: '',
  never: false,
});

/** Sections left out of the pending-activity picker: Formativa and Renuncia. */
const NOT_PENDING_SECTIONS = new Set(['formative', 'resign']);

/** The activities the picker offers, with their section, in section order. */
export function pickableActivities(sections: CourseSection[]) {
  return sections
    .filter((s) => !NOT_PENDING_SECTIONS.has(s.key ?? ''))
    .flatMap((s) => s.activities.map((a) => ({ ...a, section: s.description, sectionKey: s.key })));
}

/** Lower case without accents, for searches that ignore both. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Every word of the search appears in the RUT (with or without dots) or the names. */
export function matchesSearch(e: EnrolmentInfo, search: string): boolean {
  const words = fold(search).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const s = e.registeredUser;
  const text = fold(
    [s.rut, s.rut.replace(/\./g, ''), s.name, s.lastName, s.motherLastName ?? ''].join(' '),
  );
  return words.every((w) => text.includes(w));
}

/** Not done: no grade and Moodle's completion is not complete or passed. */
const isPending = (a: StudentOnActivities['activities'][number]) =>
  a.grade === null && a.completionState !== 1 && a.completionState !== 2;

/** A test section's form: A for "… Test A", B for "… Test B", else none. */
export function testFormOf(sectionKey: string | null | undefined): 'A' | 'B' | null {
  if (!sectionKey || !sectionKey.includes('test')) return null;
  return sectionKey.endsWith('_a') ? 'A' : sectionKey.endsWith('_b') ? 'B' : null;
}

/**
 * The students with at least one of the chosen activities pending. Withdrawn or withdrawing
 * students are left out; when the first chosen activity is a Test A (B) one, only students of
 * form A (B) are kept.
 */
export function pendingStudents(
  rows: StudentOnActivities[],
  activityIds: number[],
  firstSectionKey: string | null,
): Set<number> {
  const chosen = new Set(activityIds);
  const form = testFormOf(firstSectionKey);
  return new Set(
    rows
      .filter(
        (r) =>
          r.status === 'Activo' &&
          (!form || r.form === form) &&
          r.activities.some((a) => chosen.has(a.activityId) && isPending(a)),
      )
      .map((r) => r.id),
  );
}

/** The rows that pass every filter and the search. `pending` is null while no activity is chosen. */
export function filterRecipients(
  rows: EnrolmentInfo[],
  filters: RecipientFilters,
  search: string,
  pending: Set<number> | null,
): EnrolmentInfo[] {
  return rows.filter(
    (e) =>
      (filters.classroomId === '' || (e.classroom?.id ?? null) === filters.classroomId) &&
      (!filters.never || !e.lastAccess) &&
      (!pending || pending.has(e.id)) &&
      matchesSearch(e, search),
  );
}

/** The classrooms present in the list, by name. */
export function classroomsOf(rows: EnrolmentInfo[]): Array<{ id: number; description: string }> {
  const seen = new Map<number, string>();
  // An enrolment without a classroom may carry a placeholder without id.
  for (const e of rows) if (e.classroom?.id) seen.set(e.classroom.id, e.classroom.description);
  return [...seen]
    .map(([id, description]) => ({ id, description }))
    .sort((a, b) => a.description.localeCompare(b.description, 'es'));
}
