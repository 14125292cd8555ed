import {
  MOODLE_ACTIVITY_STATUS,
  MOODLE_MSG,
  MOODLE_STUDENT_STATUS,
  normalizeRut,
  type MoodleSyncIssue,
  type MoodleSyncRefused,
} from '@sigaf/contract';

const MOODLE_IDENTITY_HIDDEN_DETAIL = MOODLE_MSG.identityHiddenDetail;
import type {
  MoodleActivityCompletion,
  MoodleEnrolledUser,
  MoodleGradeItem,
  MoodleSection,
  MoodleUserGrades,
} from '../../moodle/schemas.js';
import type { LocalActivity, LocalEnrolment, LocalResult } from './local-rows.js';
import { accepted, checkGrade, checkId, checkTime, resultInRange } from './ranges.js';

/**
 * The pure part of a course sync: who is who (RUT matching), and which local rows must change
 * for the local data to say what Moodle says. No I/O: the service feeds it what it read.
 */

export type { LocalActivity, LocalEnrolment, LocalResult } from './local-rows.js';

// --- Matching ---------------------------------------------------------------------------------

export interface Match {
  enrolment: LocalEnrolment;
  user: MoodleEnrolledUser;
  /** The Moodle field value the RUT came from (idnumber or username), as Moodle has it. */
  moodleRut: string;
}

export interface Matching {
  matches: Match[];
  invalidRuts: MoodleSyncIssue[];
  missingInMoodle: MoodleSyncIssue[];
  missingLocally: MoodleSyncIssue[];
  /**
   * Moodle students without a valid RUT in their ID number whose username Moodle did not send
   * (the token's user may not see it: showuseridentity without username, no
   * moodle/user:viewalldetails): their RUT may be there, so they are neither invalid nor missing.
   */
  identityHidden?: MoodleSyncIssue[];
  /** Local enrolments not matched while some students' usernames were hidden, or whose Moodle user has an invalid id: left as they were. */
  unverified?: Set<number>;
  /** Moodle users refused for an invalid id (ranges.ts). */
  refused?: MoodleSyncRefused[];
  errors: string[];
}

/** The RUT a Moodle user carries: its idnumber, else its username, in any spelling. */
export function moodleRutOf(
  u: Pick<MoodleEnrolledUser, 'idnumber' | 'username'>,
): { rut: string; raw: string } | null {
  for (const raw of [u.idnumber, u.username]) {
    const rut = normalizeRut(raw);
    if (rut && raw) return { rut, raw };
  }
  return null;
}

/** A Moodle user enrolled as a student (no roles in the answer: taken for a student). */
export function isMoodleStudent(u: MoodleEnrolledUser): boolean {
  return !u.roles?.length || u.roles.some((r) => r.shortname === 'student' || r.roleid === 5);
}

const localName = (e: LocalEnrolment) => `${e.name} ${e.last_name}`.trim();

export function matchPeople(
  local: readonly LocalEnrolment[],
  moodle: readonly MoodleEnrolledUser[],
): Matching {
  const out: Matching = {
    matches: [],
    invalidRuts: [],
    missingInMoodle: [],
    missingLocally: [],
    errors: [],
  };
  const byRut = new Map<string, { user: MoodleEnrolledUser; raw: string }>();
  // RUTs of users refused for their id: their enrolments are left as they were.
  const refusedRuts = new Set<string>();
  for (const user of [...moodle].sort((a, b) => a.id - b.id)) {
    const found = moodleRutOf(user);
    if (
      !accepted((out.refused ??= []), checkId, user.id, {
        student: user.fullname,
        activity: null,
        field: 'id',
      })
    ) {
      if (found) refusedRuts.add(found.rut);
      continue;
    }
    if (!found) {
      if (isMoodleStudent(user) && user.username === undefined) {
        (out.identityHidden ??= []).push({
          source: 'moodle',
          id: user.id,
          rut: null,
          name: user.fullname,
          detail: MOODLE_IDENTITY_HIDDEN_DETAIL,
        });
      } else if (isMoodleStudent(user)) {
        out.invalidRuts.push({
          source: 'moodle',
          id: user.id,
          rut: user.idnumber || user.username || null,
          name: user.fullname,
          detail: 'Sin RUT válido en idnumber ni en username',
        });
      }
      continue;
    }
    const first = byRut.get(found.rut);
    if (first) {
      out.errors.push(
        `El RUT ${found.rut} está en más de un usuario de Moodle (${first.user.id} y ${user.id}); se usa ${first.user.id}.`,
      );
      continue;
    }
    byRut.set(found.rut, { user, raw: found.raw });
  }
  const matched = new Set<number>();
  for (const enrolment of local) {
    const rut = normalizeRut(enrolment.rut);
    if (!rut) {
      out.invalidRuts.push({
        source: 'local',
        id: enrolment.id,
        rut: enrolment.rut,
        name: localName(enrolment),
        detail: 'RUT local no válido',
      });
      continue;
    }
    const hit = byRut.get(rut);
    if (!hit && (out.identityHidden?.length || refusedRuts.has(rut))) {
      (out.unverified ??= new Set()).add(enrolment.id);
      continue;
    }
    if (!hit) {
      out.missingInMoodle.push({
        source: 'local',
        id: enrolment.id,
        rut,
        name: localName(enrolment),
      });
      continue;
    }
    matched.add(hit.user.id);
    out.matches.push({ enrolment, user: hit.user, moodleRut: hit.raw });
  }
  for (const [rut, { user }] of byRut) {
    if (!matched.has(user.id) && isMoodleStudent(user))
      out.missingLocally.push({ source: 'moodle', id: user.id, rut, name: user.fullname });
  }
  return out;
}

