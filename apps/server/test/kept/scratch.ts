import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { StudentFiguresRepository } from '../../src/modules/dashboard/student-figures.js';

/**
 * Each kept figure (src/kept/index.ts) read as kept, and the same figure computed here from the
 * base tables alone, in TypeScript: plain reads of rows, no kept table, trigger or server query.
 * Rows are compared as sorted lists of tuples; times as epoch seconds.
 */
type Row = Record<string, unknown>;
type Tuple = Array<string | number | boolean | null>;

const HOUR = 3600;
const DAY = 86_400;
const GRADED = ['survey', 'pre_test_a', 'post_test_a', 'pre_test_b', 'post_test_b'];
const TEST_A = ['pre_test_a', 'post_test_a'];
const TEST_B = ['pre_test_b', 'post_test_b'];
const FOLD: Record<string, string> = {
  á: 'a',
  à: 'a',
  ä: 'a',
  â: 'a',
  é: 'e',
  è: 'e',
  ë: 'e',
  ê: 'e',
  í: 'i',
  ì: 'i',
  ï: 'i',
  î: 'i',
  ó: 'o',
  ò: 'o',
  ö: 'o',
  ô: 'o',
  ú: 'u',
  ù: 'u',
  ü: 'u',
  û: 'u',
  ñ: 'n',
  ç: 'c',
};

const sorted = (rows: Tuple[]) => rows.map((r) => JSON.stringify(r)).sort();
const rows = async <T extends Row>(db: Database, query: ReturnType<typeof sql>) =>
  (await query.execute(db)).rows as T[];
const epoch = (column: string) => sql.raw(`extract(epoch from ${column})::float8`);
const maxOf = (values: Array<number | null>) =>
  values.reduce<number | null>((m, v) => (v === null ? m : m === null || v > m ? v : m), null);

interface Base {
  tickets: Array<{
    id: number;
    course_id: number;
    enrolment: number;
    status: number;
    type: number;
    priority: number;
    source: number;
    motive: number;
    operator: number | null;
    created: number;
    closed: number | null;
  }>;
  attempts: Array<{ ticket_id: number; course_id: number; created: number }>;
  students: Array<{
    id: number;
    rut: string;
    name: string;
    last_name: string;
    mother_last_name: string | null;
    email: string | null;
    mobile: string | null;
    phone: string | null;
    search_name: string | null;
  }>;
  enrolments: Array<{
    id: number;
    course_id: number;
    student: number;
    classroom_id: number | null;
    profile: string | null;
    last_access: number | null;
    last_access_text: string | null;
    synced: boolean;
    suspended: boolean;
  }>;
  activities: Array<{
    id: number;
    course_id: number;
    sectioned: boolean;
    section: string | null;
    weighing: number;
    removed: boolean;
    excluded: boolean;
  }>;
  results: Array<{
    activity_id: number;
    enrolment: number;
    grade: string | null;
    completion: number | null;
    status: string | null;
  }>;
  open: number;
}

/** The base tables, as stored. */
export async function readBase(db: Database): Promise<Base> {
  return {
    tickets: await rows(
      db,
      sql`select id, course_id, course_registered_user_id as enrolment, status_ticket_id as status, type_ticket_id as type,
      priority_ticket_id as priority, source_ticket_id as source, motive_ticket_id as motive, user_assigned_id as operator,
      ${epoch('created_at')} as created, ${epoch('closing_date')} as closed from tickets`,
    ),
    attempts: await rows(
      db,
      sql`select d.ticket_id, t.course_id, ${epoch('d.created_at')} as created from ticket_details d join tickets t on t.id = d.ticket_id`,
    ),
    students: await rows(
      db,
      sql`select id, rut, name, last_name, mother_last_name, email, mobile, phone, search_name from registered_users`,
    ),
    enrolments: await rows(
      db,
      sql`select e.id, e.course_id, e.registered_user_id as student, e.classroom_id, p.key as profile,
      ${epoch('e.last_access_registered_moodle')} as last_access, e.last_access_text, e.is_sincronized as synced, e.moodle_suspended as suspended
      from course_registered_users e join profiles p on p.id = e.profile_id`,
    ),
    activities: await rows(
      db,
      sql`select a.id, a.course_id, s.id is not null as sectioned, s.key as section, a.weighing::float8 as weighing, a.removed_at is not null as removed,
      a.excluded_from_progress as excluded from activities a left join sections s on s.id = a.section_id`,
    ),
    results: await rows(
      db,
      sql`select activity_id, course_registered_user_id as enrolment, grade::text as grade, completion_state as completion, status_moodle as status from activity_course_users`,
    ),
    open: (
      await rows<{ id: number }>(db, sql`select id from status_tickets where key = 'open'`)
    )[0]!.id,
  };
}

