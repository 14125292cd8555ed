import { computeDv, formatRut } from '@sigaf/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketKeys } from './data.js';
import { TEST_ADMIN } from './fixtures.js';
import { createTestContext, type TestContext } from './helpers.js';

/**
 * A hand-made course whose every figure is computed by hand below.
 *
 * Students (profile student unless said; "synced" = is_sincronized):
 *   S1 form A (even check digit), Aula Norte, accessed 2 h ago,   no resign row          -> Activo
 *   S2 form B (odd digit),        Aula Norte, accessed 3 days ago, resign "En curso"      -> Renuncia en curso
 *   S3 form B (check digit K),    Aula Sur,   never accessed,      no resign row          -> Activo
 *   S4 form A (even digit),       Aula Sur,   accessed 10 days ago, resign complete       -> Renunciado
 *   S5 unsynced (Aula Norte): in the matrícula (`total`) as `unsynced`, in no other figure; T1 a tutor (Aula Norte): never counted.
 * Activities: R (Renuncia), E (Encuesta), PA (Pre Test A), PB (Pre Test B), U1a (Unidad 1,
 * weighing 20, Moodle id 9001), U1b (Unidad 1, weighing 0: not graded), F (Formativa, weighing 0).
 */
let ctx: TestContext;
let admin: string;
let course: number;
let empty: number;
let norte: number;
const act: Record<string, number> = {};
const enr: Record<string, number> = {};
let op1: { id: number; token: string };
let op2: { id: number };
let tutor: string;

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

/** A valid RUT whose check digit satisfies `want`, searching from `start`. */
function rutWhere(start: number, want: (dv: string) => boolean): string {
  for (let body = start; ; body++)
    if (want(computeDv(body))) return formatRut({ body, dv: computeDv(body) });
}
const even = (dv: string) => /^[02468]$/.test(dv);
const odd = (dv: string) => /^[13579]$/.test(dv);