// --- Activities -------------------------------------------------------------------------------

export interface MoodleActivity {
  cmid: number;
  name: string;
  modname: string;
  /** visible: 0 in the course contents. */
  hidden: boolean;
}

const NOT_ACTIVITIES = new Set(['label', 'subsection', 'qbank']);

/** The course modules that are activities (labels and text areas are not). */
export function activitiesOf(contents: readonly MoodleSection[]): MoodleActivity[] {
  return contents.flatMap((s) =>
    s.modules
      .filter((m) => !NOT_ACTIVITIES.has(m.modname) && !m.noviewlink)
      .map((m) => ({
        cmid: m.id,
        name: m.name.slice(0, 255),
        modname: m.modname.slice(0, 60),
        hidden: m.visible === 0,
      })),
  );
}

export interface ActivityPlan {
  inserts: Array<{
    id_activity_moodle: number;
    description: string;
    type: string;
    hidden: boolean;
  }>;
  updates: Array<{
    id: number;
    description: string;
    type: string;
    hidden: boolean;
    removed_at: Date | null;
    moodle_unseen_at: Date | null;
  }>;
  /** Activities no longer in Moodle's course (marked removed now; kept for history). */
  removed: number;
  /** The activities marked removed now. */
  removedList: Array<{ cmid: number; name: string }>;
  /** Absent from the contents but still in Moodle's grades or completion: hidden from the token's user. */
  hiddenFromToken: Array<{ cmid: number; name: string }>;
  /**
   * Absent from every list while the token's user may not see hidden activities: deleted or
   * hidden, it cannot be told. Kept as they are (results, progress), marked since the first such sync.
   */
  unseen: Array<{ cmid: number; name: string }>;
  /** Course modules refused for an invalid id. */
  refused: MoodleSyncRefused[];
}

/**
 * New, changed, hidden and removed activities. An activity Moodle no longer has is marked removed
 * (kept, with its results, out of progress); one that comes back is restored. Moodle leaves a
 * hidden activity out of every list for a user without moodle/course:viewhiddenactivities: unless
 * `seesHidden` (the token's user is known to see hidden activities), a missing activity is only
 * marked unseen, not removed.
 */
