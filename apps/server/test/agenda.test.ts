import {
  AGENDA_REASSIGN_UNDO_HOURS,
  chileLocalToDate,
  chileParts,
  computeDv,
  formatRut,
  MSG,
  REMINDER_MSG,
} from '@sigaf/contract';
import { AgendaDigest } from '../src/modules/agenda/digest.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * Mi agenda on hand-made data. Course C, activities R (Renuncia), E (Encuesta), PA/PB (Pre Test A/B),
 * U1 (Unidad, weighing 30): every student (all of form A) has 3 activities to do.
 *
 *   S1 Aula Alfa  accessed 1 h ago    E, PA, U1 graded -> 100 %               not at risk
 *   S2 Aula Alfa  accessed 1 h ago    Renuncia "En curso", E graded -> 33 %   resigning (+ behind? no: only active students are "behind")
 *   S3 Aula Alfa  never accessed      nothing -> 0 %                          inactive, behind
 *   S4 Aula Beta  accessed 10 days    100 %, contact attempt 2 days ago       inactive but contacted: left out
 *   S5 Aula Beta  accessed 1 h ago    E graded -> 33 %                        behind (33 < 50)
 *   S6 Aula Beta  never accessed      Renuncia finished                       resigned: never
 *
 * Tickets of opA (assigned): T1 on S1 open, created 10 days ago, no attempt; T4 on S4 open, created
 * 10 days ago, attempt 2 days ago; T5 on S5 closed. opB has none. tutor follows Aula Alfa.
 * Reminders of opA: overdue (yesterday), due later today, in 3 days, one done.
 */