const get = (url: string, token = admin) => ctx.request({ method: 'GET', url, token });
const chart = async (url: string, token = admin) => {
  const res = await get(url, token);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json()._data.chartData as {
    labels: string[];
    datasets: Array<{ label?: string; data: number[]; backgroundColor: string[] }>;
  };
};
const data = (c: Awaited<ReturnType<typeof chart>>) => c.datasets.map((d) => d.data);

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.login(TEST_ADMIN.email, TEST_ADMIN.password);
  op1 = await ctx.userWithRole('operator');
  op2 = await ctx.userWithRole('operator');
  const tutorUser = await ctx.userWithRole('tutor');
  tutor = tutorUser.token;
  const db = ctx.db;
  const id = async (table: 'profiles' | 'sections', key: string) =>
    (await db.selectFrom(table).select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;
  const platform = await db.selectFrom('platforms').select('id').executeTakeFirstOrThrow();
  const category = (
    await db
      .insertInto('categories')
      .values({ description: 'Dashboard', category_code: 'DASH', platform_id: platform.id })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  course = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso estadística', category_id: category })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  empty = (
    await db
      .insertInto('courses')
      .values({ description: 'Curso vacío', category_id: category })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  norte = (
    await db
      .insertInto('classrooms')
      .values({ description: 'Aula Norte' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const sur = (
    await db
      .insertInto('classrooms')
      .values({ description: 'Aula Sur' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  // The tutor follows both classrooms (follow-up scoping: a tutor sees only their classrooms).
  await db
    .insertInto('classroom_tutors')
    .values([
      { course_id: course, classroom_id: norte, user_id: tutorUser.id },
      { course_id: course, classroom_id: sur, user_id: tutorUser.id },
    ])
    .execute();
  const unit = (
    await db
      .insertInto('sections')
      .values({ description: 'Unidad 1' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

  const activities: Array<[string, number, number, number | null]> = [
    ['R', await id('sections', 'resign'), 0, null],
    ['E', await id('sections', 'survey'), 0, null],
    ['PA', await id('sections', 'pre_test_a'), 0, null],
    ['PB', await id('sections', 'pre_test_b'), 0, null],
    ['U1a', unit, 20, 9001],
    ['U1b', unit, 0, null],
    ['F', await id('sections', 'formative'), 0, null],
  ];
  for (const [name, section_id, weighing, moodle] of activities) {
    act[name] = (
      await db
        .insertInto('activities')
        .values({
          description: `Actividad ${name}`,
          course_id: course,
          section_id,
          weighing,
          id_activity_moodle: moodle,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  const student = await id('profiles', 'student');
  const tutorProfile = await id('profiles', 'tutor');
  const people: Array<[string, string, number, Date | null, boolean, number]> = [
    ['S1', rutWhere(11_000_000, even), norte, ago(2 * HOUR), true, student],
    ['S2', rutWhere(12_000_000, odd), norte, ago(72 * HOUR), true, student],
    ['S3', rutWhere(13_000_000, (dv) => dv === 'K'), sur, null, true, student],
    ['S4', rutWhere(14_000_000, even), sur, ago(240 * HOUR), true, student],
    ['S5', rutWhere(15_000_000, even), norte, ago(HOUR), false, student],
    ['T1', rutWhere(16_000_000, odd), norte, ago(HOUR), true, tutorProfile],
  ];
  for (const [name, rut, classroom_id, last, synced, profile_id] of people) {
    const r = (
      await db
        .insertInto('registered_users')
        .values({ rut, name, last_name: `Apellido ${name}`, email: `${name}@correo.test` })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    enr[name] = (
      await db
        .insertInto('course_registered_users')
        .values({
          course_id: course,
          registered_user_id: r,
          profile_id,
          classroom_id,
          last_access_registered_moodle: last,
          is_sincronized: synced,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  expect(people[2]![1].endsWith('-K')).toBe(true);

  // [student, activity, status_moodle, completion_state, grade]
  const rows: Array<[string, string, string | null, number | null, number | null]> = [
    ['S2', 'R', 'En curso', 0, null],
    ['S4', 'R', 'Finalizado', 1, null],
    ['S1', 'R', '-', 0, null],
    ['S1', 'E', 'Enviado', 1, 7],
    ['S1', 'PA', 'Finalizado', 2, 5],
    ['S1', 'U1a', 'Enviado', 1, null],
    ['S1', 'U1b', 'Enviado', 1, 6],
    ['S2', 'E', 'Sin entrega', 0, null],
    ['S2', 'PB', 'Finalizado', 3, 4],
    ['S2', 'PA', 'Finalizado', 2, 3], // wrong form: not counted
    ['S2', 'U1a', 'Enviado', 1, 6],
    ['S3', 'U1a', 'Enviado', 1, 5.5],
    ['S4', 'E', 'Enviado', 1, 7], // withdrawn: not counted
    ['S4', 'U1a', 'Enviado', 1, 7],
    ['S5', 'U1a', 'Enviado', 1, 7], // unsynced: not counted
  ];
  for (const [s, a, status_moodle, completion_state, grade] of rows) {
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

  // Tickets. 10-03-2024 in Santiago is [2024-03-10T03:00Z, 2024-03-11T03:00Z) (UTC-3).
  const k = await ticketKeys(db);
  const tickets: Array<
    [
      string,
      string,
      Date | string,
      Date | string | null,
      number,
      number,
      number,
      number,
      number,
      number | null,
    ]
  > = [
    // name, enrolment, created, closing, status, type, priority, source, motive, assigned
    [
      'K1',
      'S1',
      '2024-03-09T15:00:00Z',
      '2024-03-10T12:00:00Z',
      k.closed,
      k.phone,
      k.high,
      k.incoming,
      k.welcome,
      op1.id,
    ],
    [
      'K2',
      'S2',
      '2024-03-10T04:00:00Z',
      '2024-03-15T05:00:00Z',
      k.closed,
      k.email,
      k.low,
      k.outgoing,
      k.problem,
      op1.id,
    ],
    [
      'K3',
      'S3',
      '2024-03-11T02:30:00Z',
      '2024-03-12T12:00:00Z',
      k.closed,
      k.phone,
      k.high,
      k.incoming,
      k.problem,
      op2.id,
    ],
    ['K4', 'S4', new Date(), null, k.open, k.phone, k.medium, k.incoming, k.welcome, null],
    ['K5', 'S1', ago(73 * HOUR), null, k.open, k.phone, k.high, k.outgoing, k.welcome, op2.id],
  ];
  const ticket: Record<string, number> = {};
  for (const [
    name,
    e,
    created_at,
    closing_date,
    status_ticket_id,
    type_ticket_id,
    priority_ticket_id,
    source_ticket_id,
    motive_ticket_id,
    user_assigned_id,
  ] of tickets) {
    ticket[name] = (
      await db
        .insertInto('tickets')
        .values({
          course_registered_user_id: enr[e]!,
          course_id: course,
          ticket_code: `DASH-${name}`,
          created_at,
          closing_date,
          status_ticket_id,
          type_ticket_id,
          priority_ticket_id,
          source_ticket_id,
          motive_ticket_id,
          user_assigned_id,
          user_create_id: op1.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  const attempts: Array<[string, number, number, string]> = [
    ['K1', op1.id, k.success, '2024-03-10T11:00:00Z'],
    ['K2', op1.id, k.failure, '2024-03-10T05:00:00Z'],
    ['K2', op1.id, k.failure, '2024-03-10T20:00:00Z'],
    ['K2', op1.id, k.failure, '2024-03-09T20:00:00Z'], // 17:00 on the 9th in Santiago
    ['K3', op2.id, k.failure, '2024-03-11T02:45:00Z'], // 23:45 on the 10th in Santiago
    ['K5', op2.id, k.success, '2024-03-11T04:00:00Z'], // 01:00 on the 11th in Santiago
  ];
  for (const [t, user_created_id, status_detail_ticket_id, created_at] of attempts) {
    await db
      .insertInto('ticket_details')
      .values({ ticket_id: ticket[t]!, user_created_id, status_detail_ticket_id, created_at })
      .execute();
  }
});
afterAll(() => ctx.close());

describe('dashboard: ticket counts and charts', () => {
  it('answers the bare integer counts', async () => {
    const expected = { total: 5, 'last-day': 1, open: 2, close: 3 };
    for (const [segment, n] of Object.entries(expected)) {
      const res = await get(`/api/v2/tickets/${course}/${segment}/count`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(String(n));
      expect(res.json()).toBe(n);
    }
    for (const segment of Object.keys(expected))
      expect((await get(`/api/v2/tickets/${empty}/${segment}/count`)).body).toBe('0');
  });

  it('counts per catalogue value, zero rows included', async () => {
    const status = await chart(`/api/v2/tickets/${course}/status-chart`);
    expect(status.labels).toEqual(['Abierto', 'Cerrado']);
    expect(data(status)).toEqual([[2, 3]]);
    expect(status.datasets[0]!.backgroundColor).toHaveLength(2);
    const type = await chart(`/api/v2/tickets/${course}/type-chart`);
    expect(type.labels).toEqual(['Correo electrónico', 'Contacto telefónico']);
    expect(data(type)).toEqual([[1, 4]]);
    const priority = await chart(`/api/v2/tickets/${course}/priority-chart`);
    expect(priority.labels).toEqual(['Alta', 'Media', 'Baja']);
    expect(data(priority)).toEqual([[3, 1, 1]]);
    const source = await chart(`/api/v2/tickets/${course}/source-chart`);
    expect(source.labels).toEqual(['Entrante', 'Saliente']);
    expect(data(source)).toEqual([[3, 2]]);
    expect(data(await chart(`/api/v2/tickets/${empty}/priority-chart`))).toEqual([[0, 0, 0]]);
  });

  it('motive chart is a percentage of the total', async () => {
    const motive = await chart(`/api/v2/tickets/${course}/motive-chart`);
    expect(motive.labels).toEqual(['Bienvenida', 'Problema']);
    expect(data(motive)).toEqual([[60, 40]]);
    expect(data(await chart(`/api/v2/tickets/${empty}/motive-chart`))).toEqual([[0, 0]]);
  });

  it('age chart buckets whole days to closing or now', async () => {
    // K1 21 h, K4 now: < 24h; K3 1 d 9.5 h; K5 3 d 1 h (open); K2 5 d 1 h.
    const age = await chart(`/api/v2/tickets/${course}/age-chart`);
    expect(age.labels).toEqual(['< 24h', '1 día', '3 días', '5 días']);
    expect(data(age)).toEqual([[2, 1, 1, 1]]);
    expect(await chart(`/api/v2/tickets/${empty}/age-chart`)).toEqual({
      labels: [],
      datasets: [{ data: [], backgroundColor: [] }],
    });
  });

  it('status per operator and per motive', async () => {
    const ops = await chart(`/api/v2/tickets/${course}/status-operator-chart`);
    const [name1, name2] = await Promise.all(
      [op1.id, op2.id].map(
        async (id) =>
          (
            await ctx.db
              .selectFrom('users')
              .select('name')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).name,
      ),
    );
    expect(ops.labels).toEqual([name1, name2, 'Sin asignar']);
    expect(ops.datasets.map((d) => d.label)).toEqual(['Abierto', 'Cerrado']);
    expect(data(ops)).toEqual([
      [0, 1, 1],
      [2, 1, 0],
    ]);
    const motives = await chart(`/api/v2/tickets/${course}/status-motive-chart`);
    expect(motives.labels).toEqual(['Bienvenida', 'Problema']);
    expect(data(motives)).toEqual([
      [2, 0],
      [1, 2],
    ]);
    expect((await chart(`/api/v2/tickets/${empty}/status-operator-chart`)).labels).toEqual([]);
  });
});

describe('dashboard: enrolled students', () => {
  it('status, logged time and card over synced students', async () => {
    const status = await chart(`/api/v2/course-registered-users/${course}/status/count`);
    expect(status).toEqual({
      labels: ['Activo', 'Renuncia en curso', 'Renunciado'],
      datasets: [{ data: [2, 1, 1], backgroundColor: ['#5cb85c', '#F9A825', '#D32F2F'] }],
    });
    const logged = await chart(`/api/v2/course-registered-users/${course}/logged-time/count`);
    expect(logged.labels).toEqual([
      'Nunca',
      'Menos de un día',
      'Menos de una semana',
      'Más de una semana',
    ]);
    expect(data(logged)).toEqual([[1, 1, 1, 1]]);
    const card = await get(`/api/v2/course-registered-users/${course}/follow-student-card`);
    expect(card.json()._data).toEqual({ resign: 1, active: 2, inactive: 1, total: 5, unsynced: 1 });
  });

  it('progress per section: graded (numeric grade) and advance (completion), tests by A/B form', async () => {
    // Not withdrawn: S1 (A), S2 (B), S3 (B).
    // Encuesta: 3 expected, graded S1 -> 33.3; completed S1 -> 33.3.
    // Pre Test A: S1 only, graded and completed -> 100. Pre Test B: S2, S3; S2 graded and completed -> 50.
    // Unidad 1 (U1a only): 3 expected; graded S2, S3 -> 66.7; completed S1, S2, S3 -> 100.
    const graded = await chart(`/api/v2/course-registered-users/${course}/progress-chart`);
    expect(graded.labels).toEqual(['Encuesta', 'Pre Test A', 'Pre Test B', 'Unidad 1']);
    expect(graded.datasets.map((d) => d.label)).toEqual(['Realizado', 'No realizado']);
    expect(data(graded)).toEqual([
      [33.3, 100, 50, 66.7],
      [66.7, 0, 50, 33.3],
    ]);
    const advance = await chart(`/api/v2/course-registered-users/${course}/progress-chart-avance`);
    expect(advance.labels).toEqual(graded.labels);
    expect(data(advance)).toEqual([
      [33.3, 100, 50, 100],
      [66.7, 0, 50, 0],
    ]);
  });

  it('an empty course answers zeros and empty labels', async () => {
    expect(data(await chart(`/api/v2/course-registered-users/${empty}/status/count`))).toEqual([
      [0, 0, 0],
    ]);
    expect(data(await chart(`/api/v2/course-registered-users/${empty}/logged-time/count`))).toEqual(
      [[0, 0, 0, 0]],
    );
    expect(
      (await get(`/api/v2/course-registered-users/${empty}/follow-student-card`)).json()._data,
    ).toEqual({ resign: 0, active: 0, inactive: 0, total: 0, unsynced: 0 });
    expect((await chart(`/api/v2/course-registered-users/${empty}/progress-chart`)).labels).toEqual(
      [],
    );
  });

  it('a course without a resign activity counts everyone Activo', async () => {
    await ctx.db.deleteFrom('activity_course_users').where('activity_id', '=', act.R!).execute();
    await ctx.db.deleteFrom('activities').where('id', '=', act.R!).execute();
    try {
      expect(data(await chart(`/api/v2/course-registered-users/${course}/status/count`))).toEqual([
        [4, 0, 0],
      ]);
      expect(
        (await get(`/api/v2/course-registered-users/${course}/follow-student-card`)).json()._data,
      ).toEqual({ resign: 0, active: 3, inactive: 1, total: 5, unsynced: 1 });
    } finally {
      const resign = (
        await ctx.db
          .selectFrom('sections')
          .select('id')
          .where('key', '=', 'resign')
          .executeTakeFirstOrThrow()
      ).id;
      act.R = (
        await ctx.db
          .insertInto('activities')
          .values({
            description: 'Actividad R',
            course_id: course,
            section_id: resign,
            weighing: 0,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await ctx.db
        .insertInto('activity_course_users')
        .values([
          {
            course_registered_user_id: enr.S2!,
            activity_id: act.R,
            status_moodle: 'En curso',
            completion_state: 0,
          },
          {
            course_registered_user_id: enr.S4!,
            activity_id: act.R,
            status_moodle: 'Finalizado',
            completion_state: 1,
          },
        ])
        .execute();
    }
    expect(data(await chart(`/api/v2/course-registered-users/${course}/status/count`))).toEqual([
      [2, 1, 1],
    ]);
  });
});

describe('follow-up per classroom', () => {
  it('card, status and progress of a classroom by id (Aula Norte: S1, S2)', async () => {
    const base = `/api/v2/course-registered-users/${course}/classrooms/${norte}`;
    expect((await get(`${base}/follow-student-classroom`)).json()._data).toEqual({
      resign: 0,
      active: 2,
      inactive: 0,
      total: 3,
      unsynced: 1,
    });
    expect(data(await chart(`${base}/status-user-classroom`))).toEqual([[1, 1, 0]]);
    // Encuesta S1 of S1,S2 -> 50; Pre Test A S1 -> 100; Pre Test B S2 -> 100; Unidad 1 S2 of S1,S2 -> 50.
    const progress = await chart(`${base}/progress-classroom-chart`);
    expect(progress.labels).toEqual(['Encuesta', 'Pre Test A', 'Pre Test B', 'Unidad 1']);
    expect(data(progress)).toEqual([
      [50, 100, 100, 50],
      [50, 0, 0, 50],
    ]);
  });

  it('by description as the original client sends it (Aula Sur: S3, S4), and for a tutor', async () => {
    const base = `/api/v2/course-registered-users/${course}/classrooms/${encodeURIComponent('Aula Sur')}`;
    expect((await get(`${base}/follow-student-classroom`, tutor)).json()._data).toEqual({
      resign: 1,
      active: 0,
      inactive: 1,
      total: 2,
      unsynced: 0,
    });
    expect(data(await chart(`${base}/status-user-classroom`))).toEqual([[1, 0, 1]]);
  });

  it('progress per activity of one section', async () => {
    const base = `/api/v2/course-registered-users/${course}/classrooms/${norte}/sections`;
    const unit = (
      await ctx.db
        .selectFrom('sections')
        .select('id')
        .where('description', '=', 'Unidad 1')
        .executeTakeFirstOrThrow()
    ).id;
    // Only U1a is graded (U1b weighs 0). Norte: S2 graded of S1, S2 -> 50; both completed -> 100.
    const graded = await chart(`${base}/${unit}/progress-activities`);
    expect(graded.labels).toEqual(['Actividad U1a']);
    expect(data(graded)).toEqual([[50], [50]]);
    expect(data(await chart(`${base}/${unit}/progress-activities-avance`))).toEqual([[100], [0]]);
    // Pre Test B in Aula Sur by key: S3 only (S4 withdrawn), nothing done.
    const pb = await chart(
      `/api/v2/course-registered-users/${course}/classrooms/Aula%20Sur/sections/pre_test_b/progress-activities`,
    );
    expect(pb.labels).toEqual(['Actividad PB']);
    expect(data(pb)).toEqual([[0], [100]]);
  });
});

describe('students on chosen activities', () => {
  it('lists each student with state and row per activity, by local or Moodle id', async () => {
    const res = await get(
      `/api/v2/activities/${encodeURIComponent(JSON.stringify([act.E, 9001]))}/course-registered-users/${course}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json()._data as Array<{
      name: string;
      status: string;
      form: string;
      classroom: string;
      activities: Array<{
        activityId: number;
        grade: number | null;
        completionState: number | null;
      }>;
    }>;
    expect(rows.map((r) => [r.name, r.status, r.form, r.classroom])).toEqual([
      ['S1', 'Activo', 'A', 'Aula Norte'],
      ['S2', 'Renuncia en curso', 'B', 'Aula Norte'],
      ['S3', 'Activo', 'B', 'Aula Sur'],
      ['S4', 'Renunciado', 'A', 'Aula Sur'],
    ]);
    expect(rows[0]!.activities.map((a) => [a.activityId, a.grade, a.completionState])).toEqual([
      [act.E, 7, 1],
      [act.U1a, null, 1],
    ]);
    expect(rows[2]!.activities.map((a) => [a.activityId, a.grade, a.completionState])).toEqual([
      [act.E, null, null],
      [act.U1a, 5.5, 1],
    ]);
  });

  it('answers a page of them in the same order, with the number of students', async () => {
    const url = (query: string) =>
      `/api/v2/activities/${encodeURIComponent(JSON.stringify([act.E, 9001]))}/course-registered-users/${course}?${query}`;
    const page = async (query: string) =>
      (await get(url(query))).json()._data as {
        students: Array<{ name: string; activities: unknown[] }>;
        meta: unknown;
      };
    const second = await page('page=2&perPage=3');
    expect(second.students.map((r) => r.name)).toEqual(['S4']);
    expect(second.students[0]!.activities).toHaveLength(2);
    expect(second.meta).toEqual({ page: 2, perPage: 3, total: 4, lastPage: 2 });
    expect((await page('page=1')).meta).toEqual({ page: 1, perPage: 20, total: 4, lastPage: 1 });
    expect(await page('page=3&perPage=3')).toEqual({
      students: [],
      meta: { page: 3, perPage: 3, total: 4, lastPage: 2 },
    });
    expect((await get(url('page=1&perPage=501'))).statusCode).toBe(422);
  });
});

describe('daily reports', () => {
  it('data card of a day: created that day, and totals up to its end', async () => {
    // 10-03: created K2, K3 (23:30 local); up to the end K1, K2, K3; closed by then only K1.
    for (const date of ['10-03-2024', '2024-03-10']) {
      const res = await get(`/api/v2/reports/courses/${course}/data-card/${date}`);
      expect(res.json()._data).toEqual({
        created: 2,
        total: 3,
        open: 2,
        closed: 1,
        newTicket: 2,
        close: 1,
      });
    }
    expect(
      (await get(`/api/v2/reports/courses/${course}/data-card/09-03-2024`)).json()._data,
    ).toEqual({ created: 1, total: 1, open: 1, closed: 0, newTicket: 1, close: 0 });
    expect(
      (await get(`/api/v2/reports/courses/${empty}/data-card/09-03-2024`)).json()._data,
    ).toEqual({ created: 0, total: 0, open: 0, closed: 0, newTicket: 0, close: 0 });
  });

  it('charts of the tickets created that day', async () => {
    const res = await get(`/api/v2/reports/courses/${course}/type-ticket/10-03-2024`);
    const d = res.json()._data;
    // K2 (email, low, outgoing, problem, closed) and K3 (phone, high, incoming, problem, closed).
    expect(d.priority.chartData.labels).toEqual(['Alta', 'Media', 'Baja']);
    expect(d.priority.chartData.datasets[0].data).toEqual([1, 0, 1]);
    expect(d.type.chartData.datasets[0].data).toEqual([1, 1]);
    expect(d.motive.chartData.datasets[0].data).toEqual([0, 2]);
    // Entrante, Saliente.
    expect(d.source.chartData.datasets[0].data).toEqual([1, 1]);
    expect(d.status.chartData.datasets[0].data).toEqual([0, 2]);
  });

  it('operator table and attempts per outcome', async () => {
    const res = await get(`/api/v2/reports/courses/${course}/table-operator/10-03-2024`);
    const d = res.json()._data;
    // op1: K1 (success), K2 twice that day -> 2 tickets, both closed, 3 attempts. op2: K3 at 23:45 -> 1, 1, 1.
    expect(
      d.table.map(
        (r: { operatorId: number; tickets: number; closed: number; attempts: number }) => [
          r.operatorId,
          r.tickets,
          r.closed,
          r.attempts,
        ],
      ),
    ).toEqual([
      [op1.id, 2, 2, 3],
      [op2.id, 1, 1, 1],
    ]);
    // The original's names beside ours: close, attemps (its spelling).
    expect(d.table.map((r: { close: number; attemps: number }) => [r.close, r.attemps])).toEqual([
      [2, 3],
      [1, 1],
    ]);
    expect(d.chartData.labels).toEqual(['Exitoso', 'Fallido']);
    expect(d.chartData.datasets[0].data).toEqual([1, 3]);
    const none = (await get(`/api/v2/reports/courses/${empty}/table-operator/10-03-2024`)).json()
      ._data;
    expect(none.table).toEqual([]);
    expect(none.chartData.datasets[0].data).toEqual([0, 0]);
  });
});

describe('no day chosen', () => {
  it('the segment `undefined` (an un-toggled day chip) answers the three day calls with nothing counted', async () => {
    const base = `/api/v2/reports/courses/${course}`;
    const card = await get(`${base}/data-card/undefined`);
    expect([card.statusCode, card.json()._data]).toEqual([
      200,
      { created: 0, total: 0, open: 0, closed: 0, newTicket: 0, close: 0 },
    ]);
    const charts = (await get(`${base}/type-ticket/undefined`)).json()._data;
    for (const key of ['status', 'source', 'type', 'priority', 'motive'])
      expect(charts[key].chartData).toEqual({
        labels: [],
        datasets: [{ data: [], backgroundColor: [] }],
      });
    expect((await get(`${base}/table-operator/undefined`)).json()._data).toEqual({
      table: [],
      chartData: { labels: [], datasets: [{ data: [], backgroundColor: [] }] },
    });
    // Not on the PDF of a day: there it is a bad date.
    expect((await get(`${base}/pdf/ticket/undefined`)).statusCode).toBe(422);
  });
});

describe('errors and access', () => {
  it('bad input is a 4xx in the envelope, never a 500', async () => {
    const cases: Array<[string, number]> = [
      ['/api/v2/tickets/abc/total/count', 422],
      ['/api/v2/tickets/0/status-chart', 422],
      [
        `/api/v2/course-registered-users/2147480000/classrooms/${norte}/follow-student-classroom`,
        404,
      ],
      [
        `/api/v2/course-registered-users/${course}/classrooms/Aula%20Inexistente/follow-student-classroom`,
        404,
      ],
      [
        `/api/v2/course-registered-users/${course}/classrooms/${norte}/sections/nada/progress-activities`,
        404,
      ],
      [`/api/v2/activities/abc/course-registered-users/${course}`, 422],
      [`/api/v2/activities/[2147480000]/course-registered-users/${course}`, 404],
      [`/api/v2/reports/courses/${course}/data-card/31-02-2024`, 422],
      [`/api/v2/reports/courses/${course}/type-ticket/ayer`, 422],
      [`/api/v2/reports/courses/${course}/data-card/null`, 422],
      [`/api/v2/reports/courses/2147480000/table-operator/10-03-2024`, 404],
      [`/api/v2/reports/courses/2147480000/data-card/undefined`, 404],
    ];
    for (const [url, status] of cases) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(status);
      expect(res.json()).toMatchObject({ success: false, statusCode: status });
    }
  });

  it('an unknown course is an empty course on the dashboard for staff; a tutor is refused whatever the course', async () => {
    const missing = 2147480000;
    for (const segment of ['total', 'last-day', 'open', 'close']) {
      for (const token of [admin, op1.token]) {
        const res = await get(`/api/v2/tickets/${missing}/${segment}/count`, token);
        expect([res.statusCode, res.body]).toEqual([200, '0']);
      }
    }
    expect(data(await chart(`/api/v2/tickets/${missing}/priority-chart`))).toEqual([[0, 0, 0]]);
    expect(await chart(`/api/v2/tickets/${missing}/status-operator-chart`, op1.token)).toEqual({
      labels: [],
      datasets: [
        { label: 'Abierto', data: [], backgroundColor: [] },
        { label: 'Cerrado', data: [], backgroundColor: [] },
      ],
    });
    expect(data(await chart(`/api/v2/course-registered-users/${missing}/status/count`))).toEqual([
      [0, 0, 0],
    ]);
    expect(
      (await get(`/api/v2/course-registered-users/${missing}/follow-student-card`)).json()._data,
    ).toEqual({ resign: 0, active: 0, inactive: 0, total: 0, unsynced: 0 });
    expect(
      (await chart(`/api/v2/course-registered-users/${missing}/progress-chart-avance`)).labels,
    ).toEqual([]);
    // A tutor: 403 on the dashboard for a known or unknown course; 404 for an unknown course on follow-up.
    for (const id of [course, missing]) {
      expect((await get(`/api/v2/tickets/${id}/total/count`, tutor)).statusCode).toBe(403);
      expect(
        (await get(`/api/v2/course-registered-users/${id}/follow-student-card`, tutor)).statusCode,
      ).toBe(403);
    }
    expect(
      (
        await get(
          `/api/v2/course-registered-users/${missing}/classrooms/${norte}/status-user-classroom`,
          tutor,
        )
      ).statusCode,
    ).toBe(404);
  });

  it('a tutor reads follow-up but not the dashboard; an operator not the reports', async () => {
    expect((await get(`/api/v2/tickets/${course}/total/count`, tutor)).statusCode).toBe(403);
    expect(
      (await get(`/api/v2/course-registered-users/${course}/progress-chart`, tutor)).statusCode,
    ).toBe(403);
    expect(
      (
        await get(
          `/api/v2/course-registered-users/${course}/classrooms/${norte}/status-user-classroom`,
          tutor,
        )
      ).statusCode,
    ).toBe(200);
    expect((await get(`/api/v2/tickets/${course}/total/count`, op1.token)).statusCode).toBe(200);
    expect(
      (await get(`/api/v2/reports/courses/${course}/data-card/10-03-2024`, op1.token)).statusCode,
    ).toBe(403);
  });
});