export function planActivities(
  local: readonly LocalActivity[],
  moodle: readonly MoodleActivity[],
  now = new Date(),
  stillInMoodle: ReadonlySet<number> = new Set(),
  seesHidden = true,
): ActivityPlan {
  const byMoodleId = new Map(
    local.filter((a) => a.id_activity_moodle !== null).map((a) => [a.id_activity_moodle!, a]),
  );
  const plan: ActivityPlan = {
    inserts: [],
    updates: [],
    removed: 0,
    removedList: [],
    hiddenFromToken: [],
    unseen: [],
    refused: [],
  };
  const present = new Set<number>();
  for (const m of moodle) {
    if (!accepted(plan.refused, checkId, m.cmid, { student: null, activity: m.name, field: 'id' }))
      continue;
    present.add(m.cmid);
    const existing = byMoodleId.get(m.cmid);
    if (!existing)
      plan.inserts.push({
        id_activity_moodle: m.cmid,
        description: m.name,
        type: m.modname,
        hidden: m.hidden,
      });
    else if (
      existing.description !== m.name ||
      existing.type !== m.modname ||
      existing.hidden !== m.hidden ||
      existing.removed_at !== null ||
      existing.moodle_unseen_at != null
    ) {
      plan.updates.push({
        id: existing.id,
        description: m.name,
        type: m.modname,
        hidden: m.hidden,
        removed_at: null,
        moodle_unseen_at: null,
      });
    }
  }
  for (const a of byMoodleId.values()) {
    if (present.has(a.id_activity_moodle!)) continue;
    // Moodle leaves hidden modules out of the contents for a user without
    // moodle/course:viewhiddenactivities; its grade report (and completion) may still have them:
    // such an activity is hidden, not removed.
    if (stillInMoodle.has(a.id_activity_moodle!)) {
      plan.hiddenFromToken.push({ cmid: a.id_activity_moodle!, name: a.description });
      if (!a.hidden || a.removed_at !== null || a.moodle_unseen_at != null)
        plan.updates.push({
          id: a.id,
          description: a.description,
          type: a.type ?? '',
          hidden: true,
          removed_at: null,
          moodle_unseen_at: null,
        });
      continue;
    }
    // Removed already (by a sync, or by staff confirming it): stays so.
    if (a.removed_at !== null) continue;
    if (!seesHidden) {
      plan.unseen.push({ cmid: a.id_activity_moodle!, name: a.description });
      if (a.moodle_unseen_at == null)
        plan.updates.push({
          id: a.id,
          description: a.description,
          type: a.type ?? '',
          hidden: a.hidden,
          removed_at: null,
          moodle_unseen_at: now,
        });
      continue;
    }
    plan.updates.push({
      id: a.id,
      description: a.description,
      type: a.type ?? '',
      hidden: a.hidden,
      removed_at: now,
      moodle_unseen_at: null,
    });
    plan.removed++;
    plan.removedList.push({ cmid: a.id_activity_moodle!, name: a.description });
  }
  return plan;
}

// --- People and results -------------------------------------------------------------------------

/** One user's grades: module items by course module id, and the course total. */
export interface UserGrades {
  byCmid: Map<number, MoodleGradeItem>;
  total: MoodleGradeItem | undefined;
}

export function gradesByUser(usergrades: readonly MoodleUserGrades[]): Map<number, UserGrades> {
  return new Map(
    usergrades.map((g) => [
      g.userid,
      {
        byCmid: new Map(
          g.gradeitems
            .filter((i) => i.itemtype === 'mod' && i.cmid !== undefined)
            .map((i) => [i.cmid!, i]),
        ),
        total: g.gradeitems.find((i) => i.itemtype === 'course'),
      },
    ]),
  );
}

/** Moodle keeps grades with 5 decimals (grade_grades.finalgrade decimal(10,5)); so does activity_course_users.grade. */
export const GRADE_DECIMALS = 5;

/** A grade at the stored precision (a value Moodle gives with more digits compares equal once stored). */
export const storedGrade = (raw: number | null) =>
  raw === null ? null : Number(raw.toFixed(GRADE_DECIMALS));

export const formatGrade = (raw: number | null | undefined) =>
  raw === null || raw === undefined ? null : raw.toFixed(2);

/** The status text of an activity for a student, from Moodle's completion (see MOODLE_ACTIVITY_STATUS). */
export function completionStatus(c: MoodleActivityCompletion): string {
  if (c.state > 0) return MOODLE_ACTIVITY_STATUS.finished;
  return c.details?.some((d) => d.rulevalue.status > 0)
    ? MOODLE_ACTIVITY_STATUS.inProgress
    : MOODLE_ACTIVITY_STATUS.notStarted;
}

type ResultValues = Omit<LocalResult, 'id' | 'activity_id' | 'course_registered_user_id'>;