let ctx: TestContext;
let admin: string;
let opA: { id: number; token: string };
let opB: { id: number; token: string };
let tutor: { id: number; token: string };
let C: number;
const enr: Record<string, number> = {};
const tk: Record<string, number> = {};
const rem: Record<string, number> = {};

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  opA = await ctx.userWithRole('operator');
  opB = await ctx.userWithRole('operator');
  tutor = await ctx.userWithRole('tutor');
  const db = ctx.db;
  const id = async (table: 'profiles' | 'sections', key: string) =>
    (await db.selectFrom(table).select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = (
    await db
      .insertInto('categories')
      .values({ description: 'Agenda', category_code: 'AGEN', platform_id: platform.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  C = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso agenda', category_id: category, last_sync_at: ago(HOUR) })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const room: Record<string, number> = {};
  for (const name of ['Alfa', 'Beta'])
    room[name] = (
      await db
        .insertInto('classrooms')
        .values({ description: `Aula agenda ${name}` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const unit = (
    await db
      .insertInto('sections')
      .values({ description: 'Unidad agenda' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const act: Record<string, number> = {};
  for (const [name, section_id, weighing] of [
    ['R', await id('sections', 'resign'), 0],
    ['E', await id('sections', 'survey'), 0],
    ['PA', await id('sections', 'pre_test_a'), 0],
    ['PB', await id('sections', 'pre_test_b'), 0],
    ['U1', unit, 30],
  ] as Array<[string, number, number]>) {
    act[name] = (
      await db
        .insertInto('activities')
        .values({ description: `Actividad ${name}`, course_id: C, section_id, weighing })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const student = await id('profiles', 'student');
  const people: Array<[string, string, number, Date | null]> = [
    ['S1', 'Ana', room.Alfa!, ago(HOUR)],
    ['S2', 'Bruno', room.Alfa!, ago(HOUR)],
    ['S3', 'Carla', room.Alfa!, null],
    ['S4', 'Diego', room.Beta!, ago(10 * DAY)],
    ['S5', 'Elena', room.Beta!, ago(HOUR)],
    ['S6', 'Fabián', room.Beta!, null],
  ];
  let body = 21_000_000;
  for (const [key, name, classroom_id, last] of people) {
    while (!/^[02468]$/.test(computeDv(body))) body++;
    const rut = formatRut({ body, dv: computeDv(body) });
    body++;
    const person = (
      await db
        .insertInto('registered_users')
        .values({
          rut,
          name,
          last_name: `Apellido${key}`,
          email: `${key.toLowerCase()}@correo.test`,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    enr[key] = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: C,
          registered_user_id: person,
          profile_id: student,
          classroom_id,
          last_access_registered_moodle: last,
          is_sincronized: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const grades: Array<[string, string, string | null, number | null, number | null]> = [
    ['S1', 'R', '-', 0, null],
    ['S1', 'E', 'Enviado', 1, 7],
    ['S1', 'PA', 'Finalizado', 2, 6],
    ['S1', 'U1', 'Enviado', 1, 5],
    ['S2', 'R', 'En curso', 0, null],
    ['S2', 'E', 'Enviado', 1, 6],
    ['S4', 'E', 'Enviado', 1, 7],
    ['S4', 'PA', 'Finalizado', 2, 6],
    ['S4', 'U1', 'Enviado', 1, 5],
    ['S5', 'E', 'Enviado', 1, 7],
    ['S6', 'R', 'Finalizado', 1, null],
  ];
  for (const [s, a, status_moodle, completion_state, grade] of grades) {
    await db
      .insertInto('activity_course_users')
      .values({
        course_registered_user_id: enr[s]!,
        activity_id: act[a]!,
        status_moodle,
        completion_state,
        grade,
      })
      .execute();
  }
  const k = await ticketKeys(db);
  const tickets: Array<[string, number]> = [
    ['S1', k.open],
    ['S4', k.open],
    ['S5', k.closed],
  ];
  for (const [s, status] of tickets) {
    tk[s] = (
      await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: enr[s]!,
          course_id: C,
          ticket_code: `AGEN-CUR-${s}`,
          status_ticket_id: status,
          type_ticket_id: k.phone,
          priority_ticket_id: k.high,
          source_ticket_id: k.outgoing,
          motive_ticket_id: k.welcome,
          user_create_id: opA.id,
          user_assigned_id: opA.id,
          created_at: ago(10 * DAY),
          closing_date: status === k.closed ? new Date() : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  await db
    .insertInto('ticket_details')
    .values({
      ticket_id: tk.S4!,
      user_created_id: opA.id,
      status_detail_ticket_id: k.failure,
      comment: 'No contesta',
      created_at: ago(2 * DAY),
    })
    .execute();
  await db
    .insertInto('classroom_tutors')
    .values({ course_id: C, classroom_id: room.Alfa!, user_id: tutor.id })
    .execute();
  const reminder = async (key: string, due: Date, state: 'pending' | 'done' = 'pending') =>
    (rem[key] = (
      await db
        .insertInto('reminders')
        .values({
          ticket_id: tk.S1!,
          user_id: opA.id,
          created_by: opA.id,
          due_at: due,
          comment: key,
          state,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id);
  await reminder('overdue', ago(DAY));
  await reminder('today', new Date(Date.now() + 60_000));
  await reminder('later', new Date(Date.now() + 3 * DAY));
  await reminder('done', ago(2 * DAY), 'done');
});
afterAll(() => ctx.close());

const nameOf = async (id: number) =>
  (await ctx.db.selectFrom('users').select('name').where('id', '=', id).executeTakeFirstOrThrow())
    .name;
const get = async (url: string, token: string, status = 200) => {
  const res = await ctx.request({ method: 'GET', url, token });
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
};
const rows = <P>(body: { _data: { collections: Array<{ properties: P }> } }) =>
  body._data.collections.map((c) => c.properties);
const who = (list: Array<{ enrolmentId: number }>) =>
  list.map((r) => Object.keys(enr).find((k) => enr[k] === r.enrolmentId)).sort();

describe('agenda: reminders due today and overdue', () => {
  it('lists my pending reminders due by the end of today, overdue first, flagged', async () => {
    const body = await get('/api/v2/agenda/reminders?page=1&perPage=10', opA.token);
    const list = rows<{ id: number; overdue: boolean; comment: string }>(body);
    expect(list.map((r) => r.comment)).toEqual(['overdue', 'today']);
    expect(list.map((r) => r.overdue)).toEqual([true, false]);
    expect(body._data.meta).toEqual({ page: 1, perPage: 10, total: 2, lastPage: 1 });
    expect(rows(await get('/api/v2/agenda/reminders', opB.token))).toEqual([]);
    // A sort name every object inherits is the default order, never an error.
    expect(
      rows<{ comment: string }>(
        await get('/api/v2/agenda/reminders?sort=constructor', opA.token),
      ).map((r) => r.comment),
    ).toEqual(['overdue', 'today']);
    expect(
      (await get('/api/v2/reminders?sort=toString', opA.token, 422))._data.errors,
    ).toHaveProperty('sort');
  });

  it("an operator cannot read another operator's agenda; an administrator can; a tutor has no reminders", async () => {
    const refused = await get(`/api/v2/agenda/reminders?user_id=${opA.id}`, opB.token, 403);
    expect(refused.success).toBe(false);
    // The reason is about reading an agenda, not about changing a reminder.
    expect(refused.message).toBe(REMINDER_MSG.otherAgenda);
    for (const part of ['tickets', 'students'])
      expect((await get(`/api/v2/agenda/${part}?user_id=${opA.id}`, opB.token, 403)).message).toBe(
        REMINDER_MSG.otherAgenda,
      );
    expect(rows(await get(`/api/v2/agenda/reminders?user_id=${opA.id}`, admin))).toHaveLength(2);
    expect((await get('/api/v2/agenda/reminders', tutor.token, 403)).message).toBe(MSG.forbidden);
  });
});

describe('agenda: students at risk without contact', () => {
  it('lists the at-risk students of my courses with the rules that matched, leaving out the contacted and the resigned', async () => {
    const list = rows<{
      enrolmentId: number;
      rules: string[];
      expectedProgress: number;
      progress: number | null;
    }>(await get('/api/v2/agenda/students?page=1&perPage=10', opA.token));
    expect(who(list)).toEqual(['S2', 'S3', 'S5']);
    const by = Object.fromEntries(list.map((r) => [who([r])[0], r]));
    expect(by.S2!.rules).toEqual(['resigning']);
    expect(by.S3!.rules).toEqual(['inactive', 'behind']);
    expect(by.S5!.rules).toEqual(['behind']);
    expect(by.S5!.progress).toBe(33);
    expect(by.S5!.expectedProgress).toBe(50);
    // opB has no tickets in any course: no students.
    expect(rows(await get('/api/v2/agenda/students', opB.token))).toEqual([]);
  });

  it('a course never synchronised with Moodle raises no alarm: its students are judged once Moodle confirms them, and the answer names it', async () => {
    const db = ctx.db;
    const op = await ctx.userWithRole('operator');
    const student = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const category = (
      await db
        .selectFrom('courses')
        .select('category_id')
        .where('id', '=', C)
        .executeTakeFirstOrThrow()
    ).category_id;
    const course = (
      await db
        .insertInto('courses')
        .values({ description: 'Curso cargado sin sincronizar', category_id: category })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const person = (
      await db
        .insertInto('registered_users')
        .values({
          rut: formatRut({ body: 23_000_001, dv: computeDv(23_000_001) }),
          name: 'Nora',
          last_name: 'Nueva',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // Loaded from a file: never accessed (as far as SIGAF knows), no results, not confirmed by Moodle.
    const e = (
      await db
        .insertInto('course_registered_users')
        .values({ course_id: course, registered_user_id: person, profile_id: student })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const k = await ticketKeys(db);
    await db
      .insertInto('tickets')
      .values({
        course_registered_user_id: e,
        course_id: course,
        ticket_code: 'AGEN-NOSYNC-1',
        status_ticket_id: k.closed,
        type_ticket_id: k.phone,
        priority_ticket_id: k.high,
        source_ticket_id: k.outgoing,
        motive_ticket_id: k.welcome,
        user_create_id: op.id,
        user_assigned_id: op.id,
        created_at: ago(20 * DAY),
        closing_date: new Date(),
      })
      .execute();
    const before = await get('/api/v2/agenda/students', op.token);
    expect(rows(before)).toEqual([]);
    expect(before._data.unsyncedCourses).toEqual([
      { id: course, description: 'Curso cargado sin sincronizar' },
    ]);
    const workload = rows<{ userId: number; atRisk: number }>(
      await get('/api/v2/agenda/workload', admin),
    );
    expect(workload.find((w) => w.userId === op.id)?.atRisk ?? 0).toBe(0);
    // The first synchronisation confirms her and finds no access: now she is at risk, and the course is no longer named.
    await db
      .updateTable('course_registered_users')
      .set({ is_sincronized: true })
      .where('id', '=', e)
      .execute();
    await db
      .updateTable('courses')
      .set({ last_sync_at: new Date() })
      .where('id', '=', course)
      .execute();
    const after = await get('/api/v2/agenda/students', op.token);
    expect(rows<{ enrolmentId: number; rules: string[] }>(after)).toMatchObject([
      { enrolmentId: e, rules: ['inactive'] },
    ]);
    expect(after._data.unsyncedCourses).toEqual([]);
  });

  it('sorts and pages', async () => {
    const p1 = await get(
      '/api/v2/agenda/students?page=1&perPage=2&sort=progress&order=asc',
      opA.token,
    );
    expect(p1._data.meta).toEqual({ page: 1, perPage: 2, total: 3, lastPage: 2 });
    // S3 0 %, then S2 and S5 at 33 % (ties in enrolment order).
    expect(rows<{ enrolmentId: number }>(p1).map((r) => r.enrolmentId)).toEqual([enr.S3, enr.S2]);
    const p2 = await get(
      '/api/v2/agenda/students?page=2&perPage=2&sort=progress&order=asc',
      opA.token,
    );
    expect(who(rows(p2))).toEqual(['S5']);
  });

  it('a change to a student is seen by the next call: new grades and a contact attempt take them off the list, removing them puts them back', async () => {
    const db = ctx.db;
    const list = async () => who(rows(await get('/api/v2/agenda/students?perPage=50', opA.token)));
    expect(await list()).toEqual(['S2', 'S3', 'S5']);
    const acts = await db
      .selectFrom('activities')
      .select(['id', 'description'])
      .where('course_id', '=', C)
      .execute();
    const actId = (d: string) => acts.find((a) => a.description === d)!.id;
    const added = await db
      .insertInto('activity_course_users')
      .values(
        ['Actividad PA', 'Actividad U1'].map((d) => ({
          course_registered_user_id: enr.S5!,
          activity_id: actId(d),
          status_moodle: 'Enviado',
          completion_state: 1,
          grade: 6,
        })),
      )
      .returning('id')
      .execute();
    expect(await list()).toEqual(['S2', 'S3']);
    const k = await ticketKeys(db);
    const ticket = (
      await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: enr.S3!,
          course_id: C,
          ticket_code: 'AGEN-CUR-S3',
          status_ticket_id: k.open,
          type_ticket_id: k.phone,
          priority_ticket_id: k.high,
          source_ticket_id: k.outgoing,
          motive_ticket_id: k.welcome,
          user_create_id: opA.id,
          user_assigned_id: opA.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    expect(await list()).toEqual(['S2', 'S3']);
    await db
      .insertInto('ticket_details')
      .values({
        ticket_id: ticket,
        user_created_id: opA.id,
        status_detail_ticket_id: k.failure,
        comment: 'Buzón de voz',
      })
      .execute();
    expect(await list()).toEqual(['S2']);
    await db.deleteFrom('tickets').where('id', '=', ticket).execute();
    await db
      .deleteFrom('activity_course_users')
      .where(
        'id',
        'in',
        added.map((a) => a.id),
      )
      .execute();
    expect(await list()).toEqual(['S2', 'S3', 'S5']);
  });

  it('every sort orders the whole list by its column both ways, nothing first ascending and last descending', async () => {
    type Row = {
      enrolmentId: number;
      name: string;
      lastName: string;
      course: string;
      progress: number | null;
      lastAccess: string | null;
      lastAttemptAt: string | null;
    };
    const value: Record<string, (r: Row) => string | number | null> = {
      name: (r) => `${r.lastName} ${r.name}`.toLowerCase(),
      course: (r) => r.course.toLowerCase(),
      progress: (r) => r.progress,
      lastAccess: (r) => (r.lastAccess ? Date.parse(r.lastAccess) : null),
      lastAttemptAt: (r) => (r.lastAttemptAt ? Date.parse(r.lastAttemptAt) : null),
    };
    for (const [sort, of] of Object.entries(value)) {
      for (const order of ['asc', 'desc'] as const) {
        const list = rows<Row>(
          await get(`/api/v2/agenda/students?perPage=50&sort=${sort}&order=${order}`, opA.token),
        );
        expect(list).toHaveLength(3);
        const expected = [...list].sort((a, b) => {
          const [x, y] = [of(a), of(b)];
          if (x !== y) {
            if (x === null) return order === 'asc' ? -1 : 1;
            if (y === null) return order === 'asc' ? 1 : -1;
            return (x < y ? -1 : 1) * (order === 'asc' ? 1 : -1);
          }
          return a.enrolmentId - b.enrolmentId;
        });
        expect(
          list.map((r) => r.enrolmentId),
          `${sort} ${order}`,
        ).toEqual(expected.map((r) => r.enrolmentId));
        // Page by page (each page is taken from every course's first rows in that order): the same list.
        const paged: number[] = [];
        for (let page = 1; page <= 4; page++) {
          const body = await get(
            `/api/v2/agenda/students?page=${page}&perPage=1&sort=${sort}&order=${order}`,
            opA.token,
          );
          expect(body._data.meta.total, `${sort} ${order} page ${page}`).toBe(3);
          paged.push(...rows<Row>(body).map((r) => r.enrolmentId));
        }
        expect(paged, `${sort} ${order} paged`).toEqual(expected.map((r) => r.enrolmentId));
      }
    }
  });

  it('a tutor sees only their classrooms; an administrator sees the operator chosen', async () => {
    expect(who(rows(await get('/api/v2/agenda/students', tutor.token)))).toEqual(['S2', 'S3']);
    expect(who(rows(await get(`/api/v2/agenda/students?user_id=${opA.id}`, admin)))).toEqual([
      'S2',
      'S3',
      'S5',
    ]);
    await get(`/api/v2/agenda/students?user_id=${opA.id}`, tutor.token, 403);
  });

  it("the course's thresholds decide: P below the student's progress, then P for the time elapsed", async () => {
    const put = (payload: object) =>
      ctx.request({
        method: 'PUT',
        url: `/api/v2/agenda/courses/${C}/settings`,
        payload,
        token: admin,
      });
    expect(
      (await put({ contact_days: 7, inactive_days: 7, progress_percent: 20 })).statusCode,
    ).toBe(200);
    expect(who(rows(await get('/api/v2/agenda/students', opA.token)))).toEqual(['S2', 'S3']);
    // Half the course elapsed, 100 % expected at the end: 50 % expected now.
    const day = (d: number) => new Date(Date.now() + d * DAY).toISOString().slice(0, 10);
    expect(
      (
        await put({
          contact_days: 7,
          inactive_days: 7,
          progress_percent: 100,
          starts_on: day(-10),
          ends_on: day(10),
        })
      ).statusCode,
    ).toBe(200);
    const list = rows<{ enrolmentId: number; expectedProgress: number }>(
      await get('/api/v2/agenda/students', opA.token),
    );
    expect(who(list)).toEqual(['S2', 'S3', 'S5']);
    expect(list[0]!.expectedProgress).toBeGreaterThanOrEqual(45);
    expect(list[0]!.expectedProgress).toBeLessThanOrEqual(55);
    // Contacted within the last day only counts with N = 1: S4 comes back as inactive.
    expect(
      (await put({ contact_days: 1, inactive_days: 7, progress_percent: 50 })).statusCode,
    ).toBe(200);
    expect(who(rows(await get('/api/v2/agenda/students', opA.token)))).toEqual([
      'S2',
      'S3',
      'S4',
      'S5',
    ]);
    const bad = await put({ contact_days: 0, inactive_days: 'x', progress_percent: 101 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()._data.errors).toHaveProperty('progress_percent');
    expect(
      (
        await ctx.request({
          method: 'PUT',
          url: `/api/v2/agenda/courses/${C}/settings`,
          payload: { contact_days: 7, inactive_days: 7, progress_percent: 50 },
          token: opA.token,
        })
      ).statusCode,
    ).toBe(403);
    await put({ contact_days: 7, inactive_days: 7, progress_percent: 50 });
  });
});

describe('agenda: open tickets without an attempt', () => {
  it('lists my open tickets whose last attempt (or creation) is older than K days', async () => {
    const three = rows<{ id: number; daysWithoutAttempt: number }>(
      await get('/api/v2/agenda/tickets', opA.token),
    );
    expect(three.map((t) => t.id)).toEqual([tk.S1]);
    expect(three[0]!.daysWithoutAttempt).toBe(10);
    const one = rows<{ id: number }>(
      await get('/api/v2/agenda/tickets?days=1&sort=lastAttemptAt&order=asc', opA.token),
    );
    expect(one.map((t) => t.id)).toEqual([tk.S1, tk.S4]);
    expect((await get('/api/v2/agenda/tickets?days=abc', opA.token, 422)).success).toBe(false);
    await get('/api/v2/agenda/tickets', tutor.token, 403);
  });
});

describe('agenda: administration', () => {
  it('the workload table counts, per operator, due and overdue reminders, open tickets and the at-risk students with an open ticket of theirs', async () => {
    type Load = {
      userId: number;
      due: number;
      overdue: number;
      openTickets: number;
      atRisk: number;
    };
    // At risk: S2, S3 (no ticket) and S5 (opA's closed ticket): a closed case is nobody's load.
    const k = await ticketKeys(ctx.db);
    await ctx.db
      .updateTable('tickets')
      .set({ status_ticket_id: k.open, closing_date: null })
      .where('id', '=', tk.S5!)
      .execute();
    // Reopened, S5 is opA's.
    expect(
      rows<Load>(await get('/api/v2/agenda/workload', admin)).find((w) => w.userId === opA.id),
    ).toMatchObject({ openTickets: 3, atRisk: 1 });
    await ctx.db
      .updateTable('tickets')
      .set({ status_ticket_id: k.closed, closing_date: new Date() })
      .where('id', '=', tk.S5!)
      .execute();
    const list = rows<Load>(await get('/api/v2/agenda/workload', admin));
    expect(list.find((w) => w.userId === opA.id)).toMatchObject({
      due: 1,
      overdue: 1,
      openTickets: 2,
      atRisk: 0,
    });
    expect(list.find((w) => w.userId === opB.id)).toMatchObject({
      due: 0,
      overdue: 0,
      openTickets: 0,
      atRisk: 0,
    });
    expect(list.some((w) => w.userId === tutor.id)).toBe(false);
    // An administrator with no work of their own is not an operator to balance.
    const me = (
      await ctx.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
    expect(list.some((w) => w.userId === me)).toBe(false);
    await get('/api/v2/agenda/workload', opA.token, 403);
  });

  it('reassigns a ticket with its pending reminders to another operator', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/v2/agenda/reassign',
      payload: { to_user_id: opB.id, ticket_ids: [tk.S1] },
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const opBName = await nameOf(opB.id);
    expect(res.json()._data).toMatchObject({ tickets: 1, reminders: 3, refused: 0, last: null });
    expect(res.json().message).toBe(`1 ticket y 3 recordatorios reasignados a ${opBName}.`);
    expect(
      rows<{ comment: string }>(await get('/api/v2/agenda/reminders', opB.token)).map(
        (r) => r.comment,
      ),
    ).toEqual(['overdue', 'today']);
    expect(
      rows<{ id: number }>(await get('/api/v2/agenda/tickets', opB.token)).map((t) => t.id),
    ).toEqual([tk.S1]);
    expect(rows(await get('/api/v2/agenda/reminders', opA.token))).toEqual([]);
    const bad = await ctx.request({
      method: 'POST',
      url: '/api/v2/agenda/reassign',
      payload: { to_user_id: tutor.id, ticket_ids: [tk.S1] },
      token: admin,
    });
    expect(bad.statusCode).toBe(422);
    expect(
      (
        await ctx.request({
          method: 'POST',
          url: '/api/v2/agenda/reassign',
          payload: { to_user_id: opA.id, ticket_ids: [tk.S1] },
          token: opB.token,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('keeps the last reassignment, which can be undone after a reload, once, for a while', async () => {
    const [nameA, nameB] = [await nameOf(opA.id), await nameOf(opB.id)];
    const post = (url: string, payload?: object) =>
      ctx.request({ method: 'POST', url, payload, token: admin });
    const assignee = async () =>
      (
        await ctx.db
          .selectFrom('tickets')
          .select('user_assigned_id')
          .where('id', '=', tk.S1!)
          .executeTakeFirstOrThrow()
      ).user_assigned_id;
    expect(await assignee()).toBe(opB.id);
    const res = await post('/api/v2/agenda/reassign', {
      from_user_id: opB.id,
      to_user_id: opA.id,
      ticket_ids: [tk.S1],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(`1 ticket y 3 recordatorios reasignados a ${nameA}.`);
    expect(await assignee()).toBe(opA.id);
    // Asked again later (a reload): the server remembers it.
    const last = (await get('/api/v2/agenda/reassign/last', admin))._data;
    expect(last).toMatchObject({
      from: { id: opB.id, name: nameB },
      to: { id: opA.id, name: nameA },
      tickets: 1,
      reminders: 3,
    });
    expect(Date.parse(last.until) - Date.parse(last.at)).toBe(
      AGENDA_REASSIGN_UNDO_HOURS * 3_600_000,
    );
    // Another administrator has nothing of theirs to undo.
    const other = await ctx.userWithRole('admin');
    expect((await get('/api/v2/agenda/reassign/last', other.token))._data).toBeNull();
    const undo = await post('/api/v2/agenda/reassign/undo');
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json().message).toBe(`1 ticket y 3 recordatorios reasignados a ${nameB}.`);
    expect(await assignee()).toBe(opB.id);
    expect(
      rows<{ comment: string }>(await get('/api/v2/agenda/reminders', opB.token)).map(
        (r) => r.comment,
      ),
    ).toEqual(['overdue', 'today']);
    expect((await get('/api/v2/agenda/reassign/last', admin))._data).toBeNull();
    const again = await post('/api/v2/agenda/reassign/undo');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(REMINDER_MSG.nothingToUndo);
    // Past the while, it cannot be undone.
    await post('/api/v2/agenda/reassign', {
      from_user_id: opB.id,
      to_user_id: opA.id,
      ticket_ids: [tk.S1],
    });
    await ctx.db
      .updateTable('agenda_last_reassignments')
      .set({
        created_at: sql`now() - make_interval(hours => ${AGENDA_REASSIGN_UNDO_HOURS + 1})`,
      } as never)
      .execute();
    expect((await get('/api/v2/agenda/reassign/last', admin))._data).toBeNull();
    expect((await post('/api/v2/agenda/reassign/undo')).statusCode).toBe(409);
    await post('/api/v2/agenda/reassign', { to_user_id: opB.id, ticket_ids: [tk.S1] });
    expect(await assignee()).toBe(opB.id);
    await get('/api/v2/agenda/reassign/last', opA.token, 403);
  });

  it('each user keeps their own morning digest setting', async () => {
    expect((await get('/api/v2/agenda/digest', opA.token))._data).toEqual({ morningDigest: false });
    const res = await ctx.request({
      method: 'PUT',
      url: '/api/v2/agenda/digest',
      payload: { morning_digest: true },
      token: opA.token,
    });
    expect(res.json()._data).toEqual({ morningDigest: true });
    expect((await get('/api/v2/agenda/digest', opB.token))._data).toEqual({ morningDigest: false });
    expect(
      (
        await ctx.request({
          method: 'PUT',
          url: '/api/v2/agenda/digest',
          payload: { morning_digest: 'sí' },
          token: opA.token,
        })
      ).statusCode,
    ).toBe(422);
  });

  it('the morning digest: once a day from 07:30 Chilean time, to those who asked for it, through the outbox', async () => {
    const digest = new AgendaDigest(ctx.db, ctx.app.services.jobs.queue, {
      MAIL_FROM: 'SIGAF <no-reply@sigaf.test>',
      PUBLIC_URL: 'https://sigaf.example',
      TIME_ZONE: 'America/Santiago',
    });
    const day = chileParts(new Date()).day;
    expect(await digest.tick(chileLocalToDate(day, '07:00')!)).toEqual([]);
    // opA asked for it above; opB did not. opB's reminders and students would fill one, opA's students do.
    const ids = await digest.tick(chileLocalToDate(day, '08:00')!);
    expect(ids).toHaveLength(1);
    const mail = await ctx.db
      .selectFrom('mail_messages')
      .selectAll()
      .where('id', '=', ids[0]!)
      .executeTakeFirstOrThrow();
    const email = (
      await ctx.db
        .selectFrom('users')
        .select('email')
        .where('id', '=', opA.id)
        .executeTakeFirstOrThrow()
    ).email;
    expect(mail).toMatchObject({ to_address: email, status: 'queued', ticket_id: null });
    expect(mail.text).toContain('Estudiantes en riesgo sin contacto (3)');
    expect(mail.text).toContain('https://sigaf.example/my/agenda');
    expect(
      await ctx.db
        .selectFrom('jobs')
        .select('id')
        .where('type', '=', 'mail.send')
        .where(sql`payload->>'mailId'`, '=', String(ids[0]))
        .execute(),
    ).toHaveLength(1);
    // Once a day.
    expect(await digest.tick(chileLocalToDate(day, '09:00')!)).toEqual([]);
  });

  // Last: it gives opB tickets in courses of their own.
  it("across several courses, each page is the same as the whole list's slice, in every order", async () => {
    const db = ctx.db;
    const student = (
      await db
        .selectFrom('profiles')
        .select('id')
        .where('key', '=', 'student')
        .executeTakeFirstOrThrow()
    ).id;
    const category = (
      await db
        .selectFrom('courses')
        .select('category_id')
        .where('id', '=', C)
        .executeTakeFirstOrThrow()
    ).category_id;
    const k = await ticketKeys(db);
    // Names interleaved across three courses, a tie on the name in two of them, progress and access spread.
    const names = [
      'Zoe',
      'Ana',
      'Marta',
      'Ana',
      'Luis',
      'Beto',
      'Ñuñoa',
      'Carla',
      'ana',
      'Óscar',
      'Dora',
      'Eva',
    ];
    let body = 22_000_000;
    for (let c = 0; c < 3; c++) {
      const course = (
        await db
          .insertInto('courses')
          .values({ description: `Curso paginado ${'CAB'[c]}`, category_id: category })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      for (let i = c; i < names.length; i += 3) {
        while (!/^[02468]$/.test(computeDv(body))) body++;
        const rut = formatRut({ body, dv: computeDv(body) });
        body++;
        const person = (
          await db
            .insertInto('registered_users')
            .values({ rut, name: names[i]!, last_name: i % 2 ? 'Pérez' : 'Soto' })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        const last = i % 4 === 0 ? null : ago((10 + i) * DAY);
        const e = (
          await db
            .insertInto('course_registered_users')
            .values({
              course_id: course,
              registered_user_id: person,
              profile_id: student,
              last_access_registered_moodle: last,
              is_sincronized: true,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
        await db
          .insertInto('tickets')
          .values({
            course_registered_user_id: e,
            course_id: course,
            ticket_code: `AGEN-PAG-${c}-${i}`,
            status_ticket_id: k.open,
            type_ticket_id: k.phone,
            priority_ticket_id: k.high,
            source_ticket_id: k.outgoing,
            motive_ticket_id: k.welcome,
            user_create_id: opB.id,
            user_assigned_id: opB.id,
            created_at: ago(20 * DAY),
          })
          .execute();
      }
    }
    for (const sort of ['name', 'course', 'progress', 'lastAccess', 'lastAttemptAt']) {
      for (const order of ['asc', 'desc']) {
        // opB also has the course of the reassigned ticket above.
        const whole = await get(
          `/api/v2/agenda/students?perPage=50&sort=${sort}&order=${order}`,
          opB.token,
        );
        const all = rows<{ enrolmentId: number }>(whole).map((r) => r.enrolmentId);
        expect(all.length).toBeGreaterThanOrEqual(names.length);
        expect(whole._data.meta.total).toBe(all.length);
        expect(new Set(all).size).toBe(all.length);
        for (const perPage of [1, 5]) {
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(all.length / perPage); page++) {
            const one = await get(
              `/api/v2/agenda/students?page=${page}&perPage=${perPage}&sort=${sort}&order=${order}`,
              opB.token,
            );
            expect(one._data.meta.total).toBe(all.length);
            paged.push(...rows<{ enrolmentId: number }>(one).map((r) => r.enrolmentId));
          }
          expect(paged, `${sort} ${order} by ${perPage}`).toEqual(all);
        }
      }
    }
  });
});