/** ticket_counts (migration 0008): per course, dimension, value and status, the tickets. */
export function ticketCounts(b: Base): string[] {
  const n = new Map<string, number>();
  const add = (...key: number[]) => n.set(key.join(','), (n.get(key.join(',')) ?? 0) + 1);
  for (const t of b.tickets) {
    for (const [dim, value] of [
      [1, t.type],
      [2, t.priority],
      [3, t.source],
      [4, t.motive],
      [5, t.operator ?? 0],
    ] as const)
      add(t.course_id, dim, value, t.status);
    add(t.course_id, 7, Math.floor(t.created / HOUR), 0);
    add(t.course_id, 9, Math.floor(t.created / DAY), 0);
    if (t.closed === null) continue;
    const end = Math.max(t.created, t.closed);
    add(t.course_id, 6, Math.max(0, Math.floor((t.closed - t.created) / DAY)), 0);
    add(t.course_id, 8, Math.floor(end / HOUR), 0);
    add(t.course_id, 10, Math.floor(end / DAY), 0);
  }
  return [...n].map(([k, v]) => `${k},${v}`).sort();
}
export async function keptTicketCounts(db: Database): Promise<string[]> {
  const kept = await rows<{ k: string }>(
    db,
    sql`select concat_ws(',', course_id, dim, value, status_ticket_id, n) as k from ticket_counts where n <> 0`,
  );
  return kept.map((r) => r.k).sort();
}

/** Each ticket's last attempt and each attempt's course (migrations 0018, 0008). */
export function ticketColumns(b: Base) {
  return {
    lastAttempt: sorted(
      b.tickets.map((t) => [
        t.id,
        maxOf(b.attempts.filter((a) => a.ticket_id === t.id).map((a) => a.created)),
      ]),
    ),
    attemptCourses: sorted(b.attempts.map((a) => [a.ticket_id, a.course_id])),
  };
}
export async function keptTicketColumns(db: Database) {
  return {
    lastAttempt: sorted(
      (
        await rows<{ id: number; last: number | null }>(
          db,
          sql`select id, ${epoch('last_attempt_at')} as last from tickets`,
        )
      ).map((r) => [r.id, r.last]),
    ),
    attemptCourses: sorted(
      (
        await rows<{ ticket_id: number; course_id: number }>(
          db,
          sql`select ticket_id, course_id from ticket_details`,
        )
      ).map((r) => [r.ticket_id, r.course_id]),
    ),
  };
}

const lastAttemptOf = (b: Base, enrolment: number) =>
  maxOf(
    b.tickets
      .filter((t) => t.enrolment === enrolment)
      .map((t) => maxOf(b.attempts.filter((a) => a.ticket_id === t.id).map((a) => a.created))),
  );