/** What Moodle says of one student in one activity; null when the activity tracks nothing. */
export function resultFor(
  completion: MoodleActivityCompletion | undefined,
  grade: MoodleGradeItem | undefined,
): ResultValues | null {
  if (!completion && !grade) return null;
  const raw = storedGrade(grade?.graderaw ?? null);
  return {
    status_moodle: completion
      ? completionStatus(completion)
      : raw !== null
        ? MOODLE_ACTIVITY_STATUS.finished
        : MOODLE_ACTIVITY_STATUS.notStarted,
    completion_state: completion ? completion.state : null,
    qualification_moodle: grade ? (formatGrade(raw) ?? '-') : null,
    grade: raw,
  };
}

/** Student state from the course's Renuncia activities (docs/development/domain.md#student-state). */
export function studentStatus(
  results: ReadonlyArray<{ activity_id: number; status_moodle: string | null }>,
  resignActivityIds: ReadonlySet<number>,
): string {
  if (!results.length) return MOODLE_STUDENT_STATUS.noActivities;
  const resign = results
    .filter((r) => resignActivityIds.has(r.activity_id))
    .map((r) => r.status_moodle);
  if (resign.includes(MOODLE_ACTIVITY_STATUS.finished)) return MOODLE_STUDENT_STATUS.resigned;
  if (resign.includes(MOODLE_ACTIVITY_STATUS.inProgress)) return MOODLE_STUDENT_STATUS.resigning;
  return MOODLE_STUDENT_STATUS.active;
}

export interface PeopleInput {
  /** Which parts Moodle was read for: people only (users scope), or also progress. */
  withProgress: boolean;
  matching: Matching;
  /** Local enrolments considered (all of the course, or the one student). */
  enrolments: readonly LocalEnrolment[];
  activities: readonly LocalActivity[];
  results: readonly LocalResult[];
  grades: Map<number, UserGrades>;
  completion: Map<number, MoodleActivityCompletion[]>;
  /** Moodle users whose enrolment is suspended. */
  suspended?: ReadonlySet<number>;
  /** Enrolments whose stored results are known to equal what Moodle says (not in `results`). */
  unchanged?: ReadonlySet<number>;
  /** The time Moodle's times are checked against (ranges.ts). */
  now?: Date;
}

/** An enrolment's columns a sync writes. */
export type EnrolmentValues = Pick<
  LocalEnrolment,
  | 'id'
  | 'last_access_registered_moodle'
  | 'last_access_text'
  | 'is_sincronized'
  | 'moodle_suspended'
  | 'moodle_seen'
  | 'final_qualification_moodle'
  | 'status_moodle'
>;

export interface StudentValues {
  id: number;
  id_registered_moodle: number;
  rut_registered_moodle: string;
  name_registered_moodle: string;
  email_registered_moodle: string | null;
  status_moodle: string | null;
}

export interface PeoplePlan {
  enrolments: EnrolmentValues[];
  students: StudentValues[];
  resultInserts: Array<Omit<LocalResult, 'id'>>;
  resultUpdates: LocalResult[];
  /** Values out of range: not stored, the field keeps what it had. */
  refused: MoodleSyncRefused[];
}

const sameTime = (a: Date | null, b: Date | null) =>
  (a ? new Date(a).getTime() : null) === (b ? new Date(b).getTime() : null);
const sameNumber = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(Number(a) - Number(b)) < 1e-9;

