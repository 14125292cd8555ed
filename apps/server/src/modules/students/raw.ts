import { chileDateTime, chileParts, MOODLE_MODULE_LABELS } from '@sigaf/contract';
import type { ActivityResultRow, EnrolmentRow, StudentRow } from './repository.js';

/**
 * The original server's raw (snake_case) student and enrolment objects, which the original client
 * reads field by field (docs/development/original-api.md §1.6, §2.13, §2.14 "mapUser fields"). Presenters only:
 * the rows come from the same repositories as every other answer.
 */

/** A student as the original's registered_users row (§1.6 `/registered-user/{rut}`). */
export function rawStudent(
  s: Pick<
    StudentRow,
    | 'id'
    | 'rut'
    | 'name'
    | 'last_name'
    | 'mother_last_name'
    | 'email'
    | 'phone'
    | 'mobile'
    | 'address'
    | 'city'
    | 'region'
    | 'rbd_school'
    | 'name_school'
    | 'city_school'
    | 'region_school'
    | 'phone_school'
    | 'id_registered_moodle'
    | 'rut_registered_moodle'
  >,
) {
  return {
    id: s.id,
    rut: s.rut,
    name: s.name,
    last_name: s.last_name,
    // Concatenated into the full name by the original client: never null.
    mother_last_name: s.mother_last_name ?? '',
    email: s.email,
    phone: s.phone,
    mobile: s.mobile,
    address: s.address,
    city: s.city,
    region: s.region,
    rbd_school: s.rbd_school,
    name_school: s.name_school,
    city_school: s.city_school,
    region_school: s.region_school,
    phone_school: s.phone_school,
    id_registered_moodle: s.id_registered_moodle,
    rut_registered_moodle: s.rut_registered_moodle,
  };
}

/** The student inside an enrolment row, raw. */
export function rawEnrolmentStudent(e: EnrolmentRow) {
  return rawStudent({ ...e, id: e.registered_user_id });
}

/**
 * "Última conexión" as the original kept it: Moodle's text. A date and time (Chile), or 'Nunca'
 * (the value the client compares) when Moodle says the student never entered; null before any sync.
 */
export function lastAccessText(
  e: Pick<EnrolmentRow, 'last_access_registered_moodle' | 'last_access_text'>,
): string | null {
  if (e.last_access_registered_moodle) return chileDateTime(e.last_access_registered_moodle);
  return e.last_access_text;
}

/** The original's last-sync display string: `dd/mm/yyyy HH:MM:SS` (Chile). */
export function lastSyncText(at: Date | string): string {
  const p = chileParts(at);
  const seconds = String(new Date(at).getUTCSeconds()).padStart(2, '0');
  return `${p.date.replace(/-/g, '/')} ${p.time}:${seconds}`;
}

/**
 * The classroom of an enrolment. The original client reads `classroom.description` without a null
 * check (the card headline), so an enrolment without a classroom gets a placeholder object.
 */
export function rawClassroom(e: Pick<EnrolmentRow, 'classroom_id' | 'classroom_description'>) {
  return e.classroom_id
    ? { id: e.classroom_id, description: e.classroom_description ?? '' }
    : { id: null, description: 'Sin aula' };
}

/** One Moodle result of an enrolment, with its activity and section (`activity_course_users[]`). */
export function rawActivityResult(r: ActivityResultRow) {
  return {
    id: r.id,
    activity_id: r.activity_id,
    course_registered_user_id: r.course_registered_user_id,
    status_moodle: r.status_moodle ?? '',
    qualification_moodle: r.qualification_moodle ?? '',
    activity: {
      id: r.activity_id,
      description: r.description,
      // The original's activity families ('Tareas', 'Foros', …); the client badges by them.
      type: r.type ? (MOODLE_MODULE_LABELS[r.type] ?? r.type) : '',
      weighing: Number(r.weighing),
      id_activity_moodle: r.id_activity_moodle,
      section_id: r.section_id,
      // Read without a null check (`activity.section.description`): never null.
      section: { id: r.section_id, description: r.section_description ?? '' },
    },
  };
}

const presentedResults = new WeakMap<
  readonly ActivityResultRow[],
  ReturnType<typeof rawActivityResult>[]
>();

/**
 * An enrolment's results as its card reads them, every one (Seguimiento and Ticket › Masivo keep
 * only students with results; the card's divisor is never 0, see catalogs/progress-divisor.ts),
 * presented once per list of rows: every ticket of a student in a course carries the same results
 * (25 tickets a student at the largest course), and the same presented array serves them all.
 */
export function rawCardResults(results: readonly ActivityResultRow[]) {
  let presented = presentedResults.get(results);
  if (!presented) presentedResults.set(results, (presented = results.map(rawActivityResult)));
  return presented;
}

/** An enrolment as the original's course_registered_users row with its relations (the "mapUser fields"). */
export function rawEnrolment(e: EnrolmentRow, results: readonly ActivityResultRow[] = []) {
  return {
    id: e.id,
    course_id: e.course_id,
    registered_user_id: e.registered_user_id,
    profile_id: e.profile_id,
    classroom_id: e.classroom_id,
    final_status_id: e.final_status_id,
    final_qualification: e.final_qualification === null ? null : Number(e.final_qualification),
    final_qualification_moodle: e.final_qualification_moodle,
    last_access_registered_moodle: lastAccessText(e),
    // Compared with `=== 0` by the original client: a number, not a boolean.
    is_sincronized: e.is_sincronized ? 1 : 0,
    created_at: new Date(e.created_at).toISOString(),
    updated_at: new Date(e.updated_at).toISOString(),
    registered_user: rawEnrolmentStudent(e),
    classroom: rawClassroom(e),
    profile: { id: e.profile_id, description: e.profile_description },
    course: {
      id: e.course_id,
      description: e.course_description,
      category_id: e.category_id,
      id_course_moodle: e.id_course_moodle,
    },
    activity_course_users: results.map(rawActivityResult),
  };
}