/** enrolment_ticket_counts (0015, 0018): each enrolment's tickets, open tickets, last attempt and course. */
export function enrolmentCounts(b: Base): string[] {
  return sorted(
    b.enrolments
      .filter((e) => b.tickets.some((t) => t.enrolment === e.id))
      .map((e) => {
        const mine = b.tickets.filter((t) => t.enrolment === e.id);
        return [
          e.id,
          mine.length,
          mine.filter((t) => t.status === b.open).length,
          lastAttemptOf(b, e.id),
          e.course_id,
        ];
      }),
  );
}
export async function keptEnrolmentCounts(db: Database): Promise<string[]> {
  const kept = await rows<{
    enrolment_id: number;
    total: number;
    open: number;
    last: number | null;
    course_id: number;
  }>(
    db,
    sql`select enrolment_id, total, open, ${epoch('last_attempt_at')} as last, course_id from enrolment_ticket_counts where total <> 0 or open <> 0 or last_attempt_at is not null`,
  );
  return sorted(kept.map((r) => [r.enrolment_id, r.total, r.open, r.last, r.course_id]));
}

/** registered_users.search_name (0016): the full name lower-cased, without accents. */
export const searchNames = (b: Base) =>
  sorted(
    b.students.map((s) => [
      s.id,
      [...`${s.name} ${s.last_name} ${s.mother_last_name ?? ''}`.toLowerCase()]
        .map((c) => FOLD[c] ?? c)
        .join(''),
    ]),
  );
export const keptSearchNames = (b: Base) => sorted(b.students.map((s) => [s.id, s.search_name]));

/** What counts toward progress: an activity of a section (none without), not resign, graded or weighed. */
const counts = (a: Base['activities'][number]) =>
  a.sectioned &&
  !a.removed &&
  !a.excluded &&
  a.section !== 'resign' &&
  ((a.section !== null && GRADED.includes(a.section)) || a.weighing > 0);
const applies = (section: string | null, form: string) =>
  TEST_A.includes(section ?? '')
    ? form === 'A'
    : TEST_B.includes(section ?? '')
      ? form === 'B'
      : true;
const formOf = (rut: string) => (/[02468]$/.test(rut.trim().toUpperCase()) ? 'A' : 'B');
const stageOf = (b: Base, course: number, enrolment: number) => {
  const resign = new Set(
    b.activities.filter((a) => a.course_id === course && a.section === 'resign').map((a) => a.id),
  );
  let stage = 0;
  for (const r of b.results) {
    if (r.enrolment !== enrolment || !resign.has(r.activity_id)) continue;
    const status = (r.status ?? '').trim().toLowerCase();
    const s =
      [1, 2, 3].includes(r.completion ?? -1) || ['finalizado', 'finished'].includes(status)
        ? 2
        : ['en curso', 'in progress', 'inprogress'].includes(status)
          ? 1
          : 0;
    stage = Math.max(stage, s);
  }
  return stage;
};

/** The student figures of a course (0008, 0015): its follow-up rows, population and progress. */
export function studentFigures(b: Base, course: number) {
  const students = new Map(b.students.map((s) => [s.id, s]));
  const enrolled = b.enrolments.filter((e) => e.course_id === course && e.profile === 'student');
  const activities = b.activities.filter((a) => a.course_id === course);
  const counting = activities.filter(counts);
  const result = (activity: number, enrolment: number) =>
    b.results.find((r) => r.activity_id === activity && r.enrolment === enrolment);
  const followUp: Tuple[] = [];
  const population: Tuple[] = [];
  const progress = new Map<string, number[]>();
  for (const e of enrolled) {
    const s = students.get(e.student)!;
    const form = formOf(s.rut);
    const stage = stageOf(b, course, e.id);
    const mine = counting.filter((a) => applies(a.section, form));
    const graded = mine.filter((a) => result(a.id, e.id)?.grade != null).length;
    const phone = s.mobile || s.phone || null;
    followUp.push([
      e.id,
      e.student,
      e.classroom_id,
      s.rut,
      s.name,
      s.last_name,
      s.mother_last_name,
      s.email,
      phone,
      form,
      stage,
      e.last_access,
      e.last_access_text,
      e.synced,
      e.suspended,
      graded,
      mine.length,
      lastAttemptOf(b, e.id),
      s.search_name,
    ]);
    if (!e.synced) continue;
    population.push([e.id, e.student, e.classroom_id, form, stage, e.last_access]);
    for (const a of activities) {
      const key = JSON.stringify([e.classroom_id ?? 0, a.id, form, stage]);
      const r = result(a.id, e.id);
      const [n, g, c] = progress.get(key) ?? [0, 0, 0];
      progress.set(key, [
        n! + 1,
        g! + (r?.grade != null ? 1 : 0),
        c! + ((r?.completion ?? 0) > 0 ? 1 : 0),
      ]);
    }
  }
  return {
    followUp: sorted(followUp),
    population: sorted(population),
    progress: [...progress].map(([k, v]) => JSON.stringify([...JSON.parse(k), ...v])).sort(),
  };
}