/** Changed rows only: enrolments, students' Moodle data, activity results. */
export function planPeople(input: PeopleInput): PeoplePlan {
  const plan: PeoplePlan = {
    enrolments: [],
    students: [],
    resultInserts: [],
    resultUpdates: [],
    refused: [],
  };
  const validTime = checkTime(input.now ?? new Date());
  const resign = new Set(
    input.activities.filter((a) => a.section_key === 'resign').map((a) => a.id),
  );
  const tracked = input.activities.filter((a) => a.id_activity_moodle !== null);
  const existing = new Map(
    input.results.map((r) => [`${r.course_registered_user_id}:${r.activity_id}`, r]),
  );
  const matchedEnrolments = new Set<number>();

  for (const { enrolment: e, user, moodleRut } of input.matching.matches) {
    matchedEnrolments.add(e.id);
    const who = `${localName(e)} (${e.rut})`;
    const access = user.lastcourseaccess ?? user.lastaccess ?? 0;
    const accessOk = accepted(plan.refused, validTime, access, {
      student: who,
      activity: null,
      field: user.lastcourseaccess != null ? 'lastcourseaccess' : 'lastaccess',
    });
    const next: EnrolmentValues = {
      id: e.id,
      last_access_registered_moodle: !accessOk
        ? e.last_access_registered_moodle
        : access > 0
          ? new Date(access * 1000)
          : null,
      last_access_text: !accessOk ? e.last_access_text : access > 0 ? null : 'Nunca',
      is_sincronized: true,
      moodle_suspended: input.suspended?.has(user.id) ?? e.moodle_suspended,
      moodle_seen: true,
      final_qualification_moodle: e.final_qualification_moodle,
      status_moodle: e.status_moodle,
    };
    let studentStatusValue = e.student_status_moodle;
    if (input.withProgress) {
      // A student missing from Moodle's grade report has unknown grades (not empty ones): what is stored stays.
      const grades = input.grades.get(user.id);
      // Completion not read (not a student in Moodle, or the call failed for this user): results stay as they are.
      const known = input.completion.get(user.id);
      const completion = new Map((known ?? []).map((c) => [c.cmid, c]));
      const mine: Array<{ activity_id: number; status_moodle: string | null }> = [];
      const unchanged = input.unchanged?.has(e.id) ?? false;
      for (const a of tracked) {
        const current = unchanged ? undefined : existing.get(`${e.id}:${a.id}`);
        const c = completion.get(a.id_activity_moodle!);
        const g = grades?.byCmid.get(a.id_activity_moodle!);
        // A value out of range leaves the student's result on the activity as it was.
        let values =
          known &&
          resultInRange(plan.refused, validTime, { student: who, activity: a.description }, c, g)
            ? resultFor(c, g)
            : null;
        if (values && !grades && current)
          values = {
            ...values,
            qualification_moodle: current.qualification_moodle,
            grade: current.grade,
          };
        if (!values) {
          if (current) mine.push(current);
          continue;
        }
        mine.push({ activity_id: a.id, status_moodle: values.status_moodle });
        if (unchanged) continue;
        if (!current)
          plan.resultInserts.push({
            activity_id: a.id,
            course_registered_user_id: e.id,
            ...values,
          });
        else if (
          current.status_moodle !== values.status_moodle ||
          current.qualification_moodle !== values.qualification_moodle ||
          current.completion_state !== values.completion_state ||
          !sameNumber(current.grade, values.grade)
        ) {
          plan.resultUpdates.push({ ...current, ...values });
        }
      }
      const total = grades?.total?.graderaw;
      const totalOk =
        typeof total !== 'number' ||
        accepted(plan.refused, checkGrade, total, {
          student: who,
          activity: null,
          field: 'graderaw',
        });
      next.final_qualification_moodle =
        grades && totalOk ? formatGrade(total) : e.final_qualification_moodle;
      next.status_moodle = studentStatus(mine, resign);
      studentStatusValue = next.status_moodle;
    }
    if (
      !sameTime(e.last_access_registered_moodle, next.last_access_registered_moodle) ||
      e.last_access_text !== next.last_access_text ||
      !e.is_sincronized ||
      !e.moodle_seen ||
      e.moodle_suspended !== next.moodle_suspended ||
      e.final_qualification_moodle !== next.final_qualification_moodle ||
      e.status_moodle !== next.status_moodle
    ) {
      plan.enrolments.push(next);
    }
    const student: StudentValues = {
      id: e.registered_user_id,
      id_registered_moodle: user.id,
      rut_registered_moodle: moodleRut.slice(0, 20),
      name_registered_moodle: user.fullname.slice(0, 255),
      email_registered_moodle: user.email?.slice(0, 255) ?? e.email_registered_moodle,
      status_moodle: studentStatusValue,
    };
    if (
      e.id_registered_moodle !== student.id_registered_moodle ||
      e.rut_registered_moodle !== student.rut_registered_moodle ||
      e.name_registered_moodle !== student.name_registered_moodle ||
      e.email_registered_moodle !== student.email_registered_moodle ||
      e.student_status_moodle !== student.status_moodle
    ) {
      plan.students.push(student);
    }
  }
  // Synced before, not in Moodle's course any more: no longer synchronised (their data stays).
  for (const e of input.enrolments) {
    if (!matchedEnrolments.has(e.id) && e.is_sincronized && !input.matching.unverified?.has(e.id)) {
      plan.enrolments.push({ ...e, is_sincronized: false, moodle_suspended: false });
    }
  }
  return plan;
}
