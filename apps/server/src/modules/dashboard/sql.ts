import { APP_TIME_ZONE } from '@sigaf/contract';
import { sql, type RawBuilder } from 'kysely';

/**
 * The SQL every aggregation of the dashboard, the follow-up and the reports shares
 * (docs/development/domain.md#dashboard and #progress): ticket dimensions, time windows, the
 * withdrawal stage, the test form, what counts toward progress, and the scope of the
 * enrolled-student figures.
 *
 * Population of the enrolled-user figures: the course's synchronised enrolments with profile
 * 'student' (the "Matrícula inicial" of the card), optionally of one classroom.
 *
 * Withdrawal stage, from the student's rows on the course's activities in the section keyed
 * 'resign' (the highest stage over those rows; no row, or no resign activity, is stage 0):
 *   2 Renunciado        completion_state in (1 complete, 2 pass, 3 fail), or status_moodle "Finalizado"
 *   1 Renuncia en curso otherwise, status_moodle "En curso"
 *   0 Activo            anything else (no attempt: completion_state 0/null and not started)
 *
 * Test form: A when the RUT check digit (its last character) is even, B when odd or K.
 */
export type TicketDimension = 'source' | 'type' | 'priority' | 'status' | 'motive';

export const DIMENSIONS: Record<TicketDimension, { table: string; column: string }> = {
  source: { table: 'source_tickets', column: 'source_ticket_id' },
  type: { table: 'type_tickets', column: 'type_ticket_id' },
  priority: { table: 'priority_tickets', column: 'priority_ticket_id' },
  status: { table: 'status_tickets', column: 'status_ticket_id' },
  motive: { table: 'motive_tickets', column: 'motive_ticket_id' },
};

/** A half-open window of ticket creation times: [from, to). Both are SQL timestamptz expressions. */
export interface TimeWindow {
  from?: RawBuilder<unknown>;
  to?: RawBuilder<unknown>;
}

/** Start of a Chilean calendar day (`yyyy-mm-dd`), or of today when no day is given. */
export const dayStart = (day?: string): RawBuilder<unknown> =>
  day
    ? sql`(${day}::date::timestamp at time zone ${APP_TIME_ZONE})`
    : sql`(date_trunc('day', now() at time zone ${APP_TIME_ZONE}) at time zone ${APP_TIME_ZONE})`;
export const dayEnd = (day?: string): RawBuilder<unknown> =>
  sql`(${dayStart(day)} + interval '1 day')`;

/** ticket_counts dimensions (migration 0008). */
export const DIM = {
  type: 1,
  priority: 2,
  source: 3,
  motive: 4,
  operator: 5,
  closedAge: 6,
  createdHour: 7,
  closedHour: 8,
  createdDay: 9,
  closedDay: 10,
} as const;
/** Hours since the epoch of an instant (Chilean days start on a whole hour). */
export const hourOf = (ts: RawBuilder<unknown>) =>
  sql`floor(extract(epoch from ${ts}) / 3600)::int`;

export const createdIn = (w: TimeWindow) =>
  sql.join(
    [
      sql`true`,
      ...(w.from ? [sql`t.created_at >= ${w.from}`] : []),
      ...(w.to ? [sql`t.created_at < ${w.to}`] : []),
    ],
    sql` and `,
  );

export const TEST_SECTIONS_A = ['pre_test_a', 'post_test_a'];
export const TEST_SECTIONS_B = ['pre_test_b', 'post_test_b'];
export const GRADED_SECTIONS = ['survey', ...TEST_SECTIONS_A, ...TEST_SECTIONS_B];

/**
 * The CTE body `(id, stage)`: each enrolment's withdrawal stage from the course's resign activity
 * (see the class comment). Shared with the follow-up student table.
 */
export const resignStages = (courseId: number) => sql`
  select acu.course_registered_user_id as id,
    max(case
      when acu.completion_state in (1, 2, 3) or lower(trim(coalesce(acu.status_moodle, ''))) in ('finalizado', 'finished') then 2
      when lower(trim(coalesce(acu.status_moodle, ''))) in ('en curso', 'in progress', 'inprogress') then 1
      else 0 end) as stage
  from activity_course_users acu
  join activities a on a.id = acu.activity_id
  join sections s on s.id = a.section_id
  where s.key = 'resign' and a.course_id = ${courseId}
  group by acu.course_registered_user_id`;

/** The test form of a RUT column: A when its check digit is even, B when odd or K. */
export const testForm = (rut: RawBuilder<unknown>) =>
  sql`case when upper(right(trim(${rut}), 1)) in ('0', '2', '4', '6', '8') then 'A' else 'B' end`;

/** The activities of a course that count toward progress: survey, the test sections, or weighing > 0; never resign, never one deleted in Moodle or left out by staff. */
export const countsTowardProgress = (a: string, s: string) =>
  sql`(${sql.ref(`${a}.removed_at`)} is null and not ${sql.ref(`${a}.excluded_from_progress`)}
    and coalesce(${sql.ref(`${s}.key`)}, '') <> 'resign' and (${sql.ref(`${s}.key`)} in (${sql.join(GRADED_SECTIONS)}) or ${sql.ref(`${a}.weighing`)} > 0))`;

/** Whether an activity (its section key) is to be done by a student of a form: tests only by their form. */
export const formApplies = (sectionKey: RawBuilder<unknown>, form: RawBuilder<unknown>) =>
  sql`(case when ${sectionKey} in (${sql.join(TEST_SECTIONS_A)}) then ${form} = 'A'
            when ${sectionKey} in (${sql.join(TEST_SECTIONS_B)}) then ${form} = 'B'
            else true end)`;

export interface Scope {
  courseId: number;
  classroomId?: number;
  /** Only these classrooms (a tutor's); an empty list is nobody. */
  classroomIds?: number[];
}

export const inClassrooms = (ids: number[]) =>
  ids.length ? sql`e.classroom_id in (${sql.join(ids)})` : sql`false`;

export interface ProgressRow {
  id: number;
  label: string;
  expected: number;
  graded: number;
  completed: number;
}

/** round(100 × part / whole), halves up, in integer arithmetic (cheaper than numeric on every row); null when whole is 0. */
export const percentOf = (part: RawBuilder<unknown>, whole: RawBuilder<unknown>) =>
  sql`case when ${whole} > 0 then (200 * ${part} + ${whole}) / (2 * ${whole}) end`;