export async function keptStudentFigures(db: Database, course: number) {
  const followUp = await rows(
    db,
    sql`select enrolment_id, registered_user_id, classroom_id, rut, name, last_name, mother_last_name, email, phone, form, stage,
    ${epoch('last_access')} as last_access, last_access_text, synced, suspended, graded, expected, ${epoch('last_attempt_at')} as last_attempt, search_name
    from course_follow_up_rows where course_id = ${course}`,
  );
  const population = await rows(
    db,
    sql`select enrolment_id, registered_user_id, classroom_id, form, stage, ${epoch('last_access')} as last_access
    from course_enrolment_stats where course_id = ${course}`,
  );
  const progress = await rows(
    db,
    sql`select classroom_id, activity_id, form, stage, students, graded, completed from course_progress_stats where course_id = ${course}`,
  );
  const tuples = (list: Row[]) => list.map((r) => Object.values(r) as Tuple);
  return {
    followUp: sorted(tuples(followUp)),
    population: sorted(tuples(population)),
    progress: tuples(progress)
      .map((r) => JSON.stringify(r))
      .sort(),
  };
}

/** The courses whose student figures are marked computed (course_stats_state not dirty). */
export async function cleanCourses(db: Database): Promise<number[]> {
  return (
    await rows<{ course_id: number }>(
      db,
      sql`select course_id from course_stats_state where not dirty order by 1`,
    )
  ).map((r) => r.course_id);
}

/**
 * Every kept table and column equals the same figure computed from the base tables: as kept, then
 * as a reader of each of `courses` sees it once the keeper's pass is over. `what`: the writes
 * before, for the failure's message.
 */
export async function expectKeptTablesComputed(
  db: Database,
  courses: number[],
  settle: () => Promise<void>,
  what: string,
): Promise<void> {
  let base = await readBase(db);
  expect(await keptTicketCounts(db), `ticket_counts after\n${what}`).toEqual(ticketCounts(base));
  expect(await keptEnrolmentCounts(db), `enrolment_ticket_counts after\n${what}`).toEqual(
    enrolmentCounts(base),
  );
  expect(
    await keptTicketColumns(db),
    `tickets.last_attempt_at, ticket_details.course_id after\n${what}`,
  ).toEqual(ticketColumns(base));
  expect(keptSearchNames(base), `registered_users.search_name after\n${what}`).toEqual(
    searchNames(base),
  );
  // A course whose figures are marked computed holds the figures of the data, whoever computed them.
  for (const course of await cleanCourses(db)) {
    expect(
      await keptStudentFigures(db, course),
      `student figures of course ${course} (marked computed) after\n${what}`,
    ).toEqual(studentFigures(base, course));
  }
  // Then as a reader sees them: the keeper's pass over, any course still marked recomputed first.
  await settle();
  const figures = new StudentFiguresRepository(db);
  base = await readBase(db);
  for (const course of courses) {
    await figures.fresh(course);
    expect(
      await keptStudentFigures(db, course),
      `student figures of course ${course} after\n${what}`,
    ).toEqual(studentFigures(base, course));
  }
}
